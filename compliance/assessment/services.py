"""Writes to a risk assessment: every change checks the revision's state and the
person's role, records who did it, and refuses to overwrite a newer change.

Views and the API call these; they never write the models directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from cells.auth import PasswordCheck, lockout_message, password_check
from cells.models import Cell, Device, GuardSegment, Role
from cells.permissions import require_edit, role_in
from compliance.assessment import (
    audit,
    declaration,
    integrity,
    selectors,
    signing,
    space_limits,
    verification,
)
from compliance.assessment.checks import CheckedFinding
from compliance.assessment.content import PREVIEW_HASH, content_hash
from compliance.assessment.hazards import risk
from compliance.assessment.models import (
    Assessment,
    Hazard,
    Measure,
    Revision,
    RevisionStatus,
    SignatureDeclaration,
)
from compliance.calculators import written
from compliance.rules import selectors as rules_selectors

HAZARD_FIELDS = (
    "group",
    "origin",
    "consequence",
    "description",
    "phase",
    "task",
    "location_key",
    "location_label",
    "body_region",
    "contact_type",
    "contact_area_cm2",
    "severity",
    "frequency",
    "avoidance",
    "low_probability",
    "residual_severity",
    "residual_frequency",
    "residual_avoidance",
    "residual_low_probability",
)
MEASURE_FIELDS = (
    "step",
    "description",
    "device",
    "segment",
    "collaborative_mode",
    "is_safety_function",
    "plr_required",
    "pl_claimed",
)
LIMIT_FIELDS = (
    "intended_use",
    "foreseeable_misuse",
    "space_limits",
    "time_limits",
    "exposed_persons",
    "low_guard_justification",
    "conformity_route",
)


class Conflict(Exception):
    """Someone else saved this object since it was read: nothing was written."""

    def __init__(self, current):
        super().__init__(
            _("Someone else changed this in the meantime; nothing was saved.")
        )
        self.current = current


def _organisation_id(revision: Revision) -> int:
    return revision.assessment.cell.project.organisation_id


def _require_draft(revision: Revision) -> None:
    """Refuse unless the revision is a draft, as stored now: locked against a
    concurrent signing until this transaction ends."""
    status = (
        Revision.objects.select_for_update()
        .values_list("status", flat=True)
        .get(pk=revision.pk)
    )
    revision.status = status
    if status != RevisionStatus.DRAFT:
        raise ValidationError(
            _(
                "Revision %(number)s is %(status)s: it can no longer be edited. "
                "Start a new revision to change it."
            )
            % {
                "number": revision.number,
                "status": revision.get_status_display().lower(),
            }
        )


def _record(
    revision: Revision, action: str, object_type: str, key: str = "", **values
) -> None:
    audit.record(
        organisation_id=_organisation_id(revision),
        assessment_id=revision.assessment_id,
        revision_number=revision.number,
        action=action,
        object_type=object_type,
        object_key=key,
        **values,
    )


def _space_limits(cell: Cell) -> written.Source:
    """The space limits as the layout states them, to start the text from:
    stored in English whoever clicked, with their source, shown in the
    reader's language (``compliance.calculators.written``)."""
    segments = list(cell.segments.all())
    polygon = cell.hazard_zone_shape == "polygon"
    return space_limits.source(
        base_x_mm=cell.robot_base_x_mm,
        base_y_mm=cell.robot_base_y_mm,
        zone_corners=len(cell.hazard_zone_polygon_mm) if polygon else None,
        zone_radius_mm=None if polygon else cell.hazard_zone_effective_radius_mm,
        segments=len(segments),
        perimeter_mm=sum(s.length_mm for s in segments),
        openings=sum(len(s.openings.all()) for s in segments),
    )


@transaction.atomic
def assessment_open(*, cell: Cell, actor) -> Revision:
    """The cell's current revision, creating the assessment and revision 1 the
    first time (its space limits taken from the layout)."""
    if cell.variant_of_id is not None:
        raise ValidationError(
            {
                "cell": _(
                    "A guarding concept shares the risk assessment of the cell it "
                    "was designed from: open that cell's."
                )
            }
        )
    assessment, created = Assessment.objects.get_or_create(cell=cell)
    if not created:
        return selectors.current_revision(assessment)
    require_edit(actor, cell.project.organisation_id)
    limits = _space_limits(cell)
    with audit.acting_as(actor):
        revision = Revision.objects.create(
            assessment=assessment,
            number=1,
            created_by=actor,
            space_limits=written.render(limits),
            texts={"space_limits": limits},
        )
        _record(revision, "create", "revision", str(revision.pk))
    return revision


