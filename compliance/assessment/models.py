"""The ISO 12100 risk assessment of a cell: revisions, hazards and measures.

A cell has one assessment; the assessment has numbered revisions. A revision
is edited while draft, submitted for review, approved when the organisation
wants a second person, and signed by a safety engineer. Signing stores the
content's SHA-256 and a seal under the server's key (``integrity``); from then
on the database itself refuses any change to the revision, its hazards and its
measures (triggers, see migration 0002), to the assessment's cell and to the
cell of a device or guard a signed measure names (migration 0013). Editing a
signed assessment starts the next revision as a copy.
"""

from __future__ import annotations

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cells.models import (  # CollaborativeMode: re-exported, measures use it
    Cell,
    CollaborativeMode,
    Device,
    GuardSegment,
    PerformanceLevel,
)
from compliance.assessment.audit import AuditedQuerySet
from compliance.calculators.ts15066 import body_region_table


class Assessment(models.Model):
    """The risk assessment of one robot cell (ISO 12100), across its revisions."""

    cell = models.OneToOneField(
        Cell,
        on_delete=models.CASCADE,
        related_name="assessment",
        verbose_name=_("cell"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("risk assessment")
        verbose_name_plural = _("risk assessments")

    def __str__(self) -> str:
        return str(_("Risk assessment of %(cell)s") % {"cell": self.cell})

    def clean(self) -> None:
        # The database refuses it too on PostgreSQL (migration 0013).
        if self.pk and self.cell_id != self.cell_id_as_stored() and self.is_signed():
            raise ValidationError(
                {
                    "cell": _(
                        "This assessment has a signed revision: it stays with its cell."
                    )
                }
            )

    def cell_id_as_stored(self) -> int | None:
        return (
            Assessment.objects.filter(pk=self.pk)
            .values_list("cell_id", flat=True)
            .first()
        )

    def is_signed(self) -> bool:
        """Whether any revision of this assessment is signed."""
        return self.revisions.filter(status=RevisionStatus.SIGNED).exists()


class RevisionStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    IN_REVIEW = "in_review", _("In review")
    APPROVED = "approved", _("Approved")
    SIGNED = "signed", _("Signed")


# The longest free text a person may enter: the limits of the machine, and a
# hazard's description (a paragraph, as a certificate's scope). Checked where
# it is entered (the forms and the serializers), not by a ``max_length`` on
# the fields: changing a field makes SQLite rebuild its table, which drops
# the triggers that freeze signed revisions (migration 0002).
LIMIT_TEXT_MAX_LENGTH = 4000
HAZARD_DESCRIPTION_MAX_LENGTH = 1000


class Revision(models.Model):
    """One numbered state of an assessment. Frozen once signed."""

    assessment = models.ForeignKey(
        Assessment, on_delete=models.CASCADE, related_name="revisions"
    )
    number = models.PositiveIntegerField(_("revision"))
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=RevisionStatus.choices,
        default=RevisionStatus.DRAFT,
    )
    based_on = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Limits of the machine, ISO 12100:2010 5.3.
    intended_use = models.TextField(_("intended use"), blank=True)
    foreseeable_misuse = models.TextField(
        _("reasonably foreseeable misuse"), blank=True
    )
    space_limits = models.TextField(_("space limits"), blank=True)
    # Where the app wrote its space limits from (compliance.calculators.written):
    # {field: {"text": msgid, "values": {...}}}, to show them in the reader's
    # language; a text a person changed since is shown as stored.
    texts = models.JSONField(null=True, blank=True, editable=False)
    time_limits = models.TextField(_("time limits (life cycle)"), blank=True)
    exposed_persons = models.JSONField(_("persons exposed"), default=list, blank=True)
    # What the compliance checks read from the assessment.
    low_guard_justification = models.TextField(
        _("why a guard lower than 1.8 m carries no height-related risk"),
        blank=True,
        help_text=_("Korea, Art. 223: a lower guard needs this recorded."),
    )
    conformity_route = models.TextField(
        _("conformity route for collaborative operation"),
        blank=True,
        help_text=_(
            "Korea: how the cell conforms to KS B ISO 10218-2 / ISO/TS 15066 "
            "(e.g. KIRIA workplace certification) where it has no fence."
        ),
    )
    dismissed_suggestions = models.JSONField(default=list, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    signed_at = models.DateTimeField(null=True, blank=True)
    content_hash = models.CharField(
        _("content hash (SHA-256)"), max_length=64, blank=True
    )
    # The HMAC-SHA256, under the server's key, of the content hash, the cell,
    # the signer, the moment and the measures' links (integrity.revision_payload).
    seal = models.CharField(_("seal (HMAC-SHA256)"), max_length=64, blank=True)
    version = models.PositiveIntegerField(default=1)

    objects = AuditedQuerySet.as_manager()
    audit_type = "revision"
    audit_paths = {
        "organisation": "assessment__cell__project__organisation_id",
        "assessment": "assessment_id",
        "revision_number": "number",
    }

    class Meta:
        ordering = ["assessment_id", "-number"]
        verbose_name = _("revision")
        verbose_name_plural = _("revisions")
        constraints = [
            models.UniqueConstraint(
                fields=["assessment", "number"], name="revision_unique_number"
            ),
            models.CheckConstraint(
                condition=Q(status__in=RevisionStatus.values),
                name="revision_status_valid",
            ),
            models.CheckConstraint(
                condition=~Q(status=RevisionStatus.SIGNED) | ~Q(content_hash=""),
                name="revision_signed_has_hash",
            ),
            models.CheckConstraint(
                condition=~Q(status=RevisionStatus.SIGNED) | ~Q(seal=""),
                name="revision_signed_has_seal",
            ),
        ]

    def __str__(self) -> str:
        return str(_("Revision %(number)s") % {"number": self.number})

    @property
    def is_signed(self) -> bool:
        return self.status == RevisionStatus.SIGNED

    @property
    def is_editable(self) -> bool:
        return self.status == RevisionStatus.DRAFT


class Phase(models.TextChoices):
    """Life-cycle phases of the machine (ISO 12100:2010 5.4)."""

    TRANSPORT = "transport", _("Transport")
    ASSEMBLY_INSTALLATION = "assembly_installation", _("Assembly and installation")
    COMMISSIONING = "commissioning", _("Commissioning")
    SETTING_TEACHING = "setting_teaching", _("Setting, teaching and programming")
    OPERATION = "operation", _("Operation")
    CLEANING = "cleaning", _("Cleaning")
    FAULT_FINDING = "fault_finding", _("Fault finding")
    MAINTENANCE = "maintenance", _("Maintenance")
    DECOMMISSIONING = "decommissioning", _("Decommissioning and disposal")


class RiskParameter:
    SEVERITY = [("S1", "S1"), ("S2", "S2")]
    FREQUENCY = [("F1", "F1"), ("F2", "F2")]
    AVOIDANCE = [("P1", "P1"), ("P2", "P2")]


class ContactType(models.TextChoices):
    TRANSIENT = "transient", _("Transient (the body part can move away)")
    QUASI_STATIC = "quasi_static", _("Quasi-static (clamping or crushing)")


# The bounds of a contact area: the Annex A pressure limits are per cm²; an
# edge below 0.01 cm² or a surface above 1,000 cm² is no longer a contact the
# body model describes (the calculator refuses the same range).
CONTACT_AREA_MIN_CM2 = Decimal("0.01")
CONTACT_AREA_MAX_CM2 = Decimal("1000")


class Hazard(models.Model):
    """A hazard of the cell (ISO 12100 Annex B), where and when it arises, and
    its risk before and after the measures."""

    revision = models.ForeignKey(
        Revision, on_delete=models.CASCADE, related_name="hazards"
    )
    key = models.UUIDField(default=uuid.uuid4, editable=False)
    group = models.CharField(_("hazard group"), max_length=40)
    origin = models.CharField(_("origin"), max_length=80)
    consequence = models.CharField(_("potential consequence"), max_length=80)
    description = models.TextField(_("description"), blank=True)
    phase = models.CharField(
        _("life-cycle phase"), max_length=30, choices=Phase.choices
    )
    task = models.CharField(_("task"), max_length=200)
    # Where the app wrote its task and description from (compliance.calculators.written):
    # {field: {"text": msgid, "values": {...}}}, to show them in the reader's
    # language; a text a person changed since is shown as stored.
    texts = models.JSONField(null=True, blank=True, editable=False)
    location_key = models.CharField(_("where in the cell"), max_length=40, blank=True)
    location_label = models.CharField(max_length=100, blank=True)
    body_region = models.CharField(
        _("body region that may be contacted (ISO/TS 15066)"),
        max_length=30,
        blank=True,
        choices=[(str(row.region_id), _(row.name)) for row in body_region_table()],
    )
    # How the body region may be touched (ISO/TS 15066 Annex A): transient
    # contact gives a permissible speed; quasi-static (clamping) contact gives
    # only force and pressure limits to measure.
    contact_type = models.CharField(
        _("kind of contact (ISO/TS 15066)"),
        max_length=20,
        blank=True,
        choices=ContactType.choices,
    )
    contact_area_cm2 = models.DecimalField(
        _("contact area (cm²)"),
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[
            MinValueValidator(CONTACT_AREA_MIN_CM2),
            MaxValueValidator(CONTACT_AREA_MAX_CM2),
        ],
        help_text=_(
            "The area of the robot or tool that may touch the body region: its "
            "smallest edge or corner, in cm². The pressure limit is checked with it."
        ),
    )

    severity = models.CharField(
        _("severity (S)"), max_length=2, choices=RiskParameter.SEVERITY, blank=True
    )
    frequency = models.CharField(
        _("frequency / duration of exposure (F)"),
        max_length=2,
        choices=RiskParameter.FREQUENCY,
        blank=True,
    )
    avoidance = models.CharField(
        _("possibility of avoidance (P)"),
        max_length=2,
        choices=RiskParameter.AVOIDANCE,
        blank=True,
    )
    low_probability = models.BooleanField(
        _("low probability of occurrence"), default=False
    )
    residual_severity = models.CharField(
        _("residual severity (S)"),
        max_length=2,
        choices=RiskParameter.SEVERITY,
        blank=True,
    )
    residual_frequency = models.CharField(
        _("residual frequency (F)"),
        max_length=2,
        choices=RiskParameter.FREQUENCY,
        blank=True,
    )
    residual_avoidance = models.CharField(
        _("residual avoidance (P)"),
        max_length=2,
        choices=RiskParameter.AVOIDANCE,
        blank=True,
    )
    residual_low_probability = models.BooleanField(
        _("residual: low probability of occurrence"), default=False
    )
    order = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)

    objects = AuditedQuerySet.as_manager()
    audit_type = "hazard"
    audit_paths = {
        "organisation": "revision__assessment__cell__project__organisation_id",
        "assessment": "revision__assessment_id",
        "revision_number": "revision__number",
    }

    class Meta:
        ordering = ["order", "id"]
        verbose_name = _("hazard")
        verbose_name_plural = _("hazards")
        constraints = [
            models.UniqueConstraint(
                fields=["revision", "key"], name="hazard_unique_key"
            ),
            models.CheckConstraint(
                condition=Q(severity__in=["", "S1", "S2"])
                & Q(residual_severity__in=["", "S1", "S2"])
                & Q(frequency__in=["", "F1", "F2"])
                & Q(residual_frequency__in=["", "F1", "F2"])
                & Q(avoidance__in=["", "P1", "P2"])
                & Q(residual_avoidance__in=["", "P1", "P2"]),
                name="hazard_risk_parameters_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.task

    @property
    def is_estimated(self) -> bool:
        return bool(self.severity and self.frequency and self.avoidance)

    @property
    def is_residual_estimated(self) -> bool:
        return bool(
            self.residual_severity
            and self.residual_frequency
            and self.residual_avoidance
        )


class MeasureStep(models.TextChoices):
    """The three-step method of risk reduction (ISO 12100:2010 6.1)."""

    INHERENTLY_SAFE_DESIGN = "inherently_safe_design", _("1. Inherently safe design")
    SAFEGUARDING = "safeguarding", _("2. Safeguarding and complementary measures")
    INFORMATION_FOR_USE = "information_for_use", _("3. Information for use")


class Measure(models.Model):
    """A risk-reduction measure against one hazard, by the three-step method.

    A safeguarding measure may be a device or guard of the cell; when it is a
    safety function it records the PLr it must meet and the PL its device claims.
    """

    hazard = models.ForeignKey(
        Hazard, on_delete=models.CASCADE, related_name="measures"
    )
    key = models.UUIDField(default=uuid.uuid4, editable=False)
    step = models.CharField(_("step"), max_length=30, choices=MeasureStep.choices)
    description = models.CharField(_("measure"), max_length=300)
    device = models.ForeignKey(
        Device,
        # RESTRICT: a device used by a measure cannot be deleted on its own,
        # but goes with its cell when the whole cell is deleted.
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="measures",
        verbose_name=_("safety device"),
    )
    segment = models.ForeignKey(
        GuardSegment,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="measures",
        verbose_name=_("guard segment"),
    )
    # What the device or guard was called when linked, so signed content
    # stays readable whatever happens to the layout later.
    linked_label = models.CharField(max_length=100, blank=True)
    # The ISO/TS 15066 mode this measure relies on: a cell using several modes
    # (Cell.collaborative_modes) names here the one for this hazard's zone or task.
    collaborative_mode = models.CharField(
        _("collaborative mode"),
        max_length=20,
        choices=CollaborativeMode.choices,
        blank=True,
    )
    is_safety_function = models.BooleanField(_("safety function"), default=False)
    plr_required = models.CharField(
        _("PLr required"), max_length=1, choices=PerformanceLevel.choices, blank=True
    )
    pl_claimed = models.CharField(
        _("PL claimed"), max_length=1, choices=PerformanceLevel.choices, blank=True
    )
    version = models.PositiveIntegerField(default=1)

    objects = AuditedQuerySet.as_manager()
    audit_type = "measure"
    audit_paths = {
        "organisation": "hazard__revision__assessment__cell__project__organisation_id",
        "assessment": "hazard__revision__assessment_id",
        "revision_number": "hazard__revision__number",
    }

    class Meta:
        ordering = ["step", "id"]
        verbose_name = _("measure")
        verbose_name_plural = _("measures")
        constraints = [
            models.UniqueConstraint(
                fields=["hazard", "key"], name="measure_unique_key"
            ),
            models.CheckConstraint(
                condition=Q(device__isnull=True) | Q(segment__isnull=True),
                name="measure_one_link",
            ),
        ]

    def __str__(self) -> str:
        return self.description

    @property
    def pl_below_plr(self) -> bool:
        return bool(
            self.is_safety_function
            and self.plr_required
            and (not self.pl_claimed or self.pl_claimed < self.plr_required)
        )


class SignatureDeclaration(models.Model):
    """What a safety engineer declared in signing a revision: the statement
    they confirmed, and the open findings of the cell at signing (fails and
    findings that need evidence) with the reason each fail is accepted; among
    the fails, each hazard whose residual risk was not acceptable, with the
    reason it was accepted (``checks.RESIDUAL_RULE``).

    Written in the transaction that signs, just before the revision is marked
    signed; the database then refuses any change to it (migration 0008), and
    the revision's content hash covers it (``content.DeclarationContent``).
    """

    revision = models.OneToOneField(
        Revision, on_delete=models.CASCADE, related_name="declaration"
    )
    signer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # The name as it was at signing: the account may be renamed later.
    signer_name = models.CharField(_("signed by"), max_length=150)
    signed_at = models.DateTimeField(_("signed"))
    statement = models.TextField(_("statement"))
    language = models.CharField(_("language"), max_length=10, blank=True)
    # [{key, rule_id, subject_key, subject, status, message, reason}, ...],
    # fails first, as content.DeclaredFinding.
    findings = models.JSONField(_("open findings at signing"), default=list)
    # Frozen at signing with the rest (the content hash covers them; None on
    # declarations made before they were recorded, which hash as before):
    # the robot's safety configuration assessed, {kind, value} or None when
    # the cell recorded none; the fingerprint of the cell as assessed
    # (CellFacts.cell_fingerprint); and the rules, packs and editions the
    # findings were computed under (rules.history.ComputedUnder). Nullable
    # without a default, so adding them altered the table in place (SQLite
    # would otherwise rebuild it and drop its triggers, migration 0008).
    safety_configuration = models.JSONField(
        _("robot safety configuration assessed"), null=True, blank=True
    )
    cell_fingerprint = models.CharField(
        _("fingerprint of the cell assessed"), max_length=16, null=True, blank=True
    )
    computed_under = models.JSONField(
        _("rules the findings were computed under"), null=True, blank=True
    )

    class Meta:
        verbose_name = _("signature declaration")
        verbose_name_plural = _("signature declarations")

    def __str__(self) -> str:
        return str(
            _("Declaration of %(name)s on %(revision)s")
            % {"name": self.signer_name, "revision": self.revision}
        )

    @property
    def accepted_fails(self) -> list[dict]:
        """Every fail accepted: the cell's findings and the hazards' residual
        risks not acceptable (``checks.RESIDUAL_RULE``)."""
        return [f for f in self.findings if f.get("status") == "fail"]

    @property
    def accepted_residual_risks(self) -> list[dict]:
        """The hazards whose residual risk was not acceptable, each with the
        reason the signer accepted it."""
        from compliance.assessment.checks import is_residual

        return [f for f in self.accepted_fails if is_residual(f.get("rule_id", ""))]

    @property
    def accepted_findings(self) -> list[dict]:
        """The failing findings of the cell accepted, with their reasons."""
        from compliance.assessment.checks import is_residual

        return [f for f in self.accepted_fails if not is_residual(f.get("rule_id", ""))]

    @property
    def needing_evidence(self) -> list[dict]:
        return [f for f in self.findings if f.get("status") == "needs_evidence"]
