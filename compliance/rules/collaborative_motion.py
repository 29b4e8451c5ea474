"""Power and force limiting and speed and separation monitoring judged on the
robot's programs, segment by segment (issue 32), for the rules of
``compliance.rules.collaborative``: with a program imported, each program is
one finding of each rule, which its worst segment decides and which cites its
failing segments by line; without one, those rules check the programmed
speed as before.

A move the program gives by joint values cannot be placed without the
robot's kinematics: it is never a pass, and every finding of its program
says so. Pure Python, no Django.
"""

from __future__ import annotations

from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.ts15066_path import PathResult, SegmentResult
from compliance.rules.facts import CellFacts, DeviceFacts
from compliance.rules.findings import (
    Finding,
    Rule,
    Status,
    mm,
    number,
    pending_notes,
)
from compliance.rules.motion import (
    program_number,
    program_path,
    shortened_reach,
    signed_regions,
    station_labels,
)
from compliance.rules.motion_facts import ProgramFacts

# A finding lists this many segments by line; the Motion tab has them all.
MOST_LISTED = 12
PROGRAM_LABEL = gettext_noop("Robot program %(number)s")


def program_subject(facts: CellFacts, program: ProgramFacts) -> tuple[str, str]:
    """A program's finding subject: "Robot program 1" (its file's name is the
    SA's; ``rules.selectors.shown_subject`` translates this)."""
    return (program.key, f"Robot program {program_number(facts, program)}")


def lines_text(lines: list[int] | tuple[int, ...]) -> str:
    """ "3, 7, 12" or "3, 7, … (25 in all)"."""
    unique = list(dict.fromkeys(lines))
    shown = ", ".join(str(n) for n in unique[:MOST_LISTED])
    return shown if len(unique) <= MOST_LISTED else f"{shown}, … ({len(unique)})"


def _joint_moves(program: ProgramFacts) -> tuple[Line, ...]:
    lines = program.joint_move_lines
    if not lines:
        return ()
    return (
        Line(
            text=gettext_noop(
                "Not checked: the joint moves on lines %(lines)s cannot be placed "
                "on the plan without the robot's kinematics; they are to be "
                "verified in simulation, then measured on the real cell."
            ),
            values={"lines": lines_text(lines)},
        ),
    )


def _cycle(result: PathResult) -> Line:
    limited = result.cycle_time_limited_s
    return Line(
        text=gettext_noop(
            "Cycle time of the straight moves as programmed %(programmed)s s, "
            "with the failing segments slowed to the speed they may have "
            "%(limited)s s (speeds only: accelerations are not counted)"
        ),
        values={
            "programmed": f"{result.cycle_time_programmed_s:.2f}",
            "limited": "—" if limited is None else f"{limited:.2f}",
        },
    )


def _not_placed(
    rule: Rule, facts: CellFacts, program: ProgramFacts, why: str
) -> Finding:
    subject = program_subject(facts, program)
    if why == "no segment":
        return rule.finding(
            Status.NEEDS_EVIDENCE,
            subject,
            gettext_noop(
                "Robot program %(number)s has no straight move that can be placed "
                "on the plan: "
                "its path where people stand cannot be checked."
            ),
            values={"number": program_number(facts, program)},
            details=_joint_moves(program),
        )
    return rule.outside_coverage(subject, {"label": subject[1]}, why)


def _excess(segment: SegmentResult) -> float:
    """How far a failing segment is over the speed it may have."""
    return (segment.speed_mm_s or 0.0) - (segment.pfl_limit_mm_s or 0.0)


