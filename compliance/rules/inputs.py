"""What a cell's findings and cost lines are computed from, and the content
version of it: the key under which they are kept (``compliance.rules.results``).

The version is a hash of every row the computation reads, as stored, read in
one query (``FINGERPRINT``, each row's columns as text): the cell and its
project's country, its layout and the library entries its devices are priced
from, its certificates, its risk assessment (every revision; the hazards and
measures of those not signed: a signed revision's own never change, the
database refuses it, migration 0002), its safety functions with their
subsystems and validation records, the organisation's Table K.1, its operator stations and robot programs; with the
rule packs' version, the code that computes and the day (certificates
expire). The cost lines' version adds the organisation's catalogue and
quotes, the cell's edits of its lines and its own lines.

Whoever writes, by whatever path (a page, the API, the admin, a bulk update,
raw SQL, another process), changes a row and so the version: a reader never
gets the findings of a cell as it was, and nothing has to be told to forget
them. Only when they are not kept yet are the rows read as models
(``CellInputs.load``) and the findings computed.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from django.db import connection
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

from cells.models import (
    Cell,
    CellCertificate,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Project,
)
from cells.motion.models import MotionProgram
from cells.selectors import attach, load_layout
from compliance.assessment.models import (
    Assessment,
    Hazard,
    Measure,
    Revision,
    RevisionStatus,
)
from compliance.costs.models import CatalogueEdit, CustomLineItem, LineItemEdit
from compliance.costs.quotes.models import SupplierQuote
from compliance.rules import engine
from compliance.safety_functions.models import (
    LibraryDevice,
    PfhdTableImport,
    SafetyFunction,
    Subsystem,
    ValidationRecord,
)

# Raise it when what is kept under a version changes shape, so that values
# kept by an older release are not read as new ones.
CACHE_FORMAT = 2  # 2: findings carry their typed figures (issue 26)
# The code that computes findings and cost lines, and the template of the
# plan's SVG kept under the same version (``cells.views._plan``): a release
# that changes it computes them again, even where the rule packs' version was
# not raised.
COMPUTED_BY = (
    "cells/drawing",
    "cells/naming.py",
    "cells/drawing_perimeter.py",
    "templates/cells/partials/plan_svg.html",
    "cells/geometry.py",
    "cells/perimeter",
    "compliance/calculators",
    "compliance/rules",
    "compliance/costs",
    "compliance/safety_functions",
    "compliance/assessment/hazards",
    # What the Motion tab and the plans keep of a robot program's judgement.
    "compliance/motion",
    "compliance/plan/programs.py",
    "compliance/plan/inputs.py",
)


def digest(*parts: object) -> str:
    """A short, stable hash of ``parts`` (plain values)."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _code_version() -> str:
    root = Path(__file__).resolve().parent.parent.parent
    sources = []
    for name in COMPUTED_BY:
        path = root / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        sources += [(str(f.relative_to(root)), f.read_bytes()) for f in files]
    return digest(*sources)


CODE_VERSION = _code_version()

