"""Safety functions proposed from the layout and the assessment (pure)."""

from __future__ import annotations

from compliance.safety_functions.documents import specification_gaps, validation_plan
from compliance.safety_functions.proposing import (
    DeviceInfo,
    HazardInfo,
    suggest_functions,
)

CURTAIN = DeviceInfo(
    key="device:1",
    pk=1,
    label="LC1",
    kind="light_curtain",
    opening_key="opening:7",
    opening_label="North / Infeed",
)
DOOR = DeviceInfo(key="device:2", pk=2, label="D1", kind="interlocked_door")
ESTOP = DeviceInfo(key="device:3", pk=3, label="ES1", kind="emergency_stop")
CONTROLLER = DeviceInfo(key="device:4", pk=4, label="PNOZ", kind="safety_controller")


def test_one_proposal_per_safeguarding_device_and_none_for_the_controller():
    found = suggest_functions(devices=[CURTAIN, DOOR, ESTOP, CONTROLLER], hazards=[])
    assert [s.key for s in found] == ["device:1", "device:2", "device:3"]
    assert [s.safeguard for s in found] == [
        "guarded_opening",
        "door_interlock",
        "emergency_stop",
    ]
    curtain = found[0]
    assert curtain.trigger.render() == "LC1 interrupted"
    assert "stop category 1" in curtain.reaction.render()
    assert [t.role for t in curtain.subsystems] == ["input", "logic", "output"]
    assert curtain.subsystems[0].device_pk == 1


def test_hazards_come_from_the_measures_that_rely_on_the_device_first():
    by_measure = HazardInfo(
        key="h1", label="Reach in", plr="d", device_keys=("device:1",)
    )
    at_opening = HazardInfo(
        key="h2", label="Walk in", plr="e", location_key="opening:7"
    )
    found = suggest_functions(devices=[CURTAIN], hazards=[by_measure, at_opening])
    assert found[0].hazard_keys == ("h1",)
    assert found[0].plr == "d"


def test_hazards_at_the_opening_are_linked_when_no_measure_names_the_device():
    at_opening = HazardInfo(
        key="h2", label="Walk in", plr="e", location_key="opening:7"
    )
    elsewhere = HazardInfo(key="h3", label="Other", plr="b", location_key="opening:9")
    found = suggest_functions(devices=[CURTAIN], hazards=[at_opening, elsewhere])
    assert found[0].hazard_keys == ("h2",)
    assert found[0].plr == "e"


def test_a_device_with_no_linked_hazard_gets_no_plr():
    found = suggest_functions(devices=[DOOR], hazards=[])
    assert found[0].hazard_keys == ()
    assert found[0].plr is None


def test_accepted_or_discarded_proposals_are_not_proposed_again():
    found = suggest_functions(
        devices=[CURTAIN, DOOR],
        hazards=[],
        collaborative_modes=["pfl"],
        taken={"device:1", "mode:pfl"},
    )
    assert [s.key for s in found] == ["device:2"]


def test_collaborative_modes_each_get_a_limit_function():
    found = suggest_functions(
        devices=[], hazards=[], collaborative_modes=["pfl", "ssm"]
    )
    assert [(s.key, s.safeguard) for s in found] == [
        ("mode:pfl", "collaborative_limit"),
        ("mode:ssm", "collaborative_limit"),
    ]


def test_the_validation_plan_follows_the_safeguard():
    curtain = [t.kind for t in validation_plan(safeguard="guarded_opening")]
    assert curtain == ["function", "stopping_time", "fault_injection", "reset_restart"]
    estop = [t.kind for t in validation_plan(safeguard="emergency_stop")]
    assert "stopping_time" not in estop
    muted = [
        t.kind for t in validation_plan(safeguard="guarded_opening", uses_muting=True)
    ]
    assert muted[-1] == "muting"
    pfl = validation_plan(safeguard="collaborative_limit", collaborative_mode="pfl")
    assert pfl[0].title == "Force and pressure measurement"


def test_the_specification_says_what_is_still_to_be_stated():
    gaps = specification_gaps(
        trigger="LC1 interrupted",
        reaction="Protective stop",
        plr=None,
        stop_category="",
        required_response_time_ms=None,
        reset_behaviour="",
        restart_behaviour="",
        safeguard="guarded_opening",
    )
    texts = [g.render() for g in gaps]
    assert len(texts) == 4
    assert any("PLr" in t for t in texts)
    assert any("response time" in t for t in texts)
    complete = specification_gaps(
        trigger="LC1 interrupted",
        reaction="Protective stop",
        plr="d",
        stop_category="1",
        required_response_time_ms=250,
        reset_behaviour="Reset button outside",
        restart_behaviour="Start button after reset",
        safeguard="guarded_opening",
    )
    assert complete == ()
