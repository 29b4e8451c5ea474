"""Hazards proposed from a plain description of a robot cell."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pydantic import ValidationError

from compliance.assessment.hazards import catalogue, suggestions
from compliance.assessment.hazards.suggestions import (
    CellFacts,
    OpeningFact,
    StationFact,
    Suggestion,
    suggest_hazards,
)

OPENINGS = (
    OpeningFact(
        key="opening:12",
        label="Infeed conveyor gap",
        purpose="material_entry",
        segment_label="North fence",
    ),
    OpeningFact(key="opening:13", label="Operator door", purpose="operator_access"),
    OpeningFact(
        key="opening:14",
        label="Service door",
        purpose="maintenance_door",
        segment_label="East fence",
    ),
)
STATIONS = (
    StationFact(key="station:1", label="Loading table"),
    StationFact(key="station:2", label="Inspection"),
)


def facts(**changes) -> CellFacts:
    data = {
        "robot_kind": "industrial",
        "reach_mm": 1300,
        "payload_kg": 7.5,
        "max_tcp_speed_mm_s": 2000,
        "openings": OPENINGS,
        "stations": STATIONS,
    } | changes
    return CellFacts(**data)


def keys(result) -> list[str]:
    return [s.key for s in result]


@pytest.mark.parametrize("robot_kind", ["industrial", "collaborative"])
def test_every_suggestion_resolves_in_the_catalogue(robot_kind):
    for s in suggest_hazards(facts(robot_kind=robot_kind)):
        assert catalogue.group(s.group_id)
        assert catalogue.origin(s.group_id, s.origin_id)
        assert catalogue.consequence(s.group_id, s.consequence_id)
        assert catalogue.phase(s.phase)


@pytest.mark.parametrize("robot_kind", ["industrial", "collaborative"])
def test_suggestion_keys_are_unique(robot_kind):
    result = keys(suggest_hazards(facts(robot_kind=robot_kind)))
    assert len(result) == len(set(result))


def test_same_facts_give_the_same_keys():
    assert keys(suggest_hazards(facts())) == keys(suggest_hazards(facts()))


def test_renaming_an_opening_or_changing_figures_keeps_the_keys():
    renamed = tuple(o.model_copy(update={"label": "Renamed"}) for o in OPENINGS)
    changed = facts(openings=renamed, reach_mm=900, max_tcp_speed_mm_s=250)
    assert keys(suggest_hazards(changed)) == keys(suggest_hazards(facts()))


def test_robot_hazards_are_proposed_for_every_cell():
    result = {s.key: s for s in suggest_hazards(facts(openings=(), stations=()))}
    assert list(result) == [
        "robot-reach-crushing",
        "robot-reach-impact",
        "gripper-trapping",
        "workpiece-falling",
        "unexpected-startup-teaching",
        "unexpected-startup-maintenance",
    ]
    crushing = result["robot-reach-crushing"]
    assert (crushing.group_id, crushing.origin_id, crushing.consequence_id) == (
        "mechanical",
        "moving_elements",
        "crushing",
    )
    assert crushing.phase == "operation"
    assert crushing.location_key is None
    assert result["robot-reach-impact"].consequence_id == "impact"
    assert result["gripper-trapping"].consequence_id == "drawing_in_trapping"
    assert result["workpiece-falling"].origin_id == "falling_objects"


def test_workpiece_falling_needs_a_payload():
    assert "workpiece-falling" not in keys(suggest_hazards(facts(payload_kg=0)))


def test_unexpected_start_up_is_proposed_for_teaching_and_maintenance():
    result = {s.key: s for s in suggest_hazards(facts())}
    assert result["unexpected-startup-teaching"].phase == "setting_teaching"
    assert result["unexpected-startup-maintenance"].phase == "maintenance"
    for key in ("unexpected-startup-teaching", "unexpected-startup-maintenance"):
        # the catalogue has no "unexpected start-up" origin: the rationale says
        # which origin stands in for it
        assert result[key].origin_id == "moving_elements"
        assert "closest origin" in result[key].rationale


def test_reference_still_has_no_unexpected_start_up_origin(reference):
    # If the reference gains one, the two start-up suggestions should use it.
    ref = reference("iso12100_hazards.json")
    origins = [o for g in ref["hazard_groups"] for o in g["typical_origins"]]
    assert not [o for o in origins if "start" in o.lower()]


def test_one_access_suggestion_per_perimeter_opening():
    result = [s for s in suggest_hazards(facts()) if s.key.startswith("opening:")]
    assert [(s.key, s.location_key, s.phase) for s in result] == [
        ("opening:12-access", "opening:12", "operation"),
        ("opening:13-access", "opening:13", "operation"),
        ("opening:14-access", "opening:14", "maintenance"),
    ]
    assert result[0].task_text() == (
        "Access to the robot's hazard zone through Infeed conveyor gap (in North fence)"
    )
    assert result[1].task_text() == (
        "Access to the robot's hazard zone through Operator door"
    )


def test_collaborative_robot_adds_contact_at_each_station():
    result = [
        s
        for s in suggest_hazards(facts(robot_kind="collaborative"))
        if s.location_key in {"station:1", "station:2"}
    ]
    assert [(s.key, s.consequence_id, s.phase) for s in result] == [
        ("station:1-quasi-static-contact", "crushing", "operation"),
        ("station:1-transient-contact", "impact", "operation"),
        ("station:2-quasi-static-contact", "crushing", "operation"),
        ("station:2-transient-contact", "impact", "operation"),
    ]
    assert "Loading table" in result[0].task_text()


def test_industrial_robot_has_no_station_contact_suggestions():
    result = suggest_hazards(facts(robot_kind="industrial"))
    assert not [s for s in result if s.location_key in {"station:1", "station:2"}]


def test_gripper_trapping_phase_follows_the_robot_kind():
    def gripper(kind):
        return next(
            s
            for s in suggest_hazards(facts(robot_kind=kind))
            if s.key == "gripper-trapping"
        )

    assert gripper("collaborative").phase == "operation"
    assert gripper("industrial").phase == "setting_teaching"


def test_dismissed_suggestions_are_not_proposed_again():
    dismissed = {"gripper-trapping", "opening:13-access"}
    result = keys(suggest_hazards(facts(), dismissed=dismissed))
    assert not dismissed & set(result)
    assert len(result) == len(suggest_hazards(facts())) - 2


def test_task_text_fills_figures_after_translation_and_leaves_labels_alone():
    crushing = next(
        s for s in suggest_hazards(facts()) if s.key == "robot-reach-crushing"
    )
    assert crushing.task_text() == (
        "Being crushed between the moving robot and a fixed part within its "
        "reach (1300 mm)"
    )
    station = next(
        s
        for s in suggest_hazards(facts(robot_kind="collaborative"))
        if s.key == "station:1-transient-contact"
    )
    german = {station.task: "Bediener an %(label)s getroffen", "Loading table": "X"}
    # the template is translated; the user's label is left as typed
    assert station.task_text(lambda s: german.get(s, s)) == (
        "Bediener an Loading table getroffen"
    )


def test_fractional_payload_is_shown_with_one_decimal():
    falling = next(
        s
        for s in suggest_hazards(facts(payload_kg=7.5))
        if s.key == "workpiece-falling"
    )
    assert falling.values == {"payload_kg": 7.5}
    assert "7.5 kg" in falling.task_text()


def test_every_suggestion_text_is_marked_for_translation():
    tree = ast.parse(Path(suggestions.__file__).read_text(encoding="utf-8"))
    marked = {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "gettext_noop"
    }
    for s in suggest_hazards(facts(robot_kind="collaborative")):
        assert s.task in marked
        assert s.rationale in marked


def test_duplicate_opening_or_station_keys_are_rejected():
    with pytest.raises(ValidationError):
        facts(stations=(StationFact(key="opening:12", label="Clash"),))


@pytest.mark.parametrize(
    "change",
    [
        {"robot_kind": "gantry"},
        {"reach_mm": 0},
        {"payload_kg": -1},
        {"max_tcp_speed_mm_s": float("nan")},
        {"colour": "red"},
    ],
)
def test_cell_facts_reject_impossible_values(change):
    with pytest.raises(ValidationError):
        facts(**change)


def test_suggestion_with_an_id_outside_the_catalogue_cannot_be_made():
    with pytest.raises(ValidationError):
        Suggestion(
            key="x",
            group_id="mechanical",
            origin_id="unexpected_start_up",
            consequence_id="crushing",
            phase="operation",
            task="t",
            rationale="r",
        )
