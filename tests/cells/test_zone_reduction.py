"""Issue 27, "the engine's wrong passes": the hazard zone holds the robot's
maximum space (reach + end effector + workpiece round its base). A smaller
circle or an outline that leaves part of it out is refused, with the minimum
and why, unless the safety-rated limits that hold the robot within it are
recorded with what they are; one saved before that (no record) is measured
at the maximum space. A stopping time the recorded stop cannot take is
refused too."""

from __future__ import annotations

import importlib

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.forms.models import model_to_dict
from django.urls import reverse

from cells import selectors
from cells.forms import CellForm
from cells.models import Cell, Device
from compliance.rules.cell_facts import cell_facts
from compliance.rules.findings import Status
from compliance.rules.sensing import INTERLOCK_DISTANCE
from tests.compliance.rules.cells import only
from tests.factories import CellFactory, GuardSegmentFactory, OpeningFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
REASON = "SafeMove zone 2 keeps the TCP within 2,000 mm of the base (axis 1 ±60°)."


def errors_of(instance) -> dict[str, list[str]]:
    try:
        instance.full_clean(validate_unique=False)
    except ValidationError as exc:
        return exc.message_dict
    return {}


def robot(project, **figures) -> Cell:
    """The issue's robot: 2,000 mm reach with a 300 mm tool, base at 0, 0;
    made as a row is stored, past clean() (as cells saved before issue 27)."""
    return CellFactory(
        project=project,
        reach_mm=2000,
        end_effector_mm=300,
        robot_base_x_mm=0,
        robot_base_y_mm=0,
        **figures,
    )


def square(half: int) -> list[list[int]]:
    return [[-half, -half], [half, -half], [half, half], [-half, half]]


# The model: every path saves through clean() ----------------------------------


def test_a_radius_below_reach_plus_tool_is_refused_with_the_minimum(project):
    cell = robot(project)
    cell.hazard_zone_radius_mm = 2000
    errors = errors_of(cell)
    assert list(errors) == ["hazard_zone_radius_mm"]
    message = errors["hazard_zone_radius_mm"][0]
    assert "reach 2,000 + end effector 300 + workpiece 0 = 2,300 mm" in message
    assert "leaves 300 mm of it outside" in message
    assert "Give at least 2,300 mm" in message


def test_the_minimum_counts_the_workpiece_too(project):
    cell = robot(project, workpiece_mm=200)
    cell.hazard_zone_radius_mm = 2300
    assert "= 2,500 mm" in errors_of(cell)["hazard_zone_radius_mm"][0]
    cell.hazard_zone_radius_mm = 2500
    assert errors_of(cell) == {}


def test_a_radius_holding_the_maximum_space_or_none_is_accepted(project):
    cell = robot(project)
    for radius in (None, 2300, 3000):
        cell.hazard_zone_radius_mm = radius
        assert errors_of(cell) == {}
        assert cell.hazard_zone_effective_radius_mm == max(radius or 0, 2300)


def test_a_smaller_radius_on_recorded_safety_rated_limits_is_kept(project):
    cell = robot(
        project,
        hazard_zone_radius_mm=2000,
        safety_rated_limits=True,
        hazard_zone_reduction_reason=REASON,
    )
    assert errors_of(cell) == {}
    assert cell.hazard_zone_effective_radius_mm == 2000
    assert selectors.zone_of(cell).radius_mm == 2000


def test_safety_rated_limits_without_saying_which_are_refused(project):
    cell = robot(project, hazard_zone_radius_mm=2000, safety_rated_limits=True)
    errors = errors_of(cell)
    assert list(errors) == ["hazard_zone_reduction_reason"]
    assert "= 2,300 mm round its base" in errors["hazard_zone_reduction_reason"][0]
    assert cell.hazard_zone_effective_radius_mm == 2300


def test_a_reason_alone_relaxes_nothing(project):
    cell = robot(
        project, hazard_zone_radius_mm=2000, hazard_zone_reduction_reason=REASON
    )
    assert list(errors_of(cell)) == ["hazard_zone_radius_mm"]
    assert cell.hazard_zone_effective_radius_mm == 2300


