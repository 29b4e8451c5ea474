"""Writes of safety functions: accepting or discarding a proposed function,
editing a function and its subsystems, recording validation tests, and an
organisation's import of Table K.1."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from cells.models import Cell, Device, Organisation
from cells.permissions import require_edit
from compliance.calculators import written
from compliance.calculators.iso13849_k1 import K1ImportError, parse_k1_csv
from compliance.safety_functions import documents, selectors
from compliance.safety_functions.models import (
    DismissedFunctionSuggestion,
    LibraryDevice,
    PfhdTableImport,
    SafetyFunction,
    Subsystem,
    SubsystemRoute,
    ValidationOutcome,
    ValidationRecord,
    ValidationTestKind,
)

MAX_FUNCTIONS_PER_CELL = 100
MAX_SUBSYSTEMS = 8
MAX_RECORDS_PER_FUNCTION = 200
K1_MAX_BYTES = 64 * 1024

FUNCTION_FIELDS = (
    "name",
    "safeguard",
    "device",
    "collaborative_mode",
    "trigger",
    "reaction",
    "stop_category",
    "required_response_time_ms",
    "reset_behaviour",
    "restart_behaviour",
    "uses_muting",
    "hazard_keys",
)
SUBSYSTEM_FIELDS = (
    "role",
    "label",
    "library_device",
    "device",
    "route",
    "pl",
    "pfhd_per_hour",
    "category",
    "mttfd_years",
    "mttfd_channel2_years",
    "b10d_cycles",
    "days_per_year",
    "hours_per_day",
    "cycle_time_s",
    "dcavg_percent",
    "ccf_measures",
    "source",
)


class Conflict(Exception):
    """Someone else saved the function since it was read."""


def _organisation_id(cell: Cell) -> int:
    return cell.project.organisation_id


def _check_links(cell: Cell, values: dict[str, Any]) -> None:
    device = values.get("device")
    if device is not None and device.cell_id != cell.pk:
        raise ValidationError({"device": _("The device belongs to another cell.")})
    keys = values.get("hazard_keys")
    if keys is not None:
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise ValidationError({"hazard_keys": _("Give a list of hazard keys.")})
        if len(keys) > 200:
            raise ValidationError({"hazard_keys": _("At most 200 hazards.")})
        known = dict(selectors.assessment_hazards(cell).choices())
        unknown = [k for k in keys if k not in known]
        if unknown:
            raise ValidationError(
                {
                    "hazard_keys": _(
                        "These hazards are not in the cell's risk assessment: %(keys)s"
                    )
                    % {"keys": ", ".join(unknown[:5])}
                }
            )
        values["hazard_keys"] = list(dict.fromkeys(keys))


def _saved(instance, exclude: tuple[str, ...] = ()) -> None:
    instance.full_clean(exclude=list(exclude))
    instance.save()


@transaction.atomic
def function_create(*, cell: Cell, actor, **fields: Any) -> SafetyFunction:
    require_edit(actor, _organisation_id(cell))
    if SafetyFunction.objects.filter(cell=cell).count() >= MAX_FUNCTIONS_PER_CELL:
        raise ValidationError(
            _("A cell can have at most %(n)s safety functions.")
            % {"n": MAX_FUNCTIONS_PER_CELL}
        )
    values = {k: v for k, v in fields.items() if k in FUNCTION_FIELDS}
    _check_links(cell, values)
    order = SafetyFunction.objects.filter(cell=cell).aggregate(n=Max("order"))["n"]
    function = SafetyFunction(cell=cell, order=(order or 0) + 1, **values)
    function.suggestion_key = fields.get("suggestion_key", "")
    # Where the app wrote its texts from, to show them in the reader's language.
    function.texts = fields.get("texts")
    _saved(function)
    return function


@transaction.atomic
def function_update(
    *, function: SafetyFunction, actor, version: int, **fields: Any
) -> SafetyFunction:
    require_edit(actor, _organisation_id(function.cell))
    values = {k: v for k, v in fields.items() if k in FUNCTION_FIELDS}
    _check_links(function.cell, values)
    locked = SafetyFunction.objects.select_for_update().get(pk=function.pk)
    if locked.version != version:
        raise Conflict(locked)
    for name, value in values.items():
        setattr(locked, name, value)
    locked.version = F("version") + 1
    locked.full_clean(exclude=["version"])
    locked.save()
    locked.refresh_from_db()
    return locked


def function_delete(*, function: SafetyFunction, actor) -> None:
    require_edit(actor, _organisation_id(function.cell))
    function.delete()


def _bump(function: SafetyFunction) -> None:
    SafetyFunction.objects.filter(pk=function.pk).update(version=F("version") + 1)


def library_fields(entry: LibraryDevice) -> dict[str, Any]:
    """A subsystem's figures taken from a library device."""
    values: dict[str, Any] = {
        "library_device": entry,
        "source": (entry.data_source or str(entry))[:300],
        "pl": entry.pl,
        "pfhd_per_hour": entry.pfhd_per_hour,
        "category": entry.category,
        "mttfd_years": entry.mttfd_years,
        "b10d_cycles": entry.b10d_cycles,
        "dcavg_percent": entry.dcavg_percent,
    }
    if entry.pfhd_per_hour:
        # The maker's PFHd: certified (without a stated PL the calculator
        # asks for it, rather than this guessing one).
        values["route"] = SubsystemRoute.CERTIFIED
    elif entry.pl:
        values["route"] = SubsystemRoute.PL_ONLY
    else:
        values["route"] = SubsystemRoute.DESIGNED
    return values


