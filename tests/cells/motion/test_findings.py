"""The PFL and SSM findings of a cell with a robot program (issue 32): the
worst segment decides, each failing segment is cited by line, a program with
joint moves says they are not checked, and without a program the findings
check the one programmed speed as before."""

from __future__ import annotations

import pytest

from cells.motion.services import motion_program_import
from cells.selectors import cell_with_layout
from compliance.rules.results import cell_finding_list
from tests.cells.motion.support import issue_cobot, with_ssm_scanner

pytestmark = pytest.mark.django_db

PFL, SSM = "INTL-15066-pfl", "INTL-15066-ssm"


def program(speed_m_s: str, *extra: str) -> bytes:
    return (
        "def main():\n"
        "  movel(p[0.40, 0.30, 0.30, 0, 3.14, 0], a=1.2, v=0.25)\n"
        f"  movel(p[0.40, -0.30, 0.30, 0, 3.14, 0], a=1.2, v={speed_m_s})\n"
        + "".join(f"  {line}\n" for line in extra)
        + "end\n"
    ).encode()


@pytest.fixture
def cobot(cell):
    """The issue's cobot and its loading station (``issue_cobot``), with a
    cell-wide programmed speed of 200 mm/s recorded."""
    cell = issue_cobot(cell)
    cell.programmed_speed_mm_s = 200
    cell.save()
    return cell


def imported(cell, owner, data: bytes, name: str = "main.script"):
    return motion_program_import(cell=cell, actor=owner, data=data, file_name=name)


def findings(cell, owner, rule_id: str):
    loaded = cell_with_layout(owner, cell.pk)
    return [f for f in cell_finding_list(loaded) if f.rule_id == rule_id]


def test_without_a_program_pfl_checks_the_programmed_speed(owner, cobot):
    (finding,) = findings(cobot, owner, PFL)
    # No signed assessment names a region: the cell-wide question stands.
    assert finding.subject_key == "cell"
    assert finding.status == "needs_evidence"


def test_a_fast_move_past_the_chest_fails_at_its_line_with_its_permissible_speed(
    owner, cobot
):
    imported(cobot, owner, program("1.0"))
    (finding,) = findings(cobot, owner, PFL)
    assert finding.status == "fail"
    assert finding.subject_label == "Robot program 1"
    assert (finding.values["line"], finding.values["station"]) == (3, "Load")
    # ISO/TS 15066 Annex A, chest: v = 280 / sqrt(14.089 x 25,000) = 471.8 mm/s.
    assert finding.permissible_mm_s == pytest.approx(471.8, abs=0.1)
    assert finding.speed_mm_s == 1000
    assert "Line 3: 1,000 mm/s" in finding.details[0].render()


def test_the_cell_wide_programmed_speed_no_longer_decides(owner, cobot):
    # 200 mm/s is recorded for the cell, but the program moves at 1 m/s near
    # the chest: the program decides.
    imported(cobot, owner, program("1.0"))
    statuses = {f.subject_key: f.status for f in findings(cobot, owner, PFL)}
    assert list(statuses.values()) == ["fail"]


def test_the_same_move_slow_is_not_a_fail_but_waits_for_the_signed_regions(
    owner, cobot
):
    imported(cobot, owner, program("0.25"))
    (finding,) = findings(cobot, owner, PFL)
    # Within 471.8 mm/s; the station's regions are the SA's, not a signed
    # assessment's: a pass may not stand on them.
    assert finding.status == "needs_evidence"
    assert "signed risk assessment" in finding.message


def test_a_program_far_from_every_station_passes(owner, cobot):
    cobot.stations.update(x_mm=5000, y_mm=5000)
    imported(cobot, owner, program("1.5"))
    (finding,) = findings(cobot, owner, PFL)
    assert finding.status == "pass"
    assert "never comes within reach" in finding.message


def test_a_joint_move_is_listed_as_not_checked_in_the_finding(owner, cobot):
    cobot.stations.update(x_mm=5000, y_mm=5000)
    imported(cobot, owner, program("1.5", "movej([0, -1.57, 1.57, 0, 0, 0])"))
    (finding,) = findings(cobot, owner, PFL)
    # Far from people it would pass, but a joint move is never a pass.
    assert finding.status == "needs_evidence"
    assert "joint moves" in finding.message
    (joint,) = [d for d in finding.details if "joint moves" in d.text]
    assert "lines 4" in joint.render()


def test_a_failing_program_still_says_its_joint_moves_are_not_checked(owner, cobot):
    imported(cobot, owner, program("1.0", "movej([0, -1.57, 1.57, 0, 0, 0])"))
    (finding,) = findings(cobot, owner, PFL)
    assert finding.status == "fail"
    assert any("joint moves" in d.text for d in finding.details)


def test_each_program_is_its_own_finding(owner, cobot):
    imported(cobot, owner, program("1.0"), name="a.script")
    imported(cobot, owner, program("0.25"), name="b.script")
    found = findings(cobot, owner, PFL)
    assert [(f.subject_label, f.status) for f in found] == [
        ("Robot program 1", "fail"),
        ("Robot program 2", "needs_evidence"),
    ]


def test_a_program_imported_after_the_findings_were_kept_changes_them(owner, cobot):
    cobot.stations.update(x_mm=5000, y_mm=5000)
    assert findings(cobot, owner, PFL)[0].subject_key == "cell"
    imported(cobot, owner, program("1.0"))
    assert findings(cobot, owner, PFL)[0].status == "pass"
    # Moving the station (a row the findings read) changes them too.
    cobot.stations.update(x_mm=400, y_mm=-900)
    assert findings(cobot, owner, PFL)[0].status == "fail"


