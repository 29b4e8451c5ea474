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