def pfl_program_finding(rule: Rule, facts: CellFacts, program: ProgramFacts) -> Finding:
    """One program judged for power and force limiting."""
    result, why = program_path(facts, program)
    if result is None:
        return _not_placed(rule, facts, program, why)
    subject = program_subject(facts, program)
    values: dict[str, str | int | float] = {"number": program_number(facts, program)}
    details: list[Line] = []
    numbers: dict[str, int | float] = {}
    joint = _joint_moves(program)
    in_zone = [s for s in result.segments if s.contact_stations]
    failing = [s for s in result.segments if s.pfl_verdict == "fail"]
    clamping = [s for s in result.segments if s.clamping_verdict == "measure"]
    unchecked = [s for s in result.segments if s.pfl_verdict == "not_checked"]
    notes: tuple[Line, ...] = ()
    if failing:
        worst = max(failing, key=_excess)
        values |= {
            "lines": lines_text([s.line for s in failing]),
            "line": worst.line,
            "speed": mm(worst.speed_mm_s or 0),
            "permissible": mm(worst.pfl_limit_mm_s or 0),
            "station": worst.pfl_station or "",
        }
        numbers = {
            "speed_mm_s": number(worst.speed_mm_s or 0),
            "permissible_mm_s": number(round(worst.pfl_limit_mm_s or 0, 1)),
        }
        status, message = (
            Status.FAIL,
            gettext_noop(
                "Robot program %(number)s moves faster than a person at an "
                "operator station may be touched, on lines %(lines)s. The worst, "
                "line %(line)s, moves at %(speed)s mm/s within reach of "
                "%(station)s, where %(permissible)s mm/s is permissible for "
                "transient contact. Those moves must be slowed to the speed each "
                "may have, or the path kept out of the station's reach."
            ),
        )
        for segment in sorted(failing, key=_excess, reverse=True)[:MOST_LISTED]:
            details.append(
                Line(
                    text=gettext_noop(
                        "Line %(line)s: %(speed)s mm/s within reach of %(station)s, "
                        "%(permissible)s mm/s permissible"
                    ),
                    values={
                        "line": segment.line,
                        "speed": mm(segment.speed_mm_s or 0),
                        "station": segment.pfl_station or "",
                        "permissible": mm(segment.pfl_limit_mm_s or 0),
                    },
                )
            )
    elif clamping:
        first = clamping[0]
        values |= {
            "lines": lines_text([s.line for s in clamping]),
            "obstacle": first.clamping_obstacle or "",
            "station": first.clamping_station or "",
        }
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "Robot program %(number)s moves toward %(obstacle)s within reach "
                "of %(station)s (lines %(lines)s): a person could be clamped "
                "there. Quasi-static contact gives no permissible speed: force and "
                "pressure must be measured on the real cell (ISO/PAS 5672), or the "
                "clamping point designed out."
            ),
        )
    elif unchecked:
        values["lines"] = lines_text([s.line for s in unchecked])
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "Robot program %(number)s passes within reach of an operator "
                "station on lines "
                "%(lines)s, which cannot be checked: the program gives no speed "
                "there, or no body region is recorded as exposed at the station."
            ),
        )
    elif not facts.stations:
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "Robot program %(number)s cannot be checked where people stand: "
                "no operator "
                "station is drawn on the plan."
            ),
        )
    elif joint:
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "Robot program %(number)s: its straight moves are within the "
                "permissible speeds "
                "where people stand, but it has joint moves that are not checked."
            ),
        )
    elif not in_zone:
        values["stations"] = ", ".join(s.label for s in result.stations)
        status, message = (
            Status.PASS,
            gettext_noop(
                "Robot program %(number)s never comes within reach of an operator "
                "station "
                "(%(stations)s): power and force limiting sets no speed on its "
                "path."
            ),
        )
    else:
        lowest = min(
            (s for s in in_zone if s.pfl_limit_mm_s is not None),
            key=lambda s: s.pfl_limit_mm_s or 0.0,
            default=None,
        )
        values |= {
            "permissible": mm(lowest.pfl_limit_mm_s or 0) if lowest else "—",
            "station": (lowest.pfl_station or "") if lowest else "",
        }
        if lowest is not None:
            numbers = {
                "speed_mm_s": number(lowest.speed_mm_s or 0),
                "permissible_mm_s": number(round(lowest.pfl_limit_mm_s or 0, 1)),
            }
        if not signed_regions(facts):
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "Robot program %(number)s keeps within the permissible speeds "
                    "on every segment within reach of a station, for the body "
                    "regions recorded at the stations; the signed risk assessment "
                    "does not yet name the regions that may be contacted."
                ),
            )
            notes = pending_notes(facts.assessment, "contact_regions")
        elif not result.pressure_checked:
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "Robot program %(number)s keeps within the %(permissible)s mm/s "
                    "the force limit permits near %(station)s, but the pressure "
                    "limit cannot be checked: the contact area (the tool's smallest "
                    "edge) is not recorded in the risk assessment."
                ),
            )
        else:
            status, message = (
                Status.PASS,
                gettext_noop(
                    "Robot program %(number)s keeps within the permissible speed on "
                    "every segment within reach of a station (the lowest, "
                    "%(permissible)s mm/s near %(station)s). It is still to be "
                    "measured on the real cell."
                ),
            )
    if status == Status.PASS and shortened_reach(facts):
        status, message = _reach_entered(facts, program, values, status, message)
    details.append(_cycle(result))
    return rule.from_result(
        status,
        subject,
        message,
        result,
        values=values,
        numbers=numbers,
        details=(*details, *joint),
        notes=notes,
    )


def _reach_entered(
    facts: CellFacts,
    program: ProgramFacts,
    values: dict[str, str | int | float],
    status: Status,
    message: str,
) -> tuple[Status, str]:
    """A pass that holds only with a contact reach entered shorter than ISO
    13855's 850 mm is not a pass: nothing signed records why a person there
    reaches less far. (Judged again with the default reach for those.)"""
    cautious, _why = program_path(facts, program, cautious=True)
    flagged = (
        [
            s.line
            for s in cautious.segments
            if s.pfl_verdict != "pass" or s.clamping_verdict != "pass"
        ]
        if cautious is not None
        else []
    )
    if cautious is not None and not flagged:
        return status, message
    labels = station_labels(facts)
    values |= {
        "stations": ", ".join(labels[s.key] for s in shortened_reach(facts)),
        "lines": lines_text(flagged) if flagged else "—",
    }
    return Status.NEEDS_EVIDENCE, gettext_noop(
        "Robot program %(number)s keeps within the permissible speeds only with "
        "the contact reach entered at %(stations)s, shorter than the 850 mm of "
        "ISO 13855; at 850 mm, lines %(lines)s would not pass. The shorter reach "
        "is to be justified in the risk assessment and confirmed on the real "
        "cell."
    )