def _check_subsystem(function: SafetyFunction, values: dict[str, Any]) -> None:
    organisation_id = _organisation_id(function.cell)
    entry = values.get("library_device")
    if entry is not None and entry.organisation_id != organisation_id:
        raise ValidationError(
            {"library_device": _("The library device belongs to another organisation.")}
        )
    device = values.get("device")
    if device is not None and device.cell_id != function.cell_id:
        raise ValidationError({"device": _("The device belongs to another cell.")})
    measures = values.get("ccf_measures")
    if measures is not None and (
        not isinstance(measures, list)
        or len(measures) > 20
        or not all(isinstance(m, str) and len(m) <= 40 for m in measures)
    ):
        raise ValidationError(
            {"ccf_measures": _("Give a list of the Annex F measures taken.")}
        )


@transaction.atomic
def subsystem_add(*, function: SafetyFunction, actor, **fields: Any) -> Subsystem:
    require_edit(actor, _organisation_id(function.cell))
    if function.subsystems.count() >= MAX_SUBSYSTEMS:
        raise ValidationError(
            _("A safety function can have at most %(n)s subsystems in series.")
            % {"n": MAX_SUBSYSTEMS}
        )
    values = {k: v for k, v in fields.items() if k in SUBSYSTEM_FIELDS}
    _check_subsystem(function, values)
    order = function.subsystems.aggregate(n=Max("order"))["n"]
    subsystem = Subsystem(function=function, order=(order or 0) + 1, **values)
    _saved(subsystem)
    _bump(function)
    return subsystem


@transaction.atomic
def subsystem_update(*, subsystem: Subsystem, actor, **fields: Any) -> Subsystem:
    function = subsystem.function
    require_edit(actor, _organisation_id(function.cell))
    values = {k: v for k, v in fields.items() if k in SUBSYSTEM_FIELDS}
    _check_subsystem(function, values)
    # The row as stored, locked before it is read: a change writes only the
    # fields sent, so another's change of other fields stays (issue 28).
    subsystem = Subsystem.objects.select_for_update().get(pk=subsystem.pk)
    for name, value in values.items():
        setattr(subsystem, name, value)
    subsystem.full_clean()
    subsystem.save(update_fields=[Subsystem._meta.get_field(n).attname for n in values])
    _bump(function)
    return subsystem


def subsystem_delete(*, subsystem: Subsystem, actor) -> None:
    require_edit(actor, _organisation_id(subsystem.function.cell))
    function = subsystem.function
    subsystem.delete()
    _bump(function)


