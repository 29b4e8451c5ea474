"""Guarding concepts take the drawn cell's robot programs (issue 32): each
concept judges the same path by the same engine, so the collaborative
concept fails at the program's fast line near the operator while a slow
program keeps it within the permissible speed."""

from __future__ import annotations

import pytest

from cells.motion.services import motion_program_import
from cells.selectors import cell_with_layout
from compliance.concepts.models import GuardingConcept
from compliance.rules.results import cell_finding_list
from tests.compliance.concepts.test_collaborative import (
    _collaborative,
    _machine_tending,
)

pytestmark = pytest.mark.django_db


def program(speed_m_s: str) -> bytes:
    # From 1 m in front of the base to 1.6 m, past the loading station 2 m
    # from the base: the last 1.3 m run within its 850 mm reach.
    return (
        "def main():\n"
        "  movel(p[0.0, -0.30, 0.30, 0, 3.14, 0], a=1.2, v=0.25)\n"
        f"  movel(p[0.0, -1.60, 0.30, 0, 3.14, 0], a=1.2, v={speed_m_s})\n"
        "end\n"
    ).encode()


def _concept_pfl(owner, cell, kind):
    concept = GuardingConcept.objects.get(cell=cell, kind=kind)
    loaded = cell_with_layout(owner, concept.variant_id)
    return [f for f in cell_finding_list(loaded) if f.rule_id == "INTL-15066-pfl"]


def test_the_cobot_concept_judges_the_drawn_cells_program_at_its_line(
    owner, safety_engineer, cell
):
    _machine_tending(cell, safety_engineer, ["chest"])
    motion_program_import(
        cell=cell, actor=owner, data=program("1.0"), file_name="tend.script"
    )
    _body, cobot = _collaborative(owner, cell)
    (finding,) = _concept_pfl(owner, cell, "collaborative")
    assert finding.subject_label == "Robot program 1"
    assert finding.status == "fail"
    assert finding.values["line"] == 3
    assert finding.permissible_mm_s == pytest.approx(471.8, abs=0.1)
    # The comparison's speed is the program's worst segment, not the cell's
    # one programmed speed.
    assert cobot["speed"]["programmed_mm_s"] == 1000
    assert cobot["speed"]["status"] == "fail"


def test_a_slow_program_keeps_the_cobot_concept_within_the_speed(
    owner, safety_engineer, cell
):
    _machine_tending(cell, safety_engineer, ["chest"])
    motion_program_import(
        cell=cell, actor=owner, data=program("0.25"), file_name="tend.script"
    )
    _body, cobot = _collaborative(owner, cell)
    (finding,) = _concept_pfl(owner, cell, "collaborative")
    assert finding.status != "fail"
    assert cobot["speed"]["status"] != "fail"
    assert cobot["speed"]["programmed_mm_s"] == 250


def test_a_concepts_own_program_replaces_the_drawn_cells_for_it_alone(
    owner, safety_engineer, cell
):
    from compliance.concepts.services import concept_copy

    _machine_tending(cell, safety_engineer, ["chest"])
    motion_program_import(
        cell=cell, actor=owner, data=program("1.0"), file_name="tend.script"
    )
    _collaborative(owner, cell)
    concept = GuardingConcept.objects.get(cell=cell, kind="collaborative")
    copy = concept_copy(concept=concept, actor=owner)
    # The copy's programmer slows the move past the loading station.
    motion_program_import(
        cell=copy.variant, actor=owner, data=program("0.25"), file_name="slow.script"
    )
    mine = [
        f
        for f in cell_finding_list(cell_with_layout(owner, copy.variant_id))
        if f.rule_id == "INTL-15066-pfl"
    ]
    # Within 471.8 mm/s; no contact area is signed, so the pressure limit
    # waits for it: not a fail.
    (slow,) = mine
    assert slow.status == "needs_evidence"
    assert "pressure limit cannot be checked" in slow.message
    # The generated concept still runs the drawn cell's fast program.
    (theirs,) = _concept_pfl(owner, cell, "collaborative")
    assert theirs.status == "fail"