@pytest.fixture
def ssm_cell(cobot):
    return with_ssm_scanner(cobot)


def test_an_ssm_path_too_close_to_the_station_fails_naming_it_and_the_shortfall(
    owner, ssm_cell
):
    imported(ssm_cell, owner, program("1.0"))
    (finding,) = findings(ssm_cell, owner, SSM)
    assert finding.status == "fail"
    assert finding.values["target"] == "Load"
    # S_p = 1,600 x (0.08 + 0.02 + 0.3) + 1,000 x (0.08 + 0.02) + 200 + C
    # C = 1,200 - 0.4 x 300 = 1,080 (ISO 13855, scanner at 300 mm)
    # = 640 + 100 + 200 + 1,080 = 2,020 mm; the path's end is 600 mm from the
    # station: short by 1,420 mm.
    assert finding.numbers["required_mm"] == 2020
    assert finding.numbers["shortfall_mm"] == 1420
    assert "short by 1,420 mm" in finding.render()


def test_an_ssm_path_far_from_the_station_is_judged_on_its_figures_not_failed(
    owner, ssm_cell
):
    ssm_cell.stations.update(x_mm=0, y_mm=-2900)
    imported(ssm_cell, owner, program("0.25"))
    (finding,) = findings(ssm_cell, owner, SSM)
    # S_p = 640 + 25 + 200 + 1,080 = 1,945 mm; the path's end is 2,630 mm from
    # the station: kept. The uncertainties Z_d and Z_r are not recorded, so
    # the separation is not a pass yet.
    assert finding.status == "needs_evidence", finding.render()
    assert "S_p is incomplete" in finding.message


def test_a_programs_subject_is_shown_in_the_readers_language(owner, ssm_cell):
    from django.utils import translation

    from compliance.rules.selectors import subject_label

    imported(ssm_cell, owner, program("1.0"))
    (finding,) = findings(ssm_cell, owner, SSM)
    with translation.override("ko"):
        assert subject_label(finding) == "로봇 프로그램 1, Scanner A"
    assert subject_label(finding) == "Robot program 1, Scanner A"


def test_the_compliance_page_and_the_findings_api_cite_the_failing_line(
    owner, owner_client, cobot
):
    from django.urls import reverse
    from rest_framework.test import APIClient

    imported(cobot, owner, program("1.0"))
    page = owner_client.get(reverse("compliance:cell_compliance", args=[cobot.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Robot program 1" in text and "Line 3: 1,000 mm/s" in text
    korean = owner_client.get(
        reverse("compliance:cell_compliance", args=[cobot.pk]),
        HTTP_ACCEPT_LANGUAGE="ko",
    ).content.decode()
    assert "로봇 프로그램 1" in korean
    api = APIClient()
    api.force_authenticate(owner)
    body = api.get(f"/api/v1/cells/{cobot.pk}/findings/?status=fail").json()
    (pfl,) = [f for group in body["groups"] for f in group["findings"]]
    assert pfl["subject"] == "Robot program 1"
    assert pfl["numbers"]["permissible_mm_s"] == pytest.approx(471.8, abs=0.1)


def test_an_ssm_path_too_near_the_fields_boundary_fails_with_the_shortfall(
    owner, ssm_cell
):
    # The field reaches 1,500 mm round the scanner at the base; the path's
    # end (400, -300) lies 1,500 - 500 = 1,000 mm inside it: a person
    # detected at the boundary is 1,000 mm away, S_p at 1 m/s is 2,020 mm.
    ssm_cell.stations.update(x_mm=5000, y_mm=5000)
    ssm_cell.devices.filter(kind="laser_scanner").update(protective_field_mm=1500)
    imported(ssm_cell, owner, program("1.0"))
    (finding,) = findings(ssm_cell, owner, SSM)
    assert finding.status == "fail"
    assert "protective field" in finding.message
    assert finding.numbers["required_mm"] == 2020
    assert finding.numbers["shortfall_mm"] == 1020


def test_a_pass_resting_on_a_reach_entered_shorter_than_850_mm_needs_evidence(
    owner, cobot
):
    # The path's end is 600 mm from the station: out of a 300 mm reach, but
    # within ISO 13855's 850 mm, where 1 m/s past the chest fails.
    cobot.stations.update(contact_reach_mm=300)
    imported(cobot, owner, program("1.0"))
    (finding,) = findings(cobot, owner, PFL)
    assert finding.status == "needs_evidence"
    assert (finding.values["stations"], finding.values["lines"]) == ("Load", "3")
    assert "shorter than the 850 mm" in finding.message


def test_a_shorter_reach_that_changes_nothing_keeps_the_pass(owner, cobot):
    cobot.stations.update(x_mm=5000, y_mm=5000, contact_reach_mm=300)
    imported(cobot, owner, program("1.5"))
    (finding,) = findings(cobot, owner, PFL)
    assert finding.status == "pass"


def test_a_longer_reach_entered_is_judged_as_entered(owner, cobot):
    # 1,200 mm round a station 1 m from the path's end: a fail.
    cobot.stations.update(x_mm=400, y_mm=-1300, contact_reach_mm=1200)
    imported(cobot, owner, program("1.0"))
    (finding,) = findings(cobot, owner, PFL)
    assert finding.status == "fail"
