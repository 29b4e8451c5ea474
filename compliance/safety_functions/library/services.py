"""Writes of the device library: the starting entries copied into an
organisation's library, the organisation's own entries, the CSV import, and
choosing a library entry for a cell device. Bad input raises a
``ValidationError`` naming the field; nothing inconsistent is saved."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cells.models import Device, Organisation
from cells.permissions import require_edit
from cells.services import Conflict
from compliance.costs.services import check_ranges
from compliance.safety_functions.library.catalogue import (
    PFHD_MAX,
    STARTING_ENTRIES,
    is_reference_data,
)
from compliance.safety_functions.library.csv_io import (
    LibraryFileError,
    RowError,
    read_library_csv,
)
from compliance.safety_functions.models import (
    DEVICE_KINDS_FOR,
    LibraryDevice,
    LibraryKind,
)

# The fields a person or a CSV row may set (not the organisation, nor
# whether the entry is still the reference's: that follows from its figures).
EDITABLE_FIELDS: tuple[str, ...] = tuple(
    f.name
    for f in LibraryDevice._meta.concrete_fields
    if f.name not in ("id", "organisation", "from_reference", "updated_at")
)


def library_seed(*, organisation: Organisation, actor=None) -> int:
    """Copy the starting entries (``fixtures/device_library.json``) that the
    organisation's library lacks into it; returns how many were added.

    Idempotent: an entry whose key the library has already (kept, or edited
    since) is left as it is, so running it again adds only what was deleted.
    ``actor``, when given, must be an editor (the page's "add the starting
    entries" button); the organisation's creation and the migration call it
    without one.
    """
    if actor is not None:
        require_edit(actor, organisation.pk)
    present = set(
        LibraryDevice.objects.filter(organisation=organisation).values_list(
            "key", flat=True
        )
    )
    missing = [
        LibraryDevice(organisation=organisation, from_reference=True, **e.as_fields())
        for e in STARTING_ENTRIES
        if e.key not in present
    ]
    # ignore_conflicts: another request seeding at the same time wins the row.
    LibraryDevice.objects.bulk_create(missing, ignore_conflicts=True)
    return len(missing)


def _validate(device: LibraryDevice) -> None:
    """Every rule of an entry, as field errors: the model's own (bounds,
    choices, lengths), both ends of a range or neither, a price with its
    currency and its source, and the PFHd strictly below the bound the
    database holds. Checked here rather than by the database's constraints,
    so that a CSV of 2,000 rows is checked without a query per row."""
    errors: dict[str, list[str]] = {}
    try:
        device.full_clean(
            exclude=["organisation"], validate_unique=False, validate_constraints=False
        )
    except ValidationError as exc:
        errors.update(exc.message_dict)
    # The rules beyond the model's own; a field the model has refused
    # already gets no second message.
    more: dict[str, list[str]] = {}
    values = {name: getattr(device, name) for name in EDITABLE_FIELDS}
    try:
        check_ranges(
            {k: v for k, v in values.items() if k not in errors},
            ("price_low", "price_high"),
            ("lead_time_weeks_low", "lead_time_weeks_high"),
            money="currency",
        )
    except ValidationError as exc:
        more.update(exc.message_dict)
    if device.price_low is not None and not device.price_source.strip():
        more.setdefault("price_source", []).append(
            _("Name the quote or price list the price comes from.")
        )
    if device.price_low is None and device.currency:
        more.setdefault("currency", []).append(
            _("A currency without a price: give the price range, or no currency.")
        )
    if device.pfhd_per_hour is not None and device.pfhd_per_hour >= PFHD_MAX:
        more.setdefault("pfhd_per_hour", []).append(
            _("The PFHd must be below %(limit)s per hour.") % {"limit": "1E-4"}
        )
    for name, messages in more.items():
        if name not in errors:
            errors[name] = messages
    if errors:
        raise ValidationError(errors)


def _mark_reference(device: LibraryDevice) -> None:
    # A starting entry stays marked as the maker's data only while its safety
    # figures are the reference's; an organisation's change makes it its own.
    figures = {name: getattr(device, name) for name in EDITABLE_FIELDS}
    device.from_reference = is_reference_data(device.key, figures)


@transaction.atomic
def library_device_save(
    *,
    organisation: Organisation,
    actor,
    device: LibraryDevice | None = None,
    version: int | None = None,
    **fields: Any,
) -> LibraryDevice:
    """Add an entry of the organisation's own to its library, or change
    ``device`` (one of its entries); ``fields`` are model fields. A change is
    made to the entry as stored, locked before it is read, and writes only
    ``fields``; with ``version`` (the one read), an entry saved by someone
    else since is refused with ``Conflict`` (issue 28)."""
    require_edit(actor, organisation.pk)
    if device is not None and device.organisation_id != organisation.pk:
        raise ValidationError(_("This entry belongs to another library."))
    unknown = sorted(set(fields) - set(EDITABLE_FIELDS))
    if unknown:
        raise ValidationError({unknown[0]: _("This field cannot be set here.")})
    if device is not None and device.pk is not None:
        device = LibraryDevice.objects.select_for_update().get(pk=device.pk)
        if version is not None and device.version != version:
            raise Conflict(
                device, [n for n, v in fields.items() if getattr(device, n) != v]
            )
    device = device or LibraryDevice(organisation=organisation)
    for name, value in fields.items():
        setattr(device, name, value)
    _validate(device)
    taken = LibraryDevice.objects.filter(organisation=organisation, key=device.key)
    if device.pk:
        taken = taken.exclude(pk=device.pk)
    if taken.exists():
        raise ValidationError(
            {
                "key": _("Another entry of the library has the code %(key)s.")
                % {"key": device.key}
            }
        )
    _mark_reference(device)
    if device.pk is None:
        device.save()
        return device
    device.version += 1
    device.save(update_fields=[*fields, "from_reference", "version", "updated_at"])
    return device


@transaction.atomic
def library_device_delete(*, device: LibraryDevice, actor) -> None:
    """Remove an entry. Cell devices and subsystems chosen from it keep the
    figures copied from it; only the link goes."""
    require_edit(actor, device.organisation_id)
    device.delete()


# --- CSV import ---------------------------------------------------------------


@dataclass(frozen=True)
class ImportRowError:
    """One error of an import, as the page and the API list it."""

    row: int  # as a spreadsheet counts, the header being row 1; 0: the file
    field: str
    message: str


class LibraryImportRefused(Exception):
    """The import saved nothing: ``errors`` says what to correct, by row."""

    def __init__(self, errors: list[ImportRowError]) -> None:
        super().__init__(f"{len(errors)} errors")
        self.errors = errors


@dataclass(frozen=True)
class ImportResult:
    created: int
    updated: int
    unchanged: int


def _row_error(error: RowError) -> ImportRowError:
    return ImportRowError(error.row, error.column, error.message.render(_))


@transaction.atomic
def library_import_csv(
    *, organisation: Organisation, actor, data: bytes
) -> ImportResult:
    """Import a library CSV (``csv_io``): a row updates the entry with the
    same key and adds one otherwise. Every row is checked first, as an entry
    entered by hand is; if any row fails, nothing is saved and
    ``LibraryImportRefused`` lists each error with its row and field.
    Entries the file does not name are left as they are. A fixed number of
    queries whatever the number of rows."""
    require_edit(actor, organisation.pk)
    try:
        parsed = read_library_csv(data)
    except LibraryFileError as exc:
        raise LibraryImportRefused(
            [ImportRowError(0, "file", exc.message.render(_))]
        ) from exc
    errors = [_row_error(e) for e in parsed.errors]
    # What could not be read is reported once, not again by the model's checks.
    unread = {(e.row, e.field) for e in errors}
    existing = {
        d.key: d for d in LibraryDevice.objects.filter(organisation=organisation)
    }
    created: list[LibraryDevice] = []
    updated: list[LibraryDevice] = []
    changed_fields: set[str] = set()
    unchanged = 0
    for row in parsed.rows:
        device = existing.get(row.values.get("key", ""))
        if device is None:
            device = LibraryDevice(organisation=organisation)
            changes = dict(row.values)
        else:
            changes = {
                name: value
                for name, value in row.values.items()
                if getattr(device, name) != value
            }
        for name, value in changes.items():
            setattr(device, name, value)
        try:
            _validate(device)
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                field = "" if name == NON_FIELD_ERRORS else name
                if (row.row, field) not in unread:
                    errors += [ImportRowError(row.row, field, m) for m in messages]
            continue
        was_reference = device.from_reference
        _mark_reference(device)
        if device.pk is None:
            created.append(device)
        elif changes or device.from_reference != was_reference:
            updated.append(device)
            changed_fields |= set(changes) | {"from_reference"}
        else:
            unchanged += 1
    if errors:
        raise LibraryImportRefused(sorted(errors, key=lambda e: (e.row, e.field)))
    LibraryDevice.objects.bulk_create(created)
    if updated:
        # bulk_update does not set auto_now fields by itself.
        now = timezone.now()
        for device in updated:
            device.updated_at = now
        LibraryDevice.objects.bulk_update(
            updated, sorted(changed_fields | {"updated_at"}), batch_size=500
        )
    return ImportResult(created=len(created), updated=len(updated), unchanged=unchanged)


# --- Choosing a library entry for a cell device ------------------------------


def _copied(library_device: LibraryDevice) -> dict[str, Any]:
    """The cell device's fields a library entry gives: only the figures it
    has. The response time is rounded up to whole milliseconds (the device
    records whole ms; rounding down would promise a faster device)."""
    values: dict[str, Any] = {}
    if library_device.pl:
        values["claimed_pl"] = library_device.pl
    if library_device.response_time_ms is not None:
        values["response_time_ms"] = int(
            Decimal(library_device.response_time_ms).to_integral_value(
                rounding=ROUND_CEILING
            )
        )
    if library_device.iec61496_type is not None:
        values["iec61496_type"] = library_device.iec61496_type
    if library_device.detection_capability_mm is not None:
        values["detection_capability_mm"] = library_device.detection_capability_mm
    if library_device.kcs_certificate_no.strip():
        # The certificate number is the record that counts (OSH Act Art. 84).
        values["kcs_certificate_no"] = library_device.kcs_certificate_no.strip()
        values["kcs_certified"] = True
    return values


# What a device field is when nothing is recorded.
EMPTY_DEVICE_VALUES: dict[str, Any] = {
    "claimed_pl": "",
    "response_time_ms": None,
    "iec61496_type": None,
    "detection_capability_mm": None,
    "kcs_certificate_no": "",
    "kcs_certified": None,
}


def library_device_values(
    *,
    library_device: LibraryDevice,
    device_kind: str,
    organisation_id: int,
    previous: LibraryDevice | None = None,
    current: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The cell device fields that choosing ``library_device`` sets, for a
    device of ``device_kind`` in a cell of ``organisation_id``.

    The entry's figures replace the device's; a figure the entry does not
    give is kept as recorded, unless it was copied from the ``previous``
    entry (``current`` holding the device's values now), when it is cleared
    rather than left behind from another device. Raises ``ValidationError``
    on ``library_device`` when the entry is of another organisation or of a
    kind the device cannot be.
    """
    if library_device.organisation_id != organisation_id:
        raise ValidationError(
            {
                "library_device": _(
                    "This library device is in another organisation's library: "
                    "choose one of the cell's organisation."
                )
            }
        )
    allowed = DEVICE_KINDS_FOR.get(LibraryKind(library_device.kind), ())
    if device_kind not in allowed:
        raise ValidationError(
            {
                "library_device": _(
                    "%(device)s is a %(library_kind)s: it cannot be this kind of "
                    "device. Choose a library device of a matching kind, or change "
                    "the kind."
                )
                % {
                    "device": library_device,
                    "library_kind": library_device.get_kind_display().lower(),
                }
            }
        )
    values = _copied(library_device)
    if previous is not None and current is not None and previous != library_device:
        for name, old in _copied(previous).items():
            if name not in values and current.get(name) == old:
                values[name] = EMPTY_DEVICE_VALUES[name]
    return values


@transaction.atomic
def device_choose_library_device(
    *, device: Device, library_device: LibraryDevice, actor
) -> Device:
    """Choose ``library_device`` for the cell ``device``: its figures (PL,
    response time, IEC 61496 type, detection capability, KCs certificate)
    are copied into the device, which keeps the link to the entry (the bill
    of materials prices the device from it)."""
    organisation_id = device.cell.project.organisation_id
    require_edit(actor, organisation_id)
    previous = device.library_device if device.library_device_id else None
    values = library_device_values(
        library_device=library_device,
        device_kind=device.kind,
        organisation_id=organisation_id,
        previous=previous,
        current={name: getattr(device, name) for name in EMPTY_DEVICE_VALUES},
    )
    for name, value in values.items():
        setattr(device, name, value)
    device.library_device = library_device
    device.full_clean()
    device.save()
    return device
