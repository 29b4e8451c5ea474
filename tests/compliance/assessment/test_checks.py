"""One story across the tabs: what the compliance checks find decides what the
risk register may count on. A measure that relies on a device or guard whose
check fails is ineffective and cannot lower the residual risk; a hazard whose
contact fails the ISO/TS 15066 power and force limiting check is not
acceptable."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.assessment import checks, selectors, services
from compliance.assessment.hazards.risk import (
    FailingContact,
    IneffectiveMeasure,
    estimate,
    residual_acceptable,
)
from compliance.models import Hazard
from compliance.rules import selectors as rules_selectors
from compliance.rules.findings import Finding, RuleCertainty, Status
from tests.compliance.conftest import CRUSHING, sign_revision
from tests.factories import DeviceFactory, GuardSegmentFactory

# --- the pure rule --------------------------------------------------------------

INITIAL = estimate("S2", "F2", "P1")  # PLr d, high
LOWERED = estimate("S1", "F1", "P1")  # PLr a, low
CURTAIN_FAILS = IneffectiveMeasure(
    measure="Light curtain at the infeed",
    linked="LC1",
    rule_id="INTL-13855-distance",
    message="LC1 is only 113.3 mm from the hazard zone.",
)


def test_a_residual_risk_lowered_on_an_ineffective_measure_is_not_acceptable():
    result = residual_acceptable(
        INITIAL,
        LOWERED,
        True,
        measure_steps=["safeguarding"],
        ineffective=[CURTAIN_FAILS],
    )

    assert not result.acceptable
    (reason,) = result.reasons
    assert reason.code == "measure_ineffective"
    assert reason.render() == (
        "Measure “Light curtain at the infeed” relies on LC1, whose "
        "INTL-13855-distance check fails: it cannot lower the residual risk "
        "until the check passes. LC1 is only 113.3 mm from the hazard zone."
    )


def test_the_same_lowered_estimate_on_an_effective_measure_is_acceptable():
    result = residual_acceptable(
        INITIAL, LOWERED, True, measure_steps=["safeguarding"], ineffective=[]
    )
    assert result.acceptable


def test_an_estimate_left_at_the_initial_risk_relies_on_no_measure():
    medium = estimate("S2", "F1", "P1")  # PLr c: acceptable as it stands
    result = residual_acceptable(
        medium,
        medium,
        True,
        measure_steps=["safeguarding"],
        ineffective=[CURTAIN_FAILS],
    )
    assert result.acceptable


def test_a_failing_contact_makes_any_estimate_unacceptable_naming_both_speeds():
    result = residual_acceptable(
        LOWERED,
        LOWERED,
        True,
        measure_steps=["safeguarding"],
        failing_contacts=[
            FailingContact(
                rule_id="INTL-15066-pfl",
                message="Chest: too fast.",
                speed_mm_s=1500,
                permissible_mm_s=919.8,
            )
        ],
    )

    assert not result.acceptable
    (reason,) = result.reasons
    assert reason.code == "contact_check_fails"
    assert "1,500 mm/s" in reason.render()
    assert "919.8 mm/s permissible" in reason.render()


def test_a_failing_contact_without_a_permissible_speed_gives_its_message():
    result = residual_acceptable(
        LOWERED,
        LOWERED,
        True,
        measure_steps=[],
        failing_contacts=[
            FailingContact(rule_id="INTL-15066-pfl", message="No speed is safe.")
        ],
    )
    (reason,) = result.reasons
    assert reason.render().endswith("fails: No speed is safe.")


def _finding(status, subject_key, rule_id="R-1", **numbers) -> Finding:
    return Finding(
        rule_id=rule_id,
        status=status,
        subject_key=subject_key,
        subject_label=subject_key.upper(),
        message="Message of %(s)s",
        values={"s": subject_key},
        numbers=numbers,
        citation="Clause 1",
        certainty=RuleCertainty.TO_BE_CONFIRMED,
    )


def test_finding_keys_are_rule_and_subject_numbered_when_repeated():
    found = checks.CellChecks.of(
        [
            _finding(Status.FAIL, "device:1"),
            _finding(Status.PASS, "device:1"),
            _finding(Status.FAIL, "device:2"),
        ],
        translate=str,
    )
    assert [f.key for f in found.findings] == [
        "R-1|device:1",
        "R-1|device:1#2",
        "R-1|device:2",
    ]
    assert found.findings[0].message == "Message of device:1"


def test_only_a_failing_check_of_the_linked_device_or_guard_makes_a_measure_ineffective():
    found = checks.CellChecks.of(
        [
            _finding(Status.NEEDS_EVIDENCE, "device:1"),
            _finding(Status.FAIL, "device:2"),
            _finding(Status.FAIL, "segment:1"),
            _finding(Status.FAIL, "opening:1"),
        ],
        translate=str,
    )

    class M:
        def __init__(self, device_id=None, segment_id=None):
            self.device_id, self.segment_id = device_id, segment_id

    assert found.measure_failure(M(device_id=1)) is None  # needs evidence only
    assert found.measure_failure(M(device_id=2)).subject_key == "device:2"
    assert found.measure_failure(M(segment_id=1)).subject_key == "segment:1"
    assert found.measure_failure(M(segment_id=2)) is None
    assert found.measure_failure(M()) is None  # no link: nothing to rely on


def test_contact_failures_are_found_by_hazard_key_or_else_by_body_region():
    found = checks.CellChecks.of(
        [
            _finding(Status.FAIL, "k-1", rule_id=checks.PFL_RULE),
            _finding(Status.FAIL, "chest", rule_id=checks.PFL_RULE),
            _finding(Status.PASS, "k-2", rule_id=checks.PFL_RULE),
            _finding(Status.FAIL, "k-3", rule_id="INTL-other"),
        ],
        translate=str,
    )
    assert [f.subject_key for f in found.contact_failures("k-1")] == ["k-1"]
    assert [f.subject_key for f in found.contact_failures("k-9", "chest")] == ["chest"]
    assert found.contact_failures("k-2") == ()
    assert found.contact_failures("k-3") == ()
    assert found.contact_failures("k-9", "") == ()


# --- a light curtain that fails ISO 13855 ----------------------------------------


@pytest.fixture
def too_close(cell):
    """LC1 drawn 113.3 mm from the hazard zone where ISO 13855 asks 512 mm."""
    cell.stopping_time_ms = 300
    cell.hazard_zone_height_mm = 1400
    cell.save()
    return DeviceFactory(
        cell=cell,
        label="LC1",
        response_time_ms=20,
        detection_capability_mm=14,
        iec61496_type=4,
        kcs_certified=True,
        x1_mm=1000,
        y1_mm=3000,
        x2_mm=1800,
        y2_mm=3000,
        detection_lower_mm=300,
        detection_upper_mm=2000,
    )


@pytest.fixture
def well_placed(cell):
    """LC2 drawn 1,606.7 mm from the hazard zone: ISO 13855 is met."""
    cell.stopping_time_ms = 300
    cell.hazard_zone_height_mm = 1400
    cell.save()
    return DeviceFactory(
        cell=cell,
        label="LC2",
        response_time_ms=20,
        detection_capability_mm=14,
        iec61496_type=4,
        kcs_certified=True,
        x1_mm=1000,
        y1_mm=4500,
        x2_mm=1800,
        y2_mm=4500,
        detection_lower_mm=300,
        detection_upper_mm=2000,
    )


def _lowered(hazard, engineer):
    """The hazard's residual risk estimated lower than its initial one."""
    return services.hazard_update(
        hazard=hazard,
        actor=engineer,
        version=hazard.version,
        residual_severity="S1",
        residual_frequency="F1",
        residual_avoidance="P1",
    )