def _device_subsystem(device: Device | None, label: str) -> dict[str, Any]:
    if device is None:
        return {"label": label[:80], "route": SubsystemRoute.CERTIFIED}
    if device.library_device_id:
        return {
            "label": label[:80],
            "device": device,
            **library_fields(device.library_device),
        }
    return {
        "label": label[:80],
        "device": device,
        "route": SubsystemRoute.PL_ONLY
        if device.claimed_pl
        else SubsystemRoute.CERTIFIED,
        "pl": device.claimed_pl,
    }


@transaction.atomic
def function_suggestion_accept(*, cell: Cell, actor, key: str) -> SafetyFunction:
    """The proposed function with its chain of subsystems; the input takes
    the device's data (its library entry's, or the PL it claims)."""
    require_edit(actor, _organisation_id(cell))
    suggestion = next((s for s in selectors.suggestions(cell) if s.key == key), None)
    if suggestion is None:
        raise ValidationError(_("No such proposal: it was accepted or discarded."))
    device = (
        Device.objects.select_related("library_device").get(pk=suggestion.device_pk)
        if suggestion.device_pk
        else None
    )
    # Stored in English whoever clicked, with where each text came from, so
    # that it is shown in the reader's language (``written.field_shown``).
    function = function_create(
        cell=cell,
        actor=actor,
        name=suggestion.name.render()[:120],
        safeguard=suggestion.safeguard,
        device=device,
        collaborative_mode=suggestion.collaborative_mode,
        trigger=suggestion.trigger.render()[:300],
        reaction=suggestion.reaction.render()[:300],
        stop_category=suggestion.stop_category,
        hazard_keys=list(suggestion.hazard_keys),
        suggestion_key=suggestion.key,
        texts={
            name: written.from_line(getattr(suggestion, name))
            for name in ("name", "trigger", "reaction")
        },
    )
    for order, template in enumerate(suggestion.subsystems, start=1):
        label = template.label.render()
        values = (
            _device_subsystem(device, label)
            if template.device_pk
            else {"label": label[:80], "route": SubsystemRoute.CERTIFIED}
        )
        subsystem = Subsystem(
            function=function,
            order=order,
            role=template.role,
            texts={"label": written.from_line(template.label)},
            **values,
        )
        subsystem.full_clean()
        subsystem.save()
    return function


def function_suggestion_dismiss(*, cell: Cell, actor, key: str) -> None:
    require_edit(actor, _organisation_id(cell))
    if len(key) > 80:
        raise ValidationError(_("No such proposal."))
    DismissedFunctionSuggestion.objects.get_or_create(cell=cell, key=key)


def validation_record_add(
    *, function: SafetyFunction, actor, **fields: Any
) -> ValidationRecord:
    require_edit(actor, _organisation_id(function.cell))
    if function.validation_records.count() >= MAX_RECORDS_PER_FUNCTION:
        raise ValidationError(
            _("At most %(n)s validation records per function.")
            % {"n": MAX_RECORDS_PER_FUNCTION}
        )
    planned = {t.kind for t in selectors.plan_of(function)}
    if fields.get("test") not in planned:
        raise ValidationError(
            {"test": _("This test is not in the function's validation plan.")}
        )
    allowed = (
        "test",
        "performed_by",
        "performed_on",
        "instrument",
        "measured_value",
        "outcome",
        "notes",
    )
    record = ValidationRecord(
        function=function,
        recorded_by=actor,
        # The record holds for the function as it is now, and no other.
        function_fingerprint=selectors.current_fingerprint(function),
        **{k: v for k, v in fields.items() if k in allowed},
    )
    _check_record(function, record)
    _saved(record)
    return record


