"""ISO 13849-1 / -2 rule: each safety function reaches its PLr and is
validated; each safeguarding device belongs to a specified function."""

from __future__ import annotations

import pytest

from compliance.rules.facts import FunctionFacts
from compliance.rules.findings import Status
from compliance.rules.functions import FUNCTION_PL
from tests.compliance.rules.cells import palletising_cell


def findings(**function):
    facts = palletising_cell()
    curtain = next(d for d in facts.devices if d.kind == "light_curtain")
    base = {
        "key": "function:1",
        "label": "Protective stop by LC1",
        "safeguard": "guarded_opening",
        "device_key": curtain.key,
        "subsystem_count": 3,
    }
    facts = facts.model_copy(
        update={"functions": (FunctionFacts(**{**base, **function}),)}
    )
    return FUNCTION_PL.check(facts)


def of_function(found):
    (finding,) = [f for f in found if f.subject_key == "function:1"]
    return finding


@pytest.mark.parametrize(
    ("function", "status"),
    [
        ({"pl": "c", "plr": "d"}, Status.FAIL),
        ({"pl": "e", "plr": "d", "tests_failed": 1}, Status.FAIL),
        ({"pl": "d", "plr": "d", "tests_missing": 2}, Status.NEEDS_EVIDENCE),
        ({"pl": None, "plr": "d"}, Status.NEEDS_EVIDENCE),
        ({"pl": "d", "plr": None}, Status.NEEDS_EVIDENCE),
        ({"pl": "d", "plr": None, "plr_pending": "c"}, Status.NEEDS_EVIDENCE),
        ({"pl": "d", "plr": "d"}, Status.PASS),
        ({"pl": "e", "plr": "c"}, Status.PASS),
    ],
)
def test_the_verdict_rests_on_pl_plr_and_the_validation_record(function, status):
    assert of_function(findings(**function)).status is status


def test_a_pending_draft_plr_is_named_but_decides_nothing():
    finding = of_function(findings(pl="d", plr=None, plr_pending="e"))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "only in a draft" in finding.render()


def test_the_failing_message_names_the_pl_and_the_plr():
    text = of_function(findings(pl="c", plr="d")).render()
    assert "PL c" in text and "PLr d" in text


def test_devices_outside_every_function_need_evidence_and_the_covered_one_not():
    found = findings(pl="d", plr="d")
    devices = [f for f in found if f.subject_key != "function:1"]
    assert {f.subject_label for f in devices} == {"Door interlock", "E-stop"}
    assert all(f.status is Status.NEEDS_EVIDENCE for f in devices)