def test_the_reason_is_bounded(project):
    # Built, not saved: PostgreSQL itself refuses 501 characters there.
    cell = CellFactory.build(
        project=project,
        reach_mm=2000,
        end_effector_mm=300,
        robot_base_x_mm=0,
        robot_base_y_mm=0,
        hazard_zone_radius_mm=2000,
        safety_rated_limits=True,
        hazard_zone_reduction_reason="x" * 501,
    )
    assert list(errors_of(cell)) == ["hazard_zone_reduction_reason"]


def test_an_outline_leaving_out_part_of_the_maximum_space_is_refused(project):
    cell = robot(project, hazard_zone_shape="polygon")
    cell.hazard_zone_polygon_mm = square(2000)
    errors = errors_of(cell)
    assert list(errors) == ["hazard_zone_polygon_mm"]
    assert "= 2,300 mm round its base" in errors["hazard_zone_polygon_mm"][0]
    assert "leaves up to 300 mm of it outside" in errors["hazard_zone_polygon_mm"][0]
    # Off the base altogether: refused as well.
    cell.hazard_zone_polygon_mm = [[3000, 3000], [9000, 3000], [9000, 9000]]
    assert list(errors_of(cell)) == ["hazard_zone_polygon_mm"]


def test_an_outline_round_the_maximum_space_is_accepted(project):
    cell = robot(project, hazard_zone_shape="polygon")
    # Whole millimetres: an outline traced on the circle may cut 1 mm inside.
    for outline in (
        square(2300),
        square(2299),
        [[-2300, -5000], [8000, 0], [-2300, 5000]],
    ):
        cell.hazard_zone_polygon_mm = outline
        assert errors_of(cell) == {}, outline
    cell.hazard_zone_polygon_mm = square(2298)
    assert list(errors_of(cell)) == ["hazard_zone_polygon_mm"]


def test_a_smaller_outline_on_recorded_safety_rated_limits_is_kept(project):
    cell = robot(
        project,
        hazard_zone_shape="polygon",
        hazard_zone_polygon_mm=square(2000),
        safety_rated_limits=True,
        hazard_zone_reduction_reason=REASON,
    )
    assert errors_of(cell) == {}


# Saved before issue 27: measured at the maximum space ---------------------------


def _door_cell(project) -> Cell:
    """The issue's door: the radius typed 2,000 mm (no record), a fence 2,600
    mm from the base with door D2 in it, 600 mm from the typed zone's edge;
    T = 370 ms, so ISO 13855 asks S = 1,600 mm/s × 0.37 s = 592 mm."""
    cell = robot(project, hazard_zone_radius_mm=2000, stopping_time_ms=370)
    fence = GuardSegmentFactory(
        cell=cell, start_x_mm=-3000, start_y_mm=2600, end_x_mm=3000, end_y_mm=2600
    )
    door = OpeningFactory(
        segment=fence,
        label="D2",
        offset_mm=2500,
        width_mm=1000,
        lower_edge_mm=0,
        upper_edge_mm=1800,
        purpose="maintenance_door",
    )
    Device.objects.create(
        cell=cell, label="D2 switch", kind="interlocked_door", opening=door
    )
    return cell


def test_an_old_radius_below_reach_plus_tool_is_measured_at_reach_plus_tool(project):
    cell = selectors.load_layout(_door_cell(project))
    assert cell.hazard_zone_effective_radius_mm == 2300
    assert selectors.plan_of(cell).zone.radius_mm == 2300
    # 600 mm from the edge typed is 300 mm from the robot's maximum space ...
    facts = cell_facts(cell)
    assert [o.distance_to_hazard_mm for o in facts.openings] == [300]
    # ... and the door fails: it passed as 600 >= 592.
    finding = only(INTERLOCK_DISTANCE, facts)
    assert finding.status is Status.FAIL
    assert (finding.numbers["distance_mm"], finding.numbers["required_mm"]) == (
        300,
        592,
    )
    # The plan draws what is measured.
    assert selectors.cell_document(cell).hazard_zone_radius_mm == 2300


