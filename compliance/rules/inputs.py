"""What a cell's findings and cost lines are computed from, read once per
request, and the content version of it: the key under which they are kept
(``compliance.rules.results``).

The version is a hash of every row the computation reads, as stored: the
cell, its layout (with the library entries its devices are priced from), its
certificates, its safety functions (subsystems, validation records and the
organisation's Table K.1), its risk assessment, the rule packs' version and
the day (certificates expire). A signed revision is its id: the database
refuses any change to it, its hazards and its measures (migration 0002); a
newer draft is hashed with its hazards and measures, as they add pending
notes and PLr. The cost lines' version adds the operator stations, the
organisation's catalogue, the cell's edits of its lines and its own lines.

Whoever writes, by whatever path (a page, the API, the admin, a bulk update,
another process), changes a row and so the version: a reader never gets
findings of a cell as it was, and nothing has to be told to forget them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from django.db.models import Model, Prefetch, prefetch_related_objects
from django.utils import timezone

from cells.models import Cell
from compliance.assessment.models import (
    Assessment,
    Revision,
    RevisionStatus,
)
from compliance.rules import engine
from compliance.safety_functions.models import (
    PfhdTableImport,
    SafetyFunction,
    Subsystem,
    ValidationRecord,
)

# Raise it when what is kept under a version changes shape, so that values
# kept by an older release are not read as new ones.
CACHE_FORMAT = 1
# The code that computes findings and cost lines: a release that changes it
# computes them again, even where the rule packs' version was not raised.
COMPUTED_BY = (
    "cells/geometry.py",
    "cells/perimeter",
    "compliance/calculators",
    "compliance/rules",
    "compliance/costs",
    "compliance/safety_functions",
    "compliance/assessment/hazards",
)


def _code_version() -> str:
    root = Path(__file__).resolve().parent.parent.parent
    sources = []
    for name in COMPUTED_BY:
        path = root / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        sources += [(str(f.relative_to(root)), f.read_bytes()) for f in files]
    return digest(*sources)


def row(obj: Model | None) -> tuple:
    """A row as stored: its concrete fields' values, in the model's order."""
    if obj is None:
        return ()
    return tuple(getattr(obj, f.attname) for f in obj._meta.concrete_fields)


def rows(objects) -> list[tuple]:
    return [row(obj) for obj in objects]


def digest(*parts: object) -> str:
    """A short, stable hash of ``parts`` (rows of plain values)."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


CODE_VERSION = _code_version()


@dataclass
class CellInputs:
    """A cell loaded by ``cells.selectors.cell_with_layout`` with what else
    its findings read: certificates, the risk assessment's revisions (the
    latest signed one and a newer draft), the safety functions; and the
    content version of all of it."""

    cell: Cell
    signed: Revision | None
    draft: Revision | None
    assessment_exists: bool
    functions: list[SafetyFunction]
    k1: PfhdTableImport | None
    checked_on: date
    version: str
    _costs_version: str | None = field(default=None, repr=False)
    # The organisation's own catalogue figures (read with ``costs_version``).
    catalogue_edits: list = field(default_factory=list, repr=False)
    # What this request has read from the cache (compliance.rules.results).
    memo: dict = field(default_factory=dict, repr=False)

    def with_signed_register(self) -> None:
        """Load the signed revision's hazards and measures (read only when
        the findings are computed: the revision's id already stands for
        them in the version)."""
        if self.signed is not None:
            prefetch_related_objects([self.signed], *REGISTER)

    @property
    def costs_version(self) -> str:
        """The version of the cell's cost lines: the findings' version, the
        operator stations, the organisation's catalogue and the cell's edits
        and own lines."""
        if self._costs_version is None:
            from compliance.costs.models import CatalogueEdit

            cell = self.cell
            prefetch_related_objects([cell], "line_item_edits", "custom_line_items")
            self.catalogue_edits = list(
                CatalogueEdit.objects.filter(
                    organisation_id=cell.project.organisation_id
                ).order_by("pk")
            )
            self._costs_version = digest(
                self.version,
                rows(cell.stations.all()),
                rows(self.catalogue_edits),
                rows(cell.line_item_edits.all()),
                rows(cell.custom_line_items.all()),
            )
        return self._costs_version


REGISTER = ("hazards__measures",)
FUNCTIONS = (
    Prefetch(
        "subsystems",
        queryset=Subsystem.objects.select_related("library_device", "device"),
    ),
    Prefetch(
        "validation_records",
        queryset=ValidationRecord.objects.select_related("recorded_by"),
    ),
)


def _layout_rows(cell: Cell) -> tuple:
    segments = list(cell.segments.all())
    devices = list(cell.devices.all())
    return (
        row(cell),
        cell.project.country,
        cell.project.organisation_id,
        rows(segments),
        [rows(segment.openings.all()) for segment in segments],
        rows(devices),
        # The library entry a device is priced from (loaded with it).
        [row(device.library_device) for device in devices],
        rows(cell.certificates.all()),
    )


def cell_inputs(cell: Cell) -> CellInputs:
    """The inputs of a cell loaded by ``cells.selectors.cell_with_layout``
    (memoised on it: one read per request however many ask)."""
    cached = getattr(cell, "_csp_inputs", None)
    if cached is not None:
        return cached
    prefetch_related_objects([cell], "certificates")
    assessment = Assessment.objects.filter(cell=cell).first()
    revisions = (
        list(Revision.objects.filter(assessment=assessment).order_by("-number"))
        if assessment is not None
        else []
    )
    signed = next((r for r in revisions if r.status == RevisionStatus.SIGNED), None)
    current = revisions[0] if revisions else None
    draft = (
        current
        if current is not None and (signed is None or current.number > signed.number)
        else None
    )
    if draft is not None:
        prefetch_related_objects([draft], *REGISTER)
    functions = list(
        SafetyFunction.objects.filter(cell=cell)
        .select_related("device")
        .prefetch_related(*FUNCTIONS)
    )
    k1 = (
        PfhdTableImport.objects.filter(organisation_id=cell.project.organisation_id)
        .order_by("pk")
        .first()
        if any(s.route == "designed" for f in functions for s in f.subsystems.all())
        else None
    )
    checked_on = timezone.localdate()
    version = digest(
        CACHE_FORMAT,
        engine.RULES_VERSION,
        CODE_VERSION,
        checked_on,
        _layout_rows(cell),
        # A signed revision never changes: its id stands for its content.
        row(assessment),
        [(r.pk, r.number, r.status, r.content_hash) for r in revisions],
        row(draft),
        [
            (row(hazard), rows(hazard.measures.all()))
            for hazard in (draft.hazards.all() if draft else ())
        ],
        [
            (row(f), rows(f.subsystems.all()), rows(f.validation_records.all()))
            for f in functions
        ],
        row(k1),
    )
    inputs = CellInputs(
        cell=cell,
        signed=signed,
        draft=draft,
        assessment_exists=assessment is not None,
        functions=functions,
        k1=k1,
        checked_on=checked_on,
        version=version,
    )
    cell._csp_inputs = inputs
    return inputs


def forget(cell: Cell) -> None:
    """Read the cell's inputs again when next asked: for a request that has
    read them, then changed them."""
    cell.__dict__.pop("_csp_inputs", None)
    prefetched = getattr(cell, "_prefetched_objects_cache", {})
    for name in ("certificates", "line_item_edits", "custom_line_items"):
        prefetched.pop(name, None)
