"""The Motion tab (issue 32): a cell's robot programs imported from a file,
each judged segment by segment by the rules' own judgement, its path drawn
on the plan by verdict, its segments a page at a time with the failing ones
a click away; editors import and remove, viewers read, other organisations
find nothing."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cells.models import MotionProgram
from compliance.motion.drawing import MAX_PIECES
from compliance.motion.views import ROWS_PER_PAGE
from tests.cells.motion.support import with_ssm_scanner
from tests.compliance.motion.support import ISSUE, imported, program_of
from tests.kept import forget_kept

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr class="verdict-(\w+)">')


def tab(cell) -> str:
    return reverse("compliance:cell_motion", args=[cell.pk])


def shown(cell, program) -> str:
    return reverse("compliance:motion_program", args=[cell.pk, program.pk])


def upload(client, cell, data: bytes, name: str = "main.script", **fields):
    return client.post(
        reverse("compliance:motion_import", args=[cell.pk]),
        {"file": SimpleUploadedFile(name, data), **fields},
    )


def test_the_tab_shows_the_program_failing_at_line_3_with_its_permissible_speed(
    owner, owner_client, cobot
):
    program = imported(cobot, owner)
    response = owner_client.get(tab(cobot))
    assert response.status_code == 200
    page = response.content.decode()
    assert "main.script" in page
    assert program.sha256[:12] in page
    assert "Fails on line 3." in page
    # The table: line 3, 1,000 mm/s past Load, 471.8 mm/s permissible.
    assert ROW.findall(page) == ["fail"]
    row = page[page.index('<tr class="verdict-fail">') :].split("</tr>")[0]
    assert ">3</td>" in row and "1,000" in row and "471.8" in row and "Load" in row
    # The cycle time as programmed (600 mm at 1 m/s) and as limited (at 471.8).
    assert "0.60 s" in page and "1.27 s" in page
    # The path on the plan: red where it fails, and the station's zone.
    assert re.search(r'<polyline class="verdict-fail" points="400,-300 400,300"', page)
    assert 'stroke="#c0392b"' in page
    assert "Contact zone of Load" in page
    # The downloads: the file as imported, and annotated (URScript has comments).
    assert reverse("compliance:motion_file", args=[cobot.pk, program.pk]) in page
    assert reverse("compliance:motion_annotated", args=[cobot.pk, program.pk]) in page


def test_the_tab_and_the_segments_api_give_the_same_verdicts(
    owner, owner_client, cobot
):
    program = imported(cobot, owner, program_of(6, fast_every=3))
    page = owner_client.get(shown(cobot, program)).content.decode()
    api = owner_client.get(
        reverse("api:cell-motion-segments", args=[cobot.pk, program.pk])
    ).json()["results"]
    assert ROW.findall(page) == [s["verdict"] for s in api]
    assert {"pass", "fail"} <= set(ROW.findall(page))


def test_the_failing_filter_shows_only_the_failing_segments_in_program_order(
    owner, owner_client, cobot
):
    program = imported(cobot, owner, program_of(9, fast_every=3))
    everything = ROW.findall(owner_client.get(shown(cobot, program)).content.decode())
    assert everything.count("fail") == 3 and "pass" in everything
    response = owner_client.get(shown(cobot, program) + "?verdict=fail")
    page = response.content.decode()
    assert ROW.findall(page) == ["fail"] * 3
    lines = re.findall(r'<tr class="verdict-fail">\s*<td class="num">(\d+)</td>', page)
    assert lines == sorted(lines, key=int)
    assert "Show all segments" in page


def test_an_unknown_verdict_shows_every_segment_and_says_so(owner, owner_client, cobot):
    program = imported(cobot, owner, program_of(4, fast_every=2))
    page = owner_client.get(shown(cobot, program) + "?verdict=bad").content.decode()
    assert len(ROW.findall(page)) == 3
    assert "There is no verdict" in page


def test_the_segments_are_paged_and_htmx_gets_only_the_table(
    owner, owner_client, cobot
):
    program = imported(cobot, owner, program_of(251))  # 250 segments
    first = owner_client.get(shown(cobot, program)).content.decode()
    assert len(ROW.findall(first)) == ROWS_PER_PAGE
    assert "Page 1 of 3" in first
    last = owner_client.get(shown(cobot, program) + "?page=3", HTTP_HX_REQUEST="true")
    assert last.status_code == 200
    assert "HX-Request" in last["Vary"]
    body = last.content.decode()
    assert len(ROW.findall(body)) == 50
    assert "<html" not in body and 'id="motion-segments"' in body
    # Every htmx link of the table has an href too.
    for link in re.findall(r"<a [^>]*hx-get=[^>]*>", body):
        assert 'href="' in link, link


def test_the_program_page_costs_the_same_queries_for_10_lines_and_2000(
    owner, owner_client, cobot, django_assert_max_num_queries
):
    small = imported(cobot, owner, program_of(10))
    large = imported(cobot, owner, program_of(2000), name="large.script")
    counts = {}
    for program in (small, large):
        forget_kept()
        with CaptureQueriesContext(connection) as cold:
            response = owner_client.get(shown(cobot, program))
        with CaptureQueriesContext(connection) as warm:
            again = owner_client.get(shown(cobot, program))
        assert response.status_code == again.status_code == 200
        assert len(ROW.findall(again.content.decode())) <= ROWS_PER_PAGE
        counts[program.file_name] = (len(cold), len(warm))
    assert counts["main.script"] == counts["large.script"], counts
    with django_assert_max_num_queries(20):
        owner_client.get(shown(cobot, large))


def test_a_long_program_is_drawn_with_a_bounded_number_of_points(
    owner, owner_client, cobot
):
    program = imported(cobot, owner, program_of(2 * MAX_PIECES + 11, fast_every=2))
    page = owner_client.get(shown(cobot, program)).content.decode()
    points = sum(
        len(p.split()) for p in re.findall(r'<polyline [^>]*points="([^"]*)"', page)
    )
    assert 0 < points <= 2 * MAX_PIECES
    assert "drawn 3 segments at a time" in page
    # Grouped, a failing segment still colours its piece.
    assert 'class="verdict-fail"' in page


def test_importing_a_good_file_through_the_form_keeps_it_and_shows_it(
    owner, owner_client, cobot
):
    response = upload(owner_client, cobot, ISSUE)
    program = MotionProgram.objects.get(cell=cobot)
    assert response.status_code == 302
    assert response["Location"] == shown(cobot, program)
    assert (program.imported_by, program.format) == (owner, "urscript")
    page = owner_client.get(response["Location"]).content.decode()
    assert "“main.script” is imported and judged." in page


def test_a_file_that_cannot_be_read_is_a_form_error_naming_its_line(
    owner_client, cobot
):
    data = b"def main():\n  movel(p[0.4, 0.3, 0.3, 0, 3.14], v=0.25)\nend\n"
    response = upload(owner_client, cobot, data)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'class="field-errors"' in page and "Line 2:" in page
    assert not MotionProgram.objects.exists()


def test_a_format_the_file_does_not_tell_is_an_error_on_the_format_field(
    owner_client, cobot
):
    response = upload(owner_client, cobot, b"hello\n", name="notes.txt")
    assert response.status_code == 400
    assert "cannot be told from its name or content" in response.content.decode()
    response = upload(owner_client, cobot, b"hello\n", name="n.txt", format="klingon")
    assert response.status_code == 400
    assert not MotionProgram.objects.exists()


def test_a_file_over_5_mb_is_refused_by_the_form(owner_client, cobot):
    response = upload(owner_client, cobot, b"#" * (5 * 1024 * 1024 + 1))
    assert response.status_code == 400
    assert "larger than 5 MB" in response.content.decode()
    assert not MotionProgram.objects.exists()


def test_the_owner_removes_a_program(owner, owner_client, cobot):
    program = imported(cobot, owner)
    response = owner_client.post(
        reverse("compliance:motion_delete", args=[cobot.pk, program.pk])
    )
    assert response.status_code == 302
    assert response["Location"] == tab(cobot)
    assert not MotionProgram.objects.exists()
    page = owner_client.get(tab(cobot)).content.decode()
    assert "No robot program is imported yet." in page


def test_a_viewer_reads_the_tab_but_cannot_import_or_remove(
    owner, viewer_client, cobot
):
    program = imported(cobot, owner)
    page = viewer_client.get(tab(cobot)).content.decode()
    assert "main.script" in page
    assert "Import a program" not in page
    assert reverse("compliance:motion_delete", args=[cobot.pk, program.pk]) not in page
    assert upload(viewer_client, cobot, ISSUE).status_code == 403
    delete = reverse("compliance:motion_delete", args=[cobot.pk, program.pk])
    assert viewer_client.post(delete).status_code == 403
    assert MotionProgram.objects.count() == 1
    # Reading the files is reading.
    file = reverse("compliance:motion_file", args=[cobot.pk, program.pk])
    assert viewer_client.get(file).status_code == 200


def test_an_outsider_gets_404_on_every_motion_url(owner, outsider_client, cobot):
    program = imported(cobot, owner)
    cell_only = ["compliance:cell_motion", "compliance:motion_import"]
    with_program = [
        "compliance:motion_program",
        "compliance:motion_delete",
        "compliance:motion_file",
        "compliance:motion_annotated",
    ]
    urls = [reverse(name, args=[cobot.pk]) for name in cell_only] + [
        reverse(name, args=[cobot.pk, program.pk]) for name in with_program
    ]
    for url in urls:
        answers = {outsider_client.get(url).status_code}
        answers.add(outsider_client.post(url).status_code)
        assert answers <= {404, 405} and 404 in answers, (url, answers)
    assert MotionProgram.objects.count() == 1


def test_another_cells_program_is_a_404(owner, owner_client, cobot, project):
    from tests.factories import CellFactory

    other = imported(CellFactory(project=project), owner)
    assert owner_client.get(shown(cobot, other)).status_code == 404


def test_the_downloads_are_the_file_as_imported_and_annotated(
    owner, owner_client, cobot
):
    program = imported(cobot, owner)
    file = owner_client.get(
        reverse("compliance:motion_file", args=[cobot.pk, program.pk])
    )
    assert file.content == ISSUE
    assert 'filename="main.script"' in file["Content-Disposition"]
    annotated = owner_client.get(
        reverse("compliance:motion_annotated", args=[cobot.pk, program.pk])
    )
    lines = annotated.content.decode().splitlines()
    assert lines[2].strip().startswith("# Cell Safety Planner: slow this move")
    assert "472 mm/s" in lines[2]


def test_a_csv_program_has_no_annotated_copy_and_the_tab_says_why(
    owner, owner_client, cobot
):
    data = b"x,y,z,speed_mm_s\n400,300,300,250\n400,-300,300,1000\n"
    program = imported(cobot, owner, data, name="path.csv")
    page = owner_client.get(shown(cobot, program)).content.decode()
    assert "Download it annotated" not in page
    response = owner_client.get(
        reverse("compliance:motion_annotated", args=[cobot.pk, program.pk]), follow=True
    )
    assert "A CSV file has no comments" in response.content.decode()


def test_joint_moves_are_listed_as_not_checked_with_their_line_and_text(
    owner, owner_client, cobot
):
    data = ISSUE.replace(
        b"end\n",
        b"  set_digital_out(0, True)\n  movej([0, -1.57, 1.57, 0, 0, 0])\nend\n",
    )
    program = imported(cobot, owner, data)
    page = owner_client.get(shown(cobot, program)).content.decode()
    assert "Lines not checked" in page
    assert "movej([0, -1.57, 1.57, 0, 0, 0])" in page
    assert "1 line skipped" in page and "set_digital_out(0, True)" in page


def test_a_program_with_no_straight_move_says_it_cannot_be_checked(
    owner, owner_client, cobot
):
    data = b"def main():\n  movej([0, -1.57, 1.57, 0, 0, 0])\nend\n"
    program = imported(cobot, owner, data)
    page = owner_client.get(shown(cobot, program)).content.decode()
    assert "has no straight move that can be placed on the plan" in page
    assert ROW.findall(page) == []


def test_the_tab_shows_the_worst_program_first(owner, owner_client, cobot):
    imported(cobot, owner, program_of(3), name="slow.script")
    imported(cobot, owner, ISSUE, name="fast.script")
    page = owner_client.get(tab(cobot)).content.decode()
    assert re.search(r'<h2 id="program-title">fast.script</h2>', page)


def test_speed_and_separation_is_judged_with_the_scanner_placed_on_the_plan(
    owner, owner_client, cobot
):
    with_ssm_scanner(cobot)
    program = imported(cobot, owner)
    page = owner_client.get(shown(cobot, program)).content.decode()
    assert "Speed and separation monitoring is judged with Scanner A." in page
    assert "short by" in page