def test_an_old_radius_is_taken_once_its_limit_is_recorded(project):
    cell = _door_cell(project)
    Cell.objects.filter(pk=cell.pk).update(
        safety_rated_limits=True, hazard_zone_reduction_reason=REASON
    )
    cell = selectors.load_layout(Cell.objects.get(pk=cell.pk))
    assert cell.hazard_zone_effective_radius_mm == 2000
    assert [o.distance_to_hazard_mm for o in cell_facts(cell).openings] == [600]


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_an_old_smaller_radius_and_measures_the_maximum_space(
    project,
):
    from django.db.migrations.executor import MigrationExecutor

    before = [("cells", "0020_editions_jurisdictions_safety_configuration")]
    after = [("cells", "0021_hazard_zone_reduction_reason")]
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(before)
        old = executor.loader.project_state(before).apps.get_model("cells", "Cell")
        pk = old.objects.create(
            project_id=project.pk,
            name="Old",
            robot_manufacturer="Acme",
            robot_model="R-20",
            payload_kg=20,
            reach_mm=2000,
            end_effector_mm=300,
            max_tcp_speed_mm_s=2000,
            moving_mass_kg=150,
            hazard_zone_radius_mm=2000,
        ).pk
        MigrationExecutor(connection).migrate(after)
    finally:
        call_command("migrate", verbosity=0)
    stored = Cell.objects.get(pk=pk)
    assert (stored.hazard_zone_radius_mm, stored.hazard_zone_reduction_reason) == (
        2000,
        "",
    )
    assert stored.hazard_zone_reduction_ignored
    assert stored.hazard_zone_effective_radius_mm == 2300


def test_the_migration_only_adds_a_column():
    migration = importlib.import_module(
        "cells.migrations.0021_hazard_zone_reduction_reason"
    ).Migration
    assert [type(op).__name__ for op in migration.operations] == ["AddField"]


# The pages -----------------------------------------------------------------------


def zone_url(cell) -> str:
    return reverse("cells:hazard_zone_edit", args=[cell.pk])


def zone_data(cell, **change) -> dict:
    return {
        "robot_base_x_mm": cell.robot_base_x_mm,
        "robot_base_y_mm": cell.robot_base_y_mm,
        "hazard_zone_shape": "circle",
        "hazard_zone_radius_mm": "",
        "hazard_zone_polygon_mm": "",
        "hazard_zone_reduction_reason": "",
        **change,
    }


def test_the_zone_form_refuses_a_small_radius_with_the_minimum(owner_client, project):
    cell = robot(project)
    response = owner_client.post(
        zone_url(cell), zone_data(cell, hazard_zone_radius_mm=2000), **HTMX
    )
    assert response.status_code == 200
    assert "Give at least 2,300 mm" in response.text
    assert 'class="field has-error"' in response.text
    assert Cell.objects.get(pk=cell.pk).hazard_zone_radius_mm is None


def test_the_zone_form_keeps_a_small_radius_with_its_record(owner_client, project):
    cell = robot(project, safety_rated_limits=True)
    data = zone_data(
        cell, hazard_zone_radius_mm=2000, hazard_zone_reduction_reason=REASON
    )
    owner_client.post(zone_url(cell), data, **HTMX)
    stored = Cell.objects.get(pk=cell.pk)
    assert (stored.hazard_zone_radius_mm, stored.hazard_zone_reduction_reason) == (
        2000,
        REASON,
    )


def cell_form_data(cell, **change) -> dict:
    data = {
        k: ("" if v is None else v)
        for k, v in model_to_dict(cell, fields=CellForm._meta.fields).items()
    }
    for box in ("safety_rated_limits",):
        if not data[box]:
            del data[box]
    data["harmonised_standards"] = "unknown"
    return {**data, **change}


def test_the_robot_form_refuses_a_longer_tool_past_the_zone_typed(
    owner_client, project
):
    cell = robot(project, hazard_zone_radius_mm=2300)
    response = owner_client.post(
        reverse("cells:cell_edit", args=[cell.pk]),
        cell_form_data(cell, end_effector_mm=400),
    )
    assert response.status_code == 200  # the form again, not a 500
    assert "= 2,400 mm round its base" in response.text
    assert 'class="form-errors"' in response.text
    assert Cell.objects.get(pk=cell.pk).end_effector_mm == 300


def test_the_cell_page_shows_a_recorded_reduction_and_its_reason(owner_client, project):
    cell = robot(
        project,
        hazard_zone_radius_mm=2000,
        safety_rated_limits=True,
        hazard_zone_reduction_reason=REASON,
    )
    Cell.objects.filter(pk=cell.pk).update(
        hazard_zone_reduction_reason=REASON + " <script>alert(1)</script>"
    )
    page = owner_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    assert "<script>alert(1)" not in page
    assert "circle of radius 2,000 mm" in page
    assert (
        "The zone is reduced below reach + end effector + workpiece (2,300 mm) by "
        "the robot's safety-rated limits: SafeMove zone 2" in page
    )


