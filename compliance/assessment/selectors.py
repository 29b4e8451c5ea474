"""Reads of risk assessments, scoped to the user's organisations."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from cells.models import Cell
from compliance.assessment.audit import AuditEntry
from compliance.assessment.content import HazardContent, MeasureContent, RevisionContent
from compliance.assessment.models import Assessment, Hazard, Measure, Revision
from compliance.calculators.iso13849 import PlrInput, plr


def assessments_for(user) -> QuerySet[Assessment]:
    return Assessment.objects.filter(
        cell__project__organisation__memberships__user=user
    ).select_related("cell__project__organisation")


def revisions_for(user) -> QuerySet[Revision]:
    return Revision.objects.filter(
        assessment__cell__project__organisation__memberships__user=user
    ).select_related("assessment__cell__project__organisation")


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
        Revision.objects.select_related("assessment__cell__project__organisation")
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


def hazard_plr(hazard: Hazard, *, residual: bool = False) -> str | None:
    """The PLr of the hazard's risk-graph parameters (ISO 13849-1), if estimated."""
    prefix = "residual_" if residual else ""
    values = [
        getattr(hazard, f"{prefix}{name}")
        for name in ("severity", "frequency", "avoidance")
    ]
    if not all(values):
        return None
    severity, frequency, avoidance = values
    return plr(
        PlrInput(severity=severity, frequency=frequency, avoidance=avoidance)
    ).plr


def location_choices(cell: Cell) -> dict[str, str]:
    """Places in the cell a hazard can be tied to: {"opening:12": "F1 / Infeed", ...}."""
    from cells.models import GuardSegment, Opening, OperatorStation

    choices = {}
    for segment in GuardSegment.objects.filter(cell=cell):
        choices[f"segment:{segment.pk}"] = str(segment)
    for opening in Opening.objects.filter(segment__cell=cell).select_related("segment"):
        choices[f"opening:{opening.pk}"] = f"{opening.segment} / {opening}"
    for station in OperatorStation.objects.filter(cell=cell):
        choices[f"station:{station.pk}"] = str(station)
    return choices


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
    )


def history(assessment: Assessment) -> QuerySet[AuditEntry]:
    return assessment.audit_entries.select_related("actor")
