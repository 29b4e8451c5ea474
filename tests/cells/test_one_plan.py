"""One plan, analysed once (issue 26): the rules and the drawing take their
plan from one builder (``cells.perimeter.plan_layout``) and their analysis from
one place (``cells.perimeter.analysed``). The drawing used to build its own
plan from the exchange document and analyse it again, with a docstring saying
the two must agree; the cell page worked the perimeter out twice."""

from __future__ import annotations

import itertools

import pytest
from django.urls import reverse

from cells import drawing_perimeter
from cells.perimeter import plan
from cells.selectors import cell_document, cell_with_layout, plan_of
from compliance.rules.cell_facts import cell_facts
from tests.factories import GuardSegmentFactory, OpeningFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_fence(cell):
    """Three sides of a fence round the robot, the fourth open, with a door."""
    corners = [(-2500, -2500), (2500, -2500), (2500, 2500), (-2500, 2500)]
    for (x1, y1), (x2, y2) in itertools.pairwise(corners):
        segment = GuardSegmentFactory(
            cell=cell,
            label="",
            start_x_mm=x1,
            start_y_mm=y1,
            end_x_mm=x2,
            end_y_mm=y2,
            height_mm=2000,
        )
    OpeningFactory(segment=segment, label="", offset_mm=1000, width_mm=900)
    return cell


def _counting(monkeypatch) -> list:
    plan.analysed.cache_clear()
    worked: list = []
    real = plan.analyse_perimeter
    monkeypatch.setattr(
        plan, "analyse_perimeter", lambda layout: worked.append(layout) or real(layout)
    )
    return worked


def test_the_cell_page_works_its_perimeter_out_once(
    owner_client, open_fence, monkeypatch
):
    worked = _counting(monkeypatch)
    response = owner_client.get(reverse("cells:cell_detail", args=[open_fence.pk]))
    assert response.status_code == 200
    # The plan is drawn with its gap, and the findings name it: one analysis.
    assert "Unguarded gap" in response.text
    assert len(worked) == 1


def test_the_rules_and_the_drawing_read_the_same_plan(owner, open_fence):
    loaded = cell_with_layout(owner, open_fence.pk)
    assert cell_facts(loaded).layout is plan_of(loaded)
    # A document alone (an import being previewed) gives the same plan, keyed
    # by place instead of by id.
    alone = drawing_perimeter.perimeter_layout(cell_document(loaded))
    ours = plan_of(loaded)
    assert [(s.start, s.end, s.height_mm) for s in alone.segments] == [
        (s.start, s.end, s.height_mm) for s in ours.segments
    ]
    assert [(o.offset_mm, o.width_mm) for o in alone.openings] == [
        (o.offset_mm, o.width_mm) for o in ours.openings
    ]
    gaps = plan.analysed(ours).gaps
    assert len(gaps) == 1
    assert [g.width_mm for g in plan.analysed(alone).gaps] == [gaps[0].width_mm]
