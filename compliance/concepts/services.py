"""Writes of guarding concepts: designing them from the cell as drawn,
choosing one."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from cells import services as cell_services
from cells.exchange import DeviceDoc
from cells.models import Cell
from cells.selectors import cell_document, load_layout
from compliance.concepts.design import designs
from compliance.concepts.models import ConceptKind, GuardingConcept
from compliance.rules import results
from compliance.rules.inputs import digest
from compliance.safety_functions.models import LibraryDevice
from compliance.safety_functions.services import functions_copy

# Bounds: the concepts one cell may hold (the designed ones and copies).
MAX_CONCEPTS = 12


def design_version(cell: Cell, *, loaded: bool = False) -> str:
    """A digest of the cell's design as its exchange document states it: the
    version a concept was designed from. ``loaded``: ``cell`` was read from
    the database with its layout (``cells.selectors.cell_with_layout``), so
    its figures are as stored and it is not read again; the digest is then
    kept with the cell's findings (its content version covers the layout)."""
    if loaded:
        return results.kept(
            cell,
            "design-version",
            lambda: digest(cell_document(cell).model_dump_json(exclude={"name"})),
        )
    # As stored: a cell just imported holds its figures as typed ("20" for
    # "20.00"), which would read as a change.
    stored = Cell.objects.select_related("project").get(pk=cell.pk)
    document = cell_document(load_layout(stored))
    return digest(document.model_dump_json(exclude={"name"}))


def library_scanner(cell: Cell) -> tuple[DeviceDoc | None, str, int | None]:
    """The organisation's first safety laser scanner in its device library
    with a response time, as the speed and separation concept places it: its
    figures, its name, its range in mm (None: none such)."""
    entry = (
        LibraryDevice.objects.filter(
            organisation_id=cell.project.organisation_id,
            kind="laser_scanner",
            response_time_ms__isnull=False,
        )
        .order_by("key", "pk")
        .first()
    )
    if entry is None:
        return None, "", None
    doc = DeviceDoc(
        label="LS1",
        kind="laser_scanner",
        response_time_ms=entry.response_time_ms,
        iec61496_type=entry.iec61496_type,
        claimed_pl=entry.pl or "",
        detection_capability_mm=entry.detection_capability_mm,
    )
    name = f"{entry.maker} {entry.model}".strip()
    reach = int(entry.range_m * 1000) if entry.range_m is not None else None
    return doc, name, reach


def _functions_carried(source: Cell, variant: Cell) -> list[dict]:
    """Copy the safety functions of ``source`` to a concept's cell, and say
    so among the concept's reasons (nothing when there were none)."""
    copied, left_out = functions_copy(source=source, target=variant)
    if not copied and not left_out:
        return []
    return [
        {
            "text": gettext_noop(
                "Safety functions: %(copied)s carried over from the cell as "
                "drawn, with their subsystems; %(left)s not, their devices not "
                "being in this concept (the rules ask for the functions its own "
                "devices need). Validation tests are recorded again for each."
            ),
            "values": {"copied": copied, "left": left_out},
        }
    ]


def _lines(reasons) -> list[dict]:
    return [{"text": line.text, "values": dict(line.values)} for line in reasons]


