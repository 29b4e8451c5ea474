"""ISO 12100 Annex B catalogue: the reference's groups, origins and consequences."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from compliance.assessment.hazards import catalogue
from compliance.assessment.hazards.catalogue import (
    ELEMENTS_OF_RISK,
    EXPOSED_PERSONS,
    HAZARD_GROUPS,
    LIFE_CYCLE_PHASES,
    THREE_STEP_METHOD,
    UnknownId,
)
from compliance.calculators.base import Certainty

ROOT = Path(__file__).resolve().parents[4]
SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


def _noop_strings(module) -> set[str]:
    """Every string literal passed to gettext_noop(...) in a module's source."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "gettext_noop"
        and isinstance(node.args[0], ast.Constant)
    }


def test_hazard_modules_import_no_django():
    code = (
        "import sys, compliance.assessment.hazards.catalogue, compliance.assessment.hazards.suggestions, "
        "compliance.assessment.hazards.risk; "
        "print(sorted(m for m in sys.modules if m.startswith('django')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "[]"


def test_catalogue_has_the_ten_annex_b_groups_in_order():
    assert [(g.number, g.id) for g in HAZARD_GROUPS] == [
        (1, "mechanical"),
        (2, "electrical"),
        (3, "thermal"),
        (4, "noise"),
        (5, "vibration"),
        (6, "radiation"),
        (7, "material_substance"),
        (8, "ergonomic"),
        (9, "environment"),
        (10, "combination"),
    ]


def test_catalogue_holds_every_origin_and_consequence_of_each_group():
    # Counts in iso12100_hazards.json; 84 origins as the SQL source says.
    assert [len(g.origins) for g in HAZARD_GROUPS] == [18, 9, 4, 9, 7, 4, 12, 10, 10, 1]
    assert sum(len(g.origins) for g in HAZARD_GROUPS) == 84
    assert [len(g.consequences) for g in HAZARD_GROUPS] == [
        13,
        8,
        6,
        8,
        6,
        5,
        10,
        5,
        5,
        1,
    ]


def test_catalogue_matches_the_reference_file_word_for_word(reference):
    ref = reference("iso12100_hazards.json")["hazard_groups"]
    assert len(HAZARD_GROUPS) == len(ref) == 10
    for ours, theirs in zip(HAZARD_GROUPS, ref, strict=True):
        assert ours.number == theirs["no"]
        assert ours.name == theirs["group"]
        assert [o.text for o in ours.origins] == theirs["typical_origins"]
        assert [c.text for c in ours.consequences] == theirs["potential_consequences"]
        assert ours.sources == tuple(theirs["source"])
        assert ours.note == theirs["note"]
        expected = (
            Certainty.TWO_SOURCES
            if theirs["confirmed_two_sources"]
            else Certainty.ONE_SOURCE
        )
        assert ours.certainty == expected


def test_three_step_method_and_elements_of_risk_match_the_reference_file(reference):
    ref = reference("iso12100_hazards.json")
    steps = ref["three_step_method"]["steps"]
    assert [(s.number, s.description, s.clause) for s in THREE_STEP_METHOD] == [
        (s["step"], s["name"], f"ISO 12100:2010, {s['clause']}") for s in steps
    ]
    for ours, theirs in zip(THREE_STEP_METHOD, steps, strict=True):
        assert ours.sources == tuple(theirs["source"])
    assert ref["three_step_method"]["process"] == catalogue.RISK_ASSESSMENT_PROCESS
    elements = ref["elements_of_risk"]
    assert ELEMENTS_OF_RISK.risk == elements["risk"]
    assert [e.text for e in ELEMENTS_OF_RISK.probability_elements] == elements[
        "probability_elements"
    ]
    assert ELEMENTS_OF_RISK.sources == tuple(elements["source"])
    assert ELEMENTS_OF_RISK.certainty == Certainty.TWO_SOURCES


def test_every_catalogue_id_is_a_slug_unique_within_its_list():
    for g in HAZARD_GROUPS:
        assert SLUG.match(g.id)
        for items in (g.origins, g.consequences):
            ids = [i.id for i in items]
            assert len(ids) == len(set(ids)), g.id
            assert all(SLUG.match(i) for i in ids), ids
    for choices in (LIFE_CYCLE_PHASES, EXPOSED_PERSONS, THREE_STEP_METHOD):
        ids = [c.id for c in choices]
        assert len(ids) == len(set(ids))
        assert all(SLUG.match(i) for i in ids)


def test_same_wording_in_two_groups_shares_one_id():
    by_text: dict[str, set[str]] = {}
    for g in HAZARD_GROUPS:
        for item in g.origins + g.consequences:
            by_text.setdefault(item.text, set()).add(item.id)
    assert {text: ids for text, ids in by_text.items() if len(ids) > 1} == {}
    assert catalogue.consequence("thermal", "burn").text == "burn"
    assert catalogue.consequence("radiation", "burn").text == "burn"


def test_every_catalogue_text_is_collected_for_translation():
    # The groups' texts are data (fixtures/), collected by makemessages from
    # fixture_messages(); the rest is marked in the code.
    marked = _noop_strings(catalogue) | set(catalogue.fixture_messages())
    texts = [g.name for g in HAZARD_GROUPS]
    for g in HAZARD_GROUPS:
        texts += [i.text for i in g.origins + g.consequences]
    texts += [c.label for c in LIFE_CYCLE_PHASES + EXPOSED_PERSONS]
    texts += [s.label for s in THREE_STEP_METHOD]
    texts += [s.description for s in THREE_STEP_METHOD]
    texts += [ELEMENTS_OF_RISK.risk]
    texts += [e.text for e in ELEMENTS_OF_RISK.probability_elements]
    assert [t for t in texts if t not in marked] == []


def test_lookups_find_catalogue_entries_by_id():
    assert catalogue.group("mechanical").number == 1
    assert catalogue.origin("mechanical", "moving_elements").text == "moving elements"
    assert catalogue.consequence("mechanical", "crushing").text == "crushing"
    assert catalogue.phase("setting_teaching").id == "setting_teaching"
    assert catalogue.exposed_person("maintenance_staff").id == "maintenance_staff"
    assert catalogue.step("safeguarding").clause == "ISO 12100:2010, 6.3"


@pytest.mark.parametrize(
    "lookup",
    [
        lambda: catalogue.group("chemical"),
        lambda: catalogue.origin("mechanical", "laser"),
        lambda: catalogue.origin("robotic", "moving_elements"),
        # crushing is a mechanical consequence, not an electrical one
        lambda: catalogue.consequence("electrical", "crushing"),
        lambda: catalogue.phase("running"),
        lambda: catalogue.exposed_person("robots"),
        lambda: catalogue.step("ppe"),
        lambda: catalogue.validate_group(""),
        lambda: catalogue.validate_origin("mechanical", "Moving elements"),
        lambda: catalogue.validate_consequence("mechanical", "burn"),
        lambda: catalogue.validate_phase("teaching"),
        lambda: catalogue.validate_exposed_person("visitors"),
        lambda: catalogue.validate_step("guarding"),
    ],
)
def test_unknown_id_raises_value_error(lookup):
    with pytest.raises(ValueError):
        lookup()
    with pytest.raises(UnknownId):
        lookup()


def test_validators_return_a_known_id_unchanged():
    assert catalogue.validate_group("thermal") == "thermal"
    assert catalogue.validate_origin("thermal", "flame") == "flame"
    assert catalogue.validate_consequence("thermal", "scald") == "scald"
    assert catalogue.validate_phase("cleaning") == "cleaning"
    assert catalogue.validate_exposed_person("others") == "others"
    assert catalogue.validate_step("information_for_use") == "information_for_use"


def test_life_cycle_phases_are_those_of_the_product_brief():
    assert [p.id for p in LIFE_CYCLE_PHASES] == [
        "transport",
        "assembly_installation",
        "commissioning",
        "setting_teaching",
        "operation",
        "cleaning",
        "fault_finding",
        "maintenance",
        "decommissioning",
    ]
    assert [p.id for p in EXPOSED_PERSONS] == [
        "operators",
        "maintenance_staff",
        "cleaners",
        "others",
    ]


def test_three_step_method_is_in_order_of_priority():
    assert [(s.number, s.id) for s in THREE_STEP_METHOD] == [
        (1, "inherently_safe_design"),
        (2, "safeguarding"),
        (3, "information_for_use"),
    ]
    assert [s.clause for s in THREE_STEP_METHOD] == [
        "ISO 12100:2010, 6.2",
        "ISO 12100:2010, 6.3",
        "ISO 12100:2010, 6.4",
    ]


def test_choices_pair_ids_with_english_labels():
    assert catalogue.group_choices()[0] == ("mechanical", "Mechanical")
    assert ("moving_elements", "moving elements") in catalogue.origin_choices(
        "mechanical"
    )
    assert ("scald", "scald") in catalogue.consequence_choices("thermal")
    assert len(catalogue.phase_choices()) == len(LIFE_CYCLE_PHASES)
    assert len(catalogue.exposed_person_choices()) == len(EXPOSED_PERSONS)
    assert [i for i, _ in catalogue.step_choices()] == [
        "inherently_safe_design",
        "safeguarding",
        "information_for_use",
    ]
    with pytest.raises(UnknownId):
        catalogue.origin_choices("nope")


def test_catalogue_entries_cannot_be_changed():
    with pytest.raises(AttributeError):
        HAZARD_GROUPS[0].name = "Changed"  # type: ignore[misc]