def ssm_program_finding(
    rule: Rule,
    facts: CellFacts,
    program: ProgramFacts,
    scanner: DeviceFacts,
    relies_on: tuple[str, ...],
) -> Finding:
    """One program judged for speed and separation monitoring with one
    scanner: S_p at each segment's speed against the distance to each
    station and to the protective field's boundary."""
    result, why = program_path(facts, program, scanner)
    if result is None:
        return _not_placed(rule, facts, program, why)
    program_label = program_subject(facts, program)[1]
    subject = (
        f"{program.key}:{scanner.key}",
        f"{program_label}, {scanner.label}",
    )
    values: dict[str, str | int | float] = {
        "number": program_number(facts, program),
        "label": scanner.label,
    }
    failing = [s for s in result.segments if s.ssm_verdict == "fail"]
    unchecked = [
        s
        for s in result.segments
        if s.ssm_verdict == "not_checked" and s.speed_mm_s is None
    ]
    joint = _joint_moves(program)
    details: list[Line] = []
    numbers: dict[str, int | float] = {}
    if failing:
        worst = max(failing, key=lambda s: s.ssm_shortfall_mm or 0.0)
        target = worst.ssm_target or ""
        values |= {
            "lines": lines_text([s.line for s in failing]),
            "line": worst.line,
            "speed": mm(worst.speed_mm_s or 0),
            "required": mm(round(worst.ssm_separation_mm or 0)),
            "target": target,
            "shortfall": mm(round(worst.ssm_shortfall_mm or 0)),
        }
        numbers = {
            "speed_mm_s": number(worst.speed_mm_s or 0),
            "required_mm": round(worst.ssm_separation_mm or 0),
            "shortfall_mm": round(worst.ssm_shortfall_mm or 0),
        }
        message = (
            gettext_noop(
                "Robot program %(number)s comes too close to %(target)s for its "
                "speed on lines %(lines)s. The worst, line %(line)s at %(speed)s "
                "mm/s, needs a protective separation distance S_p of %(required)s "
                "mm with %(label)s and is short by %(shortfall)s mm. Those moves "
                "must be slowed, or the path kept farther from the station."
            )
            if worst.ssm_target_kind == "station"
            else gettext_noop(
                "Robot program %(number)s runs too close to the boundary of "
                "%(label)s's protective field for its speed on lines %(lines)s. "
                "The worst, line %(line)s at %(speed)s mm/s, needs S_p of "
                "%(required)s mm and is short by %(shortfall)s mm. Those moves must "
                "be slowed, or the protective field widened."
            )
        )
        status = Status.FAIL
        for segment in sorted(
            failing, key=lambda s: s.ssm_shortfall_mm or 0.0, reverse=True
        )[:MOST_LISTED]:
            details.append(
                Line(
                    text=gettext_noop(
                        "Line %(line)s: %(speed)s mm/s, S_p %(required)s mm, short "
                        "of %(target)s by %(shortfall)s mm"
                    ),
                    values={
                        "line": segment.line,
                        "speed": mm(segment.speed_mm_s or 0),
                        "required": mm(round(segment.ssm_separation_mm or 0)),
                        "target": segment.ssm_target or "",
                        "shortfall": mm(round(segment.ssm_shortfall_mm or 0)),
                    },
                )
            )
    elif unchecked:
        values["lines"] = lines_text([s.line for s in unchecked])
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "Robot program %(number)s: the separation on lines %(lines)s "
                "cannot be checked "
                "with %(label)s: the program gives no speed there."
            ),
        )
    elif result.ssm_complete is False:
        values["terms"] = ", ".join(result.ssm_unverified_terms)
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "Robot program %(number)s keeps S_p with %(label)s on every "
                "segment so far, but "
                "S_p is incomplete: %(terms)s not recorded (taken as 0)."
            ),
        )
    elif joint:
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "Robot program %(number)s keeps S_p with %(label)s on its straight "
                "moves, but "
                "it has joint moves that are not checked."
            ),
        )
    else:
        status, message = (
            Status.PASS,
            gettext_noop(
                "Robot program %(number)s keeps the protective separation distance "
                "S_p with "
                "%(label)s on every segment, from each operator station and from "
                "the boundary of the protective field."
            ),
        )
    details.append(_cycle(result))
    return rule.from_result(
        status,
        subject,
        message,
        result,
        values=values,
        numbers=numbers,
        details=(*details, *joint),
    ).model_copy(update={"relies_on": relies_on})
