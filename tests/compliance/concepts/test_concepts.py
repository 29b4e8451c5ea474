"""Guarding concepts side by side (issue 27): designed from the cell as drawn,
each judged, priced and scheduled by the same engine, with a recommendation a
safety engineer would sign."""

from __future__ import annotations

import itertools

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from cells.models import Cell
from compliance.concepts.models import GuardingConcept
from tests.factories import (
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
)

pytestmark = pytest.mark.django_db


def test_designing_keeps_the_cell_as_drawn_first_and_adds_a_fenced_concept(
    api, palletiser
):
    response = api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    assert response.status_code == 201, response.json()
    assert response.json()["designed"] == [
        "as_drawn",
        "fenced",
        "collaborative",
        "ssm",
        "hybrid",
    ]
    concepts = list(GuardingConcept.objects.filter(cell=palletiser))
    fenced = next(c for c in concepts if c.kind == "fenced")
    variant = fenced.variant
    assert variant.variant_of_id == palletiser.pk
    heights = {s.height_mm for s in variant.segments.all()}
    assert heights == {1800}
    # The infeed keeps a curtain across it; the door gets guard locking.
    kinds = {
        (d.kind, d.opening.purpose if d.opening else "") for d in variant.devices.all()
    }
    assert ("light_curtain", "material_entry") in kinds
    assert ("interlocked_door", "maintenance_door") in kinds
    # Designing again keeps what is there.
    again = api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    assert again.json()["designed"] == []


def test_an_industrial_robot_gets_no_collaborative_concept_with_the_reason(
    api, palletiser
):
    api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    body = api.get(f"/api/v1/cells/{palletiser.pk}/concepts/compare/").json()
    cobot = next(c for c in body["concepts"] if c["kind"] == "collaborative")
    assert cobot["offered"] is False
    assert (
        "not recorded as a robot designed for collaborative operation"
        in (cobot["reasons"][0])
    )


def test_the_comparison_judges_each_concept_by_the_same_rules(api, palletiser):
    api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    body = api.get(f"/api/v1/cells/{palletiser.pk}/concepts/compare/").json()
    by_kind = {c["kind"]: c for c in body["concepts"]}
    drawn, fenced = by_kind["as_drawn"], by_kind["fenced"]
    # The drawn maintenance door has no interlock: it fails; the fenced
    # concept closes it with an interlocked door.
    assert drawn["counts"]["fail"] >= 1
    assert any("D" in f["subject"] for f in drawn["fails"])
    assert fenced["counts"]["fail"] < drawn["counts"]["fail"] or (
        fenced["counts"]["fail"] == 0
    )
    # Costs are ranges, never one figure; lines without a price are counted.
    for concept in (drawn, fenced):
        assert "unpriced_lines" in concept
        assert concept["poc_start_weeks"]["low"] is not None
    # A concept with a fail is never recommended.
    recommended = body["recommendation"]["recommended"]
    failing = {c["id"] for c in body["concepts"] if (c["counts"] or {}).get("fail")}
    assert recommended not in failing
    assert set(body["recommendation"]["excluded"]) == failing


def test_a_concepts_cell_is_not_listed_among_the_cells(api, owner_client, palletiser):
    api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    listed = api.get("/api/v1/cells/").json()["results"]
    assert [c["id"] for c in listed] == [palletiser.pk]
    page = owner_client.get(
        reverse("cells:project_detail", args=[palletiser.project_id])
    ).text
    assert "· Fenced" not in page


def test_another_organisations_cell_answers_404(outsider, palletiser):
    client = APIClient()
    client.force_authenticate(outsider)
    assert (
        client.get(f"/api/v1/cells/{palletiser.pk}/concepts/compare/").status_code
        == 404
    )
    assert (
        client.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/").status_code
        == 404
    )
    assert not GuardingConcept.objects.exists()


def test_a_viewer_cannot_design_concepts(viewer, palletiser):
    client = APIClient()
    client.force_authenticate(viewer)
    response = client.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    assert response.status_code == 403
    assert not GuardingConcept.objects.exists()


def test_the_concepts_page_shows_the_plans_and_the_recommendation(
    owner_client, palletiser
):
    url = reverse("compliance:cell_concepts", args=[palletiser.pk])
    first = owner_client.get(url)
    assert first.status_code == 200
    assert "No concept is designed yet" in first.text
    owner_client.post(reverse("compliance:concepts_generate", args=[palletiser.pk]))
    page = owner_client.get(url).text
    assert "Recommendation" in page
    # As drawn, fenced, speed and separation, hybrid (no collaborative one
    # for an industrial robot).
    assert page.count('class="layout-svg concept-frame"') == 4
    assert "Not offered" in page


