"""The verdict on one safety function: its PLr, the PL its subsystems reach
(ISO 13849-1, computed by ``calculators.iso13849_verify``) and its
validation record (ISO 13849-1:2023, Clause 10, which takes in ISO 13849-2's
validation requirements).

Pass needs all three: a PLr from the signed risk assessment, a computed PL at
least as high, and every test of the validation plan recorded as passed. A
calculation alone is a design figure, not evidence: without the validation the
function needs evidence; a draft assessment's PLr changes no verdict. Pure
Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import ValidationError

from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13849_k1 import K1Table
from compliance.calculators.iso13849_verify import (
    PlVerifyInput,
    PlVerifyResult,
    SubsystemInput,
    pl_verify,
)
from compliance.safety_functions.documents import ValidationTest

Status = Literal["pass", "fail", "needs_evidence"]

# The fields of a subsystem that each route reads.
ROUTE_FIELDS = {
    "certified": ("pl", "pfhd_per_hour"),
    "pl_only": ("pl",),
    "designed": (
        "category",
        "mttfd_years",
        "mttfd_channel2_years",
        "b10d_cycles",
        "days_per_year",
        "hours_per_day",
        "cycle_time_s",
        "dcavg_percent",
        "ccf_measures",
    ),
}


@dataclass(frozen=True)
class SubsystemData:
    """A subsystem's figures as recorded (``Subsystem``), in the order of the
    chain."""

    role: str
    label: str
    route: str
    pl: str = ""
    pfhd_per_hour: float | None = None
    category: str = ""
    mttfd_years: float | None = None
    mttfd_channel2_years: float | None = None
    b10d_cycles: float | None = None
    days_per_year: float | None = None
    hours_per_day: float | None = None
    cycle_time_s: float | None = None
    dcavg_percent: float | None = None
    ccf_measures: tuple[str, ...] = ()


def subsystem_input(data: SubsystemData) -> dict:
    """The calculator's input for one subsystem: only the fields of its route,
    blanks left out, so the calculator judges exactly what was recorded."""
    values: dict = {"label": data.label}
    for name in ROUTE_FIELDS.get(data.route, ()):
        value = getattr(data, name)
        if value in (None, "", ()):
            continue
        values[name] = list(value) if isinstance(value, tuple) else value
    return values


def subsystem_problems(data: SubsystemData) -> list[str]:
    """What keeps a subsystem's PL from being computed: the calculator's own
    messages (English templates), or nothing."""
    try:
        SubsystemInput.model_validate(subsystem_input(data))
    except ValidationError as exc:
        return [str(e.get("ctx", {}).get("error", e["msg"])) for e in exc.errors()]
    return []


def function_status(
    *, pl: str | None, plr: str | None, failed: int, missing: int
) -> Status:
    """The verdict on a function from what decides it: the PL reached, the
    PLr of the signed revision, and its validation tests failed or not yet
    passed. The findings' rule and the pages decide by this one function."""
    if failed or (pl is not None and plr is not None and pl < plr):
        return "fail"
    if pl is None or plr is None or missing:
        return "needs_evidence"
    return "pass"


@dataclass(frozen=True)
class PlrBasis:
    """Where a function's PLr comes from: the highest PLr of the hazards it
    mitigates, in the signed revision (or, pending, in a newer draft)."""

    plr: str | None
    hazards: tuple[tuple[str, str], ...] = ()  # (hazard label, its PLr)
    revision: int | None = None
    signed: bool = False


@dataclass(frozen=True)
class FunctionVerdict:
    status: Status
    plr: PlrBasis
    result: PlVerifyResult | None
    reasons: tuple[Line, ...]
    problems: tuple[tuple[int, str], ...] = ()  # (subsystem index, message)
    tests_passed: tuple[str, ...] = ()
    tests_missing: tuple[str, ...] = ()
    tests_failed: tuple[str, ...] = ()

    @property
    def pl(self) -> str | None:
        return self.result.pl if self.result else None


