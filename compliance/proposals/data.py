"""Assemble a proposal's ``ProposalData`` from the database: the cell, its
rules and findings, the risk register, the costs and the plan, every text in
the proposal's language. The PDF builder then works from this object alone,
and the object is stored beside the PDF as the exact data it was built from."""

from __future__ import annotations

import base64
from datetime import date
from decimal import Decimal

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cells import selectors as cell_selectors
from cells.layout_image import reading as layout_image_reading
from cells.layout_image import selectors as layout_image_selectors
from cells.models import Membership
from compliance.assessment import selectors
from compliance.assessment.hazards import catalogue
from compliance.assessment.models import RevisionStatus
from compliance.costs import round_range
from compliance.costs import selectors as cost_selectors
from compliance.plan.comparison import Comparison, PlanSummary, compare
from compliance.plan.selectors import plan_inputs
from compliance.proposals import authoring, presentation
from compliance.proposals.models import (
    OrganisationBranding,
    ProposalDocument,
    ProposalText,
    ShownRules,
)
from compliance.proposals.pdf.data import (
    SECTIONS,
    AcceptedFinding,
    ActivityRow,
    CellSection,
    ComparisonRow,
    CostsSection,
    DeviceDistance,
    ExecutiveSummary,
    FindingRow,
    HazardRow,
    LineItemRow,
    MoneyRange,
    PfhdFigure,
    PlanData,
    PlannedTest,
    PlrSource,
    ProposalData,
    ProposalMeta,
    RiskSection,
    Row,
    RuleRow,
    RulesSection,
    SafetyFunctionRow,
    ScheduleSection,
    SignatureDeclaration,
    Specification,
    SubsystemRow,
    UnderlayImage,
    ValidationResult,
    WeeksRange,
)
from compliance.proposals.presentation import half_weeks, weeks_text
from compliance.proposals.selectors import CellStatus, cell_status
from compliance.rules import sensing
from compliance.rules.engine import computed_under
from compliance.rules.figures import FIGURE_NAMES
from compliance.rules.inputs import cell_inputs, versioned
from compliance.rules.results import in_language, kept
from compliance.rules.selectors import (
    CERTAINTY_LABELS,
    config_words,
    finding_translate,
    layout_labels,
    rule_text,
    shown_citation,
    stamp_lines,
    subject_label,
)
from compliance.rules.sensing_2024 import MINIMUM_DISTANCE_2024
from compliance.safety_functions import documents
from compliance.safety_functions import selectors as function_selectors
from compliance.safety_functions.documents import SRS_CLAUSE, VALIDATION_CLAUSE
from compliance.texts import localise

MINIMUM_DISTANCE = sensing.MINIMUM_DISTANCE.id
# The findings that give a device's required minimum distance from the hazard
# zone (ISO 13855): sensing devices, and interlocked doors without guard locking.
DISTANCE_RULES = (
    MINIMUM_DISTANCE,
    MINIMUM_DISTANCE_2024.id,
    sensing.INTERLOCK_DISTANCE.id,
)


def proposal_data(
    document: ProposalDocument, *, on: date | None = None
) -> ProposalData:
    """The data of ``document`` (a version of a proposal), in its language.
    ``on``: the proposal's date (default: the day it was requested)."""
    # Scoped to the requester: one who has since lost access to the cell gets
    # Http404 here, and no document.
    cell = versioned(
        document.proposal.cell_id,
        lambda: cell_selectors.cell_with_layout(
            document.requested_by, document.proposal.cell_id
        ),
    )
    with translation.override(document.language):
        return _assemble(document, cell, on or document.requested_at.date())


