"""Reading the register template back into a draft revision.

Every row of both sheets is checked before anything is written; the errors
are collected by sheet and row ("Hazards row 7: severity must be S1 or S2").
Only when there are none are the hazards appended, each through
``services.hazard_add`` and its measures through ``services.measure_add`` (so
each gets its audit entry), in one transaction: a refusal by a service rolls
back everything written before it.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from cells.models import CollaborativeMode
from cells.permissions import require_edit
from compliance.assessment import selectors, services
from compliance.assessment.hazards import catalogue
from compliance.assessment.models import (
    CONTACT_AREA_MAX_CM2,
    CONTACT_AREA_MIN_CM2,
    HAZARD_DESCRIPTION_MAX_LENGTH,
    ContactType,
    Hazard,
    Measure,
    MeasureStep,
    Phase,
    Revision,
)
from compliance.assessment.register_xlsx import template as t

PLS = ("a", "b", "c", "d", "e")
RISK_CHOICES = {
    "severity": ("S1", "S2"),
    "frequency": ("F1", "F2"),
    "avoidance": ("P1", "P2"),
    "residual_severity": ("S1", "S2"),
    "residual_frequency": ("F1", "F2"),
    "residual_avoidance": ("P1", "P2"),
}


@dataclass(frozen=True)
class RowError:
    """One problem of the file: its sheet and row (0: the file as a whole),
    the column key, and what is wrong."""

    sheet: str
    row: int
    field: str
    message: str

    def __str__(self) -> str:
        if not self.row:
            return self.message
        return _("%(sheet)s row %(row)s: %(message)s") % {
            "sheet": self.sheet,
            "row": self.row,
            "message": self.message,
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "sheet": self.sheet,
            "row": self.row,
            "field": self.field,
            "message": self.message,
            "text": str(self),
        }


class ImportRefused(Exception):
    """The file was not imported; ``errors`` says why. Nothing was saved."""

    def __init__(self, errors: list[RowError]):
        super().__init__("; ".join(str(e) for e in errors))
        self.errors = errors


@dataclass
class _HazardPlan:
    row: int
    number: int
    fields: dict[str, Any]
    measures: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


@dataclass(frozen=True)
class ImportResult:
    hazards: int
    measures: int


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def not_xlsx_message() -> str:
    return _(
        "This is not an XLSX workbook: export the register, fill in that file "
        "and upload it as .xlsx."
    )


def _file_error(message: str) -> ImportRefused:
    return ImportRefused([RowError("", 0, "file", message)])


def _open(data: bytes):
    """The workbook, read-only; ``ImportRefused`` for anything that is not a
    bounded XLSX file."""
    from openpyxl import load_workbook

    if len(data) > t.MAX_BYTES:
        raise _file_error(
            _("The file is larger than 2 MB: split the register into smaller files.")
        )
    not_xlsx = not_xlsx_message()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise _file_error(not_xlsx) from exc
    if unpacked > t.MAX_UNPACKED_BYTES:
        raise _file_error(
            _("The workbook unpacks to more than 40 MB: it is not a register.")
        )
    try:
        return load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a broken file
        raise _file_error(not_xlsx) from exc


def _rows(book, sheet: str, columns: tuple[t.Column, ...], limit: int, errors):
    """The data rows of ``sheet`` as (row number, {key: text}), blank rows
    skipped; None when the sheet or its key row is wrong (an error is added)."""
    found = next((n for n in t.sheet_names(sheet) if n in book.sheetnames), None)
    if found is None:
        errors.append(
            RowError(
                sheet,
                0,
                "sheet",
                _("The sheet “%(sheet)s” is missing: start from an export.")
                % {"sheet": t.sheet_title(sheet)},
            )
        )
        return None
    keys = [c.key for c in columns]
    rows = []
    for number, values in enumerate(book[found].iter_rows(values_only=True), start=1):
        texts = [_text(v) for v in values]
        if number == 1:
            header = texts[: len(keys)]
            if header != keys or any(texts[len(keys) :]):
                errors.append(
                    RowError(
                        sheet,
                        1,
                        "header",
                        _(
                            "The column keys of row 1 are not the template's: "
                            "expected %(keys)s."
                        )
                        % {"keys": ", ".join(keys)},
                    )
                )
                return None
            continue
        if number < t.FIRST_DATA_ROW or not any(texts):
            continue
        if len(rows) >= limit:
            errors.append(
                RowError(
                    sheet,
                    number,
                    "row",
                    _("At most %(limit)s rows can be imported.") % {"limit": limit},
                )
            )
            return None
        texts += [""] * (len(keys) - len(texts))
        rows.append((number, dict(zip(keys, texts[: len(keys)], strict=True))))
    return rows


class _Row:
    """Checks one row, adding its errors."""

    def __init__(self, sheet: str, number: int, values: dict[str, str], errors):
        self.sheet, self.number, self.values, self.errors = (
            sheet,
            number,
            values,
            errors,
        )
        self.ok = True

    def error(self, key: str, message: str) -> None:
        self.ok = False
        self.errors.append(RowError(self.sheet, self.number, key, message))

    def text(self, key: str, *, max_length: int, required: bool = False) -> str:
        value = self.values[key]
        if required and not value:
            self.error(key, _("%(field)s is required.") % {"field": key})
        elif len(value) > max_length:
            self.error(
                key,
                _("%(field)s has %(length)s characters; at most %(max)s.")
                % {"field": key, "length": len(value), "max": max_length},
            )
        return value

    def choice(
        self, key: str, choices, *, required: bool = False, message: str = ""
    ) -> str:
        value = self.values[key]
        if not value and not required:
            return ""
        if value not in choices:
            self.error(
                key,
                message
                or _("%(field)s must be one of: %(choices)s.")
                % {"field": key, "choices": ", ".join(choices)},
            )
        return value

    def flag(self, key: str) -> bool:
        value = self.values[key].lower()
        if value in t.YES:
            return True
        if value not in t.NO:
            self.error(key, _("%(field)s must be yes or no.") % {"field": key})
        return False

    def whole(self, key: str, high: int) -> int | None:
        value = self.values[key]
        if not value:
            self.error(key, _("%(field)s is required.") % {"field": key})
            return None
        if not value.isdigit() or not 1 <= int(value) <= high:
            self.error(
                key,
                _("%(field)s must be a whole number from 1 to %(max)s.")
                % {"field": key, "max": high},
            )
            return None
        return int(value)


def _risk_message(key: str, choices: tuple[str, ...]) -> str:
    return _("%(field)s must be %(first)s or %(second)s.") % {
        "field": key,
        "first": choices[0],
        "second": choices[1],
    }


def _hazard(row: _Row, places: dict[str, str]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    groups = [g for g, _label in catalogue.group_choices()]
    group = row.choice(
        "group",
        groups,
        required=True,
        message=_("group is not a hazard group of ISO 12100 Annex B (see Read me)."),
    )
    fields["group"] = group
    for key, choices in (
        ("origin", catalogue.origin_choices),
        ("consequence", catalogue.consequence_choices),
    ):
        fields[key] = row.values[key]
        if group not in groups:
            continue  # the group is wrong: its entries cannot be checked
        ids = [i for i, _label in choices(group)]
        fields[key] = row.choice(
            key,
            ids,
            required=True,
            message=_("%(field)s is not one of this group's entries (see Read me).")
            % {"field": key},
        )
    fields["phase"] = row.choice("phase", Phase.values, required=True)
    fields["task"] = row.text(
        "task", max_length=Hazard._meta.get_field("task").max_length, required=True
    )
    fields["location_key"] = row.choice(
        "location_key",
        list(places),
        message=_("location_key is not a place in this cell's layout."),
    )
    fields["description"] = row.text(
        "description", max_length=HAZARD_DESCRIPTION_MAX_LENGTH
    )
    regions = [v for v, _l in Hazard._meta.get_field("body_region").choices or []]
    fields["body_region"] = row.choice("body_region", regions)
    fields["contact_type"] = row.choice("contact_type", ContactType.values)
    area = row.values["contact_area_cm2"]
    fields["contact_area_cm2"] = None
    if area:
        try:
            value = Decimal(area.replace(",", "."))
        except InvalidOperation:
            value = None
        if (
            value is None
            or not value.is_finite()
            or not CONTACT_AREA_MIN_CM2 <= value <= CONTACT_AREA_MAX_CM2
            or value != value.quantize(Decimal("0.01"))
        ):
            row.error(
                "contact_area_cm2",
                _(
                    "contact_area_cm2 must be a number from %(min)s to %(max)s "
                    "with at most two decimals."
                )
                % {"min": CONTACT_AREA_MIN_CM2, "max": CONTACT_AREA_MAX_CM2},
            )
        else:
            fields["contact_area_cm2"] = value.quantize(Decimal("0.01"))
    for key, choices in RISK_CHOICES.items():
        fields[key] = row.choice(key, choices, message=_risk_message(key, choices))
    fields["low_probability"] = row.flag("low_probability")
    fields["residual_low_probability"] = row.flag("residual_low_probability")
    return fields


def _measure(row: _Row, links: dict[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "step": row.choice("step", MeasureStep.values, required=True),
        "description": row.text(
            "description",
            max_length=Measure._meta.get_field("description").max_length,
            required=True,
        ),
        "collaborative_mode": row.choice(
            "collaborative_mode", CollaborativeMode.values
        ),
        "is_safety_function": row.flag("is_safety_function"),
        "plr_required": row.choice("plr_required", PLS),
        "pl_claimed": row.choice("pl_claimed", PLS),
    }
    link = row.choice(
        "link",
        list(links),
        message=_(
            "link is not a device or guard of this cell (device:<id>, segment:<id>)."
        ),
    )
    if link and link in links:
        kind = link.split(":", 1)[0]
        fields[kind] = links[link]
    return fields


def _links(revision: Revision) -> dict[str, Any]:
    cell = revision.assessment.cell
    found: dict[str, Any] = {}
    for device in cell.devices.all():
        found[f"device:{device.pk}"] = device
    for segment in cell.segments.all():
        found[f"segment:{segment.pk}"] = segment
    return found


def plan_import(revision: Revision, data: bytes) -> list[_HazardPlan]:
    """The hazards and measures the file adds, every row checked;
    ``ImportRefused`` with every error otherwise. Writes nothing."""
    book = _open(data)
    errors: list[RowError] = []
    try:
        hazard_rows = _rows(book, t.HAZARDS, t.HAZARD_COLUMNS, t.MAX_HAZARDS, errors)
        measure_rows = _rows(
            book, t.MEASURES, t.MEASURE_COLUMNS, t.MAX_MEASURES, errors
        )
    except Exception as exc:  # a read-only sheet is parsed as it is read
        raise _file_error(not_xlsx_message()) from exc
    finally:
        book.close()
    if hazard_rows is None or measure_rows is None:
        raise ImportRefused(errors)
    places = selectors.location_choices(revision.assessment.cell)
    links = _links(revision)
    plans: dict[int, _HazardPlan] = {}
    for number, values in hazard_rows:
        row = _Row(t.HAZARDS, number, values, errors)
        hazard_number = row.whole("number", t.MAX_HAZARDS * 10)
        fields = _hazard(row, places)
        if hazard_number is None:
            continue
        if hazard_number in plans:
            row.error(
                "number",
                _("hazard number %(number)s is already used on row %(row)s.")
                % {"number": hazard_number, "row": plans[hazard_number].row},
            )
            continue
        plans[hazard_number] = _HazardPlan(number, hazard_number, fields)
    for number, values in measure_rows:
        row = _Row(t.MEASURES, number, values, errors)
        hazard_number = row.whole("hazard_number", t.MAX_HAZARDS * 10)
        fields = _measure(row, links)
        if hazard_number is not None and hazard_number not in plans:
            row.error(
                "hazard_number",
                _("hazard_number %(number)s is not a hazard of the Hazards sheet.")
                % {"number": hazard_number},
            )
        elif hazard_number is not None:
            plans[hazard_number].measures.append((number, fields))
    if not hazard_rows and not errors:
        errors.append(
            RowError(
                t.HAZARDS, 0, "file", _("The Hazards sheet has no hazard to import.")
            )
        )
    if errors:
        raise ImportRefused(sorted(errors, key=lambda e: (e.sheet != t.HAZARDS, e.row)))
    return list(plans.values())


def _service_errors(sheet: str, row: int, exc: ValidationError) -> list[RowError]:
    if hasattr(exc, "error_dict"):
        return [
            RowError(sheet, row, key, message)
            for key, messages in exc.message_dict.items()
            for message in messages
        ]
    return [RowError(sheet, row, "row", message) for message in exc.messages]


def _refuse_unless_draft(revision: Revision) -> None:
    if not revision.is_editable:
        raise _file_error(
            _(
                "Revision %(number)s is %(status)s: it can no longer change. Import "
                "into a draft revision."
            )
            % {
                "number": revision.number,
                "status": revision.get_status_display().lower(),
            }
        )


def register_import(*, revision: Revision, actor, data: bytes) -> ImportResult:
    """Append the file's hazards and measures to the draft ``revision``.

    ``PermissionDenied`` for a viewer; ``ImportRefused`` (nothing saved) for a
    revision that is not a draft or a file with any error.
    """
    require_edit(actor, revision.assessment.cell.project.organisation_id)
    _refuse_unless_draft(revision)
    plans = plan_import(revision, data)
    measures = 0
    with transaction.atomic():
        for plan in plans:
            try:
                hazard = services.hazard_add(
                    revision=revision, actor=actor, **plan.fields
                )
            except ValidationError as exc:
                # Leaving the block with the exception rolls back what was added.
                raise ImportRefused(_service_errors(t.HAZARDS, plan.row, exc)) from exc
            for row, fields in plan.measures:
                try:
                    services.measure_add(hazard=hazard, actor=actor, **fields)
                except ValidationError as exc:
                    raise ImportRefused(_service_errors(t.MEASURES, row, exc)) from exc
                measures += 1
    return ImportResult(hazards=len(plans), measures=measures)
