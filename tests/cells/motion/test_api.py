"""A cell's robot programs over the API (issue 32): imported whole or not at
all, refused with the line that is wrong, kept with their file name,
checksum, importer and time, and their path drawn on the plan from the robot
base's position and rotation."""

from __future__ import annotations

import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from cells.models import MotionProgram
from cells.motion.models import MAX_PROGRAMS_PER_CELL

pytestmark = pytest.mark.django_db

URSCRIPT = b"""def main():
  p1 = p[0.40, -0.30, 0.30, 0, 3.14, 0]
  movel(p[0.40, 0.30, 0.30, 0, 3.14, 0], a=1.2, v=1.0)
  movel(p1, a=1.2, v=0.25)
  set_digital_out(0, True)
  movej([0, -1.57, 1.57, 0, 0, 0], a=1.4, v=1.05)
end
"""


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def owner_api(owner):
    return client_for(owner)


def post(client, cell, data: bytes, name: str = "main.script", **fields):
    return client.post(
        reverse("api:cell-motion", args=[cell.pk]),
        {"file": SimpleUploadedFile(name, data), **fields},
        format="multipart",
    )


def test_a_urscript_program_is_kept_with_its_path_and_its_unchecked_lines(
    owner, owner_api, cell
):
    response = post(owner_api, cell, URSCRIPT)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["format"], body["moves"], body["segments"]) == ("urscript", 2, 1)
    assert body["sha256"] == hashlib.sha256(URSCRIPT).hexdigest()
    # The joint move cannot be placed without the robot's kinematics: listed
    # with its line, never dropped; the output is skipped, with its line.
    assert [(x["line"], x["reason"]) for x in body["not_checked"]] == [
        (6, "joint_values")
    ]
    assert [x["line"] for x in body["skipped"]] == [5]
    program = MotionProgram.objects.get(cell=cell)
    assert bytes(program.data) == URSCRIPT
    assert program.imported_by == owner


def test_the_path_is_drawn_on_the_plan_from_the_robot_base(owner_api, cell):
    cell.robot_base_x_mm, cell.robot_base_y_mm = 2000, 1000
    cell.robot_base_rotation_deg = 90
    cell.save()
    program = post(owner_api, cell, URSCRIPT).json()
    response = owner_api.get(
        reverse("api:cell-motion-segments", args=[cell.pk, program["id"]])
    )
    assert response.status_code == 200
    (segment,) = response.json()["results"]
    # Base frame (400, 300) → (400, -300) at 250 mm/s, line 4; turned 90°
    # counter-clockwise: (x, y) → (−y, x), then moved to the base.
    assert segment["line"] == 4
    assert segment["speed_mm_s"] == 250
    assert segment["start"] == {"x_mm": 1700.0, "y_mm": 1400.0, "z_mm": 300.0}
    assert segment["end"] == {"x_mm": 2300.0, "y_mm": 1400.0, "z_mm": 300.0}


def test_a_pose_with_five_numbers_is_a_400_with_its_line_and_nothing_is_saved(
    owner_api, cell
):
    data = b"def main():\n  movel(p[0.4, 0.3, 0.3, 0, 3.14], v=0.25)\nend\n"
    response = post(owner_api, cell, data)
    assert response.status_code == 400
    (message,) = response.json()["file"]
    assert message.startswith("Line 2:")
    assert not MotionProgram.objects.exists()


def test_a_speed_of_zero_is_refused_with_its_line(owner_api, cell):
    data = b"x,y,z,speed_mm_s\n0,0,300,250\n400,0,300,0\n"
    response = post(owner_api, cell, data, name="path.csv")
    assert response.status_code == 400
    assert response.json()["file"][0].startswith("Line 3:")


def test_an_unknown_unit_is_a_400_naming_units(owner_api, cell):
    response = post(
        owner_api, cell, b"x,y,z,speed_mm_s\n0,0,0,1\n", name="p.csv", units="inch"
    )
    assert response.status_code == 400
    assert list(response.json()) == ["units"]


def test_a_file_whose_format_cannot_be_told_is_a_400_naming_format(owner_api, cell):
    response = post(owner_api, cell, b"hello world\n", name="notes.txt")
    assert response.status_code == 400
    assert "format" in response.json()


