"""The guarding concepts of a proposal (issue 27): each offered concept's
plan, checks, cost, time to the PoC and floor space, side by side, the
recommendation, and the concepts not offered with the reason; in the
reader's language, with public citations only.

The same table goes into the risk register's workbook as a sheet of its own:
the register (``compliance.assessment``) stands below the concepts and
cannot read them, so the app's shell (``compliance.apps``) hands it this
module's ``concepts_sheet`` to write (``export.SHEETS``)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.utils.translation import gettext as _
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from cells import selectors as cell_selectors
from compliance.concepts.models import GuardingConcept
from compliance.concepts.selectors import concepts_compared
from compliance.costs import selectors as cost_selectors
from compliance.plan.legal import open_point
from compliance.proposals.data.costs import costs_section
from compliance.proposals.pdf.data import (
    ConceptCheck,
    ConceptColumn,
    ConceptNotOffered,
    ConceptSpeed,
    ConceptsSection,
    MoneyRange,
    WeeksRange,
)
from compliance.proposals.pdf.sections.concepts import comparison_table
from compliance.rules import results
from compliance.rules.findings import Status
from compliance.rules.inputs import versioned
from compliance.rules.plan_marks import failing_openings, uncovered_approaches
from compliance.rules.selectors import (
    cell_with_layout,
    finding_translate,
    function_names,
    remembering,
    shown_citation,
    subject_label,
)

# Fails first, then what needs evidence, then warnings (STYLE.md).
ORDER = {Status.FAIL: 0, Status.NEEDS_EVIDENCE: 1, Status.WARNING: 2, Status.PASS: 3}


def concepts_section(cell, *, on: date | None = None) -> ConceptsSection | None:
    """The concepts of ``cell`` (loaded with its layout, ``versioned``) as the
    proposal shows them, costs at the organisation's rates valid on ``on``
    (the proposal's date; today if None); None when it has none."""
    compared = concepts_compared(cell)
    if not compared["columns"]:
        return None
    project = cell.project
    recommended = compared["recommendation"].recommended
    offered, not_offered = [], []
    for column in compared["columns"]:
        if column["offered"]:
            offered.append(_column(project, column, recommended, on))
        else:
            not_offered.append(
                ConceptNotOffered(
                    name=str(column["name"]),
                    reasons=tuple(column["reasons"]),
                )
            )
    return ConceptsSection(
        offered=tuple(offered),
        not_offered=tuple(not_offered),
        recommendation=tuple(compared["recommendation_lines"]),
        country=str(project.get_country_display()),
    )


def _column(
    project, column: dict, recommended: str | None, on: date | None
) -> ConceptColumn:
    concept, design = column["concept"], column["design"]
    findings = results.cell_finding_list(design)
    labels = function_names(design)
    translate = remembering(finding_translate(labels))
    national = [
        f
        for f in findings
        if f.rule_id.startswith(f"{project.country}-") and f.status is not Status.PASS
    ]
    national.sort(key=lambda f: ORDER[f.status])
    counts = column["counts"]
    items = cost_selectors.line_items(design)
    costs = costs_section(project, items, on=on)
    low, high = column["weeks"]
    return ConceptColumn(
        name=str(column["name"]),
        chosen=concept.chosen,
        recommended=recommended == str(concept.pk),
        layout=cell_selectors.cell_document(design),
        failing_openings=failing_openings(design, findings),
        uncovered=tuple(
            (tuple(points), s) for points, s in uncovered_approaches(design, findings)
        ),
        fails=counts["fail"],
        needs_evidence=counts["needs_evidence"],
        warnings=counts["warning"],
        passes=counts["pass"],
        national_rules=project.country in column["by_pack"],
        law=tuple(
            ConceptCheck(
                status=str(f.status),
                subject=subject_label(f, labels),
                citation=shown_citation(f.citation),
                # What is not yet shown is an open point for the customer,
                # not the SA's to-do (issue 30).
                text=f.render(translate)
                if str(f.status) in ("pass", "fail")
                else _(open_point(f.rule_id)),
            )
            for f in national
        ),
        speed=_speed(column["speed"]),
        # In the proposal's currency once every priced line converts, as the
        # costs section; until then the total of each currency.
        cost=costs.converted,
        costs=() if costs.converted else costs.totals,
        unpriced_lines=costs.unpriced_lines,
        work=(work := column["work"])
        and MoneyRange(currency=work.currency, low=work.low, high=work.high),
        work_unknown=column["work_unknown"],
        weeks_to_poc=WeeksRange(low=low, high=high),
        floor_m2=column["floor_m2"],
        certifications=tuple(column["certifications"]),
    )


def _speed(speed: dict | None) -> ConceptSpeed | None:
    if speed is None:
        return None
    return ConceptSpeed(
        programmed_mm_s=Decimal(str(speed["programmed_mm_s"])),
        permissible_mm_s=Decimal(str(speed["permissible_mm_s"])),
        region=str(speed["region"]),
        slower_by=speed["slower_by"],
        status=speed["status"],
    )


# --- the risk register's workbook ----------------------------------------------

TITLE_FONT = Font(name="Calibri", bold=True)
TITLE_FILL = PatternFill("solid", fgColor="E9EDF2")
WRAP = Alignment(wrap_text=True, vertical="top")


def concepts_sheet(book, cell) -> None:
    """A "Guarding concepts" sheet in ``book`` (the register's workbook of
    ``cell``, in the exporter's language) with the comparison table, one
    column per offered concept; nothing when the cell has no concepts. The
    register's import reads its own sheets by name and passes this one by."""
    if not GuardingConcept.objects.filter(cell_id=cell.pk).exists():
        return
    loaded = versioned(cell.pk, lambda: cell_with_layout(cell))
    section = concepts_section(loaded)
    if section is None:
        return
    sheet = book.create_sheet(_("Guarding concepts")[:31])
    header, rows, notes = comparison_table(section)
    sheet.append(header)
    for cell_ in sheet[1]:
        cell_.font = TITLE_FONT
        cell_.fill = TITLE_FILL
        cell_.alignment = WRAP
    for row in rows:
        sheet.append(row)
        for cell_ in sheet[sheet.max_row]:
            cell_.alignment = WRAP
            # Text stays text: a finding's message is never a formula.
            if isinstance(cell_.value, str) and cell_.value.startswith("="):
                cell_.data_type = "s"
    sheet.append([])
    for note in notes:
        sheet.append([note])
    sheet.column_dimensions["A"].width = 28
    for index in range(2, len(header) + 1):
        sheet.column_dimensions[get_column_letter(index)].width = 42
    sheet.freeze_panes = "B2"