# Where each table's rows of one cell are: (tag, model, its alias's joins and
# condition). ``%(cell)s`` is the cell's id, ``%(org)s`` its organisation's.
_ORG = (
    "(SELECT p.organisation_id FROM cells_project p "
    "JOIN cells_cell c ON c.project_id = p.id WHERE c.id = %(cell)s)"
)
# The drawn cell whose risk assessment and certificates a cell reads: its own,
# or, for a guarding concept's cell (``Cell.variant_of``), the drawn cell's.
_BASE = (
    "(SELECT COALESCE(b.variant_of_id, b.id) FROM cells_cell b WHERE b.id = %(cell)s)"
)
_UNSIGNED = (
    "SELECT r.id FROM compliance_revision r JOIN compliance_assessment a "
    f"ON r.assessment_id = a.id WHERE a.cell_id = {_BASE} AND r.status <> 'signed'"
)
FINDINGS_TABLES = (
    ("cell", Cell, "t.id = %(cell)s"),
    (
        "project",
        Project,
        "t.id = (SELECT project_id FROM cells_cell WHERE id = %(cell)s)",
    ),
    ("segment", GuardSegment, "t.cell_id = %(cell)s"),
    (
        "opening",
        Opening,
        "t.segment_id IN (SELECT id FROM cells_guardsegment WHERE cell_id = %(cell)s)",
    ),
    ("device", Device, "t.cell_id = %(cell)s"),
    (
        "library",
        LibraryDevice,
        "t.id IN (SELECT library_device_id FROM cells_device WHERE cell_id = %(cell)s)",
    ),
    ("certificate", CellCertificate, f"t.cell_id = {_BASE}"),
    ("assessment", Assessment, f"t.cell_id = {_BASE}"),
    (
        "revision",
        Revision,
        "t.assessment_id IN (SELECT id FROM compliance_assessment "
        f"WHERE cell_id = {_BASE})",
    ),
    ("hazard", Hazard, f"t.revision_id IN ({_UNSIGNED})"),
    (
        "measure",
        Measure,
        "t.hazard_id IN (SELECT id FROM compliance_hazard "
        f"WHERE revision_id IN ({_UNSIGNED}))",
    ),
    ("function", SafetyFunction, "t.cell_id = %(cell)s"),
    (
        "subsystem",
        Subsystem,
        "t.function_id IN (SELECT id FROM compliance_safetyfunction "
        "WHERE cell_id = %(cell)s)",
    ),
    (
        "record",
        ValidationRecord,
        "t.function_id IN (SELECT id FROM compliance_safetyfunction "
        "WHERE cell_id = %(cell)s)",
    ),
    ("k1", PfhdTableImport, f"t.organisation_id = {_ORG}"),
    # Where people stand and the robot's programs: PFL and SSM judge the path
    # against the stations (issue 32). A concept's cell runs the drawn cell's
    # programs unless it has its own.
    ("station", OperatorStation, "t.cell_id = %(cell)s"),
    ("motion", MotionProgram, f"t.cell_id IN (%(cell)s, {_BASE})"),
)
# A table whose rows are told apart by some columns only: a program's file
# and parsed path are fixed at import, its checksum stands for them.
COLUMNS = {"motion": ("id", "cell_id", "sha256", "imported_at")}
COSTS_TABLES = (
    ("catalogue", CatalogueEdit, f"t.organisation_id = {_ORG}"),
    # A quote's rows change with its version (``costs.quotes.services``).
    ("quote", SupplierQuote, f"t.organisation_id = {_ORG}"),
    ("line-edit", LineItemEdit, "t.cell_id = %(cell)s"),
    ("custom-line", CustomLineItem, "t.cell_id = %(cell)s"),
)
COSTS_TAGS = frozenset(tag for tag, _model, _where in COSTS_TABLES)


@functools.cache
def _fingerprint_sql() -> tuple[str, tuple[str, ...]]:
    """One query for every row of ``FINDINGS_TABLES`` and ``COSTS_TABLES``:
    (tag, id, the row's columns as text), in order. Plain SQL that both
    PostgreSQL and SQLite read; and the order of its parameters."""
    quote = connection.ops.quote_name
    selects, names = [], []
    for tag, model, where in (*FINDINGS_TABLES, *COSTS_TABLES):
        names_of = COLUMNS.get(tag) or [f.column for f in model._meta.concrete_fields]
        columns = " || '|' || ".join(
            f"COALESCE(CAST(t.{quote(column)} AS TEXT), '~')" for column in names_of
        )
        select = (
            f"SELECT '{tag}' AS tag, t.id AS id, {columns} AS content "
            f"FROM {quote(model._meta.db_table)} t WHERE {where}"
        )
        # Positional parameters, in the order they appear.
        for part in select.split("%(")[1:]:
            names.append(part.split(")s", 1)[0])
        selects.append(select.replace("%(cell)s", "%s").replace("%(org)s", "%s"))
    return " UNION ALL ".join(selects) + " ORDER BY 1, 2", tuple(names)


