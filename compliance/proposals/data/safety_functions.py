"""The safety-functions section of a proposal: each function with its
verdict, the PL its subsystems reach and the working, its specification
(ISO 13849-1 SRS) and its validation plan with the results recorded."""

from __future__ import annotations

from django.utils.translation import gettext as _

from compliance.calculators.presentation import shown_citation
from compliance.calculators.written import field_shown
from compliance.proposals.pdf.data import (
    PfhdFigure,
    PlannedTest,
    PlrSource,
    Row,
    SafetyFunctionRow,
    Specification,
    SubsystemRow,
    ValidationResult,
)
from compliance.safety_functions import documents
from compliance.safety_functions import selectors as function_selectors
from compliance.safety_functions.documents import SRS_CLAUSE, VALIDATION_CLAUSE


def safety_function_rows(rows) -> tuple[SafetyFunctionRow, ...]:
    """The cell's safety functions with their verdicts, fails first."""
    return tuple(_function(row) for row in rows)


def _pfhd(result, basis: str) -> PfhdFigure:
    """A calculator's PFHd: its point, or else its range."""
    if result.pfhd_per_hour is not None:
        return PfhdFigure(basis=basis, per_hour=result.pfhd_per_hour)
    return PfhdFigure(
        basis="pl_range",
        low_per_hour=result.pfhd_min_per_hour,
        high_per_hour=result.pfhd_max_per_hour,
    )


def _function(row: function_selectors.FunctionRow) -> SafetyFunctionRow:
    function, verdict = row.function, row.verdict
    result = verdict.result
    computed = result.subsystems if result else ()
    problems: dict[int, list[str]] = {}
    for index, message in verdict.problems:
        problems.setdefault(index, []).append(_(message))
    subsystems = []
    for index, subsystem in enumerate(row.subsystems):
        done = computed[index] if index < len(computed) else None
        subsystems.append(
            SubsystemRow(
                role=subsystem.role,
                role_label=subsystem.get_role_display(),
                label=field_shown(subsystem, "label", _),
                route=subsystem.get_route_display(),
                pl=done.pl if done else None,
                pfhd=_pfhd(done, done.pfhd_basis) if done else None,
                steps=tuple(line.render(_) for line in done.steps) if done else (),
                warnings=tuple(line.render(_) for line in done.warnings)
                if done
                else (),
                one_source=done.certainty == "one_source" if done else False,
                problems=tuple(problems.get(index, ())),
            )
        )
    bases = [s.pfhd.basis for s in subsystems if s.pfhd is not None]
    # The function's point PFHd rests on the least direct of its subsystems'.
    basis = next(
        (b for b in ("alternative_procedure", "table_k1") if b in bases), "maker"
    )
    # The calculator's working lists each subsystem's (a line naming it, then
    # its steps) before the combination; the subsystems show their own.
    own = sum(1 + len(r.steps) for r in computed)
    shared = [line for r in computed for line in r.warnings]
    plr = verdict.plr
    records: dict[str, list[ValidationResult]] = {}
    for record in row.records:  # latest first (the model's ordering)
        records.setdefault(record.test, []).append(
            ValidationResult(
                performed_by=record.performed_by,
                performed_on=record.performed_on,
                instrument=record.instrument,
                value=record.measured_value,
                passed=record.outcome == "passed",
            )
        )
    gaps = documents.specification_gaps(
        trigger=function.trigger,
        reaction=function.reaction,
        plr=plr.plr,
        stop_category=function.stop_category,
        required_response_time_ms=function.required_response_time_ms,
        reset_behaviour=function.reset_behaviour,
        restart_behaviour=function.restart_behaviour,
        safeguard=function.safeguard,
    )
    return SafetyFunctionRow(
        name=field_shown(function, "name", _),
        safeguard=function.get_safeguard_display(),
        device=function.device.label if function.device else "",
        status=verdict.status,
        reasons=tuple(line.render(_) for line in verdict.reasons),
        plr=PlrSource(
            plr=plr.plr,
            hazards=tuple(
                Row(label=label, value=f"PLr {value}") for label, value in plr.hazards
            ),
            revision=plr.revision,
            signed=plr.signed,
        ),
        pl=verdict.pl,
        pfhd=_pfhd(result, basis) if result else None,
        k1_source=(result.k1_source or "") if result else "",
        steps=tuple(line.render(_) for line in result.steps[own:]) if result else (),
        warnings=tuple(line.render(_) for line in result.warnings if line not in shared)
        if result
        else (),
        clause=shown_citation(result.clause) if result else "",
        one_source=result.certainty == "one_source" if result else False,
        subsystems=tuple(subsystems),
        specification=Specification(
            trigger=field_shown(function, "trigger", _),
            reaction=field_shown(function, "reaction", _),
            stop_category=function.get_stop_category_display()
            if function.stop_category
            else "",
            required_response_time_ms=function.required_response_time_ms,
            # The safeguards whose minimum distance rests on the response time
            # are the ones the specification asks it of.
            response_time_needed=function.safeguard in documents.DISTANCE_SAFEGUARDS,
            reset=function.reset_behaviour,
            restart=function.restart_behaviour,
            collaborative_mode=function.get_collaborative_mode_display()
            if function.collaborative_mode
            else "",
            uses_muting=function.uses_muting,
            gaps=tuple(line.render(_) for line in gaps),
            clause=shown_citation(SRS_CLAUSE),
        ),
        plan=tuple(
            PlannedTest(
                title=_(test.title),
                procedure=_(test.procedure),
                record=_(test.record),
                results=tuple(records.get(test.kind, ())),
            )
            for test in row.plan
        ),
        plan_clause=shown_citation(VALIDATION_CLAUSE),
    )