def _on(device, hazard, engineer):
    return services.measure_add(
        hazard=hazard,
        actor=engineer,
        step="safeguarding",
        description="Light curtain at the infeed",
        device=device,
    )


def _distance_check(cell) -> checks.CheckedFinding:
    return next(
        f
        for f in rules_selectors.cell_checks(cell).findings
        if f.rule_id == "INTL-13855-distance"
    )


def _row(revision, hazard):
    from compliance.assessment.views.register import row as _row

    register = selectors.register(revision)
    return _row(
        register.get(pk=hazard.pk),
        rules_selectors.cell_checks(revision.assessment.cell),
    )


def test_a_measure_on_a_light_curtain_failing_iso_13855_no_longer_counts(
    cell, revision, hazard, safety_engineer, too_close
):
    # Regression: the curtain's failing ISO 13855 check did not stop its
    # measure from lowering the residual risk to "acceptable".
    assert _distance_check(cell).status == "fail"
    measure = _on(too_close, hazard, safety_engineer)
    _lowered(hazard, safety_engineer)

    row = _row(revision, hazard)

    assert not row.acceptability.acceptable
    (reason,) = row.reasons
    assert reason.startswith(
        "Measure “Light curtain at the infeed” relies on LC1, whose "
        "INTL-13855-distance check fails"
    )
    assert "512 mm" in reason  # the finding's own words
    ((shown, failure),) = row.measure_rows
    assert shown.pk == measure.pk
    assert failure.key == f"INTL-13855-distance|device:{too_close.pk}"


