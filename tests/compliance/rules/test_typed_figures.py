"""What the rules hand on is typed (issue 26, "Typed results"): a finding's
required height or minimum distance, its measured distance, a guard's
height and a contact's speeds are fields of the finding, the same figures
as in its ``numbers`` (which the pages and the API show), and no room
outside the rules reads them from ``numbers`` by name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pydantic import ValidationError

from compliance.rules.engine import all_rules
from compliance.rules.facts import EditionFacts
from compliance.rules.findings import (
    TYPED_FIGURES,
    Finding,
    RuleCertainty,
    Status,
)
from compliance.rules.korea import FENCE_HEIGHT
from compliance.rules.safeguarding import OPENINGS_GUARDED
from compliance.rules.sensing import INTERLOCK_DISTANCE, MINIMUM_DISTANCE
from compliance.rules.sensing_2024 import MINIMUM_DISTANCE_2024
from tests.compliance.rules.cells import (
    cell,
    device,
    machine_tending_cobot,
    only,
    opening,
    palletising_cell,
    segment,
)

ROOT = Path(__file__).resolve().parents[3]
EDITION_2024 = EditionFacts(iso13855="2024")


def _agree(finding: Finding) -> None:
    for name in TYPED_FIGURES:
        assert getattr(finding, name) == finding.numbers.get(name), name


# --- the rules that set them ---------------------------------------------------


def test_a_failing_fence_height_carries_its_height_and_the_required_height():
    finding = only(FENCE_HEIGHT, cell(segments=(segment(height_mm=1500),)))
    assert finding.status is Status.FAIL
    assert (finding.height_mm, finding.required_mm) == (1500, 1800)
    assert finding.distance_mm is None
    assert finding.numbers == {"height_mm": 1500, "required_mm": 1800}
    _agree(finding)


def test_an_unguarded_opening_carries_its_distance_and_the_distance_required():
    # A 30 x 60 mm slot 150 mm from the zone: Table 4 asks 850 mm.
    facts = cell(
        country="DE",
        segments=(segment(),),
        openings=(
            opening(
                purpose="operator_access",
                width_mm=30,
                lower_edge_mm=0,
                upper_edge_mm=60,
                distance_to_hazard_mm=150,
            ),
        ),
    )
    finding = only(OPENINGS_GUARDED, facts)
    assert finding.status is Status.FAIL
    assert (finding.distance_mm, finding.required_mm) == (150, 850)
    assert finding.height_mm == 60
    assert finding.numbers == {
        "width_mm": 30,
        "height_mm": 60,
        "distance_mm": 150,
        "required_mm": 850,
    }
    _agree(finding)


def _curtain(**kw):
    fields = {
        "label": "Infeed curtain",
        "response_time_ms": 20,
        "detection_capability_mm": 14,
        "detection_lower_mm": 0,
        "detection_upper_mm": 2000,
        "supplement_z_mm": 0,
        "placed": True,
        "distance_to_hazard_mm": 700,
    }
    return device("lc1", "light_curtain", **(fields | kw))


def test_a_light_curtain_carries_its_distance_and_s_by_the_2010_edition():
    # T = 20 + 300 ms: S = 1600 × 0.32 = 512 mm (SICK C4000).
    facts = cell(hazard_zone_height_mm=1400, devices=(_curtain(),))
    finding = only(MINIMUM_DISTANCE, facts)
    assert (finding.distance_mm, finding.required_mm) == (700, 512)
    assert finding.numbers == {"required_mm": 512, "t_ms": 320, "distance_mm": 700}
    _agree(finding)


def test_a_light_curtain_carries_its_distance_and_s_by_the_2024_edition():
    # D_DO 750 mm: S = 1600 × 0.32 + 750 = 1262 mm.
    facts = cell(
        editions=EDITION_2024,
        devices=(_curtain(reach_over_ddo_mm=750, distance_to_hazard_mm=1300),),
    )
    finding = only(MINIMUM_DISTANCE_2024, facts)
    assert finding.status is Status.PASS
    assert (finding.distance_mm, finding.required_mm) == (1300, 1262)
    assert list(finding.numbers) == [
        "required_mm",
        "t_ms",
        "z_mm",
        "d_ds_mm",
        "distance_mm",
    ]
    _agree(finding)


def test_a_scanner_by_the_2024_edition_carries_its_field_depth_as_distance():
    scanner = device(
        "sc1",
        "laser_scanner",
        response_time_ms=80,
        detection_capability_mm=70,
        field_height_mm=300,
        protective_field_mm=1900,
        supplement_z_mm=100,
    )
    facts = cell(robot_stopping_time_ms=400, editions=EDITION_2024, devices=(scanner,))
    finding = only(MINIMUM_DISTANCE_2024, facts)
    assert finding.status is Status.FAIL
    assert (finding.distance_mm, finding.required_mm) == (1900, 2068)
    _agree(finding)


def test_a_device_inside_the_zone_is_at_distance_0_not_unknown():
    facts = cell(hazard_zone_height_mm=1400, devices=(_curtain(),))
    inside = facts.model_copy(
        update={
            "devices": (
                facts.devices[0].model_copy(update={"inside_hazard_zone": True}),
            )
        }
    )
    finding = only(MINIMUM_DISTANCE, inside)
    assert finding.distance_mm == 0
    assert finding.required_mm is None
    _agree(finding)


def test_an_interlocked_door_carries_its_distance_and_s():
    facts = palletising_cell()
    (finding,) = INTERLOCK_DISTANCE.evaluate(facts)
    assert finding.distance_mm == 900
    assert finding.required_mm == finding.numbers["required_mm"] > 0
    _agree(finding)


@pytest.mark.parametrize("edition", ["2010", "2024"])
@pytest.mark.parametrize("country", ["KR", "DE", "US", "JP"])
def test_every_rule_hands_on_the_figures_it_shows(country, edition):
    for base in (palletising_cell(), machine_tending_cobot()):
        facts = base.model_copy(
            update={"country": country, "editions": EditionFacts(iso13855=edition)}
        )
        for rule in all_rules():
            for finding in rule.evaluate(facts):
                _agree(finding)


# --- one value, given once -------------------------------------------------------


def _finding(**figures) -> Finding:
    return Finding(
        rule_id="R-1",
        status=Status.FAIL,
        subject_key="s1",
        subject_label="S1",
        message="Message",
        citation="Clause 1",
        certainty=RuleCertainty.TO_BE_CONFIRMED,
        **figures,
    )


def test_a_figure_given_in_numbers_is_a_typed_field():
    finding = _finding(numbers={"height_mm": 1500, "t_ms": 3, "required_mm": 1800})
    assert (finding.height_mm, finding.required_mm) == (1500, 1800)
    assert list(finding.numbers) == ["height_mm", "t_ms", "required_mm"]


def test_a_figure_given_as_a_field_is_shown_in_numbers():
    finding = _finding(numbers={"t_ms": 3}, required_mm=512, distance_mm=0)
    assert finding.numbers == {"t_ms": 3, "required_mm": 512, "distance_mm": 0}


def test_the_same_figure_given_both_ways_is_one_figure():
    finding = _finding(numbers={"required_mm": 512}, required_mm=512)
    assert finding.numbers == {"required_mm": 512}


def test_a_figure_given_twice_with_two_values_is_refused():
    with pytest.raises(ValidationError, match="required_mm"):
        _finding(numbers={"required_mm": 512}, required_mm=600)


def test_a_finding_is_frozen():
    finding = _finding(required_mm=512)
    with pytest.raises(ValidationError):
        finding.required_mm = 600


# --- no reader outside the rules takes a figure by name ---------------------------


def _is_numbers(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "numbers"


def _by_name(node: ast.AST) -> bool:
    """f.numbers["required_mm"], f.numbers.get("required_mm"),
    "required_mm" in f.numbers, or getattr(f, "numbers") to do so."""
    if isinstance(node, ast.Subscript):
        return _is_numbers(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "get" and _is_numbers(node.func.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "getattr" and any(
            isinstance(a, ast.Constant) and a.value == "numbers" for a in node.args
        )
    if isinstance(node, ast.Compare):
        return any(isinstance(op, ast.In | ast.NotIn) for op in node.ops) and any(
            _is_numbers(c) for c in node.comparators
        )
    return False


def _reads_numbers_by_name(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree) if _by_name(node)]


def test_no_room_outside_the_rules_reads_a_figure_from_numbers_by_name():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for top in ("cells", "compliance", "config")
        for path in sorted((ROOT / top).rglob("*.py"))
        if "migrations" not in path.parts
        and not path.relative_to(ROOT).as_posix().startswith("compliance/rules/")
        for line in _reads_numbers_by_name(path)
    ]
    assert found == []