def test_a_binary_file_is_refused(owner_api, cell):
    response = post(owner_api, cell, bytes(range(256)) * 10, format="urscript")
    assert response.status_code == 400
    assert "control characters" in response.json()["file"][0]


def test_a_file_over_5_mb_is_refused_before_it_is_read(owner_api, cell):
    data = b"# " + b"x" * (5 * 1024 * 1024)
    response = post(owner_api, cell, data, format="urscript")
    assert response.status_code == 400
    assert "5 MB" in response.json()["file"][0]
    assert not MotionProgram.objects.exists()


def test_a_cell_keeps_at_most_ten_programs(owner_api, cell):
    for _ in range(MAX_PROGRAMS_PER_CELL):
        assert post(owner_api, cell, URSCRIPT).status_code == 201
    response = post(owner_api, cell, URSCRIPT)
    assert response.status_code == 400
    assert MotionProgram.objects.filter(cell=cell).count() == MAX_PROGRAMS_PER_CELL


def test_a_viewer_reads_but_cannot_import_or_remove(viewer, owner_api, cell):
    program = post(owner_api, cell, URSCRIPT).json()
    viewer_api = client_for(viewer)
    assert viewer_api.get(reverse("api:cell-motion", args=[cell.pk])).status_code == 200
    assert post(viewer_api, cell, URSCRIPT).status_code == 403
    detail = reverse("api:cell-motion-detail", args=[cell.pk, program["id"]])
    assert viewer_api.delete(detail).status_code == 403
    assert MotionProgram.objects.count() == 1


def test_an_outsider_gets_404_for_the_programs_and_cannot_import(
    outsider, owner_api, cell
):
    program = post(owner_api, cell, URSCRIPT).json()
    outsider_api = client_for(outsider)
    for url in (
        reverse("api:cell-motion", args=[cell.pk]),
        reverse("api:cell-motion-detail", args=[cell.pk, program["id"]]),
        reverse("api:cell-motion-segments", args=[cell.pk, program["id"]]),
    ):
        assert outsider_api.get(url).status_code == 404
    assert post(outsider_api, cell, URSCRIPT).status_code == 404
    assert MotionProgram.objects.count() == 1


def test_another_cells_program_is_a_404(owner_api, cell, project):
    from tests.factories import CellFactory

    other = CellFactory(project=project)
    program = post(owner_api, other, URSCRIPT).json()
    url = reverse("api:cell-motion-detail", args=[cell.pk, program["id"]])
    assert owner_api.get(url).status_code == 404


def test_the_owner_removes_a_program(owner_api, cell):
    program = post(owner_api, cell, URSCRIPT).json()
    url = reverse("api:cell-motion-detail", args=[cell.pk, program["id"]])
    assert owner_api.delete(url).status_code == 204
    assert not MotionProgram.objects.exists()


# --- judged where people are (the cases) ---------------------------


def passing_the_operator(speed_m_s: str) -> bytes:
    return (
        "def main():\n"
        "  movel(p[0.40, 0.30, 0.30, 0, 3.14, 0], a=1.2, v=0.25)\n"
        f"  movel(p[0.40, -0.30, 0.30, 0, 3.14, 0], a=1.2, v={speed_m_s})\n"
        "end\n"
    ).encode()


@pytest.fixture
def cobot_cell(cell):
    """The issue's cobot: 33.5 kg moving, 5 kg payload, its base at the
    plan's origin; an operator loading 600 mm from the path's end, the chest
    exposed (contact within the default 850 mm reach)."""
    from cells.models import OperatorStation

    cell.moving_mass_kg, cell.payload_kg = 33.5, 5
    cell.robot_base_x_mm = cell.robot_base_y_mm = 0
    cell.robot_base_rotation_deg = 0
    cell.save()
    OperatorStation.objects.create(
        cell=cell, label="Load", x_mm=400, y_mm=-900, exposed_regions=["chest"]
    )
    return cell


def judged(client, cell, data: bytes, name: str = "main.script") -> list[dict]:
    program = post(client, cell, data, name=name).json()
    url = reverse("api:cell-motion-segments", args=[cell.pk, program["id"]])
    return client.get(url).json()["results"]


