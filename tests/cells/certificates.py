"""A factory for certificates on file for a cell (kept beside the cells tests
rather than in ``tests.factories``, which others are changing)."""

from __future__ import annotations

from datetime import date

import factory

from cells.models import CellCertificate, CertificateKind
from tests.factories import CellFactory


class CellCertificateFactory(factory.django.DjangoModelFactory):
    """A KIRIA collaborative-robot workplace certificate, valid 2025-2028."""

    class Meta:
        model = CellCertificate

    cell = factory.SubFactory(CellFactory)
    kind = CertificateKind.KIRIA_COBOT_WORKPLACE
    issuing_body = "한국로봇산업진흥원 (KIRIA)"
    number = factory.Sequence(lambda n: f"KIRIA-CW-2025-{n:03d}")
    issued_on = date(2025, 3, 1)
    valid_until = date(2028, 2, 28)
    scope = "Machine tending at CNC 2 with one collaborative robot (PFL)."
