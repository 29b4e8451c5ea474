"""ISO 13849-1:2023: each safety function reaches its PLr and is
validated; each safeguarding device is part of a specified safety function.

The PL a function reaches is computed from its subsystems
(``calculators.iso13849_verify``); its PLr is the highest PLr of the hazards
it mitigates in the latest signed revision. A function passes only when the
PL meets the PLr and every test of its validation plan is recorded as passed:
a calculation is a design figure, the validation is the evidence. Pure Python,
no Django.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import gettext_noop
from compliance.rules.findings import (
    REFERENCE_SET_DATE,
    Finding,
    Rule,
    RuleCertainty,
    Status,
)
from compliance.safety_functions.verification import function_status

if TYPE_CHECKING:
    from compliance.rules.facts import CellFacts

SOURCES = (vt.PLCS_CAT, vt.CODE_RG, vt.PIZZATO, vt.ROCKWELL_T20)

# The devices whose protective action is a safety function of its own.
SAFEGUARDING_KINDS = (
    "light_curtain",
    "multibeam",
    "safety_mat",
    "laser_scanner",
    "interlocked_door",
    "emergency_stop",
    "enabling_device",
)


def _check_functions(facts: CellFacts) -> list[Finding]:
    rule = FUNCTION_PL
    findings = []
    for function in facts.functions:
        values: dict[str, str | int | float] = {"label": function.label}
        numbers: dict[str, int | float] = {
            "tests_failed": function.tests_failed,
            "tests_missing": function.tests_missing,
        }
        if function.pl:
            values["pl"] = function.pl
        if function.plr:
            values["plr"] = function.plr
        status = function_status(
            pl=function.pl,
            plr=function.plr,
            failed=function.tests_failed,
            missing=function.tests_missing,
        )
        if status == "fail":
            if function.pl and function.plr and function.pl < function.plr:
                message = gettext_noop(
                    "%(label)s reaches PL %(pl)s, below the PLr %(plr)s of the "
                    "hazards it mitigates: improve its subsystems (category, "
                    "MTTFd, DCavg) or choose devices of a higher PL."
                )
            else:
                message = gettext_noop(
                    "A validation test of %(label)s failed: correct the function "
                    "and test it again (ISO 13849-1:2023, 10)."
                )
            findings.append(
                rule.finding(
                    Status.FAIL,
                    (function.key, function.label),
                    message,
                    values=values,
                    numbers=numbers,
                )
            )
            continue
        if function.pl is None:
            message = (
                gettext_noop(
                    "%(label)s has no subsystems: record its input, logic and "
                    "output so the PL it reaches can be computed."
                )
                if function.subsystem_count == 0
                else gettext_noop(
                    "The PL %(label)s reaches cannot be computed: complete its "
                    "subsystems' figures."
                )
            )
        elif function.plr is None:
            if function.plr_pending:
                values["pending"] = function.plr_pending
                message = gettext_noop(
                    "%(label)s reaches PL %(pl)s. Its PLr, %(pending)s, is only in "
                    "a draft revision of the risk assessment: sign it."
                )
            else:
                message = gettext_noop(
                    "%(label)s reaches PL %(pl)s, but no hazard of the signed risk "
                    "assessment is linked to it, so its PLr is not known."
                )
        elif function.tests_missing:
            message = gettext_noop(
                "%(label)s reaches PL %(pl)s, meeting the PLr %(plr)s by "
                "calculation, but its validation (ISO 13849-1:2023, 10) is not complete: "
                "tests of its plan without a passed record: %(missing)s."
            )
            values["missing"] = function.tests_missing
        else:
            message = gettext_noop(
                "%(label)s reaches PL %(pl)s, meeting the PLr %(plr)s, and its "
                "validation is recorded as passed."
            )
        findings.append(
            rule.finding(
                Status.PASS if status == "pass" else Status.NEEDS_EVIDENCE,
                (function.key, function.label),
                message,
                values=values,
                numbers=numbers,
                certainty=(
                    RuleCertainty.TO_BE_CONFIRMED if function.one_source else None
                ),
            )
        )
    covered = {f.device_key for f in facts.functions if f.device_key}
    for device in facts.devices_of(*SAFEGUARDING_KINDS):
        if device.key in covered:
            continue
        findings.append(
            rule.finding(
                Status.NEEDS_EVIDENCE,
                (device.key, device.label),
                gettext_noop(
                    "No safety function is specified for %(label)s: the PL it "
                    "reaches is not verified. Accept the proposed function on the "
                    "Safety functions tab, or add one."
                ),
                values={"label": device.label},
            )
        )
    return findings


FUNCTION_PL = Rule(
    id="INTL-13849-function",
    jurisdiction="INTL",
    citation="ISO 13849-1:2023, 6.1.8 (PL of a safety function); "
    "ISO 13849-1:2023, 10 (validation)",
    text=gettext_noop(
        "Each safety function reaches at least the performance level required (PLr) by "
        "the risk assessment, computed from its subsystems in series (category, MTTFd, "
        "DCavg, CCF, or the maker's PL and PFHd), and is validated by the tests of its "
        "validation plan. Each safeguarding device is part of a specified safety "
        "function."
    ),
    # The simplified procedure and category rules: two code reproductions.
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",
    sources=SOURCES,
    check=_check_functions,
)

FUNCTION_RULES: tuple[Rule, ...] = (FUNCTION_PL,)
