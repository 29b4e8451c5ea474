"""Exporting a cell as an exchange document and importing it back."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from cells.exchange import FORMAT
from cells.models import Cell, GuardSegment, HazardZoneShape, Opening, OperatorStation
from tests.factories import (
    CellFactory,
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
    OperatorStationFactory,
)

pytestmark = pytest.mark.django_db

IMPORT_URL = reverse("api:cell-import")


def export_url(cell_id: int) -> str:
    return reverse("api:cell-export", args=[cell_id])


@pytest.fixture
def laid_out_cell(project):
    """A cell with a polygon zone, two segments, three openings, two stations and
    devices of each placed kind."""
    cell = CellFactory(
        project=project,
        name="Welder",
        task_description="Spot welding of door frames",
        hazard_zone_shape=HazardZoneShape.POLYGON,
        hazard_zone_polygon_mm=[[0, 0], [4000, 0], [4000, 3000], [0, 3000]],
        # 850 + 250 + 400: the zone holds the robot's maximum space.
        reach_mm=850,
        end_effector_mm=250,
        workpiece_mm=400,
        hazard_zone_lower_mm=200,
    )
    front = GuardSegmentFactory(
        cell=cell, label="Front", end_x_mm=4000, bottom_gap_mm=150
    )
    side = GuardSegmentFactory(
        cell=cell,
        label="Side",
        start_x_mm=4000,
        start_y_mm=0,
        end_x_mm=4000,
        end_y_mm=3000,
        height_mm=2200,
        kind="wall",
    )
    # Created out of order: the document lists openings along the segment.
    OpeningFactory(segment=front, label="Outfeed", offset_mm=2500, width_mm=600)
    OpeningFactory(segment=front, label="Infeed", offset_mm=200, width_mm=800)
    OpeningFactory(
        segment=side,
        label="Door",
        offset_mm=1000,
        width_mm=900,
        upper_edge_mm=2100,
        purpose="maintenance_door",
    )
    OperatorStationFactory(cell=cell, label="Loading", x_mm=500, y_mm=-800)
    OperatorStationFactory(cell=cell, label="HMI", x_mm=4500, y_mm=200)
    cell.stopping_time_ms, cell.collaborative_modes, cell.hazard_zone_height_mm = (
        320,
        [],
        1400,
    )
    cell.save()
    door = Opening.objects.get(segment=side, label="Door")
    DeviceFactory(
        cell=cell,
        kind="interlocked_door",
        label="Door switch",
        opening=door,
        kcs_certified=True,
        kcs_certificate_no="KCs-19-AB-0042",
        guard_locking=True,
    )
    DeviceFactory(
        cell=cell,
        label="LC",
        opening=Opening.objects.get(label="Infeed", segment=front),
        iec61496_type=4,
        response_time_ms=20,
        detection_capability_mm=14,
        x1_mm=200,
        y1_mm=-100,
        x2_mm=1000,
        y2_mm=-100,
        detection_lower_mm=300,
        detection_upper_mm=1800,
    )
    DeviceFactory(
        cell=cell,
        kind="laser_scanner",
        label="Scanner",
        iec61496_type=3,
        x1_mm=4200,
        y1_mm=-300,
        field_height_mm=200,
        protective_field_mm=1500,
    )
    DeviceFactory(
        cell=cell,
        kind="safety_mat",
        label="Mat",
        x1_mm=2500,
        y1_mm=-1200,
        x2_mm=3100,
        y2_mm=-200,
    )
    return cell


def test_export_returns_the_cell_document(owner_api, laid_out_cell):
    response = owner_api.get(export_url(laid_out_cell.pk))

    assert response.status_code == 200
    document = response.json()
    assert document["format"] == FORMAT
    assert document["name"] == "Welder"
    assert document["robot"]["payload_kg"] == "10.00"
    assert [s["label"] for s in document["guard_segments"]] == ["Front", "Side"]
    assert [o["label"] for o in document["guard_segments"][0]["openings"]] == [
        "Infeed",
        "Outfeed",
    ]
    assert [s["label"] for s in document["operator_stations"]] == ["Loading", "HMI"]


def test_viewer_can_export(viewer_api, cell):
    assert viewer_api.get(export_url(cell.pk)).status_code == 200


def test_outsider_cannot_export(outsider_api, cell):
    assert outsider_api.get(export_url(cell.pk)).status_code == 404


def test_export_and_import_round_trip(owner_api, laid_out_cell, project):
    exported = owner_api.get(export_url(laid_out_cell.pk)).json()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": exported}, format="json"
    )

    assert response.status_code == 201
    new_id = response.data["id"]
    assert new_id != laid_out_cell.pk
    assert response.data["project"] == project.pk
    assert response.data["name"] == "Welder"
    assert owner_api.get(export_url(new_id)).json() == exported
    assert Opening.objects.filter(segment__cell_id=new_id).count() == 3


def test_round_trip_keeps_what_the_safeguarding_checks_read(
    owner_api, laid_out_cell, project
):
    exported = owner_api.get(export_url(laid_out_cell.pk)).json()
    assert exported["robot"]["end_effector_mm"] == 250
    assert exported["hazard_zone"]["lower_mm"] == 200
    assert exported["guard_segments"][0]["bottom_gap_mm"] == 150

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": exported}, format="json"
    )

    new = Cell.objects.get(pk=response.data["id"])
    assert (new.end_effector_mm, new.workpiece_mm, new.hazard_zone_lower_mm) == (
        250,
        400,
        200,
    )
    assert new.segments.get(label="Front").bottom_gap_mm == 150
    door, curtain, scanner, mat = new.devices.order_by("id")
    assert (door.guard_locking, door.kcs_certificate_no) == (True, "KCs-19-AB-0042")
    assert (curtain.x1_mm, curtain.y1_mm, curtain.x2_mm, curtain.y2_mm) == (
        200,
        -100,
        1000,
        -100,
    )
    assert (curtain.detection_lower_mm, curtain.detection_upper_mm) == (300, 1800)
    assert (scanner.iec61496_type, scanner.x1_mm, scanner.field_height_mm) == (
        3,
        4200,
        200,
    )
    assert (mat.x2_mm, mat.y2_mm) == (3100, -200)


NEW_FIELDS = {
    "robot": ("end_effector_mm", "workpiece_mm"),
    "hazard_zone": ("lower_mm",),
}
NEW_SEGMENT_FIELDS = ("bottom_gap_mm",)
NEW_DEVICE_FIELDS = (
    "guard_locking",
    "kcs_certificate_no",
    "x1_mm",
    "y1_mm",
    "x2_mm",
    "y2_mm",
    "detection_lower_mm",
    "detection_upper_mm",
    "field_height_mm",
)


def test_a_document_from_before_the_safeguarding_fields_still_imports(
    owner_api, project, document
):
    old = copy.deepcopy(document)
    for section, names in NEW_FIELDS.items():
        for name in names:
            del old[section][name]
    for segment in old["guard_segments"]:
        for name in NEW_SEGMENT_FIELDS:
            del segment[name]
    old["devices"] = [
        {k: v for k, v in d.items() if k not in NEW_DEVICE_FIELDS}
        for d in old["devices"]
        if d["kind"] not in ("laser_scanner", "safety_mat")
    ]

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": old}, format="json"
    )

    assert response.status_code == 201, response.data
    new = Cell.objects.get(pk=response.data["id"])
    assert (new.end_effector_mm, new.workpiece_mm, new.hazard_zone_lower_mm) == (
        0,
        0,
        0,
    )
    assert {s.bottom_gap_mm for s in new.segments.all()} == {0}
    curtain = new.devices.get(label="LC")
    assert (curtain.x1_mm, curtain.guard_locking, curtain.kcs_certificate_no) == (
        None,
        False,
        "",
    )


def test_export_lists_the_collaborative_modes_and_round_trips_them(
    owner_api, project, laid_out_cell
):
    laid_out_cell.collaborative_modes = ["ssm", "pfl"]
    laid_out_cell.save()
    exported = owner_api.get(export_url(laid_out_cell.pk)).json()
    assert exported["robot"]["collaborative_modes"] == ["ssm", "pfl"]
    assert "collaborative_mode" not in exported["robot"]

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": exported}, format="json"
    )

    assert response.status_code == 201
    assert owner_api.get(export_url(response.data["id"])).json() == exported


@pytest.mark.parametrize(("old", "modes"), [("pfl", ["pfl"]), ("", [])])
def test_a_document_with_one_collaborative_mode_still_imports(
    owner_api, project, document, old, modes
):
    before = copy.deepcopy(document)
    del before["robot"]["collaborative_modes"]
    before["robot"]["collaborative_mode"] = old

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": before}, format="json"
    )

    assert response.status_code == 201, response.data
    assert Cell.objects.get(pk=response.data["id"]).collaborative_modes == modes


@pytest.mark.parametrize(
    ("robot", "path"),
    [
        ({"collaborative_modes": ["pfl", "pfl"]}, "robot.collaborative_modes"),
        ({"collaborative_modes": ["telepathy"]}, "robot.collaborative_modes.0"),
        ({"collaborative_mode": "telepathy"}, "robot.collaborative_modes.0"),
        ({"collaborative_mode": "pfl", "collaborative_modes": ["pfl"]}, "robot"),
    ],
)
def test_import_refuses_bad_collaborative_modes_by_path(
    owner_api, project, document, robot, path
):
    bad = copy.deepcopy(document)
    del bad["robot"]["collaborative_modes"]
    bad["robot"].update(robot)
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert f"document.{path}" in response.data, response.data
    assert _counts() == before


@pytest.mark.parametrize(
    ("place", "value", "path"),
    [
        (("robot_base", "x_mm"), 100_001, "robot_base.x_mm"),
        (
            ("guard_segments", 0, "start", "y_mm"),
            -100_001,
            "guard_segments.0.start.y_mm",
        ),
        (("operator_stations", 1, "x_mm"), 1e300, "operator_stations.1.x_mm"),
        (("devices", 1, "x2_mm"), 10**300, "devices.1.x2_mm"),
        (("hazard_zone", "polygon_mm", 1, 0), 100_001, "hazard_zone.polygon_mm.1.0"),
        (("robot", "end_effector_mm"), 100_001, "robot.end_effector_mm"),
    ],
)
def test_import_refuses_a_coordinate_off_the_plan(
    owner_api, project, document, place, value, path
):
    bad = copy.deepcopy(document)
    target = bad
    for key in place[:-1]:
        target = target[key]
    if isinstance(target[place[-1]], list):  # a polygon corner is a pair
        target[place[-1]] = list(target[place[-1]])
    target[place[-1]] = value
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert f"document.{path}" in response.data
    assert _counts() == before


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        ({"x2_mm": 200}, "devices.1.x2_mm", "same point"),
        ({"detection_upper_mm": 3001}, "devices.1.detection_upper_mm", "highest beam"),
        ({"y2_mm": None}, "devices.1.y2_mm", "Give y2 too"),
    ],
)
def test_import_refuses_a_misplaced_device_by_its_document_path(
    owner_api, project, document, change, path, words
):
    bad = copy.deepcopy(document)
    bad["devices"][1].update(change)
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert words in str(response.data[f"document.{path}"])
    assert _counts() == before


def test_import_names_a_hazard_zone_lower_than_high_by_its_path(
    owner_api, project, document
):
    bad = copy.deepcopy(document)
    bad["hazard_zone"].update(height_mm=1000, lower_mm=1000)

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert "lowest point" in str(response.data["document.hazard_zone.lower_mm"])


def test_import_accepts_numbers_for_decimals(owner_api, cell, project):
    document = owner_api.get(export_url(cell.pk)).json()
    document["robot"]["payload_kg"] = 12.5

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": document}, format="json"
    )

    assert response.status_code == 201
    assert Cell.objects.get(pk=response.data["id"]).payload_kg == 12.5


@pytest.fixture
def document(owner_api, laid_out_cell):
    return owner_api.get(export_url(laid_out_cell.pk)).json()


def _counts() -> tuple[int, int, int, int]:
    return (
        Cell.objects.count(),
        GuardSegment.objects.count(),
        Opening.objects.count(),
        OperatorStation.objects.count(),
    )


def test_import_with_an_opening_wider_than_its_segment_saves_nothing(
    owner_api, project, document
):
    bad = copy.deepcopy(document)
    bad["guard_segments"][1]["openings"][0]["width_mm"] = 5000
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert "document.guard_segments.1.openings.0.width_mm" in response.data
    assert _counts() == before


def test_import_with_overlapping_openings_saves_nothing(owner_api, project, document):
    bad = copy.deepcopy(document)
    bad["guard_segments"][0]["openings"][1]["offset_mm"] = 500
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert "document.guard_segments.0.openings.1.offset_mm" in response.data
    assert _counts() == before


def test_import_with_a_malformed_document_names_the_place(owner_api, project, document):
    bad = copy.deepcopy(document)
    bad["guard_segments"][0]["height_mm"] = 0
    bad["robot"]["reach_mm"] = "far"
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert "document.guard_segments.0.height_mm" in response.data
    assert "document.robot.reach_mm" in response.data
    assert _counts() == before


def test_import_refuses_unknown_fields(owner_api, project, document):
    bad = {**document, "colour": "yellow"}

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert "document.colour" in response.data


def test_import_of_an_unknown_format_says_which_is_supported(
    owner_api, project, document
):
    before = _counts()

    response = owner_api.post(
        IMPORT_URL,
        {"project": project.pk, "document": {**document, "format": "cellplan/9"}},
        format="json",
    )

    assert response.status_code == 400
    assert FORMAT in str(response.data["document.format"])
    assert _counts() == before


@pytest.mark.parametrize("value", [None, [], "a cell", 7])
def test_import_of_something_that_is_not_a_document_is_refused(
    owner_api, project, value
):
    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": value}, format="json"
    )

    assert response.status_code == 400
    assert "document" in response.data


def test_import_needs_a_project(owner_api, document):
    response = owner_api.post(IMPORT_URL, {"document": document}, format="json")

    assert response.status_code == 400
    assert "project" in response.data


def test_import_into_a_foreign_project_is_refused(outsider_api, project, document):
    before = _counts()

    response = outsider_api.post(
        IMPORT_URL, {"project": project.pk, "document": document}, format="json"
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["project"][0])
    assert _counts() == before


def test_viewer_cannot_import(viewer_api, project, document):
    before = _counts()

    response = viewer_api.post(
        IMPORT_URL, {"project": project.pk, "document": document}, format="json"
    )

    assert response.status_code == 403
    assert _counts() == before


def test_import_takes_json_only(owner_api, project):
    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": "x"}, format="multipart"
    )

    assert response.status_code == 415


def test_import_with_an_invalid_hazard_zone_saves_nothing(owner_api, project, document):
    bad = copy.deepcopy(document)
    bad["hazard_zone"]["polygon_mm"] = [[0, 0], [1000, 1000], [1000, 0], [0, 1000]]
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert any(key.startswith("document.hazard_zone") for key in response.data)
    assert _counts() == before


def test_import_names_a_bad_hazard_zone_by_its_document_path(
    owner_api, project, document
):
    bad = copy.deepcopy(document)
    bad["hazard_zone"] = {
        "shape": "polygon",
        "polygon_mm": [[0, 0], [2000, 2000], [2000, 0], [0, 2000]],
    }
    before = _counts()

    response = owner_api.post(
        IMPORT_URL, {"project": project.pk, "document": bad}, format="json"
    )

    assert response.status_code == 400
    assert response.data["document.hazard_zone.polygon_mm"] == [
        "The outline crosses itself."
    ]
    assert _counts() == before


def test_existing_equipment_survives_the_round_trip(owner_api, cell):
    from tests.factories import DeviceFactory

    DeviceFactory(cell=cell, label="Old e-stop", kind="emergency_stop", existing=True)
    document = owner_api.get(f"/api/v1/cells/{cell.pk}/export/").json()
    assert [d["existing"] for d in document["devices"]] == [True]
    response = owner_api.post(
        "/api/v1/cells/import/",
        {"project": cell.project_id, "document": document},
        format="json",
    )
    assert response.status_code == 201, response.json()
    copy = owner_api.get(f"/api/v1/cells/{response.json()['id']}/export/").json()
    assert [d["existing"] for d in copy["devices"]] == [True]