@transaction.atomic
def revision_update_limits(
    *, revision: Revision, actor, version: int, **limits
) -> Revision:
    """The limits of the machine (ISO 12100 5.3), if nobody saved them meanwhile."""
    require_edit(actor, _organisation_id(revision))
    _require_draft(revision)
    values = {name: limits[name] for name in LIMIT_FIELDS if name in limits}
    if "exposed_persons" in values:
        from compliance.assessment.hazards import catalogue

        persons = values["exposed_persons"]
        try:
            values["exposed_persons"] = [
                catalogue.validate_exposed_person(p) for p in persons
            ]
        except (TypeError, ValueError) as exc:
            raise ValidationError(
                {"exposed_persons": _("Choose from the listed groups of persons.")}
            ) from exc
    with audit.acting_as(actor):
        updated = Revision.objects.filter(pk=revision.pk, version=version).update(
            **values, version=F("version") + 1
        )
    # Read again after the update: the caller shows this one, not the
    # ``revision`` it read before the save (issue 15).
    current = Revision.objects.select_related(*selectors.REVISION_RELATED).get(
        pk=revision.pk
    )
    if not updated:
        raise Conflict(current)
    return current


def _check_location(revision: Revision, location_key: str) -> str:
    """The label of a layout element of this revision's cell, or an error."""
    if not location_key:
        return ""
    labels = selectors.location_choices(revision.assessment.cell)
    if location_key not in labels:
        raise ValidationError(
            {"location_key": _("Choose a place in this cell's layout.")}
        )
    return labels[location_key]


def _check_catalogue(fields: dict[str, Any]) -> None:
    """The group, origin and consequence must be of the Annex B catalogue."""
    from compliance.assessment.hazards import catalogue

    errors = {}
    try:
        catalogue.group(fields["group"])
    except (KeyError, ValueError):
        errors["group"] = _("Choose a hazard group of the ISO 12100 Annex B catalogue.")
    else:
        for name, lookup in (
            ("origin", catalogue.origin),
            ("consequence", catalogue.consequence),
        ):
            try:
                lookup(fields["group"], fields[name])
            except (KeyError, ValueError):
                errors[name] = _(
                    "Choose one of the catalogue's entries for this group."
                )
    if errors:
        raise ValidationError(errors)


def _validated(instance, fields) -> None:
    try:
        instance.full_clean(
            exclude=["revision", "hazard", "key"], validate_unique=False
        )
    except ValidationError as exc:
        raise ValidationError(
            {k: v for k, v in exc.message_dict.items() if k in fields or k == "__all__"}
            or exc.message_dict
        ) from exc


@transaction.atomic
def hazard_add(
    *, revision: Revision, actor, texts: written.Source | None = None, **fields
) -> Hazard:
    """A hazard in the draft's register; ``texts``: where the app wrote its
    task and description from (an accepted suggestion's)."""
    require_edit(actor, _organisation_id(revision))
    _require_draft(revision)
    values = {name: fields[name] for name in HAZARD_FIELDS if name in fields}
    values["location_label"] = _check_location(revision, values.get("location_key", ""))
    _check_catalogue(values)
    order = (revision.hazards.aggregate(last=Max("order"))["last"] or 0) + 1
    hazard = Hazard(revision=revision, order=order, texts=texts, **values)
    _validated(hazard, values)
    with audit.acting_as(actor):
        hazard.save()
        _record(revision, "create", "hazard", str(hazard.key), after=values)
    return hazard


@transaction.atomic
def hazard_update(*, hazard: Hazard, actor, version: int, **fields) -> Hazard:
    """Change a hazard, or raise Conflict with its current values when someone
    else saved it since ``version`` was read."""
    revision = hazard.revision
    require_edit(actor, _organisation_id(revision))
    _require_draft(revision)
    values = {name: fields[name] for name in HAZARD_FIELDS if name in fields}
    values.pop("location_label", None)  # derived from location_key
    if "location_key" in values:
        values["location_label"] = _check_location(revision, values["location_key"])
    candidate = Hazard(**{**_hazard_values(hazard), **values}, revision=revision)
    if {"group", "origin", "consequence"} & values.keys():
        _check_catalogue(_hazard_values(candidate))
    _validated(candidate, values)
    with audit.acting_as(actor):
        updated = Hazard.objects.filter(pk=hazard.pk, version=version).update(
            **values, version=F("version") + 1
        )
    current = Hazard.objects.select_related("revision").get(pk=hazard.pk)
    if not updated:
        raise Conflict(current)
    return current