def verify_function(
    subsystems: Sequence[SubsystemData],
    plr: PlrBasis,
    *,
    plan: Sequence[ValidationTest],
    outcomes: Mapping[str, str],
    k1: K1Table | None = None,
) -> FunctionVerdict:
    """The verdict on one function. ``outcomes`` holds the latest recorded
    outcome per test kind ("passed" / "failed")."""
    reasons: list[Line] = []
    problems = tuple(
        (index, message)
        for index, data in enumerate(subsystems)
        for message in subsystem_problems(data)
    )
    result = None
    if not subsystems:
        reasons.append(
            Line(
                text=gettext_noop(
                    "No subsystems are recorded: add the input, logic and output "
                    "that carry the function, so its PL can be computed."
                )
            )
        )
    elif problems:
        reasons.append(
            Line(
                text=gettext_noop(
                    "The PL cannot be computed until every subsystem's figures "
                    "are complete and valid."
                )
            )
        )
    else:
        try:
            result = pl_verify(
                PlVerifyInput(
                    subsystems=tuple(
                        SubsystemInput.model_validate(subsystem_input(s))
                        for s in subsystems
                    ),
                    plr=plr.plr if plr.signed else None,
                ),
                k1,
            )
        except ValidationError as exc:
            # Valid subsystems whose chain the standard refuses: a series
            # below PL a, or one the series table does not permit.
            reasons.append(
                Line(
                    text=gettext_noop("The PL cannot be computed: %(why)s"),
                    values={
                        "why": " ".join(
                            str(e.get("ctx", {}).get("error", e["msg"]))
                            for e in exc.errors()
                        )
                    },
                )
            )
    required = tuple(test.kind for test in plan)
    failed = tuple(k for k in required if outcomes.get(k) == "failed")
    passed = tuple(k for k in required if outcomes.get(k) == "passed")
    missing = tuple(k for k in required if k not in outcomes)

    signed_plr = plr.plr if plr.signed else None
    status = function_status(
        pl=result.pl if result else None,
        plr=signed_plr,
        failed=len(failed),
        missing=len(missing),
    )
    if plr.plr is None:
        reasons.append(
            Line(
                text=gettext_noop(
                    "No PLr: link the hazards of the risk assessment this function "
                    "mitigates, with their risk estimated."
                )
            )
        )
    elif not plr.signed:
        reasons.append(
            Line(
                text=gettext_noop(
                    "The PLr %(plr)s comes from a draft revision of the risk "
                    "assessment: a draft changes no verdict until it is signed."
                ),
                values={"plr": plr.plr},
            )
        )
    if result is not None and signed_plr is not None and result.pl < signed_plr:
        reasons.insert(
            0,
            Line(
                text=gettext_noop("The PL reached, %(pl)s, is below the PLr %(plr)s."),
                values={"pl": result.pl, "plr": signed_plr},
            ),
        )
    if failed:
        reasons.append(
            Line(
                text=gettext_noop(
                    "A validation test failed: correct the function and test it "
                    "again (ISO 13849-1:2023, 10)."
                )
            )
        )
    if status != "fail" and result is not None and signed_plr is not None:
        if missing:
            reasons.append(
                Line(
                    text=gettext_noop(
                        "PL %(pl)s meets the PLr %(plr)s by calculation; the "
                        "validation (ISO 13849-1:2023, 10) is not yet recorded as passed "
                        "for every test of the plan."
                    ),
                    values={"pl": result.pl, "plr": signed_plr},
                )
            )
        else:
            reasons.append(
                Line(
                    text=gettext_noop(
                        "PL %(pl)s meets the PLr %(plr)s, and every test of the "
                        "validation plan is recorded as passed."
                    ),
                    values={"pl": result.pl, "plr": signed_plr},
                )
            )
    return FunctionVerdict(
        status=status,
        plr=plr,
        result=result,
        reasons=tuple(reasons),
        problems=problems,
        tests_passed=passed,
        tests_missing=missing,
        tests_failed=failed,
    )
