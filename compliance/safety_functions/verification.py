"""The verdict on one safety function: its PLr, the PL its subsystems reach
(ISO 13849-1, computed by ``calculators.iso13849_verify``) and its
validation record (ISO 13849-1:2023, Clause 10, which takes in ISO 13849-2's
validation requirements).

Pass needs all three: a PLr from the signed risk assessment, a computed PL at
least as high, and every test of the validation plan recorded as passed for
the function as it is now. A calculation alone is a design figure, not
evidence: without the validation the function needs evidence; a draft
assessment's PLr changes no verdict; a test recorded before the function's
subsystems, devices or settings changed counts no more.

A subsystem that is a device of the cell is judged with what that device is:
a sensing device (ESPE) serves no higher PL than its IEC 61496 type allows,
and without a type recorded its PL cannot be confirmed; the maker's PL typed
on the subsystem counts no higher than the PL the device claims. The device
the function is for must be one of its subsystems, or the PL computed is not
that device's. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import ValidationError

from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13849_ceilings import (
    PlCeiling,
    claimed_pl_ceiling,
    espe_type_ceiling,
)
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


# The cell's device kinds that are electro-sensitive protective equipment
# tested to IEC 61496 (light curtains and grids: part 2; laser scanners: part
# 3). A pressure-sensitive mat is not: it is ISO 13856-1.
ESPE_KINDS = ("light_curtain", "multibeam", "laser_scanner")
# The device kinds whose detection or actuation starts a safety function:
# the function for one of them must have it among its subsystems.
TRIGGER_KINDS = (
    *ESPE_KINDS,
    "safety_mat",
    "interlocked_door",
    "emergency_stop",
    "enabling_device",
)
# The routes whose PL is the maker's, typed on the subsystem.
MAKER_ROUTES = ("certified", "pl_only")

UNTYPED_ESPE = gettext_noop(
    "The sensing device's IEC 61496 type is not recorded, so the highest PL it "
    "serves (Type 2: PL c, Type 3: PL d, Type 4: PL e) cannot be confirmed."
)
DEVICE_NOT_IN_CHAIN = gettext_noop(
    "The device this safety function is for is none of its subsystems, so the "
    "PL computed is not that device's."
)


@dataclass(frozen=True)
class FunctionDevice:
    """The device of the cell a function is for (``SafetyFunction.device``)."""

    pk: int
    label: str
    kind: str


@dataclass(frozen=True)
class SubsystemData:
    """A subsystem's figures as recorded (``Subsystem``), in the order of the
    chain, with the cell device it is, if one is linked (``device_*``)."""

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
    device_pk: int | None = None
    device_label: str = ""
    device_kind: str = ""
    device_claimed_pl: str = ""
    iec61496_type: int | None = None

    @property
    def untyped_espe(self) -> bool:
        return self.device_kind in ESPE_KINDS and self.iec61496_type is None


def ceilings_of(data: SubsystemData) -> tuple[PlCeiling, ...]:
    """What the cell device a subsystem is allows it at most: its IEC 61496
    type if it is a sensing device (ESPE), and the PL the device claims where
    the subsystem takes the maker's PL."""
    ceilings = []
    if data.device_kind in ESPE_KINDS and data.iec61496_type is not None:
        ceilings.append(espe_type_ceiling(data.iec61496_type))
    if data.device_claimed_pl and data.route in MAKER_ROUTES:
        ceilings.append(
            claimed_pl_ceiling(
                data.device_claimed_pl,  # type: ignore[arg-type]
                data.device_label,
            )
        )
    return tuple(ceilings)


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
    """What keeps a subsystem's PL from being computed or confirmed: the
    calculator's own messages (English templates), a sensing device without
    its type, or nothing."""
    problems = []
    try:
        SubsystemInput.model_validate(subsystem_input(data))
    except ValidationError as exc:
        problems = [str(e.get("ctx", {}).get("error", e["msg"])) for e in exc.errors()]
    if data.untyped_espe:
        problems.append(UNTYPED_ESPE)
    return problems


def chain_problems(
    subsystems: Sequence[SubsystemData], device: FunctionDevice | None
) -> tuple[tuple[int, str], ...]:
    """What keeps the chain's PL from being the function's: each subsystem's
    problems, and the function's device missing from the chain (shown at the
    first input)."""
    problems = [
        (index, message)
        for index, data in enumerate(subsystems)
        for message in subsystem_problems(data)
    ]
    if (
        device is not None
        and device.kind in TRIGGER_KINDS
        and subsystems
        and not any(s.device_pk == device.pk for s in subsystems)
    ):
        first_input = next(
            (i for i, s in enumerate(subsystems) if s.role == "input"), 0
        )
        problems.append((first_input, DEVICE_NOT_IN_CHAIN))
    return tuple(sorted(problems, key=lambda p: p[0]))


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
    # Tests of the plan recorded only for an earlier version of the function
    # (counted among the missing).
    tests_outdated: tuple[str, ...] = ()

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
    device: FunctionDevice | None = None,
    outdated: Sequence[str] = (),
) -> FunctionVerdict:
    """The verdict on one function. ``outcomes`` holds the latest outcome per
    test kind ("passed" / "failed") recorded for the function as it is now;
    ``outdated`` the test kinds recorded only for an earlier version of it;
    ``device`` the cell device the function is for."""
    reasons: list[Line] = []
    problems = chain_problems(subsystems, device)
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
        messages = {message for _index, message in problems}
        if messages - {UNTYPED_ESPE, DEVICE_NOT_IN_CHAIN}:
            reasons.append(
                Line(
                    text=gettext_noop(
                        "The PL cannot be computed until every subsystem's figures "
                        "are complete and valid."
                    )
                )
            )
        reasons.extend(
            Line(text=message)
            for message in (UNTYPED_ESPE, DEVICE_NOT_IN_CHAIN)
            if message in messages
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
                ceilings=[ceilings_of(s) for s in subsystems],
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
    stale = tuple(k for k in missing if k in outdated)

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
    if stale:
        reasons.append(
            Line(
                text=gettext_noop(
                    "Validation tests were recorded for an earlier version of the "
                    "function: its subsystems, devices or settings have changed "
                    "since, so those tests count only once performed again "
                    "(ISO 13849-1:2023, 10)."
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
        tests_outdated=stale,
    )
