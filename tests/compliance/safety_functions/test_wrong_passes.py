"""The engine's wrong passes (issue 27): a safety function's verdict is never
better than what it rests on.

- A sensing device's IEC 61496 type caps its subsystem's PL; without a type
  recorded the PL cannot be confirmed. The PL the device claims caps the
  maker's PL typed on the subsystem. The device the function is for must be
  one of its subsystems.
- A validation record holds for the function as it was recorded: once its
  subsystems, devices or settings change, the record is kept and shown as
  for an earlier version, and the test counts as missing.
- A record cannot be dated in the future, nor pass a stopping time longer
  than the minimum distance allows.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.assessment import services as assessment_services
from compliance.safety_functions import selectors, services
from compliance.safety_functions.models import SafetyFunction, ValidationRecord
from tests.compliance.conftest import sign_revision
from tests.factories import DeviceFactory

# A light curtain (SICK deTec4: PL e, 3.7e-9), a safety relay (PL e,
# 2.31e-9) and the robot's safety input (PL d, 1.3e-7): the PFHd sum
# 1.3601e-7 is in the band of PL d, the PLr of the signed hazard.
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
ALL_TESTS = ("function", "stopping_time", "fault_injection", "reset_restart")
EARLIER = "Recorded for an earlier version of the function: does not count"


@pytest.fixture
def signed(revision, hazard, safety_engineer):
    """Revision 1 signed with the crushing hazard (S2, F2, P1: PLr d)."""
    submitted = assessment_services.revision_submit(
        revision=revision, actor=safety_engineer
    )
    return sign_revision(submitted, safety_engineer)


def curtain_device(cell, **fields):
    values = {"kind": "light_curtain", "label": "LC1", "claimed_pl": "e"}
    return DeviceFactory(cell=cell, **{**values, **fields})


def make_function(cell, actor, hazard, device, *chain, **fields):
    """A function for ``device`` whose input subsystem is that device."""
    values = {
        "name": "Protective stop by LC1",
        "safeguard": "guarded_opening",
        "trigger": "LC1 interrupted",
        "reaction": "Protective stop, stop category 1",
        "stop_category": "1",
        **fields,
    }
    function = services.function_create(
        cell=cell,
        actor=actor,
        device=device,
        hazard_keys=[str(hazard.key)],
        **values,
    )
    chain = chain or ({**CURTAIN, "device": device}, RELAY, ROBOT)
    for values in chain:
        services.subsystem_add(function=function, actor=actor, **values)
    return function


def record_all(function, actor, outcome="passed", performed_by="K. Lee"):
    for test in selectors.plan_of(function):
        services.validation_record_add(
            function=function,
            actor=actor,
            test=test.kind,
            performed_by=performed_by,
            performed_on=datetime.date(2026, 11, 30),
            measured_value="180 ms" if test.kind == "stopping_time" else "",
            outcome=outcome,
        )


def verdict(cell):
    (row,) = selectors.cell_functions(cell)
    return row.verdict


def finding_status(cell, function) -> str:
    from compliance.rules.cell_facts import cell_facts
    from compliance.rules.engine import evaluate
    from compliance.rules.selectors import cell_with_layout

    facts = cell_facts(cell_with_layout(cell))
    (status,) = [
        f.status
        for r in evaluate(facts)
        for f in r.findings
        if f.rule_id == "INTL-13849-function"
        and f.subject_key == f"function:{function.pk}"
    ]
    return status


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def detail(client, function) -> str:
    response = client.get(
        reverse("compliance:safety_function_detail", args=[function.pk])
    )
    assert response.status_code == 200
    return response.content.decode()


# --- The IEC 61496 type of a sensing device ------------------------------------


def test_a_light_curtain_changed_to_type_2_caps_its_function_at_pl_c_and_fails(
    cell, signed, hazard, safety_engineer, owner, owner_client
):
    device = curtain_device(cell, iec61496_type=4)
    function = make_function(cell, safety_engineer, hazard, device)
    record_all(function, safety_engineer)
    assert (verdict(cell).pl, verdict(cell).status) == ("d", "pass")

    changed = api(owner).patch(
        f"/api/v1/devices/{device.pk}/", {"iec61496_type": 2}, format="json"
    )
    assert changed.status_code == 200, changed.json()

    # Type 2 serves PL c at most: the function reaches PL c, below its PLr d
    # (the old code kept PL d and passed, only the device's type rule failed).
    after = verdict(cell)
    assert (after.pl, after.status) == ("c", "fail")
    assert after.result.subsystems[0].pl == "c"
    assert finding_status(cell, function) == "fail"
    # The working the page shows says why.
    page = detail(owner_client, function)
    assert (
        "IEC 61496 Type 2: a sensing device of this type serves up to PL c "
        "(IEC 61496-1; ISO 13849-1): PL e → PL c"
    ) in page
    assert "The PL reached, c, is below the PLr d." in page
    # And the API gives the same working.
    body = api(owner).get(f"/api/v1/safety-functions/{function.pk}/").json()
    assert body["verdict"]["pl"] == "c"
    assert any(
        "IEC 61496 Type 2" in step for step in body["verdict"]["subsystems"][0]["steps"]
    )


def test_a_scanner_of_type_3_caps_a_pl_e_claim_at_pl_d(
    cell, signed, hazard, safety_engineer
):
    scanner = DeviceFactory(
        cell=cell, kind="laser_scanner", label="S1", claimed_pl="", iec61496_type=3
    )
    function = make_function(
        cell, safety_engineer, hazard, scanner, safeguard="scanner_field"
    )
    record_all(function, safety_engineer)
    result = verdict(cell)
    assert result.result.subsystems[0].pl == "d"
    # PL d meets the PLr d.
    assert (result.pl, result.status) == ("d", "pass")


def test_a_sensing_device_without_its_type_needs_evidence(
    cell, signed, hazard, safety_engineer, owner_client
):
    device = curtain_device(cell, iec61496_type=None)
    function = make_function(cell, safety_engineer, hazard, device)
    record_all(function, safety_engineer)

    result = verdict(cell)
    # The old code passed it: PL d by the maker's figures, every test passed.
    assert (result.pl, result.status) == (None, "needs_evidence")
    assert result.problems == (
        (
            0,
            "The sensing device's IEC 61496 type is not recorded, so the highest "
            "PL it serves (Type 2: PL c, Type 3: PL d, Type 4: PL e) cannot be "
            "confirmed.",
        ),
    )
    assert finding_status(cell, function) == "needs_evidence"
    assert "IEC 61496 type is not recorded" in detail(owner_client, function)


def test_a_safety_mat_is_not_iec_61496_equipment_and_needs_no_type(
    cell, signed, hazard, safety_engineer
):
    mat = DeviceFactory(cell=cell, kind="safety_mat", label="M1", claimed_pl="")
    function = make_function(cell, safety_engineer, hazard, mat)
    record_all(function, safety_engineer)
    assert (verdict(cell).pl, verdict(cell).status) == ("d", "pass")


# --- The other ways a function trusted a device -------------------------------


def test_the_pl_the_device_claims_caps_the_pl_typed_on_its_subsystem(
    cell, signed, hazard, safety_engineer, owner_client
):
    # The subsystem says PL e; the device in the cell claims PL c.
    device = curtain_device(cell, iec61496_type=4, claimed_pl="c")
    function = make_function(cell, safety_engineer, hazard, device)
    record_all(function, safety_engineer)

    result = verdict(cell)
    assert (result.pl, result.status) == ("c", "fail")
    assert (
        "LC1: the PL the maker claims for the device is PL c; the subsystem "
        "counts no higher: PL e → PL c"
    ) in detail(owner_client, function)


def test_a_function_whose_chain_leaves_out_its_device_needs_evidence(
    cell, signed, hazard, safety_engineer
):
    device = curtain_device(cell, iec61496_type=2)
    # The input typed by hand, PL e, not linked to the Type 2 curtain.
    function = make_function(
        cell, safety_engineer, hazard, device, CURTAIN, RELAY, ROBOT
    )
    record_all(function, safety_engineer)

    result = verdict(cell)
    assert (result.pl, result.status) == (None, "needs_evidence")
    assert result.problems[0][0] == 0
    assert result.reasons[0].render() == (
        "The device this safety function is for is none of its subsystems, so "
        "the PL computed is not that device's."
    )
    assert finding_status(cell, function) == "needs_evidence"


# --- Validation records hold for the function they were recorded for -----------


def test_replacing_the_output_subsystem_voids_the_validation_but_keeps_it(
    cell, signed, hazard, safety_engineer, owner, owner_client
):
    device = curtain_device(cell, iec61496_type=4)
    function = make_function(cell, safety_engineer, hazard, device)
    record_all(function, safety_engineer)
    assert verdict(cell).status == "pass"

    output = function.subsystems.get(role="output")
    services.subsystem_update(
        subsystem=output,
        actor=safety_engineer,
        label="Drive STO",
        pl="d",
        pfhd_per_hour=5e-8,
    )

    # The old code still said "every test recorded as passed".
    result = verdict(cell)
    assert (result.pl, result.status) == ("d", "needs_evidence")
    assert result.tests_missing == ALL_TESTS
    assert result.tests_outdated == ALL_TESTS
    assert result.tests_passed == ()
    assert finding_status(cell, function) == "needs_evidence"
    # Nothing was deleted: the records are history, shown as such.
    assert ValidationRecord.objects.filter(function=function).count() == 4
    page = detail(owner_client, function)
    assert page.count(EARLIER) == 4
    assert "K. Lee" in page
    assert "Validation tests were recorded for an earlier version" in page

    body = api(owner).get(f"/api/v1/safety-functions/{function.pk}/").json()
    assert body["verdict"]["tests_outdated"] == list(ALL_TESTS)
    plan = {t["test"]: t for t in body["validation_plan"]}
    assert plan["function"]["status"] == "missing"
    assert plan["function"]["records"] == []
    (old,) = plan["function"]["earlier_records"]
    assert old["performed_by"] == "K. Lee"
    assert old["function_fingerprint"] != body["fingerprint"]

    # Tested again, the function as it is now passes.
    record_all(function, safety_engineer, performed_by="J. Park")
    assert verdict(cell).status == "pass"
    body = api(owner).get(f"/api/v1/safety-functions/{function.pk}/").json()
    plan = {t["test"]: t for t in body["validation_plan"]}
    assert [r["performed_by"] for r in plan["function"]["records"]] == ["J. Park"]
    assert [r["performed_by"] for r in plan["function"]["earlier_records"]] == [
        "K. Lee"
    ]


def test_a_test_failed_before_the_function_changed_asks_for_a_new_test(
    cell, signed, hazard, safety_engineer
):
    device = curtain_device(cell, iec61496_type=4)
    function = make_function(cell, safety_engineer, hazard, device)
    record_all(function, safety_engineer, outcome="failed")
    assert verdict(cell).status == "fail"

    relay = function.subsystems.get(role="logic")
    services.subsystem_update(
        subsystem=relay, actor=safety_engineer, pfhd_per_hour=1e-9
    )

    result = verdict(cell)
    assert (result.status, result.tests_failed) == ("needs_evidence", ())


def test_a_change_of_the_device_in_the_cell_voids_the_validation(
    cell, signed, hazard, safety_engineer, owner
):
    device = curtain_device(cell, iec61496_type=4, response_time_ms=13)
    function = make_function(cell, safety_engineer, hazard, device)
    record_all(function, safety_engineer)
    assert verdict(cell).status == "pass"

    changed = api(owner).patch(
        f"/api/v1/devices/{device.pk}/", {"response_time_ms": 30}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert verdict(cell).status == "needs_evidence"


def test_renaming_the_function_or_relinking_its_hazards_keeps_its_validation(
    cell, signed, hazard, safety_engineer
):
    device = curtain_device(cell, iec61496_type=4)
    function = make_function(cell, safety_engineer, hazard, device)
    record_all(function, safety_engineer)
    services.function_update(
        function=function,
        actor=safety_engineer,
        version=SafetyFunction.objects.get(pk=function.pk).version,
        name="Infeed protective stop",
        hazard_keys=[str(hazard.key)],
    )
    assert verdict(cell).status == "pass"


def test_the_live_preview_says_a_changed_subsystem_needs_its_tests_again(
    cell, signed, hazard, safety_engineer, owner_client
):
    device = curtain_device(cell, iec61496_type=4)
    function = make_function(cell, safety_engineer, hazard, device)
    record_all(function, safety_engineer)
    output = function.subsystems.get(role="output")
    form = {
        "subsystem": output.pk,
        "role": "output",
        "label": "Robot input",
        "route": "certified",
        "pl": "d",
        "pfhd_per_hour": "1.3e-7",
    }
    url = reverse("compliance:subsystem_preview", args=[function.pk])
    same = owner_client.post(url, form, HTTP_HX_REQUEST="true")
    assert same.status_code == 200
    # Unchanged, its records hold: it passes.
    assert 'class="finding-status status-pass"' in same.content.decode()
    changed = owner_client.post(
        url, {**form, "pfhd_per_hour": "5e-8"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'class="finding-status status-needs_evidence"' in changed
    assert "Validation tests were recorded for an earlier version" in changed


# --- What a record may state ----------------------------------------------------


def record_body(**overrides):
    return {
        "test": "stopping_time",
        "performed_by": "K. Lee",
        "performed_on": "2026-11-30",
        "instrument": "Stopping-time meter ST-1",
        "measured_value": "280 ms",
        "outcome": "passed",
        **overrides,
    }


def test_a_stopping_time_longer_than_the_distance_allows_cannot_pass(
    cell, signed, hazard, safety_engineer, owner, owner_client
):
    device = curtain_device(cell, iec61496_type=4)
    function = make_function(
        cell, safety_engineer, hazard, device, required_response_time_ms=200
    )
    url = f"/api/v1/safety-functions/{function.pk}/validation-records/"

    refused = api(owner).post(url, record_body(), format="json")
    assert refused.status_code == 400
    assert "280 ms, is longer than the 200 ms" in refused.json()["outcome"][0]
    page = owner_client.post(
        reverse("compliance:validation_record_add", args=[function.pk]),
        record_body(),
    )
    assert page.status_code == 400
    assert "280 ms, is longer than the 200 ms" in page.content.decode()
    assert not ValidationRecord.objects.filter(function=function).exists()

    # Within the time (0.15 s = 150 ms), or recorded as failed, it is kept.
    for body in (
        record_body(measured_value="0.15 s"),
        record_body(outcome="failed"),
    ):
        assert api(owner).post(url, body, format="json").status_code == 201


def test_a_test_cannot_be_recorded_as_performed_on_a_later_date(
    cell, signed, hazard, safety_engineer, owner, owner_client
):
    device = curtain_device(cell, iec61496_type=4)
    function = make_function(cell, safety_engineer, hazard, device)
    tomorrow = (datetime.date.today() + datetime.timedelta(days=2)).isoformat()
    url = f"/api/v1/safety-functions/{function.pk}/validation-records/"

    refused = api(owner).post(
        url, record_body(test="function", performed_on=tomorrow), format="json"
    )
    assert refused.status_code == 400
    assert "performed_on" in refused.json()
    page = owner_client.post(
        reverse("compliance:validation_record_add", args=[function.pk]),
        record_body(test="function", performed_on=tomorrow),
    )
    assert page.status_code == 400
    assert "A test cannot have been performed on a later date." in (
        page.content.decode()
    )
    assert not ValidationRecord.objects.filter(function=function).exists()