def _hazard_values(hazard: Hazard) -> dict[str, Any]:
    return {name: getattr(hazard, name) for name in HAZARD_FIELDS}


@transaction.atomic
def hazard_delete(*, hazard: Hazard, actor) -> None:
    require_edit(actor, _organisation_id(hazard.revision))
    _require_draft(hazard.revision)
    with audit.acting_as(actor):
        Hazard.objects.filter(pk=hazard.pk).delete()


def _measure_links(hazard: Hazard, values: dict[str, Any]) -> None:
    """Devices and guards must be this cell's; the label is kept with the link."""
    cell_id = hazard.revision.assessment.cell_id
    device: Device | None = values.get("device")
    segment: GuardSegment | None = values.get("segment")
    if device is not None and device.cell_id != cell_id:
        raise ValidationError({"device": _("This device belongs to another cell.")})
    if segment is not None and segment.cell_id != cell_id:
        raise ValidationError({"segment": _("This guard belongs to another cell.")})
    if device is not None and segment is not None:
        raise ValidationError(
            {"device": _("Link a device or a guard segment, not both.")}
        )
    if "device" in values or "segment" in values:
        linked = device or segment
        values["linked_label"] = str(linked) if linked else ""
    if device is not None and not values.get("pl_claimed") and device.claimed_pl:
        values["pl_claimed"] = device.claimed_pl


@transaction.atomic
def measure_add(*, hazard: Hazard, actor, **fields) -> Measure:
    revision = hazard.revision
    require_edit(actor, _organisation_id(revision))
    _require_draft(revision)
    values = {name: fields[name] for name in MEASURE_FIELDS if name in fields}
    _measure_links(hazard, values)
    if values.get("is_safety_function") and not values.get("plr_required"):
        values["plr_required"] = selectors.hazard_plr(hazard) or ""
    measure = Measure(hazard=hazard, **values)
    _validated(measure, values)
    with audit.acting_as(actor):
        measure.save()
        _record(
            revision,
            "create",
            "measure",
            str(measure.key),
            after=_measure_audit(measure),
        )
    return measure


def _measure_audit(measure: Measure) -> dict[str, Any]:
    values = {name: getattr(measure, name) for name in MEASURE_FIELDS}
    values["device"], values["segment"] = measure.device_id, measure.segment_id
    return values


@transaction.atomic
def measure_update(*, measure: Measure, actor, version: int, **fields) -> Measure:
    hazard = measure.hazard
    require_edit(actor, _organisation_id(hazard.revision))
    _require_draft(hazard.revision)
    values = {name: fields[name] for name in MEASURE_FIELDS if name in fields}
    _measure_links(hazard, values)
    candidate = Measure(
        hazard=hazard,
        **{name: getattr(measure, name) for name in MEASURE_FIELDS},
    )
    for name, value in values.items():
        setattr(candidate, name, value)
    _validated(candidate, values)
    with audit.acting_as(actor):
        updated = Measure.objects.filter(pk=measure.pk, version=version).update(
            **values, version=F("version") + 1
        )
    current = Measure.objects.select_related("hazard__revision").get(pk=measure.pk)
    if not updated:
        raise Conflict(current)
    return current


@transaction.atomic
def measure_delete(*, measure: Measure, actor) -> None:
    """Delete a measure. A residual risk estimated lower than the initial one
    rested on the measures: with one gone, that estimate no longer says what
    it was made for, so it is cleared, to be estimated again (signing asks
    for it)."""
    require_edit(actor, _organisation_id(measure.hazard.revision))
    _require_draft(measure.hazard.revision)
    hazard = Hazard.objects.get(pk=measure.hazard_id)
    with audit.acting_as(actor):
        Measure.objects.filter(pk=measure.pk).delete()
        if _residual_lowered(hazard):
            Hazard.objects.filter(pk=hazard.pk).update(
                residual_severity="",
                residual_frequency="",
                residual_avoidance="",
                residual_low_probability=False,
                version=F("version") + 1,
            )