def test_the_same_measure_on_a_curtain_that_passes_lowers_the_risk(
    cell, revision, hazard, safety_engineer, well_placed
):
    assert _distance_check(cell).status == "pass"
    _on(well_placed, hazard, safety_engineer)
    _lowered(hazard, safety_engineer)

    row = _row(revision, hazard)

    assert row.acceptability.acceptable, row.reasons
    ((_measure, failure),) = row.measure_rows
    assert failure is None


def test_a_measure_on_a_guard_failing_its_check_is_ineffective(
    cell, revision, hazard, safety_engineer
):
    cell.project.country = "KR"
    cell.project.save()
    low = GuardSegmentFactory(cell=cell, label="Low", height_mm=1000)
    services.measure_add(
        hazard=hazard,
        actor=safety_engineer,
        step="safeguarding",
        description="Fence on the back",
        segment=low,
    )
    _lowered(hazard, safety_engineer)

    row = _row(revision, hazard)

    assert not row.acceptability.acceptable
    assert [r.code for r in row.acceptability.reasons] == ["measure_ineffective"]
    assert "relies on Low, whose KR-223-fence-height check fails" in row.reasons[0]


def test_the_register_marks_the_ineffective_measure_and_says_why(
    owner_client, cell, revision, hazard, safety_engineer, too_close
):
    _on(too_close, hazard, safety_engineer)
    _lowered(hazard, safety_engineer)

    response = owner_client.get(reverse("compliance:assessment", args=[cell.pk]))

    text = response.content.decode()
    assert f'data-ineffective="INTL-13855-distance|device:{too_close.pk}"' in text
    assert "Ineffective: its INTL-13855-distance check fails." in text
    assert "relies on LC1, whose INTL-13855-distance check fails" in text
    assert "1 not yet acceptable" in text


def test_the_api_names_the_failing_rule_of_an_ineffective_measure(
    owner, cell, revision, hazard, safety_engineer, too_close
):
    measure = _on(too_close, hazard, safety_engineer)
    _lowered(hazard, safety_engineer)
    client = APIClient()
    client.force_authenticate(owner)

    data = client.get(f"/api/v1/hazards/{hazard.pk}/").json()
    alone = client.get(f"/api/v1/measures/{measure.pk}/").json()

    assert data["acceptable"] is False
    assert [r["code"] for r in data["reasons"]] == ["measure_ineffective"]
    (shown,) = data["measures"]
    assert shown["ineffective"]["rule_id"] == "INTL-13855-distance"
    assert shown["ineffective"]["key"] == f"INTL-13855-distance|device:{too_close.pk}"
    assert "512 mm" in shown["ineffective"]["message"]
    assert alone["ineffective"] == shown["ineffective"]


