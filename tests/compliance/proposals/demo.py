"""The demo proposals (seed_demo's palletiser, in English and Korean) built
as a customer gets them, for the presentation tests."""

from __future__ import annotations

import io

from django.contrib.auth import get_user_model
from django.core.management import call_command
from pypdf import PdfReader

from cells.models import Cell
from compliance.proposals.building import build_document
from compliance.proposals.models import ProposalDocument
from compliance.proposals.pdf.data import SECTIONS
from compliance.proposals.services import proposal_request


def seed() -> None:
    call_command("seed_demo", stdout=io.StringIO())


def demo_cell(name_contains: str = "") -> Cell:
    cells = Cell.objects.filter(project__organisation__slug="demo").order_by("pk")
    if name_contains:
        cells = cells.filter(name__icontains=name_contains)
    return cells.first()


def build_demo(language: str, cell: Cell | None = None, username: str = "sa"):
    """A new version of the demo proposal, built; the document."""
    user = get_user_model().objects.get(username=username)
    cell = cell or demo_cell()
    document = proposal_request(
        cell=cell, actor=user, language=language, sections=list(SECTIONS)
    )
    build_document(document.pk, "test-claim")
    return ProposalDocument.objects.get(pk=document.pk)


def pages_of(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def text_of(pdf: bytes) -> str:
    return "\n".join(pages_of(pdf))
