"""The register's workbook with the cell's guarding concepts (issue 27): a
sheet of its own with the proposal's table, a column per offered concept;
none when the cell has no concepts; the import passes the sheet by."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from compliance.assessment.register_xlsx import importer
from compliance.concepts.services import concepts_generate
from compliance.models import Hazard
from tests.compliance.assessment.register_xlsx.test_register_xlsx import add_hazards

pytestmark = pytest.mark.django_db


def export(client, revision) -> bytes:
    response = client.get(reverse("compliance:register_export", args=[revision.pk]))
    assert response.status_code == 200
    return response.content


def test_the_workbook_compares_the_cells_concepts(revision, owner, owner_client):
    concepts_generate(cell=revision.assessment.cell, actor=owner)
    book = load_workbook(io.BytesIO(export(owner_client, revision)))
    assert book.sheetnames[-1] == "Guarding concepts"
    rows = [list(row) for row in book["Guarding concepts"].iter_rows(values_only=True)]
    header = rows[0]
    assert header[0] == "Guarding concept"
    assert [name.split(" · ")[0] for name in header[1:]] == [
        "As drawn",
        "Fenced",
        "Speed and separation monitoring",
        "Hybrid",
    ]
    labels = [row[0] for row in rows]
    for label in ("Fails", "Needs evidence", "Passes", "Floor space"):
        assert label in labels
    cost = next(row for row in rows if row[0] == "Cost (range)")
    assert all(
        "–" in value or "to be quoted" in value for value in cost[1 : len(header)]
    )
    notes = [row[0] for row in rows if row[0]]
    assert "Recommendation" in notes and "Not offered" in notes
    assert any(str(note).startswith("Collaborative, no fence:") for note in notes)
    assert not any("INTL-" in str(value) for row in rows for value in row if value)


def test_the_korean_workbook_names_the_sheet_in_korean(revision, owner, owner_client):
    concepts_generate(cell=revision.assessment.cell, actor=owner)
    with translation.override("ko"):
        title = translation.gettext("Guarding concepts")
    assert title != "Guarding concepts"
    book = load_workbook(
        io.BytesIO(
            owner_client.get(
                reverse("compliance:register_export", args=[revision.pk]),
                HTTP_ACCEPT_LANGUAGE="ko",
            ).content
        )
    )
    assert title in book.sheetnames


def test_a_cell_without_concepts_has_no_such_sheet(revision, owner_client):
    book = load_workbook(io.BytesIO(export(owner_client, revision)))
    assert "Guarding concepts" not in book.sheetnames


def test_the_import_passes_the_concepts_sheet_by(revision, owner, owner_client):
    add_hazards(revision, owner, 2)
    concepts_generate(cell=revision.assessment.cell, actor=owner)
    data = export(owner_client, revision)
    result = importer.register_import(revision=revision, actor=owner, data=data)
    assert result.hazards == 2
    assert Hazard.objects.filter(revision=revision).count() == 4
