"""The register of a revision as an XLSX workbook (openpyxl)."""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from cells.models import Cell, CollaborativeMode
from compliance.assessment import selectors
from compliance.assessment.hazards import catalogue
from compliance.assessment.models import (
    ContactType,
    Hazard,
    MeasureStep,
    Phase,
    Revision,
)
from compliance.assessment.register_xlsx import template as t
from compliance.calculators.written import field_shown

# Sheets of the cell that rooms above this one add after the register's (the
# guarding concepts, issue 27): the register cannot import them, so they hand
# it a writer, ``(workbook, cell) -> None``, that adds its sheet or nothing.
# The import reads its own sheets by name and passes these by.
SHEETS: list[Callable[[Workbook, Cell], None]] = []

KEY_FONT = Font(name="Calibri", size=9, color="616E7C")
TITLE_FONT = Font(name="Calibri", bold=True)
TITLE_FILL = PatternFill("solid", fgColor="E9EDF2")


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def _hazard_values(number: int, hazard: Hazard) -> dict[str, object]:
    return {
        "number": number,
        "group": hazard.group,
        "origin": hazard.origin,
        "consequence": hazard.consequence,
        "phase": hazard.phase,
        "task": field_shown(hazard, "task", _),
        "location_key": hazard.location_key,
        "description": field_shown(hazard, "description", _),
        "body_region": hazard.body_region,
        "contact_type": hazard.contact_type,
        "contact_area_cm2": (
            None if hazard.contact_area_cm2 is None else str(hazard.contact_area_cm2)
        ),
        "severity": hazard.severity,
        "frequency": hazard.frequency,
        "avoidance": hazard.avoidance,
        "low_probability": _yes(hazard.low_probability),
        "plr": selectors.hazard_plr(hazard) or "",
        "residual_severity": hazard.residual_severity,
        "residual_frequency": hazard.residual_frequency,
        "residual_avoidance": hazard.residual_avoidance,
        "residual_low_probability": _yes(hazard.residual_low_probability),
        "residual_plr": selectors.hazard_plr(hazard, residual=True) or "",
    }


def _sheet(ws, columns: tuple[t.Column, ...], rows: list[dict[str, object]]) -> None:
    ws.append([c.key for c in columns])
    ws.append([str(c.title) for c in columns])
    for cell in ws[1]:
        cell.font = KEY_FONT
    for cell in ws[2]:
        cell.font = TITLE_FONT
        cell.fill = TITLE_FILL
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    for row in rows:
        ws.append([row[c.key] for c in columns])
        for cell in ws[ws.max_row]:
            # What someone typed stays text: "=HYPERLINK(...)" in a task is
            # not a formula for the spreadsheet to run (formula injection).
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"
    for index, column in enumerate(columns, start=1):
        ws.column_dimensions[get_column_letter(index)].width = column.width
    ws.freeze_panes = f"A{t.FIRST_DATA_ROW}"


def _readme(ws, revision: Revision) -> None:
    cell = revision.assessment.cell
    lines = [
        _("Hazard register of %(cell)s, revision %(number)s (%(status)s).")
        % {
            "cell": cell.name,
            "number": revision.number,
            "status": revision.get_status_display(),
        },
        "",
        _(
            "Row 1 of each sheet holds the column keys the import reads; row 2 "
            "their titles. The data starts on row 3. Do not change row 1."
        ),
        _(
            "Importing into a draft revision appends every hazard of the file as a "
            "new hazard, with its measures: no hazard already in the register is "
            "changed or removed. If any row has an error, nothing is saved."
        ),
        _(
            "Hazard numbers are the file's own: each must be unique on the Hazards "
            "sheet, and each measure names the hazard it reduces by its number."
        ),
        _(
            "Places, devices and guards are keys of this cell's layout "
            "(segment:<id>, opening:<id>, station:<id>, device:<id>): they import "
            "only into an assessment of the same cell."
        ),
        _(
            "At most %(hazards)s hazards and %(measures)s measures; the file at "
            "most 2 MB."
        )
        % {"hazards": t.MAX_HAZARDS, "measures": t.MAX_MEASURES},
        "",
        _("The keys each column takes:"),
        "phase: " + ", ".join(Phase.values),
        "severity, residual_severity: S1, S2",
        "frequency, residual_frequency: F1, F2",
        "avoidance, residual_avoidance: P1, P2",
        "low_probability, residual_low_probability, is_safety_function: yes, no",
        "contact_type: " + ", ".join(ContactType.values),
        "body_region: "
        + ", ".join(
            value
            for value, _label in Hazard._meta.get_field("body_region").choices or []
        ),
        "step: " + ", ".join(MeasureStep.values),
        "collaborative_mode: " + ", ".join(CollaborativeMode.values),
        "plr_required, pl_claimed: a, b, c, d, e",
        "",
        _("Hazard groups, with the origins and consequences of each:"),
    ]
    for group in catalogue.HAZARD_GROUPS:
        lines.append(f"group {group.id}: {_(group.name)}")
        lines.append("  origin: " + ", ".join(o.id for o in group.origins))
        lines.append("  consequence: " + ", ".join(c.id for c in group.consequences))
    for line in lines:
        ws.append([line])
    ws.column_dimensions["A"].width = 120


def register_workbook(revision: Revision) -> bytes:
    """The register of ``revision`` as XLSX bytes (a fixed number of queries)."""
    hazards, measures = [], []
    for number, hazard in enumerate(selectors.register(revision), start=1):
        hazards.append(_hazard_values(number, hazard))
        for m in hazard.measures.all():
            link = (
                f"device:{m.device_id}"
                if m.device_id
                else f"segment:{m.segment_id}"
                if m.segment_id
                else ""
            )
            measures.append(
                {
                    "hazard_number": number,
                    "step": m.step,
                    "description": m.description,
                    "link": link,
                    "linked_label": m.linked_label,
                    "collaborative_mode": m.collaborative_mode,
                    "is_safety_function": _yes(m.is_safety_function),
                    "plr_required": m.plr_required,
                    "pl_claimed": m.pl_claimed,
                }
            )
    book = Workbook()
    sheet = book.active
    sheet.title = t.sheet_title(t.HAZARDS)
    _sheet(sheet, t.HAZARD_COLUMNS, hazards)
    _sheet(book.create_sheet(t.sheet_title(t.MEASURES)), t.MEASURE_COLUMNS, measures)
    _readme(book.create_sheet(t.sheet_title(t.README)), revision)
    for write in SHEETS:
        write(book, revision.assessment.cell)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