def _check_record(function: SafetyFunction, record: ValidationRecord) -> None:
    """Refuse what would make a record decide more than it shows: a date to
    come (the latest record decides, so it would outlast every later test),
    or a stopping time longer than the minimum distance allows recorded as
    passed."""
    if (
        isinstance(record.performed_on, date)
        and record.performed_on > timezone.localdate()
    ):
        raise ValidationError(
            {"performed_on": _("A test cannot have been performed on a later date.")}
        )
    allowed_ms = function.required_response_time_ms
    measured_ms = documents.measured_time_ms(record.measured_value)
    if (
        record.test == ValidationTestKind.STOPPING_TIME
        and record.outcome == ValidationOutcome.PASSED
        and allowed_ms is not None
        and measured_ms is not None
        and measured_ms > allowed_ms
    ):
        raise ValidationError(
            {
                "outcome": _(
                    "The stopping time measured, %(measured)s ms, is longer than "
                    "the %(allowed)s ms the minimum distance allows: the test has "
                    "not passed."
                )
                % {"measured": f"{measured_ms:g}", "allowed": allowed_ms}
            }
        )


def validation_record_delete(*, record: ValidationRecord, actor) -> None:
    require_edit(actor, _organisation_id(record.function.cell))
    record.delete()


def pfhd_table_import(
    *, organisation: Organisation, actor, text: str, source: str
) -> PfhdTableImport:
    """The organisation's Table K.1 from a CSV of its licensed copy; every
    row checked, nothing saved if one is wrong."""
    require_edit(actor, organisation.pk)
    source = (source or "").strip()
    if not source:
        raise ValidationError(
            {"source": _("Name the licensed copy the table is taken from.")}
        )
    if len(text.encode()) > K1_MAX_BYTES:
        raise ValidationError({"file": _("The file is larger than 64 KB.")})
    try:
        table = parse_k1_csv(text, source=source[:200])
    except K1ImportError as exc:
        raise ValidationError(
            {
                "file": [
                    _("Row %(row)s: %(message)s") % {"row": row, "message": _(message)}
                    for row, message in exc.errors[:50]
                ]
            }
        ) from exc
    row, _created = PfhdTableImport.objects.update_or_create(
        organisation=organisation,
        defaults={
            "source": table.source,
            "rows": table.model_dump(mode="json")["rows"],
            "imported_by": actor,
        },
    )
    return row


def pfhd_table_remove(*, organisation: Organisation, actor) -> None:
    require_edit(actor, organisation.pk)
    PfhdTableImport.objects.filter(organisation=organisation).delete()


def functions_copy(*, source: Cell, target: Cell) -> tuple[int, int]:
    """Copy the safety functions of ``source`` to ``target`` (a guarding
    concept's cell, just designed from it or from another concept), with
    their subsystems, each device link taken to the target's device of the
    same kind and label. A function whose device the target has not is not
    copied: its concept guards otherwise, and the rules ask for the functions
    its own devices need. Validation records are never copied: they hold for
    the function as recorded, and a copied function needs its tests again.
    Returns (copied, left out)."""
    devices = {(d.kind, d.label): d for d in Device.objects.filter(cell=target)}

    def mapped(device: Device | None) -> tuple[bool, Device | None]:
        if device is None:
            return True, None
        twin = devices.get((device.kind, device.label))
        return twin is not None, twin

    copied = left_out = 0
    functions = (
        SafetyFunction.objects.filter(cell=source)
        .select_related("device")
        .prefetch_related("subsystems__device")
        .order_by("order", "pk")
    )
    for function in functions:
        found, device = mapped(function.device)
        if not found:
            left_out += 1
            continue
        copy = SafetyFunction(
            cell=target,
            order=function.order,
            suggestion_key=function.suggestion_key,
            texts=function.texts,
            **{f: getattr(function, f) for f in FUNCTION_FIELDS if f != "device"},
            device=device,
        )
        _saved(copy)
        for subsystem in function.subsystems.all():
            _found, twin = mapped(subsystem.device)
            part = Subsystem(
                function=copy,
                order=subsystem.order,
                texts=subsystem.texts,
                **{f: getattr(subsystem, f) for f in SUBSYSTEM_FIELDS if f != "device"},
                device=twin,
            )
            _saved(part)
        copied += 1
    return copied, left_out