def test_the_cell_page_says_an_old_small_radius_is_not_taken(owner_client, project):
    cell = robot(project, hazard_zone_radius_mm=2000)
    page = owner_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    assert "circle of radius 2,300 mm" in page
    assert "The radius typed, 2,000 mm, is smaller than the robot" in page
    assert "the zone is measured at 2,300 mm" in page


def test_the_cell_page_says_an_old_small_outline_leaves_space_out(
    owner_client, project
):
    cell = robot(
        project, hazard_zone_shape="polygon", hazard_zone_polygon_mm=square(2000)
    )
    page = owner_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    assert "The outline leaves up to 300 mm of the robot" in page


# The plan's own edits --------------------------------------------------------------


def plan_edit(client, cell, operation, **data):
    import json

    body = {k: json.dumps(v) if isinstance(v, list) else v for k, v in data.items()}
    return client.post(
        reverse("cells:plan_edit", args=[cell.pk, operation]), body, **HTMX
    )


def test_drawing_a_zone_that_leaves_out_part_of_the_reach_is_refused(
    owner_client, project
):
    cell = robot(project)
    response = plan_edit(owner_client, cell, "zone", points=square(2000))
    assert response.status_code == 400
    assert "= 2,300 mm round its base" in response.text
    assert Cell.objects.get(pk=cell.pk).hazard_zone_shape == "circle"


def test_undoing_a_zone_form_save_takes_its_reason_back(owner_client, project):
    cell = robot(project, safety_rated_limits=True)
    owner_client.post(
        zone_url(cell),
        zone_data(
            cell, hazard_zone_radius_mm=2000, hazard_zone_reduction_reason=REASON
        ),
        **HTMX,
    )
    plan_edit(owner_client, cell, "undo")
    stored = Cell.objects.get(pk=cell.pk)
    assert (stored.hazard_zone_radius_mm, stored.hazard_zone_reduction_reason) == (
        None,
        "",
    )


# The stopping time -------------------------------------------------------------------


def test_a_stopping_time_the_recorded_stop_cannot_take_is_refused(project):
    # 500 mm at 2,000 mm/s at most takes 250 ms: 100 ms would shorten every
    # safety distance computed from it (S = 1,600 mm/s x T).
    cell = robot(
        project, max_tcp_speed_mm_s=2000, stopping_distance_mm=500, stopping_time_ms=100
    )
    errors = errors_of(cell)
    assert list(errors) == ["stopping_time_ms"]
    assert "at least 250 ms" in errors["stopping_time_ms"][0]
    assert cell.stopping_time_checked_ms == 250
    cell.stopping_time_ms = 250
    assert errors_of(cell) == {}
    assert cell.stopping_time_checked_ms == 250


def test_the_robot_form_refuses_the_stopping_time_by_name(owner_client, project):
    cell = robot(project, max_tcp_speed_mm_s=2000)
    response = owner_client.post(
        reverse("cells:cell_edit", args=[cell.pk]),
        cell_form_data(cell, stopping_distance_mm=500, stopping_time_ms=100),
    )
    assert response.status_code == 200
    assert "at least 250 ms" in response.text
    assert Cell.objects.get(pk=cell.pk).stopping_time_ms is None


def test_the_document_draws_a_smaller_radius_only_on_its_record():
    from cells.exchange import CellDocument

    robot = {
        "manufacturer": "Acme",
        "model": "R-20",
        "kind": "industrial",
        "payload_kg": "20",
        "reach_mm": 2000,
        "end_effector_mm": 300,
        "max_tcp_speed_mm_s": 2000,
        "moving_mass_kg": "150",
    }
    base = {"name": "Door cell", "robot": robot, "robot_base": {"x_mm": 0, "y_mm": 0}}
    zone = {"shape": "circle", "radius_mm": 2000, "reduction_reason": REASON}
    typed = CellDocument.model_validate({**base, "hazard_zone": zone})
    assert typed.hazard_zone_radius_mm == 2300  # the reason alone: not taken
    recorded = CellDocument.model_validate(
        {
            **base,
            "robot": {**robot, "safety_rated_limits": True},
            "hazard_zone": zone,
        }
    )
    assert recorded.hazard_zone_radius_mm == 2000