def test_nothing_half_made_is_saved_when_a_design_is_refused(
    api, palletiser, monkeypatch
):
    from compliance.concepts import services

    real = services.cell_services.cell_import
    calls = []

    def failing(**kw):
        calls.append(1)
        if len(calls) == 1:
            return real(**kw)
        from django.core.exceptions import ValidationError

        raise ValidationError({"name": "refused"})

    monkeypatch.setattr(services.cell_services, "cell_import", failing)
    robot = Cell.objects.get(pk=palletiser.pk)
    robot.robot_kind = "collaborative"
    robot.save()
    response = api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    assert response.status_code == 400
    assert not GuardingConcept.objects.exists()
    assert Cell.objects.count() == 1


def test_another_organisations_concept_cannot_be_chosen(
    outsider_client, owner, palletiser
):
    from compliance.concepts.services import concepts_generate

    concepts_generate(cell=palletiser, actor=owner)
    concept = GuardingConcept.objects.get(cell=palletiser, kind="fenced")
    response = outsider_client.post(
        reverse("compliance:concept_choose", args=[palletiser.pk, concept.pk])
    )
    assert response.status_code == 404
    concept.refresh_from_db()
    assert not concept.chosen


def test_designing_without_a_layout_says_what_is_missing(api, cell):
    response = api.post(f"/api/v1/cells/{cell.pk}/concepts/generate/")
    assert response.status_code == 400
    assert "Draw the cell's layout first" in response.json()["cell"][0]
    assert not GuardingConcept.objects.exists()


def test_a_concepts_fence_below_1800_mm_in_korea_fails_as_a_cells_does(api, palletiser):
    api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    fenced = GuardingConcept.objects.get(cell=palletiser, kind="fenced").variant
    fenced.segments.filter(label="F2").update(height_mm=1500)
    body = api.get(f"/api/v1/cells/{palletiser.pk}/concepts/compare/").json()
    column = next(c for c in body["concepts"] if c["kind"] == "fenced")
    laws = [f for f in column["law"] if f["status"] == "fail"]
    assert any("F2" in f["subject"] and "1,800" in f["text"] for f in laws)
    assert body["recommendation"]["recommended"] != column["id"]


def test_the_hybrid_concept_leaves_the_work_side_open_behind_a_curtain(api, palletiser):
    from tests.factories import OperatorStationFactory

    OperatorStationFactory(cell=palletiser, label="Loading", x_mm=2000, y_mm=-2000)
    api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    hybrid = GuardingConcept.objects.get(cell=palletiser, kind="hybrid").variant
    openings = [o for s in hybrid.segments.all() for o in s.openings.all()]
    whole = next(o for o in openings if o.label == "OP")
    side = whole.segment
    assert whole.offset_mm == 0 and whole.width_mm == int(side.length_mm)
    # The south side, nearest the loading station, is the open one.
    assert side.start_y_mm == side.end_y_mm < 1500 - 1400
    curtain = hybrid.devices.get(opening=whole)
    assert curtain.kind == "light_curtain"
    body = api.get(f"/api/v1/cells/{palletiser.pk}/concepts/compare/").json()
    column = next(c for c in body["concepts"] if c["kind"] == "hybrid")
    assert column["offered"] and "counts" in column
    assert any("left open" in line for line in column["reasons"])


def test_the_project_lists_its_cells_concepts_at_a_glance(
    owner, owner_client, palletiser
):
    from compliance.concepts.services import concepts_generate

    project_page = owner_client.get(
        reverse("cells:project_detail", args=[palletiser.project_id])
    ).text
    url = reverse("compliance:project_concepts", args=[palletiser.project_id])
    assert f'hx-get="{url}"' in project_page
    assert "No cell of this project has guarding concepts yet" in (
        owner_client.get(url, HTTP_HX_REQUEST="true").text
    )
    concepts_generate(cell=palletiser, actor=owner)
    fragment = owner_client.get(url, HTTP_HX_REQUEST="true").text
    assert "<html" not in fragment
    for name in ("As drawn", "Fenced", "Hybrid"):
        assert name in fragment
    assert "Recommended" in fragment or "not recommended" in fragment


def test_another_organisations_project_concepts_answer_404(
    outsider_client, owner, palletiser
):
    url = reverse("compliance:project_concepts", args=[palletiser.project_id])
    assert outsider_client.get(url).status_code == 404


