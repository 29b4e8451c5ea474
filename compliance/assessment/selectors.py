"""Reads of risk assessments, scoped to the user's organisations."""

from __future__ import annotations

import datetime
import functools
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from cells.models import Cell, OperatorStation
from cells.naming import opening_place
from cells.selectors import layout_names_read
from compliance.assessment.audit import AuditEntry
from compliance.assessment.content import (
    DeclarationContent,
    DeclaredFinding,
    HazardContent,
    MeasureContent,
    RevisionContent,
    SafetyConfigurationContent,
)
from compliance.assessment.declaration import timestamp
from compliance.assessment.hazards import risk
from compliance.assessment.models import (
    Assessment,
    Hazard,
    Measure,
    Revision,
    SignatureDeclaration,
)
from compliance.calculators import written as written_texts
from compliance.calculators.iso13849 import PlrInput, plr

# What is loaded with each revision: its organisation (to authorise) and its
# declaration once signed (part of its content).
REVISION_RELATED = ("assessment__cell__project__organisation", "declaration")


def assessments_for(user) -> QuerySet[Assessment]:
    return Assessment.objects.filter(
        cell__project__organisation__memberships__user=user
    ).select_related("cell__project__organisation")


def revisions_for(user) -> QuerySet[Revision]:
    return Revision.objects.filter(
        assessment__cell__project__organisation__memberships__user=user
    ).select_related(*REVISION_RELATED)


def hazards_for(user) -> QuerySet[Hazard]:
    return Hazard.objects.filter(
        revision__assessment__cell__project__organisation__memberships__user=user
    ).select_related("revision__assessment__cell__project__organisation")


def measures_for(user) -> QuerySet[Measure]:
    return Measure.objects.filter(
        hazard__revision__assessment__cell__project__organisation__memberships__user=user
    ).select_related("hazard__revision__assessment__cell__project__organisation")


def current_revision(assessment: Assessment) -> Revision:
    return (
        Revision.objects.select_related(*REVISION_RELATED)
        .filter(assessment=assessment)
        .order_by("-number")
        .first()
    )


def revision_for(user, pk: int) -> Revision:
    return get_object_or_404(revisions_for(user), pk=pk)


def register(revision: Revision) -> QuerySet[Hazard]:
    """The hazards of a revision with their measures, in a fixed number of queries."""
    return revision.hazards.prefetch_related(
        Prefetch(
            "measures",
            queryset=Measure.objects.select_related("device", "segment").order_by(
                "step", "id"
            ),
        )
    )


def register_page(revision: Revision) -> list[Hazard]:
    """The hazards of a revision for its register page: as ``register``, each
    hazard's measures in a list (``measure_list``), which costs no queryset
    per hazard as the manager's cache does."""
    return list(
        revision.hazards.prefetch_related(
            Prefetch(
                "measures",
                # The page writes the label stored with the link, not the
                # device or guard itself.
                queryset=Measure.objects.order_by("step", "id"),
                to_attr="measure_list",
            )
        )
    )


def perimeter_labels(cell: Cell) -> dict[str, list[tuple]]:
    """The names of a cell's guard segments, openings (with their segment's)
    and operator stations, as the plan names them, in the layout's order:
    what the hazard form's places and the suggestions read. Three queries
    once per request (kept on the cell), no model read."""
    found = getattr(cell, "_csp_perimeter", None)
    if found is None:
        segments, openings = layout_names_read(cell)
        stations = list(
            OperatorStation.objects.filter(cell=cell)
            .order_by("id")
            .values_list("pk", "label")
        )
        found = {"segments": segments, "openings": openings, "stations": stations}
        cell._csp_perimeter = found
    return found


def hazard_plr(hazard: Hazard, *, residual: bool = False) -> str | None:
    """The PLr of the hazard's risk-graph parameters (ISO 13849-1), if estimated."""
    prefix = "residual_" if residual else ""
    values = [
        getattr(hazard, f"{prefix}{name}")
        for name in ("severity", "frequency", "avoidance")
    ]
    if not all(values):
        return None
    return _plr(*values)


@functools.lru_cache(maxsize=64)
def _plr(severity: str, frequency: str, avoidance: str) -> str:
    # Pure, and asked for every hazard: S, F and P take 8 values in all.
    return plr(
        PlrInput(severity=severity, frequency=frequency, avoidance=avoidance)
    ).plr


@functools.lru_cache(maxsize=64)
def estimate_of(severity: str, frequency: str, avoidance: str, low: bool):
    # Pure and called for every hazard of a register: S, F, P and the flag
    # take 16 values in all.
    return risk.estimate(severity, frequency, avoidance, low_probability=low)


def hazard_estimates(hazard: Hazard) -> tuple[Any, Any]:
    """The initial and residual estimates of a hazard, each None until estimated."""

    def one(prefix: str):
        if not all(
            getattr(hazard, f"{prefix}{name}")
            for name in ("severity", "frequency", "avoidance")
        ):
            return None
        return estimate_of(
            getattr(hazard, f"{prefix}severity"),
            getattr(hazard, f"{prefix}frequency"),
            getattr(hazard, f"{prefix}avoidance"),
            getattr(hazard, f"{prefix}low_probability"),
        )

    return one(""), one("residual_")