def concepts_generate(*, cell: Cell, actor) -> list[GuardingConcept]:
    """Design the guarding concepts of ``cell`` (the caller has authorised an
    edit): the cell as drawn first, then each concept the designs give, every
    one an editable draft with the reasons for it, or listed as not offered
    with the reason. A kind already designed is kept as it is (the SA may
    have edited it). All or nothing: on any error nothing is saved."""
    if cell.variant_of_id is not None:
        raise ValidationError(
            {"cell": _("This is a concept of another cell: design from that cell.")}
        )
    if not cell.reach_mm:
        raise ValidationError(
            {
                "cell": _(
                    "Record the robot's reach first: the concepts are drawn round it."
                )
            }
        )
    loaded = load_layout(cell)
    if not loaded.segments.all() and not loaded.stations.all():
        raise ValidationError(
            {
                "cell": _(
                    "Draw the cell's layout first: its guards, or at least the "
                    "operator stations where people work, so that the concepts "
                    "know where access is needed."
                )
            }
        )
    document = cell_document(loaded)
    version = design_version(cell)
    existing = {c.kind: c for c in GuardingConcept.objects.filter(cell=cell)}
    made: list[GuardingConcept] = []
    with transaction.atomic():
        if ConceptKind.AS_DRAWN not in existing:
            made.append(
                GuardingConcept.objects.create(
                    cell=cell,
                    kind=ConceptKind.AS_DRAWN,
                    position=0,
                    base_version=version,
                    created_by=actor,
                )
            )
        scanner, scanner_name, scanner_range = library_scanner(cell)
        for position, design in enumerate(
            designs(
                document,
                country=cell.project.country,
                scanner=scanner,
                scanner_name=scanner_name,
                scanner_range_mm=scanner_range,
            ),
            start=1,
        ):
            if design.kind in existing:
                continue
            variant = None
            if design.document is not None:
                named = design.document.model_copy(
                    update={
                        "name": f"{cell.name} · {ConceptKind(design.kind).label}"[:200]
                    }
                )
                variant = cell_services.cell_import(
                    project=cell.project, document=named
                )
                Cell.objects.filter(pk=variant.pk).update(variant_of=cell)
                variant.variant_of = cell
            carried = _functions_carried(cell, variant) if variant else []
            made.append(
                GuardingConcept.objects.create(
                    cell=cell,
                    variant=variant,
                    kind=design.kind,
                    position=position,
                    offered=design.document is not None,
                    reasons=_lines(design.reasons) + carried,
                    base_version=version,
                    created_by=actor,
                )
            )
        if GuardingConcept.objects.filter(cell=cell).count() > MAX_CONCEPTS:
            raise ValidationError(
                {
                    "cell": _("A cell holds at most %(n)s concepts.")
                    % {"n": MAX_CONCEPTS}
                }
            )
    return made


def concept_copy(*, concept: GuardingConcept, actor) -> GuardingConcept:
    """A copy of ``concept`` as a new draft concept of the same cell, its
    guarding a cell of its own to edit (the caller has authorised an edit).
    The copy says what it was copied from."""
    if not concept.offered:
        raise ValidationError({"concept": _("This concept is not offered.")})
    cell = concept.cell
    if GuardingConcept.objects.filter(cell=cell).count() >= MAX_CONCEPTS:
        raise ValidationError(
            {"cell": _("A cell holds at most %(n)s concepts.") % {"n": MAX_CONCEPTS}}
        )
    source = Cell.objects.select_related("project").get(pk=concept.design.pk)
    document = cell_document(load_layout(source))
    name = f"{cell.name} · {_('Copy of %(name)s') % {'name': concept}}"[:200]
    with transaction.atomic():
        variant = cell_services.cell_import(
            project=cell.project, document=document.model_copy(update={"name": name})
        )
        Cell.objects.filter(pk=variant.pk).update(variant_of=cell)
        functions_copy(source=source, target=variant)
        position = max(
            GuardingConcept.objects.filter(cell=cell).values_list(
                "position", flat=True
            ),
            default=0,
        )
        return GuardingConcept.objects.create(
            cell=cell,
            variant=variant,
            kind=ConceptKind.COPY,
            position=position + 1,
            reasons=[
                {
                    "text": gettext_noop("A copy of %(name)s, to edit."),
                    "values": {"name": str(concept.get_kind_display())},
                }
            ],
            base_version=design_version(cell),
            created_by=actor,
        )


def concept_choose(*, concept: GuardingConcept) -> GuardingConcept:
    """Mark ``concept`` as the one chosen for its cell (the caller has
    authorised an edit). A concept with an open fail may be chosen only
    knowingly: the comparison says so; the chosen one's assessment is the one
    that can be signed."""
    if not concept.offered:
        raise ValidationError({"concept": _("This concept is not offered.")})
    with transaction.atomic():
        GuardingConcept.objects.filter(cell_id=concept.cell_id, chosen=True).update(
            chosen=False
        )
        concept.chosen = True
        concept.save(update_fields=["chosen"])
    return concept