def test_the_compare_api_reads_a_fixed_number_of_queries_whatever_the_layouts(
    api, palletiser
):
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from compliance.rules.results import forget_recent

    api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    url = f"/api/v1/cells/{palletiser.pk}/concepts/compare/"
    fenced = GuardingConcept.objects.get(cell=palletiser, kind="fenced").variant

    def count() -> int:
        api.get(url)  # the user's roles are read once
        cache.clear()
        forget_recent()
        with CaptureQueriesContext(connection) as queries:
            assert api.get(url).status_code == 200
        return len(queries)

    before = count()
    for i in range(12):  # a dozen more guards and devices in one concept
        GuardSegmentFactory(
            cell=fenced,
            label=f"X{i}",
            start_x_mm=-3000,
            start_y_mm=i * 100,
            end_x_mm=-2500,
            end_y_mm=i * 100,
        )
        DeviceFactory(cell=fenced, kind="emergency_stop", label=f"E{i}")
    assert count() == before


def test_several_openings_moved_to_one_side_are_set_side_by_side(api, palletiser):
    south = palletiser.segments.get(label="F1")
    for offset in (200, 3300):
        OpeningFactory(
            segment=south,
            purpose="maintenance_door",
            offset_mm=offset,
            width_mm=800,
            lower_edge_mm=0,
            upper_edge_mm=2000,
        )
    response = api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    assert response.status_code == 201, response.json()
    fenced = GuardingConcept.objects.get(cell=palletiser, kind="fenced").variant
    for segment in fenced.segments.all():
        spans = sorted(
            (o.offset_mm, o.offset_mm + o.width_mm) for o in segment.openings.all()
        )
        assert all(a[1] < b[0] for a, b in itertools.pairwise(spans))
        assert all(end <= segment.length_mm for _start, end in spans)


def test_the_demo_cells_each_compare_at_least_three_concepts(client):
    import io

    from django.core.management import call_command

    from cells.models import Cell as CellModel

    call_command("seed_demo", stdout=io.StringIO())
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="sa"))
    for name in ("케이스 팔레타이저 A", "머신 텐딩 협동로봇"):
        cell = CellModel.objects.get(name=name, variant_of__isnull=True)
        body = client.get(f"/api/v1/cells/{cell.pk}/concepts/compare/").json()
        offered = [c for c in body["concepts"] if c["offered"]]
        assert len(offered) >= 3, name
        assert all(c["counts"] is not None for c in offered)
        assert body["recommendation"]["lines"], name


def test_a_concept_just_designed_does_not_say_the_cell_changed_since(api, palletiser):
    api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    url = f"/api/v1/cells/{palletiser.pk}/concepts/compare/"
    body = api.get(url).json()
    assert not any(c["base_changed"] for c in body["concepts"])
    # Moving a guard of the cell as drawn: each concept says it was designed
    # from the cell as it was.
    palletiser.segments.filter(label="F2").update(height_mm=2000)
    body = api.get(url).json()
    designed = [c for c in body["concepts"] if c["offered"] and c["kind"] != "as_drawn"]
    assert designed and all(c["base_changed"] for c in designed)


def test_a_concept_is_copied_to_edit_and_judged_like_the_others(
    api, owner_client, palletiser
):
    api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    fenced = GuardingConcept.objects.get(cell=palletiser, kind="fenced")
    response = owner_client.post(
        reverse("compliance:concept_copy", args=[palletiser.pk, fenced.pk])
    )
    copy = GuardingConcept.objects.get(cell=palletiser, kind="copy")
    assert response.status_code == 302
    assert response["Location"] == reverse("cells:cell_detail", args=[copy.variant_id])
    assert copy.variant.segments.count() == fenced.variant.segments.count()
    assert copy.variant.variant_of_id == palletiser.pk
    # Editing the copy changes the copy only.
    copy.variant.segments.filter(label="F2").update(height_mm=1500)
    body = api.get(f"/api/v1/cells/{palletiser.pk}/concepts/compare/").json()
    columns = {c["id"]: c for c in body["concepts"]}
    assert columns[copy.pk]["counts"]["fail"] >= 1
    assert columns[fenced.pk]["counts"]["fail"] == 0


def test_another_organisations_concept_cannot_be_copied(
    outsider_client, owner, palletiser
):
    from compliance.concepts.services import concepts_generate

    concepts_generate(cell=palletiser, actor=owner)
    concept = GuardingConcept.objects.get(cell=palletiser, kind="fenced")
    response = outsider_client.post(
        reverse("compliance:concept_copy", args=[palletiser.pk, concept.pk])
    )
    assert response.status_code == 404
    assert not GuardingConcept.objects.filter(kind="copy").exists()