def location_choices(cell: Cell) -> dict[str, str]:
    """Places in the cell a hazard can be tied to: {"opening:12": "F1 / Infeed", ...}."""
    labels = perimeter_labels(cell)
    choices = {f"segment:{pk}": label for pk, label in labels["segments"]}
    for pk, label, _purpose, segment in labels["openings"]:
        choices[f"opening:{pk}"] = opening_place(segment, label)
    for pk, label in labels["stations"]:
        choices[f"station:{pk}"] = label
    return choices


def declaration_of(revision: Revision) -> SignatureDeclaration | None:
    """The revision's signature declaration, if it was signed with one
    (no query when loaded with ``REVISION_RELATED``)."""
    try:
        return revision.declaration
    except ObjectDoesNotExist:
        return None


def declaration_content(declaration: SignatureDeclaration) -> DeclarationContent:
    config = declaration.safety_configuration
    return DeclarationContent(
        signer=declaration.signer_name,
        signed_at=timestamp(declaration.signed_at),
        statement=declaration.statement,
        language=declaration.language,
        findings=tuple(DeclaredFinding(**f) for f in declaration.findings),
        safety_configuration=(
            SafetyConfigurationContent(**config) if config is not None else None
        ),
        cell_fingerprint=declaration.cell_fingerprint or "",
        computed_under=declaration.computed_under,
    )


def revision_content(revision: Revision) -> RevisionContent:
    """What the revision says, as hashed at signing and compared in diffs."""
    hazards = []
    for hazard in register(revision):
        hazards.append(
            HazardContent(
                key=str(hazard.key),
                group=hazard.group,
                origin=hazard.origin,
                consequence=hazard.consequence,
                description=hazard.description,
                phase=hazard.phase,
                task=hazard.task,
                location_key=hazard.location_key,
                location_label=hazard.location_label,
                body_region=hazard.body_region,
                contact_type=hazard.contact_type,
                contact_area_cm2=(
                    ""
                    if hazard.contact_area_cm2 is None
                    else str(hazard.contact_area_cm2)
                ),
                severity=hazard.severity,
                frequency=hazard.frequency,
                avoidance=hazard.avoidance,
                low_probability=hazard.low_probability,
                residual_severity=hazard.residual_severity,
                residual_frequency=hazard.residual_frequency,
                residual_avoidance=hazard.residual_avoidance,
                residual_low_probability=hazard.residual_low_probability,
                measures=tuple(
                    MeasureContent(
                        key=str(m.key),
                        step=m.step,
                        description=m.description,
                        link_kind="device"
                        if m.device_id
                        else "segment"
                        if m.segment_id
                        else "",
                        linked_label=m.linked_label,
                        collaborative_mode=m.collaborative_mode,
                        is_safety_function=m.is_safety_function,
                        plr_required=m.plr_required,
                        pl_claimed=m.pl_claimed,
                    )
                    for m in hazard.measures.all()
                ),
            )
        )
    return RevisionContent(
        intended_use=revision.intended_use,
        foreseeable_misuse=revision.foreseeable_misuse,
        space_limits=revision.space_limits,
        time_limits=revision.time_limits,
        exposed_persons=tuple(revision.exposed_persons),
        low_guard_justification=revision.low_guard_justification,
        conformity_route=revision.conformity_route,
        hazards=tuple(hazards),
        declaration=declaration_content(declaration)
        if (declaration := declaration_of(revision)) is not None
        else None,
    )


def app_phrases(assessment: Assessment, translate) -> dict[str, str]:
    """The texts the app wrote into the assessment's records (accepted
    suggestions' tasks and descriptions, the space limits from the layout),
    each in the language of ``translate``, by the English stored: for the
    history and the comparison of revisions, whose values are those texts.
    Two queries, whatever the number of revisions."""
    phrases: dict[str, str] = {}
    rows = list(
        Hazard.objects.filter(revision__assessment=assessment)
        .filter(texts__isnull=False)
        .values_list("task", "description", "texts")
    )
    for task, description, texts in rows:
        for field, stored in (("task", task), ("description", description)):
            shown = written_texts.shown(stored, (texts or {}).get(field), translate)
            if shown != stored:
                phrases[stored] = shown
    for stored, texts in assessment.revisions.filter(texts__isnull=False).values_list(
        "space_limits", "texts"
    ):
        shown = written_texts.shown(
            stored, (texts or {}).get("space_limits"), translate
        )
        if shown != stored:
            phrases[stored] = shown
    return phrases


def history(assessment: Assessment) -> QuerySet[AuditEntry]:
    return assessment.audit_entries.select_related("actor")


def history_people(assessment: Assessment):
    """Everyone who changed this assessment, by name (one query)."""
    from django.contrib.auth import get_user_model

    return (
        get_user_model()
        .objects.filter(
            pk__in=assessment.audit_entries.filter(actor__isnull=False).values(
                "actor_id"
            )
        )
        .order_by("first_name", "last_name", "username")
    )


def history_filtered(
    entries: QuerySet[AuditEntry],
    *,
    actor_id: int | None = None,
    kind: Q | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> QuerySet[AuditEntry]:
    """The entries by this person, of this kind, from and to these days (both
    included, as days in the reader's time zone)."""
    if actor_id is not None:
        entries = entries.filter(actor_id=actor_id)
    if kind is not None:
        entries = entries.filter(kind)
    if date_from is not None:
        entries = entries.filter(at__gte=_start_of(date_from))
    if date_to is not None:
        entries = entries.filter(at__lt=_start_of(date_to + datetime.timedelta(days=1)))
    return entries


def _start_of(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))