def test_a_measure_without_a_failing_link_is_not_ineffective_in_the_api(
    owner, revision, hazard, safety_engineer, well_placed
):
    measure = _on(well_placed, hazard, safety_engineer)
    client = APIClient()
    client.force_authenticate(owner)
    assert client.get(f"/api/v1/measures/{measure.pk}/").json()["ineffective"] is None


# --- power and force limiting ---------------------------------------------------


@pytest.fixture
def fast_cobot(cell):
    """A power-and-force-limiting cobot moving at 1,500 mm/s."""
    cell.robot_kind, cell.collaborative_modes = "collaborative", ["pfl"]
    cell.programmed_speed_mm_s = 1500
    cell.moving_mass_kg, cell.payload_kg = 20, 1
    cell.save()
    return cell


def _chest_hazard(revision, engineer) -> Hazard:
    return services.hazard_add(
        revision=revision,
        actor=engineer,
        body_region="chest",
        contact_type="transient",
        contact_area_cm2="5.00",
        severity="S1",
        frequency="F1",
        avoidance="P1",
        residual_severity="S1",
        residual_frequency="F1",
        residual_avoidance="P1",
        **{**CRUSHING, "task": "Working beside the robot"},
    )


def test_a_chest_hazard_whose_pfl_check_fails_is_not_acceptable(
    owner, fast_cobot, revision, safety_engineer
):
    # Regression: the chest hazard showed as acceptable while the PFL check of
    # its recorded contact failed.
    hazard = _chest_hazard(revision, safety_engineer)
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    signed = sign_revision(submitted, safety_engineer)
    pfl = [
        f
        for f in rules_selectors.cell_checks(fast_cobot).findings
        if f.rule_id == checks.PFL_RULE
    ]
    assert [(f.subject_key, f.status) for f in pfl] == [(str(hazard.key), "fail")]
    permissible = pfl[0].numbers["permissible_mm_s"]

    row = _row(signed, hazard)
    client = APIClient()
    client.force_authenticate(owner)
    data = client.get(f"/api/v1/hazards/{hazard.pk}/").json()

    assert not row.acceptability.acceptable
    (reason,) = row.reasons
    assert "moves at 1,500 mm/s" in reason
    assert f"above the {permissible:,} mm/s permissible" in reason
    assert data["acceptable"] is False
    assert [r["code"] for r in data["reasons"]] == ["contact_check_fails"]
    assert "1,500 mm/s" in data["reasons"][0]["text"]


def test_the_failing_contact_follows_the_hazard_into_the_next_draft(
    fast_cobot, revision, safety_engineer
):
    hazard = _chest_hazard(revision, safety_engineer)
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    signed = sign_revision(submitted, safety_engineer)
    draft = services.revision_start_next(revision=signed, actor=safety_engineer)
    copied = draft.hazards.get()
    assert copied.key == hazard.key

    row = _row(draft, copied)

    assert [r.code for r in row.acceptability.reasons] == ["contact_check_fails"]


def test_a_chest_hazard_within_the_permissible_speed_stays_acceptable(
    fast_cobot, revision, safety_engineer
):
    fast_cobot.programmed_speed_mm_s = 100
    fast_cobot.save()
    hazard = _chest_hazard(revision, safety_engineer)
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    signed = sign_revision(submitted, safety_engineer)
    statuses = {
        f.status
        for f in rules_selectors.cell_checks(fast_cobot).findings
        if f.rule_id == checks.PFL_RULE
    }
    assert statuses == {"pass"}

    assert _row(signed, hazard).acceptability.acceptable