def _residual_lowered(hazard: Hazard) -> bool:
    """Whether the hazard's residual risk is estimated below its initial risk."""
    initial, residual = selectors.hazard_estimates(hazard)
    if initial is None or residual is None:
        return False
    return not risk.pl_at_least(residual.effective_plr, initial.effective_plr)


# The workflow ------------------------------------------------------------------


def _transition(revision: Revision, actor, expected: set[str], **values) -> Revision:
    """Move the revision on, unless someone moved it first."""
    with audit.acting_as(actor):
        updated = Revision.objects.filter(pk=revision.pk, status__in=expected).update(
            **values, version=F("version") + 1
        )
    current = Revision.objects.select_related(
        "assessment__cell__project__organisation"
    ).get(pk=revision.pk)
    if not updated:
        raise Conflict(current)
    return current


@transaction.atomic
def revision_submit(*, revision: Revision, actor) -> Revision:
    """Draft → in review: the author asks for review and sign-off."""
    require_edit(actor, _organisation_id(revision))
    if revision.status != RevisionStatus.DRAFT:
        raise ValidationError(_("Only a draft can be submitted for review."))
    _require_draft(revision)
    if not revision.hazards.exists():
        raise ValidationError(_("Record at least one hazard before submitting."))
    return _transition(
        revision,
        actor,
        {RevisionStatus.DRAFT},
        status=RevisionStatus.IN_REVIEW,
        submitted_by=actor,
        submitted_at=timezone.now(),
    )


@transaction.atomic
def revision_return(*, revision: Revision, actor) -> Revision:
    """In review or approved → draft: the reviewer sends it back for changes."""
    require_edit(actor, _organisation_id(revision))
    if revision.status not in (RevisionStatus.IN_REVIEW, RevisionStatus.APPROVED):
        raise ValidationError(
            _("Only a revision in review or approved can be sent back.")
        )
    return _transition(
        revision,
        actor,
        {RevisionStatus.IN_REVIEW, RevisionStatus.APPROVED},
        status=RevisionStatus.DRAFT,
        approved_by=None,
        approved_at=None,
    )


@transaction.atomic
def revision_approve(*, revision: Revision, actor) -> Revision:
    """The second person's approval, where the organisation requires one."""
    require_edit(actor, _organisation_id(revision))
    if revision.status != RevisionStatus.IN_REVIEW:
        raise ValidationError(_("Only a revision in review can be approved."))
    if revision.submitted_by_id == actor.pk:
        raise PermissionDenied(
            _("A second person must approve: not the one who submitted.")
        )
    return _transition(
        revision,
        actor,
        {RevisionStatus.IN_REVIEW},
        status=RevisionStatus.APPROVED,
        approved_by=actor,
        approved_at=timezone.now(),
    )


def check_signer(*, revision: Revision, actor) -> None:
    """Refuse unless ``actor`` may sign ``revision`` in its present state:
    ``PermissionDenied`` for the wrong person, ``ValidationError`` for the
    wrong state. The signing form asks before it is shown."""
    organisation = revision.assessment.cell.project.organisation
    if role_in(actor, organisation.pk) != Role.SAFETY_ENGINEER:
        raise PermissionDenied(_("Only a safety engineer can sign a risk assessment."))
    if organisation.requires_two_person_signoff:
        if revision.status != RevisionStatus.APPROVED:
            raise ValidationError(
                _(
                    "Your organisation requires a second person's approval before signing."
                )
            )
        if revision.approved_by_id == actor.pk:
            raise PermissionDenied(_("The approver and the signer must be two people."))
    elif revision.status not in (RevisionStatus.IN_REVIEW, RevisionStatus.APPROVED):
        raise ValidationError(_("Submit the revision for review before signing it."))


class _Undo(Exception):
    """Leaves a savepoint, rolling it back, with what was read inside."""