def fingerprint(cell_id: int) -> dict[str, list[tuple[int, str]]]:
    """Every row the cell's findings and cost lines read, by tag."""
    sql, names = _fingerprint_sql()
    found: dict[str, list[tuple[int, str]]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [{"cell": cell_id}[name] for name in names])
        for tag, pk, content in cursor.fetchall():
            found.setdefault(tag, []).append((pk, content))
    return found


@dataclass(frozen=True)
class Versions:
    """The content versions of a cell's findings and of its cost lines, as
    stored at one moment, the day they are for, and which tables hold rows."""

    findings: str
    costs: str
    checked_on: date
    present: frozenset[str]


def versions(cell_id: int) -> Versions:
    """The content versions of the cell's findings and cost lines now."""
    found = fingerprint(cell_id)
    checked_on = timezone.localdate()
    findings = digest(
        CACHE_FORMAT,
        engine.RULES_VERSION,
        CODE_VERSION,
        checked_on,
        sorted((tag, rows) for tag, rows in found.items() if tag not in COSTS_TAGS),
    )
    costs = digest(
        findings,
        sorted((tag, rows) for tag, rows in found.items() if tag in COSTS_TAGS),
    )
    return Versions(findings, costs, checked_on, frozenset(found))


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


@dataclass
class CellInputs:
    """A cell (read with ``cells.selectors.cell_for`` or ``cell_with_layout``),
    the content versions of what its findings and cost lines are computed
    from, and, once loaded, those rows as models (``load``: the layout, the
    certificates, the risk assessment's latest signed revision and a newer
    draft, each with hazards and measures, the safety functions and Table
    K.1; ``load_costs``: the organisation's catalogue edits and the cell's
    edits and own lines)."""

    cell: Cell
    versions: Versions
    # The version was taken before any row was read (``versioned``): what is
    # computed from the rows may be kept under it.
    early: bool = False
    # What this request has read from the cache (compliance.rules.results),
    # and what it computed, waiting to be kept.
    memo: dict = field(default_factory=dict, repr=False)
    computing: int = 0
    computed: list = field(default_factory=list, repr=False)
    loaded: bool = False
    assessment_exists: bool = False
    signed: Revision | None = None
    draft: Revision | None = None
    functions: list[SafetyFunction] = field(default_factory=list)
    k1: PfhdTableImport | None = None
    programs: list[MotionProgram] = field(default_factory=list)
    catalogue_edits: list[CatalogueEdit] | None = None

    @property
    def version(self) -> str:
        return self.versions.findings

    @property
    def costs_version(self) -> str:
        return self.versions.costs

    @property
    def checked_on(self) -> date:
        return self.versions.checked_on

    def load(self) -> CellInputs:
        """Read the rows the findings are computed from as models, once;
        tables that held no row a moment ago are not read."""
        if self.loaded:
            return self
        present = self.versions.present
        cell = load_layout(self.cell)
        # A concept's cell is judged with the drawn cell's records.
        base_id = cell.variant_of_id or cell.pk
        if cell.variant_of_id is None:
            prefetch_related_objects([cell], "certificates")
        else:
            attach(
                cell,
                "certificates",
                CellCertificate,
                list(CellCertificate.objects.filter(cell_id=base_id)),
                "cell",
            )
        assessment = (
            Assessment.objects.filter(cell_id=base_id).first()
            if "assessment" in present
            else None
        )
        revisions = (
            list(Revision.objects.filter(assessment=assessment).order_by("-number"))
            if assessment is not None
            else []
        )
        signed = next((r for r in revisions if r.status == RevisionStatus.SIGNED), None)
        current = revisions[0] if revisions else None
        self.assessment_exists = assessment is not None
        self.signed = signed
        self.draft = (
            current
            if current is not None
            and (signed is None or current.number > signed.number)
            else None
        )
        _load_registers([r for r in (signed, self.draft) if r is not None])
        self.functions = (
            list(
                SafetyFunction.objects.filter(cell=cell)
                .select_related("device__opening")
                .prefetch_related(*FUNCTIONS)
            )
            if "function" in present
            else []
        )
        designed = any(
            s.route == "designed" for f in self.functions for s in f.subsystems.all()
        )
        self.k1 = (
            PfhdTableImport.objects.filter(
                organisation_id=cell.project.organisation_id
            ).first()
            if designed and "k1" in present
            else None
        )
        self.programs = _programs(cell, base_id) if "motion" in present else []
        self.loaded = True
        return self

    def load_costs(self) -> CellInputs:
        """Read the rows the cost lines add, as models, once."""
        if self.catalogue_edits is None:
            organisation_id = self.cell.project.organisation_id
            self.catalogue_edits = list(
                CatalogueEdit.objects.filter(organisation_id=organisation_id)
            )
            prefetch_related_objects(
                [self.cell], "line_item_edits", "custom_line_items"
            )
        return self


