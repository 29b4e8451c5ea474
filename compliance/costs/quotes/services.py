"""Writes of supplier quotes: importing a quote's spreadsheet (all or
nothing; the same supplier's quote number again replaces it, the matches a
person confirmed kept), confirming or correcting a row's match, and deleting
a quote. Every cell of the organisation is priced from them at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from cells.models import Organisation
from cells.permissions import require_edit
from compliance.costs.catalogue import CATALOGUE_BY_KEY
from compliance.costs.quotes import reading, selectors
from compliance.costs.quotes.matching import Match, RowIdentity, normalised
from compliance.costs.quotes.models import MatchedBy, QuoteRow, SupplierQuote
from compliance.safety_functions.models import LibraryDevice

# The row's fields compared to tell what a re-import changes.
ROW_FIELDS = (
    "kind",
    "maker",
    "part_number",
    "model",
    "description",
    "unit",
    "price_low",
    "price_high",
    "currency",
    "minimum_order",
    "lead_time_weeks_low",
    "lead_time_weeks_high",
)


def identity(row) -> tuple[str, str, str]:
    """What a row is, whatever its place in the file: its part number, model
    and kind as compared (a confirmed match follows it on re-import)."""
    return (normalised(row.part_number), normalised(row.model), row.kind)


@dataclass
class ImportPreview:
    """What importing a file would do: the quote it reads, each row's match,
    and, when it replaces a stored quote, the rows added, removed and
    changed."""

    quote: reading.QuoteFile
    matches: list[Match]
    existing: SupplierQuote | None = None
    added: list = field(default_factory=list)
    removed: list = field(default_factory=list)
    changed: list = field(default_factory=list)

    @property
    def replaces(self) -> bool:
        return self.existing is not None


def catalogue_kinds(translate) -> dict[str, str]:
    """Every spelling of a catalogue entry a quote's "kind" column may use:
    its key, its English name and its name in ``translate``'s language."""
    kinds: dict[str, str] = {}
    for key, entry in CATALOGUE_BY_KEY.items():
        for spelling in (key, entry.name, translate(entry.name)):
            kinds[spelling.strip().casefold()] = key
    return kinds


def quote_import_preview(
    *, organisation: Organisation, actor, data: bytes, filename: str
) -> ImportPreview:
    """Read and match a quote's file without saving anything. Raises
    ``reading.QuoteFileError`` naming every row and column at fault."""
    require_edit(actor, organisation.pk)
    quote = reading.read_quote(data, filename, kinds=catalogue_kinds(_))
    match = selectors.matcher(organisation.pk, CATALOGUE_BY_KEY)
    matches = [
        match(
            RowIdentity(
                kind=r.kind, maker=r.maker, part_number=r.part_number, model=r.model
            )
        )
        for r in quote.rows
    ]
    preview = ImportPreview(quote=quote, matches=matches)
    existing = (
        SupplierQuote.objects.filter(
            organisation=organisation, supplier=quote.supplier, number=quote.number
        )
        .prefetch_related("rows")
        .first()
    )
    if existing is not None:
        preview.existing = existing
        stored = {identity(r): r for r in existing.rows.all()}
        new = {identity(r): r for r in quote.rows}
        preview.added = [r for key, r in new.items() if key not in stored]
        preview.removed = [r for key, r in stored.items() if key not in new]
        preview.changed = [
            (stored[key], r)
            for key, r in new.items()
            if key in stored
            and any(getattr(stored[key], n) != getattr(r, n) for n in ROW_FIELDS)
        ]
    return preview