def _assemble(document: ProposalDocument, cell, on: date) -> ProposalData:
    project = cell.project
    status = cell_status(cell)
    function_rows = status.functions
    results = status.results
    stamp = computed_under(status.facts)
    findings = status.findings
    items = status.items
    comparison = compare(plan_inputs(cell, items))
    costs = _costs(project, items)
    sections = tuple(s for s in SECTIONS if s in document.sections) or SECTIONS
    # The rules that apply: those that found something to check in this cell
    # (a fenced cell has no power-and-force-limiting rule); the others are
    # named in a line, or listed apart when the SA chose to show every rule.
    applying = [result for result in results if result.findings]
    others = [result for result in results if not result.findings]
    every_rule = document.rules_shown == ShownRules.ALL
    return ProposalData(
        language=document.language,
        sections=sections,
        rules_shown=document.rules_shown,
        passes_shown=document.passes_shown,
        meta=_meta(document, project, cell, on),
        summary=_summary(document, status, costs, comparison),
        cell=_cell(cell, findings),
        rules=RulesSection(
            rows=tuple(_rule_row(result.rule) for result in applying),
            others=tuple(_rule_row(result.rule) for result in others)
            if every_rule
            else (),
            left_out=() if every_rule else tuple(result.rule.id for result in others),
            note=_(
                "Legal texts are reproduced from secondary sources and must be "
                "confirmed against the official text (in Korea, the National Law "
                "Information Center, law.go.kr) before they are relied on."
            ),
            computed_under=tuple(stamp_lines(stamp)),
        ),
        risk=_risk(cell),
        findings=_findings(cell, findings),
        safety_functions=_safety_functions(function_rows),
        costs=costs,
        schedule=_schedule(comparison, project),
        assumptions=(
            *presentation.plan_assumptions(comparison),
            *(
                text
                for text in map(presentation.customer_line, comparison.assumptions)
                if text
            ),
            _(
                "Prices are ranges from the organisation's catalogue, its quotes "
                "and the public sources named beside each line; lines without a "
                "price are still to be quoted and are not counted in the totals."
            ),
        ),
        exclusions=(
            _("The robot, its tooling and the workpieces are not priced here."),
            _(
                "Civil works, utilities and the customer's own production "
                "equipment are excluded."
            ),
        ),
        computed_under=stamp.model_dump(mode="json"),
        disclaimers=(
            _(
                "This proposal does not certify the safety of the cell. It "
                "prepares the work of a safety professional."
            ),
            _(
                "Validation on the real cell is required in every plan: stopping "
                "times, safety functions, and force and pressure where the robot "
                "may touch a person. A simulation result is never a deployment gate."
            ),
            _(
                "Legal requirements are given as we understand them; confirm them "
                "against the official text and with the authority."
            ),
        ),
    )


# --- the sections -------------------------------------------------------------


def _rule_row(rule) -> RuleRow:
    return RuleRow(
        id=rule.id,
        citation=shown_citation(rule.citation),
        text=rule_text(rule),
        certainty=str(CERTAINTY_LABELS[rule.certainty]),
        checked_on=rule.checked_on,
    )


def _meta(document: ProposalDocument, project, cell, on: date) -> ProposalMeta:
    """The cover: the author by full name and role (the username only when
    no name is given), the organisation as it brands its proposals."""
    requester = document.requested_by
    author, role = "", ""
    if requester is not None:
        author = requester.get_full_name() or requester.username
        membership = Membership.objects.filter(
            user=requester, organisation_id=project.organisation_id
        ).first()
        role = membership.get_role_display() if membership else ""
    branding = OrganisationBranding.objects.filter(
        organisation_id=project.organisation_id
    ).first()
    logo = ""
    if branding is not None and branding.logo:
        logo = base64.b64encode(bytes(branding.logo)).decode("ascii")
    return ProposalMeta(
        number=document.proposal.number,
        version=document.version,
        date=on,
        prepared_by=author,
        prepared_by_role=str(role),
        organisation=(branding.display_name if branding else "")
        or project.organisation.name,
        organisation_address=branding.address if branding else "",
        logo=logo,
        customer=project.customer_name,
        site=project.site_name,
        cell_name=cell.name,
    )


def _money(pair, currency: str) -> MoneyRange:
    low, high = round_range(*pair)
    return MoneyRange(currency=currency, low=low, high=high)


