"""The robot programs of a collaborative cell as the plans and the proposal
read them (issue 32): each program's path judged where people are, for the
modes the cell uses, and the lines to verify before the real cell is
measured. Judged by ``compliance.rules.motion.program_path``, as the findings
are, so they agree.

Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from typing import Literal

from compliance.calculators.ts15066_path import PathResult
from compliance.plan.inputs import ProgramCheck
from compliance.rules.facts import CellFacts
from compliance.rules.motion import program_number, program_path
from compliance.rules.motion_facts import ProgramFacts

Mode = Literal["pfl", "ssm"]


def judged_paths(
    facts: CellFacts, program: ProgramFacts
) -> list[tuple[Mode, PathResult]]:
    """The program's path judged for each collaborative mode of the cell
    that judges paths: power and force limiting once, speed and separation
    monitoring once per scanner placed on the plan (as the rules judge it);
    none for a path that cannot be judged (the findings say why)."""
    judged: list[tuple[Mode, PathResult]] = []
    if "pfl" in facts.collaborative_modes:
        result, _why = program_path(facts, program)
        if result is not None:
            judged.append(("pfl", result))
    if "ssm" in facts.collaborative_modes and facts.layout is not None:
        for scanner in facts.devices_of("laser_scanner"):
            if scanner.position_mm is None:
                continue
            result, _why = program_path(facts, program, scanner)
            if result is not None:
                judged.append(("ssm", result))
    return judged


def program_check(facts: CellFacts, program: ProgramFacts) -> ProgramCheck:
    """The lines of ``program`` to verify: those failing for a mode, those to
    measure for clamping, and its joint moves."""
    failing: set[int] = set()
    measure: set[int] = set()
    for mode, result in judged_paths(facts, program):
        for segment in result.segments:
            if mode == "pfl":
                if segment.pfl_verdict == "fail":
                    failing.add(segment.line)
                if segment.clamping_verdict == "measure":
                    measure.add(segment.line)
            elif segment.ssm_verdict == "fail":
                failing.add(segment.line)
    return ProgramCheck(
        number=program_number(facts, program),
        failing_lines=tuple(sorted(failing)),
        measure_lines=tuple(sorted(measure - failing)),
        joint_lines=tuple(sorted(set(program.joint_move_lines))),
    )


def program_checks(facts: CellFacts) -> tuple[ProgramCheck, ...]:
    """Each program's lines to verify, for a cell collaborating by power and
    force limiting or by speed and separation monitoring (a fenced cell's
    programs meet no one): every program, flagged or not."""
    if not {"pfl", "ssm"} & set(facts.collaborative_modes):
        return ()
    return tuple(program_check(facts, program) for program in facts.programs)