def revision_sign_preview(*, revision: Revision) -> tuple[CheckedFinding, ...]:
    """What the signer declares: the hazards of ``revision`` whose residual
    risk is estimated but not acceptable (``checks.residual_finding``, each a
    fail needing its own reason), then the open findings of the cell (fails,
    then those needing evidence), as they will stand once ``revision`` is
    signed.

    Whatever relaxes or feeds a rule comes from the latest signed revision, so
    signing can itself open or close findings (a contact recorded in this
    revision is checked only once it is signed). The findings are read with
    the revision marked signed inside a savepoint that is then rolled back:
    nothing is written. For a revision already signed, these are the findings
    as they stand now (its declaration says what was open at signing).
    """
    try:
        with transaction.atomic():
            # The plain queryset update: no audit entry for a change undone.
            # A signed revision is left alone (the database refuses to touch
            # it), and is signed already.
            models.QuerySet.update(
                Revision.objects.filter(pk=revision.pk).exclude(
                    status=RevisionStatus.SIGNED
                ),
                status=RevisionStatus.SIGNED,
                content_hash=PREVIEW_HASH,
                seal=PREVIEW_HASH,
            )
            cell_checks = rules_selectors.cell_checks(
                revision.assessment.cell, kept=False
            )
            raise _Undo(
                signing.residual_findings(revision, cell_checks) + cell_checks.open()
            )
    except _Undo as undone:
        return undone.args[0]


def revision_sign(
    *,
    revision: Revision,
    actor,
    password: str,
    confirm: bool,
    accepted: Mapping[str, str],
    request=None,
) -> Revision:
    """A safety engineer signs: a declaration, then the content is hashed and
    frozen for good.

    The signer re-enters their ``password``, confirms ``declaration.STATEMENT``
    (``confirm``) and gives, in ``accepted``, a reason for each open fail of
    the cell and for each hazard whose residual risk is not acceptable, by the
    key ``revision_sign_preview`` gives it (``"<rule id>|<subject key>"``).
    Every hazard's risk and residual risk must be estimated. Anything missing
    is a ``ValidationError`` naming each field (``password``, ``confirm``,
    ``residual_risk``) and each finding (``accepted``, one error per finding,
    its key in ``params["key"]``), with the limits and estimates still to
    record; nothing is written then.

    The declaration (``SignatureDeclaration``) is written just before the
    revision is marked signed, in the same transaction, and the content hash
    covers it.

    The password is checked as signing in checks it (``cells.auth``): with
    the ``request`` it came in, a wrong one counts towards the sign-in lockout
    of that username at that address, and a locked-out signer cannot sign.
    That check comes before the transaction, so a refusal keeps its count.
    """
    check_signer(revision=revision, actor=actor)
    if not password:
        password_error = _("Re-enter your password to sign.")
    else:
        checked = password_check(user=actor, password=password, request=request)
        password_error = {
            PasswordCheck.RIGHT: None,
            PasswordCheck.WRONG: _(
                "That is not your password: re-enter the password you sign in with."
            ),
            PasswordCheck.LOCKED_OUT: lockout_message(),
        }[checked]
    return _revision_sign(
        revision=revision,
        actor=actor,
        password_error=password_error,
        confirm=confirm,
        accepted=accepted,
    )


@transaction.atomic
def _revision_sign(
    *,
    revision: Revision,
    actor,
    password_error: str | None,
    confirm: bool,
    accepted: Mapping[str, str],
) -> Revision:
    # Locked first, so that what is hashed is what is signed (issue 13).
    revision = _locked_for_signing(revision)
    check_signer(revision=revision, actor=actor)
    errors: dict[str, Any] = {
        **signing.blank_limits(revision),
        **signing.unestimated_errors(revision),
        **signing.concept_errors(revision),
    }
    if password_error:
        errors["password"] = password_error
    if confirm is not True:
        errors["confirm"] = _("Confirm the declaration to sign.")
    reasons = declaration.clean_reasons(accepted)
    open_findings = revision_sign_preview(revision=revision)
    reason_errors = signing.reason_errors(open_findings, reasons)
    if reason_errors:
        errors["accepted"] = reason_errors
    if errors:
        raise ValidationError(errors)
    now = timezone.now()
    statement, language = signing.signed_statement(revision)
    declared = declaration.declare(
        open_findings=open_findings,
        reasons=reasons,
        signer=actor.get_username(),
        signed_at=now,
        statement=statement,
        language=language,
    )
    frozen = _frozen_with_signature(revision.assessment.cell)
    SignatureDeclaration.objects.create(
        revision_id=revision.pk,
        signer=actor,
        signer_name=declared.signer,
        signed_at=now,
        statement=declared.statement,
        language=declared.language,
        findings=[f.model_dump() for f in declared.findings],
        **frozen,
    )
    # The content as stored, declaration included: what revision_is_intact
    # reads back.
    stored = Revision.objects.select_related("assessment", "declaration").get(
        pk=revision.pk
    )
    digest = content_hash(selectors.revision_content(stored))
    # Sealed with the server's key, and the seal recorded in the audit chain.
    payload, seal = verification.signing_seal(
        stored, digest=digest, signed_at=now, signed_by_id=actor.pk
    )
    signed = _transition(
        revision,
        actor,
        {RevisionStatus.IN_REVIEW, RevisionStatus.APPROVED},
        status=RevisionStatus.SIGNED,
        signed_by=actor,
        signed_at=now,
        content_hash=digest,
        seal=seal,
    )
    with audit.acting_as(actor):
        _record(
            signed,
            integrity.SIGN_ACTION,
            "revision",
            str(signed.pk),
            after={"signed": payload, "seal": seal},
        )
    return signed