def _costs(project, items) -> CostsSection:
    """The lines in their own currency and, where the project has entered a
    rate, in the proposal currency; a line whose currency has no rate is
    "not converted" and left out of the total, never converted at a rate
    made up here."""
    per_currency = cost_selectors.totals_by_currency(items)
    totals = tuple(
        MoneyRange(currency=t["currency"], low=t["range"][0], high=t["range"][1])
        for t in per_currency
        if t["currency"]
    )
    unpriced = per_currency[-1]["unknown"]
    target, rates = project.currency, project.rates
    converted: dict[str, tuple] = {}
    missing: set[str] = set()
    low_sum = high_sum = Decimal(0)
    for item in items:
        if item.total_low is None or item.currency is None:
            continue
        pair = presentation.to_currency(
            item.total_low, item.total_high, item.currency, target, rates
        )
        if pair is None:
            missing.add(item.currency)
            continue
        converted[item.key] = pair
        if item.quantity:
            low_sum += pair[0]
            high_sum += pair[1]
    foreign = sorted({i.currency for i in items if i.currency} - {target} - missing)
    if foreign:
        rates_note = _(
            "Converted to %(currency)s at the project's exchange rates of %(date)s "
            "(%(source)s); each line's own currency and price are in its row."
        ) % {
            "currency": target,
            "date": f"{project.rates_date:%Y-%m-%d}" if project.rates_date else "—",
            "source": _("entered for this project"),
        }
    else:
        rates_note = ""
    rate_rows = tuple(
        Row(label=f"1 {code}", value=f"{presentation.rate_text(code, target, rates)}")
        for code in foreign
    )
    return CostsSection(
        currency=target,
        missing_rates=tuple(sorted(missing)),
        rates=rate_rows,
        items=tuple(
            LineItemRow(
                description=item.description.render(_),
                quantity=item.quantity,
                unit=cost_selectors.unit_label(item.unit),
                unit_price_low=item.price_low,
                unit_price_high=item.price_high,
                total_low=item.total_low,
                total_high=item.total_high,
                currency=item.currency,
                lead_time_weeks_low=item.lead_time_weeks_low,
                lead_time_weeks_high=item.lead_time_weeks_high,
                source=presentation.customer_source(item),
                price_date=None,  # the public source's year is in its citation
                converted_low=converted[item.key][0] if item.key in converted else None,
                converted_high=converted[item.key][1]
                if item.key in converted
                else None,
                rate_needed=item.currency in missing and item.total_low is not None,
            )
            for item in items
        ),
        totals=totals,
        unpriced_lines=unpriced,
        converted=MoneyRange(
            currency=target,
            low=cost_selectors.exact(low_sum),
            high=cost_selectors.exact(high_sum),
        )
        if converted
        else None,
        rates_note=rates_note,
    )


def _recommendation(comparison: Comparison) -> str | None:
    """Sim-first or physical-first where the figures put one ahead, at both
    ends of the ranges, on the PoC start or the cost; None otherwise."""
    decisive = [v for v in comparison.verdict if v.measure in ("poc_start", "cost")]
    sim = any(v.outcome == "sim_first_ahead" for v in decisive)
    physical = any(v.outcome == "physical_first_ahead" for v in decisive)
    if sim and not physical:
        return "sim_first"
    if physical and not sim:
        return "physical_first"
    return None


def _summary(
    document: ProposalDocument,
    status: CellStatus,
    costs: CostsSection,
    comparison: Comparison,
) -> ExecutiveSummary:
    """The figures, and the texts: the SA's as written, or else generated
    from the cell in the proposal's language."""
    recommendation = _recommendation(comparison)
    written = ProposalText.objects.filter(
        proposal_id=document.proposal_id, language=document.language
    ).first()
    generated = authoring.generated_texts(status, document.language)
    reasons = [_verdict_text(v, comparison) for v in comparison.verdict]
    if recommendation is None:
        reasons.append(
            _(
                "The choice depends on what matters most to you: an earlier "
                "result in simulation, or the first result on the real cell; the "
                "figures do not put one plan ahead at both ends of their ranges."
            )
        )
    reasons.append(comparison.maturity_line.render(_))
    return ExecutiveSummary(
        proposed=authoring.proposed(status),
        text=(written.summary if written else "") or generated.summary,
        safety_concept=(written.safety_concept if written else "")
        or generated.safety_concept,
        # One currency only: the proposal's, of the lines that could be
        # converted; never a mix of currencies.
        costs=(costs.converted,) if costs.converted else (),
        unpriced_lines=costs.unpriced_lines,
        not_converted_lines=sum(1 for item in costs.items if item.rate_needed),
        weeks_to_poc_physical_first=WeeksRange(
            low=comparison.physical_first.poc_start_weeks_low,
            high=comparison.physical_first.poc_start_weeks_high,
        ),
        weeks_to_poc_sim_first=WeeksRange(
            low=comparison.sim_first.poc_start_weeks_low,
            high=comparison.sim_first.poc_start_weeks_high,
        ),
        recommendation=recommendation,
        reasons=tuple(reasons),
    )