def _programs(cell: Cell, base_id: int) -> list[MotionProgram]:
    """The cell's robot programs (a concept's own, else its drawn cell's),
    without their files: the parsed path is what the rules read."""
    rows = list(
        MotionProgram.objects.filter(cell_id__in={cell.pk, base_id})
        .defer("data")
        .order_by("imported_at", "id")
    )
    own = [p for p in rows if p.cell_id == cell.pk]
    return own or rows


def _load_registers(revisions: list[Revision]) -> None:
    """Each revision's hazards (``revision.hazards.all()``) with their
    measures, as ``prefetch_related("hazards__measures")`` leaves them, in two
    queries, without its queryset per hazard."""
    if not revisions:
        return
    hazards = list(Hazard.objects.filter(revision__in=revisions))
    measures: dict[int, list[Measure]] = {h.pk: [] for h in hazards}
    for measure in Measure.objects.filter(
        hazard__revision_id__in=[r.pk for r in revisions]
    ):
        measures[measure.hazard_id].append(measure)
    for revision in revisions:
        attach(
            revision,
            "hazards",
            Hazard,
            [h for h in hazards if h.revision_id == revision.pk],
            "revision",
        )
    for hazard in hazards:
        attach(hazard, "measures", Measure, measures[hazard.pk], "hazard")


def versioned(pk: int, load: Callable[[], Cell]) -> Cell:
    """The cell ``load`` reads (authorising), with the content version of its
    inputs taken just before: what is read from then on is what the version
    stands for, unless something changes meanwhile, which the version read
    again after computing shows (``compliance.rules.results.kept``). Only
    then is what was computed kept for others."""
    taken = versions(pk)
    cell = load()
    cell._csp_inputs = CellInputs(cell=cell, versions=taken, early=True)
    return cell


def cell_inputs(cell: Cell) -> CellInputs:
    """The inputs of ``cell``, memoised on it: one read per request however
    many ask (``forget`` reads them again). Of a cell not read by
    ``versioned``, the version is taken now, after its rows were read: what
    is kept is read, what is computed is not kept."""
    cached = getattr(cell, "_csp_inputs", None)
    if cached is not None:
        return cached
    inputs = CellInputs(cell=cell, versions=versions(cell.pk))
    cell._csp_inputs = inputs
    return inputs


def forget(cell: Cell) -> None:
    """Read the cell's inputs again when next asked: for a request that has
    read them, then changed them."""
    cell.__dict__.pop("_csp_inputs", None)
    prefetched = getattr(cell, "_prefetched_objects_cache", {})
    for name in ("certificates", "line_item_edits", "custom_line_items"):
        prefetched.pop(name, None)