@transaction.atomic
def quote_import(
    *,
    organisation: Organisation,
    actor,
    data: bytes,
    filename: str,
    replace: bool = False,
) -> SupplierQuote:
    """Save a quote's file: all its rows or, on any error, nothing. The same
    supplier's quote number, already stored, is replaced only with
    ``replace`` (after the person saw the preview); a match a person
    confirmed is kept for the row that is the same item."""
    preview = quote_import_preview(
        organisation=organisation, actor=actor, data=data, filename=filename
    )
    quote = preview.quote
    confirmed: dict[tuple, QuoteRow] = {}
    if preview.existing is not None:
        if not replace:
            raise ValidationError(
                _(
                    "Quote %(number)s of %(supplier)s is already stored: look at "
                    "what the file changes, then replace it."
                )
                % {"number": quote.number, "supplier": quote.supplier}
            )
        existing = SupplierQuote.objects.select_for_update().get(pk=preview.existing.pk)
        confirmed = {
            identity(r): r
            for r in existing.rows.all()
            if r.matched_by == MatchedBy.PERSON
        }
        existing.rows.all().delete()
        stored = existing
        stored.version = F("version") + 1
    else:
        stored = SupplierQuote(organisation=organisation)
    stored.quoted_on = quote.quoted_on
    stored.valid_until = quote.valid_until
    stored.supplier = quote.supplier
    stored.number = quote.number
    stored.file_name = filename[:200]
    stored.imported_by = actor
    stored.save()
    rows = []
    for row, match in zip(quote.rows, preview.matches, strict=True):
        values = {
            "catalogue_key": match.catalogue_key,
            "library_device_id": match.library_pk,
            "matched_by": match.matched_by,
        }
        kept = confirmed.get(identity(row))
        if kept is not None:
            values = {
                "catalogue_key": kept.catalogue_key,
                "library_device_id": kept.library_device_id,
                "matched_by": MatchedBy.PERSON,
                "confirmed_by_id": kept.confirmed_by_id,
                "confirmed_at": kept.confirmed_at,
            }
        rows.append(
            QuoteRow(
                quote=stored,
                row=row.row,
                **{name: getattr(row, name) for name in ROW_FIELDS},
                **values,
            )
        )
    QuoteRow.objects.bulk_create(rows)
    stored.refresh_from_db()
    return stored


@transaction.atomic
def quote_row_match(
    *,
    row: QuoteRow,
    actor,
    catalogue_key: str,
    library_device: LibraryDevice | None = None,
) -> QuoteRow:
    """A person confirms or corrects what a row prices: a catalogue entry
    (empty: it prices nothing) and, if it names one, a library device of the
    same organisation."""
    quote = row.quote
    require_edit(actor, quote.organisation_id)
    if catalogue_key and catalogue_key not in CATALOGUE_BY_KEY:
        raise ValidationError({"catalogue_key": _("There is no such catalogue entry.")})
    if (
        library_device is not None
        and library_device.organisation_id != quote.organisation_id
    ):
        raise ValidationError({"library_device": _("There is no such library device.")})
    QuoteRow.objects.filter(pk=row.pk).update(
        catalogue_key=catalogue_key,
        library_device=library_device,
        matched_by=MatchedBy.PERSON,
        confirmed_by=actor,
        confirmed_at=timezone.now(),
    )
    # The quote's version is what the cost lines' version reads.
    SupplierQuote.objects.filter(pk=quote.pk).update(version=F("version") + 1)
    return QuoteRow.objects.select_related("quote", "library_device").get(pk=row.pk)


@transaction.atomic
def quote_delete(*, quote: SupplierQuote, actor) -> None:
    require_edit(actor, quote.organisation_id)
    SupplierQuote.objects.filter(pk=quote.pk).delete()


def quote_is_current(quote: SupplierQuote, day: date | None = None) -> bool:
    return not quote.expired_on(day or timezone.localdate())


def quote_file(quote: SupplierQuote) -> reading.QuoteFile:
    """A stored quote as its file reads (for the download)."""
    return reading.QuoteFile(
        supplier=quote.supplier,
        number=quote.number,
        quoted_on=quote.quoted_on,
        valid_until=quote.valid_until,
        rows=tuple(
            reading.QuoteRowIn(
                row=row.row, **{name: getattr(row, name) for name in ROW_FIELDS}
            )
            for row in quote.rows.all()
        ),
    )