def _cell(cell, findings) -> CellSection:
    robot = [
        (_("Robot"), f"{cell.robot_manufacturer} {cell.robot_model}"),
        (_("Kind"), cell.get_robot_kind_display()),
        (_("Payload"), f"{_num(cell.payload_kg)} kg"),
        (_("Reach"), f"{_num(cell.reach_mm)} mm"),
        (_("Max. TCP speed"), f"{_num(cell.max_tcp_speed_mm_s)} mm/s"),
        (_("Moving mass"), f"{_num(cell.moving_mass_kg)} kg"),
    ]
    if cell.stopping_time_ms is not None:
        robot.append((_("Stopping time"), f"{_num(cell.stopping_time_ms)} ms"))
    if cell.stopping_distance_mm is not None:
        robot.append((_("Stopping distance"), f"{_num(cell.stopping_distance_mm)} mm"))
    if cell.safety_configuration is not None:
        robot.append(
            (_("Safety configuration"), config_words(cell.safety_configuration))
        )
    parameters = []
    if cell.collaborative_modes and cell.programmed_speed_mm_s is not None:
        parameters.append(
            (_("Programmed speed"), f"{_num(cell.programmed_speed_mm_s)} mm/s")
        )
    devices = list(cell.devices.all())
    index_of = {f"device:{d.pk}": i for i, d in enumerate(devices)}
    distances = tuple(
        DeviceDistance(
            device=f.subject_label,
            device_index=index_of.get(f.subject_key),
            required_mm=int(f.numbers["required_mm"]),
            actual_mm=int(f.numbers["distance_mm"])
            if "distance_mm" in f.numbers
            else None,
            status=str(f.status),
        )
        for f in findings
        if f.rule_id in DISTANCE_RULES and "required_mm" in f.numbers
    )
    task = cell.get_application_display()
    if cell.task_description:
        task = f"{task}: {cell.task_description}"
    return CellSection(
        robot=tuple(Row(label=str(label), value=value) for label, value in robot),
        task=task,
        collaborative_modes=tuple(cell.get_collaborative_modes_display()),
        collaborative_parameters=tuple(
            Row(label=str(label), value=value) for label, value in parameters
        ),
        layout=cell_selectors.cell_document(cell),
        distances=distances,
        underlay_image=_underlay_image(cell),
    )


def _underlay_image(cell) -> UnderlayImage | None:
    """The cell's floor-plan image when it is to be shown in the PDF: a copy
    small enough for the figure, with its rectangle on the plan."""
    image = layout_image_selectors.image_for_pdf(cell)
    if image is None:
        return None
    rectangle = image.rectangle()
    return UnderlayImage(
        content_base64=base64.b64encode(
            layout_image_reading.shrunk(bytes(image.data))
        ).decode("ascii"),
        min_x_mm=rectangle.min_x_mm,
        max_y_mm=rectangle.max_y_mm,
        width_mm=rectangle.width_mm,
        height_mm=rectangle.height_mm,
        opacity=image.opacity_percent / 100,
    )


def _num(value) -> str:
    """A figure without trailing zeros, grouped by thousands: 1,800 or 20.5."""
    if isinstance(value, float):
        value = Decimal(repr(value))
    value = Decimal(value).normalize()
    return f"{value:,f}" if value == value.to_integral() else f"{value:,}"


def _risk(cell) -> RiskSection | None:
    """The latest signed revision, or else the latest draft, marked as such:
    as the findings read them (``cell_inputs``: each register read once, with
    its measures, in their order), not read again."""
    inputs = cell_inputs(cell).load()
    revision = inputs.signed or inputs.draft
    if revision is None:
        return RiskSection(signed=False, revision=1, hazards=())
    hazards = []
    for hazard in revision.hazards.all():
        residual = selectors.hazard_plr(hazard, residual=True)
        measures = tuple(
            m.description
            + (
                f" (PLr {m.plr_required or '?'} / PL {m.pl_claimed or '?'})"
                if m.is_safety_function
                else ""
            )
            for m in hazard.measures.all()
        )
        origin = catalogue.origin(hazard.group, hazard.origin).text
        consequence = catalogue.consequence(hazard.group, hazard.consequence).text
        hazards.append(
            HazardRow(
                hazard=f"{_(origin)} → {_(consequence)}",
                phase=hazard.get_phase_display(),
                # An accepted suggestion's English task, in the proposal's
                # language; the user's own text as typed.
                task=localise(hazard.task, _),
                plr=selectors.hazard_plr(hazard),
                measures=measures,
                residual_risk=f"PLr {residual}" if residual else "—",
            )
        )
    return RiskSection(
        signed=revision.status == RevisionStatus.SIGNED,
        revision=revision.number,
        content_hash=revision.content_hash or None
        if revision.status == RevisionStatus.SIGNED
        else None,
        signed_by=(revision.signed_by.get_full_name() or revision.signed_by.username)
        if revision.signed_by
        else "",
        signed_on=timezone.localdate(revision.signed_at)
        if revision.signed_at
        else None,
        declaration=_declaration(revision)
        if revision.status == RevisionStatus.SIGNED
        else None,
        hazards=tuple(hazards),
        safety_configuration=_frozen_configuration(revision),
    )