def test_a_fast_move_past_the_operators_chest_fails_with_the_speed_it_may_have(
    owner_api, cobot_cell
):
    (segment,) = judged(owner_api, cobot_cell, passing_the_operator("1.0"))
    # ISO/TS 15066 Annex A, chest: F_T = 280 N, k = 25 N/mm, m_H = 40 kg;
    # m_R = 33.5/2 + 5 = 21.75 kg, mu = (1/40 + 1/21.75)^-1 = 14.089 kg;
    # v = F / sqrt(mu k) = 280 / sqrt(14.089 x 25,000) = 0.4718 m/s.
    assert (segment["line"], segment["verdict"]) == (3, "fail")
    assert segment["permissible_speed_mm_s"] == pytest.approx(471.8, abs=0.1)
    assert segment["nearest_station"] == "Load"


def test_the_same_move_at_a_quarter_metre_a_second_passes(owner_api, cobot_cell):
    (segment,) = judged(owner_api, cobot_cell, passing_the_operator("0.25"))
    assert segment["verdict"] == "pass"


def test_the_rapid_program_of_the_same_move_is_judged_the_same(owner_api, cobot_cell):
    rapid = b"""MODULE Main
  CONST robtarget p0 := [[400,300,300],[0,0,1,0],[0,0,0,0],[9E9,9E9,9E9,9E9,9E9,9E9]];
  CONST robtarget p10 := [[400,-300,300],[0,0,1,0],[0,0,0,0],[9E9,9E9,9E9,9E9,9E9,9E9]];
  PROC main()
    MoveL p0, v200, fine, tool0;
    MoveL p10, v1000, z50, tool0;
  ENDPROC
ENDMODULE
"""
    (segment,) = judged(owner_api, cobot_cell, rapid, name="main.mod")
    assert (segment["line"], segment["verdict"]) == (6, "fail")
    assert segment["permissible_speed_mm_s"] == pytest.approx(471.8, abs=0.1)


def test_a_fast_move_far_from_every_station_passes(owner_api, cobot_cell):
    # 1.5 m/s, but the operator is 5 m away: the limit applies where people are.
    cobot_cell.stations.update(x_mm=5000, y_mm=5000)
    (segment,) = judged(owner_api, cobot_cell, passing_the_operator("1.5"))
    assert segment["verdict"] == "pass"


def test_the_annotated_program_says_the_speed_above_the_failing_line_only(
    owner_api, cobot_cell
):
    data = passing_the_operator("1.0")
    program = post(owner_api, cobot_cell, data).json()
    url = reverse("api:cell-motion-annotated", args=[cobot_cell.pk, program["id"]])
    response = owner_api.get(url)
    assert response.status_code == 200
    lines = response.content.decode().splitlines()
    assert lines[2].strip().startswith("# Cell Safety Planner: slow this move")
    assert "472 mm/s" in lines[2]
    # Every line of the file as imported, in order, around the comment.
    assert [line for i, line in enumerate(lines) if i != 2] == (
        data.decode().splitlines()
    )


def test_a_csv_program_has_no_annotated_copy_and_says_why(owner_api, cobot_cell):
    data = b"x,y,z,speed_mm_s\n400,300,300,250\n400,-300,300,1000\n"
    program = post(owner_api, cobot_cell, data, name="path.csv").json()
    url = reverse("api:cell-motion-annotated", args=[cobot_cell.pk, program["id"]])
    response = owner_api.get(url)
    assert response.status_code == 400
    assert "no comments" in response.json()["format"][0]
    segments = owner_api.get(
        reverse("api:cell-motion-segments", args=[cobot_cell.pk, program["id"]])
    ).json()["results"]
    assert [(s["line"], s["verdict"]) for s in segments] == [(3, "fail")]


def test_a_speed_in_the_wrong_unit_is_a_400_with_its_line_and_nothing_is_saved(
    owner_api, cell
):
    # v=20: twenty metres a second, most likely mm/s meant as m/s.
    data = b"def main():\n  movel(p[0.4, -0.3, 0.3, 0, 3.14, 0], a=1.2, v=20)\nend\n"
    response = post(owner_api, cell, data)
    assert response.status_code == 400
    assert response.json()["file"] == [
        "Line 2: The speed 20,000.0 mm/s is above 10,000 mm/s, faster than a "
        "robot's tool moves: are the units right?"
    ]
    assert not MotionProgram.objects.filter(cell=cell).exists()
