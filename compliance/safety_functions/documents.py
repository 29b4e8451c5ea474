"""The documents of a safety function: its safety requirements specification
(ISO 13849-1:2023, 5.2) and its validation plan (ISO 13849-1:2023, 10).

The specification states what the function does, its trigger and reaction,
the PLr, the stop category, the response time the minimum distance allows,
and its reset and restart. The plan lists the tests that validate it, each
with what to do and what to record. Pure Python, no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from compliance.calculators.base import Line, gettext_noop

SRS_CLAUSE = "ISO 13849-1:2023, 5.2 (safety requirements specification)"
VALIDATION_CLAUSE = "ISO 13849-1:2023, 10 (validation)"


@dataclass(frozen=True)
class ValidationTest:
    """One test of a validation plan: what to do and what to record."""

    kind: str  # ValidationTestKind value
    title: str  # marked for translation
    procedure: str  # marked for translation
    record: str  # marked for translation: what the result must state


FUNCTION_TEST = ValidationTest(
    kind="function",
    title=gettext_noop("Functional test of the safety function"),
    procedure=gettext_noop(
        "Trigger the function in every operating mode it covers and check that "
        "the reaction is the one specified, at every access point it guards."
    ),
    record=gettext_noop("Each trigger tried and the reaction observed."),
)
STOPPING_TIME = ValidationTest(
    kind="stopping_time",
    title=gettext_noop("Stopping-time measurement"),
    procedure=gettext_noop(
        "Measure the overall stopping time from the trigger to standstill at the "
        "highest speed and payload the cell uses, with a stopping-time meter; "
        "repeat and take the longest."
    ),
    record=gettext_noop(
        "The longest overall stopping time in ms, compared with the time the "
        "minimum distance (ISO 13855) was computed from."
    ),
)
FAULT_INJECTION = ValidationTest(
    kind="fault_injection",
    title=gettext_noop("Fault injection"),
    procedure=gettext_noop(
        "Simulate the faults the category must detect (a channel open or short "
        "circuit, a cross circuit between channels, a welded contact) and check "
        "that each is detected and leads to the safe state."
    ),
    record=gettext_noop("Each fault injected and whether it was detected."),
)
RESET_RESTART = ValidationTest(
    kind="reset_restart",
    title=gettext_noop("Reset and restart"),
    procedure=gettext_noop(
        "Check that after the function has acted the robot does not restart on "
        "its own, that reset needs a deliberate action from a place with a view "
        "of the safeguarded space, and that reset alone does not start motion."
    ),
    record=gettext_noop(
        "Whether restart was prevented and reset behaved as specified."
    ),
)
MUTING = ValidationTest(
    kind="muting",
    title=gettext_noop("Muting"),
    procedure=gettext_noop(
        "Check that muting happens only in the specified sequence and time window, "
        "that a person cannot pass while muted, and that the muting lamp works."
    ),
    record=gettext_noop("Each muting sequence tried and the result."),
)
CONTACT_MEASUREMENT = ValidationTest(
    kind="function",
    title=gettext_noop("Force and pressure measurement"),
    procedure=gettext_noop(
        "Measure the contact force and pressure at each body region the risk "
        "assessment names, at the programmed speeds, with a force and pressure "
        "measuring device (ISO/TS 15066), and compare with the limits."
    ),
    record=gettext_noop(
        "Each body region, the force and pressure measured, the limit."
    ),
)

# A stopping time as a person writes it: "280 ms", "280", "0.28 s", "0,28 s".
_TIME = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*(ms|s)?\s*$", re.IGNORECASE)


def measured_time_ms(text: str) -> float | None:
    """The time a stopping-time record states, in ms (a bare number is ms),
    or None when the text is not one time."""
    found = _TIME.match(text or "")
    if found is None:
        return None
    value = float(found.group(1).replace(",", "."))
    return value * 1000 if (found.group(2) or "").lower() == "s" else value


# Safeguards whose protective distance rests on the stopping time.
DISTANCE_SAFEGUARDS = {"guarded_opening", "door_interlock", "scanner_field"}


def validation_plan(
    *, safeguard: str, collaborative_mode: str = "", uses_muting: bool = False
) -> tuple[ValidationTest, ...]:
    """The tests that validate a function of this kind."""
    first = (
        CONTACT_MEASUREMENT
        if safeguard == "collaborative_limit" and collaborative_mode == "pfl"
        else FUNCTION_TEST
    )
    tests = [first]
    if safeguard in DISTANCE_SAFEGUARDS or collaborative_mode == "ssm":
        tests.append(STOPPING_TIME)
    tests.append(FAULT_INJECTION)
    tests.append(RESET_RESTART)
    if uses_muting:
        tests.append(MUTING)
    return tuple(tests)


def specification_gaps(
    *,
    trigger: str,
    reaction: str,
    plr: str | None,
    stop_category: str,
    required_response_time_ms: int | None,
    reset_behaviour: str,
    restart_behaviour: str,
    safeguard: str,
) -> tuple[Line, ...]:
    """What the specification still lacks, for a page or the PDF to say."""
    gaps: list[Line] = []
    if not trigger.strip() or not reaction.strip():
        gaps.append(Line(text=gettext_noop("State the trigger and the reaction.")))
    if plr is None:
        gaps.append(
            Line(
                text=gettext_noop(
                    "No PLr: link the hazards of the risk assessment it mitigates."
                )
            )
        )
    if not stop_category:
        gaps.append(Line(text=gettext_noop("State the stop category (IEC 60204-1).")))
    if required_response_time_ms is None and safeguard in DISTANCE_SAFEGUARDS:
        gaps.append(
            Line(
                text=gettext_noop(
                    "State the response time the minimum distance (ISO 13855) allows."
                )
            )
        )
    if not reset_behaviour.strip() or not restart_behaviour.strip():
        gaps.append(
            Line(text=gettext_noop("State the reset and the restart behaviour."))
        )
    return tuple(gaps)
