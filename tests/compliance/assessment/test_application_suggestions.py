"""The assessment page proposes the hazards of the cell's application
(issue 15), and accepting one records its Annex B entry."""

from __future__ import annotations

import pytest
from django.urls import reverse

HTMX = {"HTTP_HX_REQUEST": "true"}


def page(cell) -> str:
    return reverse("compliance:assessment", args=[cell.pk])


def keys_shown(text: str) -> set[str]:
    import re

    return set(re.findall(r'data-key="([^"]+)"', text))


@pytest.fixture
def welding_revision(revision):
    cell = revision.assessment.cell
    cell.application = "arc_welding"
    cell.save()
    return revision


def test_an_arc_welding_cell_is_proposed_arc_radiation_fume_burns_and_fire(
    owner_client, welding_revision
):
    response = owner_client.get(page(welding_revision.assessment.cell))
    assert response.status_code == 200
    assert {
        "arc_welding-arc-radiation",
        "arc_welding-fume",
        "arc_welding-burns",
        "arc_welding-fire",
    } <= keys_shown(response.text)
    assert "welding arc" in response.text
    assert "pick-and-place" not in response.text.lower()


def test_a_palletiser_is_proposed_none_of_them(owner_client, revision):
    cell = revision.assessment.cell
    cell.application = "palletising"
    cell.save()
    shown = keys_shown(owner_client.get(page(cell)).text)
    assert "palletising-load-falling" in shown
    assert not [k for k in shown if "welding" in k or "painting" in k]


def test_the_proposals_follow_a_change_of_application(owner_client, welding_revision):
    cell = welding_revision.assessment.cell
    cell.application = "grinding"
    cell.save()
    shown = keys_shown(owner_client.get(page(cell)).text)
    assert {
        "grinding-ejected-fragments",
        "grinding-dust",
        "grinding-noise",
    } <= shown
    assert "arc_welding-fume" not in shown


def test_accepting_arc_radiation_records_its_annex_b_entry(
    owner_client, welding_revision
):
    key = "arc_welding-arc-radiation"
    response = owner_client.post(
        reverse("compliance:suggestion_accept", args=[welding_revision.pk, key]),
        **HTMX,
    )
    assert response.status_code == 200
    hazard = welding_revision.hazards.get()
    assert (hazard.group, hazard.origin, hazard.consequence) == (
        "radiation",
        "optical_radiation",
        "eye_and_skin_damage",
    )
    assert hazard.phase == "operation"
    assert "ultraviolet" in hazard.task
    assert key not in keys_shown(response.text)
