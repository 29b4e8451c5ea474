"""The Safety functions tab: the list with PLr, PL and verdict; proposals;
a function's diagram, working, specification and validation plan; editing
a subsystem with the PL recomputed live; the organisation's Table K.1."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from compliance.assessment import services as assessment_services
from compliance.safety_functions import selectors, services
from compliance.safety_functions.models import SafetyFunction, Subsystem
from tests.compliance.conftest import sign_revision
from tests.factories import DeviceFactory

CURTAIN = {
    "role": "input",
    "label": "LC1",
    "route": "certified",
    "pl": "e",
    "pfhd_per_hour": 3.7e-9,
}
RELAY = {
    "role": "logic",
    "label": "PNOZ",
    "route": "certified",
    "pl": "e",
    "pfhd_per_hour": 2.31e-9,
}
ROBOT = {
    "role": "output",
    "label": "Robot input",
    "route": "certified",
    "pl": "d",
    "pfhd_per_hour": 1.3e-7,
}


@pytest.fixture
def curtain(cell, layout):
    return DeviceFactory(
        cell=cell,
        kind="light_curtain",
        label="LC1",
        opening=layout["opening"],
        iec61496_type=4,
    )


@pytest.fixture
def signed(revision, hazard, safety_engineer):
    """Revision 1 signed with the crushing hazard (S2, F2, P1: PLr d)."""
    submitted = assessment_services.revision_submit(
        revision=revision, actor=safety_engineer
    )
    return sign_revision(submitted, safety_engineer)


def make_function(cell, actor, hazard_keys, *subsystems, **fields):
    function = services.function_create(
        cell=cell,
        actor=actor,
        name=fields.pop("name", "Protective stop by LC1"),
        safeguard=fields.pop("safeguard", "guarded_opening"),
        trigger="LC1 interrupted",
        reaction="Protective stop, stop category 1",
        stop_category="1",
        hazard_keys=hazard_keys,
        **fields,
    )
    for values in subsystems:
        services.subsystem_add(function=function, actor=actor, **values)
    return function


def record_all(function, actor, outcome="passed"):
    for test in selectors.plan_of(function):
        services.validation_record_add(
            function=function,
            actor=actor,
            test=test.kind,
            performed_by="K. Lee",
            performed_on=datetime.date(2026, 11, 30),
            instrument="Stopping-time meter ST-1"
            if test.kind == "stopping_time"
            else "",
            measured_value="180 ms" if test.kind == "stopping_time" else "",
            outcome=outcome,
        )


def verdict(cell):
    (row,) = selectors.cell_functions(cell)
    return row.verdict


def test_a_function_meeting_its_plr_needs_its_validation_before_it_passes(
    cell, signed, hazard, safety_engineer
):
    function = make_function(
        cell, safety_engineer, [str(hazard.key)], CURTAIN, RELAY, ROBOT
    )
    before = verdict(cell)
    assert (before.plr.plr, before.plr.signed, before.pl) == ("d", True, "d")
    assert before.result.combination == "pfhd_sum"
    assert before.result.pfhd_per_hour == pytest.approx(3.7e-9 + 2.31e-9 + 1.3e-7)
    assert before.status == "needs_evidence"
    record_all(function, safety_engineer)
    assert verdict(cell).status == "pass"


def test_a_pl_below_the_plr_fails_whatever_the_validation(
    cell, signed, hazard, safety_engineer
):
    weak = {**ROBOT, "pl": "c", "pfhd_per_hour": 2e-6}
    function = make_function(cell, safety_engineer, [str(hazard.key)], CURTAIN, weak)
    record_all(function, safety_engineer)
    result = verdict(cell)
    assert result.pl == "c"
    assert result.status == "fail"


def test_a_failed_validation_test_fails_the_function(
    cell, signed, hazard, safety_engineer
):
    function = make_function(
        cell, safety_engineer, [str(hazard.key)], CURTAIN, RELAY, ROBOT
    )
    record_all(function, safety_engineer, outcome="failed")
    assert verdict(cell).status == "fail"


def test_a_draft_plr_changes_no_verdict(cell, revision, hazard, safety_engineer):
    function = make_function(
        cell, safety_engineer, [str(hazard.key)], CURTAIN, RELAY, ROBOT
    )
    record_all(function, safety_engineer)
    result = verdict(cell)
    assert (result.plr.plr, result.plr.signed) == ("d", False)
    assert result.status == "needs_evidence"


def test_incomplete_figures_need_evidence_and_say_why(
    cell, signed, hazard, safety_engineer
):
    designed = {
        "role": "output",
        "label": "Contactors",
        "route": "designed",
        "category": "4",
        "dcavg_percent": 70,
        "mttfd_years": 50,
        "ccf_measures": [
            "separation",
            "diversity",
            "overvoltage_protection",
            "emc_contamination",
        ],
    }
    make_function(cell, safety_engineer, [str(hazard.key)], CURTAIN, designed)
    result = verdict(cell)
    assert result.status == "needs_evidence"
    assert result.result is None
    assert result.problems and result.problems[0][0] == 1


def cell_findings(cell):
    from compliance.rules.cell_facts import cell_facts
    from compliance.rules.engine import evaluate
    from compliance.rules.selectors import cell_with_layout

    facts = cell_facts(cell_with_layout(cell))
    return [f for r in evaluate(facts) for f in r.findings]


def test_the_findings_carry_the_function_verdict_and_uncovered_devices(
    cell, signed, hazard, safety_engineer, curtain
):
    door = DeviceFactory(cell=cell, kind="interlocked_door", label="D1")
    # The function's device is its input (a function whose chain leaves its
    # device out needs evidence: test_wrong_passes).
    linked = {**CURTAIN, "device": curtain}
    make_function(
        cell, safety_engineer, [str(hazard.key)], linked, RELAY, ROBOT, device=curtain
    )
    findings = [f for f in cell_findings(cell) if f.rule_id == "INTL-13849-function"]
    by_subject = {f.subject_key: f.status for f in findings}
    function = SafetyFunction.objects.get(cell=cell)
    assert by_subject[f"function:{function.pk}"] == "needs_evidence"
    assert by_subject[f"device:{door.pk}"] == "needs_evidence"
    assert f"device:{curtain.pk}" not in by_subject
    record_all(function, safety_engineer)
    findings = [f for f in cell_findings(cell) if f.rule_id == "INTL-13849-function"]
    assert {f.subject_key: f.status for f in findings}[
        f"function:{function.pk}"
    ] == "pass"


def test_the_tab_lists_functions_with_plr_pl_and_verdict(
    owner_client, cell, signed, hazard, safety_engineer
):
    make_function(cell, safety_engineer, [str(hazard.key)], CURTAIN, RELAY, ROBOT)
    response = owner_client.get(reverse("compliance:safety_functions", args=[cell.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Protective stop by LC1" in body
    assert "Needs evidence" in body
    assert "Table K.1 is not available" in body


def test_the_tab_proposes_functions_and_accepting_one_builds_its_chain(
    owner_client, cell, curtain, owner
):
    url = reverse("compliance:safety_functions", args=[cell.pk])
    assert "LC1 interrupted" in owner_client.get(url).content.decode()
    accept = reverse(
        "compliance:function_suggestion_accept", args=[cell.pk, f"device:{curtain.pk}"]
    )
    response = owner_client.post(accept)
    function = SafetyFunction.objects.get(cell=cell)
    assert response.status_code == 302
    assert function.device == curtain and function.safeguard == "guarded_opening"
    assert [s.role for s in function.subsystems.all()] == ["input", "logic", "output"]
    assert selectors.suggestions(cell) == []


def test_a_discarded_proposal_is_not_proposed_again(owner_client, cell, curtain):
    dismiss = reverse(
        "compliance:function_suggestion_dismiss", args=[cell.pk, f"device:{curtain.pk}"]
    )
    assert owner_client.post(dismiss).status_code == 200
    assert selectors.suggestions(cell) == []


def test_the_detail_page_shows_diagram_working_specification_and_plan(
    owner_client, cell, signed, hazard, safety_engineer
):
    function = make_function(
        cell, safety_engineer, [str(hazard.key)], CURTAIN, RELAY, ROBOT
    )
    body = owner_client.get(
        reverse("compliance:safety_function_detail", args=[function.pk])
    ).content.decode()
    assert "<svg" in body and "sf-diagram" in body
    assert "PLr d" in body
    assert "Stopping-time measurement" in body
    assert "Safety requirements specification" in body
    assert "State the response time" in body


def test_the_live_preview_recomputes_without_saving(
    owner_client, cell, signed, hazard, safety_engineer
):
    function = make_function(
        cell, safety_engineer, [str(hazard.key)], CURTAIN, RELAY, ROBOT
    )
    robot = function.subsystems.get(label="Robot input")
    url = reverse("compliance:subsystem_preview", args=[function.pk])
    data = {
        "subsystem": robot.pk,
        "role": "output",
        "label": "Robot input",
        "route": "certified",
        "pl": "c",
        "pfhd_per_hour": "2e-6",
    }
    response = owner_client.post(url, data, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="sf-preview"' in body and "<html" not in body
    assert "PL c" in body and "Fail" in body
    robot.refresh_from_db()
    assert robot.pl == "d"


def test_a_bad_figure_is_a_form_error_and_loses_nothing(
    owner_client, cell, signed, hazard, safety_engineer
):
    function = make_function(
        cell, safety_engineer, [str(hazard.key)], CURTAIN, RELAY, ROBOT
    )
    robot = function.subsystems.get(label="Robot input")
    url = reverse("compliance:subsystem_edit", args=[robot.pk])
    response = owner_client.post(
        url,
        {
            "role": "output",
            "label": "Robot input",
            "route": "certified",
            "pl": "d",
            "pfhd_per_hour": "1e300",
        },
    )
    assert response.status_code == 400
    assert "has-error" in response.content.decode()
    robot.refresh_from_db()
    assert robot.pfhd_per_hour == pytest.approx(1.3e-7)


def test_a_viewer_reads_but_cannot_change(viewer_client, cell, curtain, owner):
    function = make_function(cell, owner, [], CURTAIN)
    assert (
        viewer_client.get(
            reverse("compliance:safety_function_detail", args=[function.pk])
        ).status_code
        == 200
    )
    assert (
        viewer_client.post(
            reverse("compliance:safety_function_delete", args=[function.pk])
        ).status_code
        == 403
    )
    assert (
        viewer_client.get(
            reverse("compliance:safety_function_add", args=[cell.pk])
        ).status_code
        == 403
    )
    assert SafetyFunction.objects.filter(pk=function.pk).exists()


def test_another_organisations_function_is_not_found(outsider_client, cell, owner):
    function = make_function(cell, owner, [], CURTAIN)
    subsystem = function.subsystems.get()
    for url in (
        reverse("compliance:safety_function_detail", args=[function.pk]),
        reverse("compliance:subsystem_edit", args=[subsystem.pk]),
        reverse("compliance:safety_functions", args=[cell.pk]),
    ):
        assert outsider_client.get(url).status_code == 404
    assert (
        outsider_client.post(
            reverse("compliance:subsystem_delete", args=[subsystem.pk])
        ).status_code
        == 404
    )
    assert Subsystem.objects.filter(pk=subsystem.pk).exists()


def test_a_hazard_of_another_cell_cannot_be_linked(cell, owner, signed):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="not in the cell's risk assessment"):
        make_function(cell, owner, ["00000000-0000-0000-0000-000000000000"])


def test_the_tab_makes_the_same_queries_whatever_the_number_of_functions(
    owner_client, cell, signed, hazard, safety_engineer, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("compliance:safety_functions", args=[cell.pk])
    make_function(cell, safety_engineer, [str(hazard.key)], CURTAIN, RELAY, ROBOT)
    owner_client.get(url)
    with CaptureQueriesContext(connection) as one:
        owner_client.get(url)
    for _ in range(4):
        make_function(cell, safety_engineer, [str(hazard.key)], CURTAIN, RELAY, ROBOT)
    with CaptureQueriesContext(connection) as five:
        owner_client.get(url)
    assert len(five) == len(one)


def test_the_documents_page_lists_specification_and_plan(owner_client, cell, owner):
    make_function(cell, owner, [], CURTAIN)
    body = owner_client.get(
        reverse("compliance:safety_documents", args=[cell.pk])
    ).content.decode()
    assert "LC1 interrupted" in body and "Fault injection" in body


FAKE_K1 = (
    "mttfd_years,cat_B,cat_1,cat_2_low,cat_2_medium,cat_3_low,cat_3_medium,cat_4_high\n"
    "3,9.0e-5,,9.0e-5,8.0e-5,7.0e-5,6.0e-5,\n"
    "30,8.0e-6,7.0e-6,6.0e-6,5.0e-6,4.0e-6,3.3e-6,2.2e-8\n"
)


def test_the_imported_table_k1_shows_its_figures(owner_client, organisation, owner):
    services.pfhd_table_import(
        organisation=organisation,
        actor=owner,
        text=FAKE_K1,
        source="FAKE TEST TABLE - not ISO data",
    )
    url = reverse("compliance:pfhd_table", args=[organisation.pk])
    body = owner_client.get(url).content.decode()
    assert "FAKE TEST TABLE - not ISO data" in body
    assert "2.2e-08" in body and "3.3e-06" in body