def _frozen_with_signature(cell: Cell) -> dict[str, Any]:
    """What signing freezes with the declaration: the robot's safety
    configuration assessed, the cell's fingerprint as assessed, and the rules
    the findings were computed under."""
    from compliance.rules.cell_facts import cell_facts
    from compliance.rules.engine import computed_under

    facts = cell_facts(rules_selectors.cell_with_layout(cell))
    return {
        "safety_configuration": Cell.objects.get(pk=cell.pk).safety_configuration,
        "cell_fingerprint": facts.cell_fingerprint(),
        "computed_under": computed_under(facts).model_dump(mode="json"),
    }


def _locked_for_signing(revision: Revision) -> Revision:
    """The revision as stored, locked with its hazards and measures until the
    signing transaction ends, so an edit from anywhere waits and is then
    refused, the revision being signed (PostgreSQL; SQLite's writes run one
    at a time anyway).

    The editing services lock the revision first too (``_require_draft``), so
    the two take their locks in the same order and cannot deadlock.
    """
    locked = (
        Revision.objects.select_for_update(of=("self",))
        .select_related(*selectors.REVISION_RELATED)
        .get(pk=revision.pk)
    )
    list(Hazard.objects.select_for_update().filter(revision=locked).only("pk"))
    list(
        Measure.objects.select_for_update(of=("self",))
        .filter(hazard__revision=locked)
        .only("pk")
    )
    return locked


@transaction.atomic
def revision_start_next(*, revision: Revision, actor) -> Revision:
    """Editing a signed assessment: the next revision, a draft copy of this one."""
    require_edit(actor, _organisation_id(revision))
    if not revision.is_signed:
        raise ValidationError(_("Only a signed revision is copied into a new one."))
    latest = selectors.current_revision(revision.assessment)
    if latest.pk != revision.pk:
        raise ValidationError(
            _("Revision %(number)s already follows this one.")
            % {"number": latest.number}
        )
    with audit.acting_as(actor):
        copy = Revision.objects.create(
            assessment=revision.assessment,
            number=revision.number + 1,
            based_on=revision,
            created_by=actor,
            dismissed_suggestions=revision.dismissed_suggestions,
            texts=revision.texts,
            **{name: getattr(revision, name) for name in LIMIT_FIELDS},
        )
        for hazard in revision.hazards.prefetch_related("measures"):
            new_hazard = Hazard.objects.create(
                revision=copy,
                key=hazard.key,
                order=hazard.order,
                texts=hazard.texts,
                **_hazard_values(hazard),
            )
            Measure.objects.bulk_create(
                Measure(
                    hazard=new_hazard,
                    key=measure.key,
                    linked_label=measure.linked_label,
                    device_id=measure.device_id,
                    segment_id=measure.segment_id,
                    **{
                        name: getattr(measure, name)
                        for name in MEASURE_FIELDS
                        if name not in ("device", "segment")
                    },
                )
                for measure in hazard.measures.all()
            )
        _record(
            copy,
            "create",
            "revision",
            str(copy.pk),
            after={"based_on": revision.number},
        )
    return copy


def revision_is_intact(revision: Revision) -> bool:
    """Whether a signed revision still is what was signed, checked against its
    seal with the server's key (``verification.revision_is_intact``)."""
    return verification.revision_is_intact(revision)


@transaction.atomic
def suggestion_dismiss(*, revision: Revision, actor, key: str) -> Revision:
    require_edit(actor, _organisation_id(revision))
    _require_draft(revision)
    dismissed = [*revision.dismissed_suggestions, key]
    with audit.acting_as(actor):
        Revision.objects.filter(pk=revision.pk).update(dismissed_suggestions=dismissed)
    return Revision.objects.select_related(
        "assessment__cell__project__organisation"
    ).get(pk=revision.pk)