def _frozen_configuration(revision) -> str:
    """The safety configuration a signed revision froze, in words."""
    if revision.status != RevisionStatus.SIGNED:
        return ""
    declared = selectors.declaration_of(revision)
    config = declared.safety_configuration if declared is not None else None
    return config_words(config) if config else ""


def _declaration(revision) -> SignatureDeclaration | None:
    """What the signer declared, as recorded (in the signer's words and
    language); None for a revision signed before declarations were recorded."""
    declared = selectors.declaration_of(revision)
    if declared is None:
        return None
    return SignatureDeclaration(
        signer=declared.signer_name,
        # In the site's zone, as the other dates, named where printed.
        signed_at=(local := timezone.localtime(declared.signed_at)),
        zone=local.tzname() or "UTC",
        statement=declared.statement,
        accepted=tuple(
            AcceptedFinding(
                rule_id=f["rule_id"],
                subject=f.get("subject", ""),
                message=f.get("message", ""),
                reason=f.get("reason", ""),
            )
            for f in declared.accepted_fails
        ),
        needing_evidence=len(declared.needing_evidence),
    )


def _findings(cell, findings) -> tuple[FindingRow, ...]:
    """The findings as the proposal prints them, in the reader's language:
    worked out once per change of what they rest on, like the findings."""

    def compute() -> tuple[FindingRow, ...]:
        labels = layout_labels(cell)
        return tuple(_finding(f, labels) for f in findings)

    return kept(cell, in_language("proposal-findings"), compute)


def _finding(finding, labels=frozenset()) -> FindingRow:
    return FindingRow(
        rule_id=finding.rule_id,
        citation=shown_citation(finding.citation),
        certainty=str(CERTAINTY_LABELS[finding.certainty]),
        status=str(finding.status),
        subject=subject_label(finding, labels),
        message=finding.render(finding_translate(labels)),
        numbers=tuple(_number_line(k, v) for k, v in finding.numbers.items()),
    )


def _safety_functions(rows) -> tuple[SafetyFunctionRow, ...]:
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
                label=function_selectors.function_text(function, subsystem.label, _),
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
        name=function_selectors.function_text(function, function.name, _),
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
            trigger=function_selectors.function_text(function, function.trigger, _),
            reaction=function_selectors.function_text(function, function.reaction, _),
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


# Units of the figures findings compare, by the suffix of their key.
UNIT_SUFFIXES = (("_mm_s", "mm/s"), ("_mm", "mm"), ("_ms", "ms"), ("_kg", "kg"))


def _number_line(key: str, value) -> str:
    """A compared figure as a short line: "required 1,800 mm"."""
    for suffix, unit in UNIT_SUFFIXES:
        if key.endswith(suffix):
            return f"{_figure_name(key.removesuffix(suffix))} {_num(value)} {unit}"
    return f"{_figure_name(key)} {_num(value)}"


def _figure_name(name: str) -> str:
    """A figure's name in the reader's language (its key's words if unknown)."""
    known = FIGURE_NAMES.get(name)
    return _(known) if known else name.replace("_", " ")


def _verdict_text(verdict, comparison: Comparison) -> str:
    """A verdict sentence with its weeks to the half-week."""
    line = verdict.line
    plans = (comparison.sim_first, comparison.physical_first)
    if verdict.measure == "first_validated_result":
        ranges = [(p.first_result_weeks_low, p.first_result_weeks_high) for p in plans]
    elif verdict.measure == "poc_start":
        ranges = [(p.poc_start_weeks_low, p.poc_start_weeks_high) for p in plans]
    else:
        return line.render(_)
    values = dict(line.values)
    values["sim"], values["physical"] = (weeks_text(*r) for r in ranges)
    if "gap" in values:
        # "at least" so many weeks: rounded down.
        gap = Decimal(str(values["gap"]).replace(",", ""))
        values["gap"] = weeks_text(half_weeks(gap, gap)[0], half_weeks(gap, gap)[0])
    return line.model_copy(update={"values": values}).render(_)


def _plan(plan: PlanSummary, project) -> PlanData:
    """A plan with its cost in the proposal currency: the activities whose
    cost is in a currency without a rate are listed, not summed."""
    target, rates = project.currency, project.rates
    low = high = Decimal(0)
    known = False
    not_converted = []
    for scheduled in plan.schedule.activities:
        activity = scheduled.activity
        if activity.cost_low is None or activity.cost_high is None:
            continue
        pair = presentation.to_currency(
            activity.cost_low, activity.cost_high, activity.currency, target, rates
        )
        if pair is None:
            not_converted.append(
                Row(
                    label=_(activity.name),
                    value=f"{activity.currency} "
                    f"{cost_selectors.money_range_text(activity.cost_low, activity.cost_high)}",
                )
            )
            continue
        known = True
        low += pair[0]
        high += pair[1]
    return PlanData(
        name=_(plan.name),
        activities=tuple(
            ActivityRow(
                name=_(s.activity.name),
                start_week_low=s.start_low,
                start_week_high=s.start_high,
                finish_week_low=s.finish_low,
                finish_week_high=s.finish_high,
                critical=s.critical_high,
                assumption=s.activity.assumption,
            )
            for s in plan.schedule.activities
        ),
        total_weeks=WeeksRange(
            low=plan.schedule.total_weeks_low, high=plan.schedule.total_weeks_high
        ),
        cost=MoneyRange(
            currency=target,
            low=cost_selectors.exact(low),
            high=cost_selectors.exact(high),
        )
        if known
        else None,
        unpriced_activities=len(plan.unknown_cost_keys),
        not_converted=tuple(not_converted),
    )


def _known_cost(plan: PlanData, unknown: int) -> str:
    """ "KRW 1,000–2,000 + 6 items to be quoted": the count in words."""
    parts = []
    if plan.cost is not None:
        parts.append(
            f"{plan.cost.currency} "
            f"{cost_selectors.money_range_text(plan.cost.low, plan.cost.high)}"
        )
    if unknown:
        parts.append(
            ngettext(
                "%(count)s item to be quoted", "%(count)s items to be quoted", unknown
            )
            % {"count": f"{unknown:,}"}
        )
    if plan.not_converted:
        count = len(plan.not_converted)
        parts.append(
            ngettext(
                "%(count)s item not converted (rate needed)",
                "%(count)s items not converted (rate needed)",
                count,
            )
            % {"count": f"{count:,}"}
        )
    if not parts:
        return "—"
    if plan.cost is None:
        return " + ".join(parts)
    return f"{parts[0]}" + "".join(f" + {part}" for part in parts[1:])


def _schedule(comparison: Comparison, project) -> ScheduleSection:
    physical, sim = comparison.physical_first, comparison.sim_first
    physical_data, sim_data = _plan(physical, project), _plan(sim, project)

    return ScheduleSection(
        physical_first=physical_data,
        sim_first=sim_data,
        comparison=(
            ComparisonRow(
                metric=_("First validated result (weeks)"),
                physical_first=f"{weeks_text(physical.first_result_weeks_low, physical.first_result_weeks_high)} "
                f"({_(physical.first_result_label)})",
                sim_first=f"{weeks_text(sim.first_result_weeks_low, sim.first_result_weeks_high)} "
                f"({_(sim.first_result_label)})",
            ),
            ComparisonRow(
                metric=_("PoC start (weeks)"),
                physical_first=weeks_text(
                    physical.poc_start_weeks_low, physical.poc_start_weeks_high
                ),
                sim_first=weeks_text(sim.poc_start_weeks_low, sim.poc_start_weeks_high),
            ),
            ComparisonRow(
                metric=_("Known cost"),
                physical_first=_known_cost(
                    physical_data, len(physical.unknown_cost_keys)
                ),
                sim_first=_known_cost(sim_data, len(sim.unknown_cost_keys)),
            ),
        ),
        verdict=tuple(_verdict_text(v, comparison) for v in comparison.verdict),
        maturity_note=comparison.maturity_line.render(_),
        assumptions=tuple(
            text for text in map(presentation.customer_line, comparison.notes) if text
        ),
        cannot_prove=tuple(line.render(_) for line in comparison.cannot_prove),
    )
