"""The ISO 12100 risk assessment of a cell: revisions, hazards, measures, audit.

A cell has one assessment; the assessment has numbered revisions. A revision
is edited while draft, submitted for review, approved when the organisation
wants a second person, and signed by a safety engineer. Signing stores the
content's SHA-256; from then on the database itself refuses any change to the
revision, its hazards and its measures (triggers, see migration 0002). Editing
a signed assessment starts the next revision as a copy.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cells.models import Cell, Device, GuardSegment, Organisation, PerformanceLevel
from compliance.audit import AuditedQuerySet
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


class RevisionStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    IN_REVIEW = "in_review", _("In review")
    APPROVED = "approved", _("Approved")
    SIGNED = "signed", _("Signed")


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
    location_key = models.CharField(_("where in the cell"), max_length=40, blank=True)
    location_label = models.CharField(max_length=100, blank=True)
    body_region = models.CharField(
        _("body region that may be contacted (ISO/TS 15066)"),
        max_length=30,
        blank=True,
        choices=[(str(row.region_id), row.name) for row in body_region_table()],
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


class CollaborativeMode(models.TextChoices):
    """The collaborative operation modes of ISO/TS 15066 (5.5)."""

    SAFETY_RATED_MONITORED_STOP = "srms", _("Safety-rated monitored stop")
    HAND_GUIDING = "hand_guiding", _("Hand guiding")
    SPEED_SEPARATION = "ssm", _("Speed and separation monitoring")
    POWER_FORCE_LIMITING = "pfl", _("Power and force limiting")


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


class AuditEntry(models.Model):
    """Who changed what in an assessment, when, with the values before and after.

    Written by the services for every change, including bulk and API writes.
    """

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="+"
    )
    assessment = models.ForeignKey(
        Assessment, on_delete=models.CASCADE, related_name="audit_entries"
    )
    revision_number = models.PositiveIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=30)
    object_type = models.CharField(max_length=20)
    object_key = models.CharField(max_length=40, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type} {self.object_key}"


class LineItemEdit(models.Model):
    """The user's edit of one derived cost line of a cell: a quantity or a
    quoted price. The line itself is derived afresh from the findings."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="line_item_edits"
    )
    key = models.CharField(max_length=120)
    quantity = models.DecimalField(
        max_digits=12, decimal_places=2, null=True, blank=True
    )
    price_low = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True
    )
    price_high = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        max_length=3,
        blank=True,
        choices=[("KRW", "KRW"), ("USD", "USD"), ("EUR", "EUR")],
    )
    source = models.CharField(_("source of the price"), max_length=200, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("cost line edit")
        verbose_name_plural = _("cost line edits")
        constraints = [
            models.UniqueConstraint(
                fields=["cell", "key"], name="line_edit_unique_key"
            ),
            models.CheckConstraint(
                condition=(Q(quantity__isnull=True) | Q(quantity__gte=0))
                & (Q(price_low__isnull=True) | Q(price_low__gte=0))
                & (Q(price_high__isnull=True) | Q(price_high__gte=0)),
                name="line_edit_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.key


_NOT_NEGATIVE = (
    "quantity",
    "price_low",
    "price_high",
    "lead_time_weeks_low",
    "lead_time_weeks_high",
)
CURRENCY_CHOICES = [("KRW", "KRW"), ("USD", "USD"), ("EUR", "EUR")]


def _not_negative(*fields: str) -> Q:
    condition = Q()
    for field in fields:
        condition &= Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": 0})
    return condition


class CustomLineItem(models.Model):
    """A cost line the user adds by hand to a cell's plan (a device or a
    service the findings do not derive), with the user's own price."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="custom_line_items"
    )
    description = models.CharField(_("description"), max_length=200)
    category = models.CharField(
        _("category"),
        max_length=10,
        choices=[
            ("device", _("device")),
            ("guarding", _("guarding")),
            ("service", _("service")),
        ],
        default="device",
    )
    quantity = models.DecimalField(_("quantity"), max_digits=12, decimal_places=2)
    unit = models.CharField(
        _("unit"),
        max_length=5,
        choices=[("piece", _("piece")), ("m", _("m")), ("job", _("job"))],
        default="piece",
    )
    price_low = models.DecimalField(
        _("unit price from"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    price_high = models.DecimalField(
        _("unit price to"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        _("currency"), max_length=3, blank=True, choices=CURRENCY_CHOICES
    )
    lead_time_weeks_low = models.DecimalField(
        _("lead time from (weeks)"),
        max_digits=6,
        decimal_places=1,
        null=True,
        blank=True,
    )
    lead_time_weeks_high = models.DecimalField(
        _("lead time to (weeks)"),
        max_digits=6,
        decimal_places=1,
        null=True,
        blank=True,
    )
    source = models.CharField(_("source of the price"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("custom cost line")
        verbose_name_plural = _("custom cost lines")
        constraints = [
            models.CheckConstraint(
                condition=_not_negative(*_NOT_NEGATIVE),
                name="custom_line_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.description

    @property
    def key(self) -> str:
        return f"custom-{self.pk}"


class CatalogueEdit(models.Model):
    """An organisation's own price or lead time for one entry of the starting
    catalogue (``compliance.costs.catalogue``), with its source and date. It
    replaces the starting figures in every cell of the organisation."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="catalogue_edits"
    )
    key = models.CharField(max_length=60)
    price_low = models.DecimalField(
        _("unit price from"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    price_high = models.DecimalField(
        _("unit price to"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        _("currency"), max_length=3, blank=True, choices=CURRENCY_CHOICES
    )
    price_date = models.DateField(_("price date"), null=True, blank=True)
    lead_time_weeks_low = models.DecimalField(
        _("lead time from (weeks)"),
        max_digits=6,
        decimal_places=1,
        null=True,
        blank=True,
    )
    lead_time_weeks_high = models.DecimalField(
        _("lead time to (weeks)"),
        max_digits=6,
        decimal_places=1,
        null=True,
        blank=True,
    )
    source = models.CharField(_("source"), max_length=200)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("catalogue entry edit")
        verbose_name_plural = _("catalogue entry edits")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "key"], name="catalogue_edit_unique_key"
            ),
            models.CheckConstraint(
                condition=_not_negative(*_NOT_NEGATIVE[1:]),
                name="catalogue_edit_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.key


class PlanAssumption(models.Model):
    """The project's own figure for one activity of the PoC plan, replacing
    the assumption default: its duration in weeks and, optionally, its cost."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="plan_assumptions"
    )
    key = models.CharField(max_length=60)
    weeks_low = models.DecimalField(
        _("weeks from"), max_digits=6, decimal_places=1, null=True, blank=True
    )
    weeks_high = models.DecimalField(
        _("weeks to"), max_digits=6, decimal_places=1, null=True, blank=True
    )
    cost_low = models.DecimalField(
        _("cost from"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    cost_high = models.DecimalField(
        _("cost to"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        _("currency"), max_length=3, blank=True, choices=CURRENCY_CHOICES
    )
    source = models.CharField(_("source"), max_length=200, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("plan assumption")
        verbose_name_plural = _("plan assumptions")
        constraints = [
            models.UniqueConstraint(
                fields=["cell", "key"], name="plan_assumption_unique_key"
            ),
            models.CheckConstraint(
                condition=_not_negative(
                    "weeks_low", "weeks_high", "cost_low", "cost_high"
                ),
                name="plan_assumption_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.key


class Proposal(models.Model):
    """The PoC proposal of a cell for its customer. Each PDF made of it is a
    numbered ``ProposalDocument``: the versions of the proposal."""

    cell = models.OneToOneField(Cell, on_delete=models.CASCADE, related_name="proposal")
    number = models.CharField(_("proposal number"), max_length=40)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("proposal")
        verbose_name_plural = _("proposals")

    def __str__(self) -> str:
        return self.number


class ProposalDocument(models.Model):
    """One version of a proposal as a PDF, built by a Celery task: pending,
    then processing, then ready (with the PDF, its SHA-256 and the exact data
    it was built from) or failed (with the error)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for a worker")
        PROCESSING = "processing", _("Being built")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    proposal = models.ForeignKey(
        Proposal, on_delete=models.CASCADE, related_name="documents"
    )
    version = models.PositiveIntegerField(_("version"))
    language = models.CharField(
        _("language"), max_length=2, choices=[("ko", "한국어"), ("en", "English")]
    )
    sections = models.JSONField(_("sections"), default=list)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.PENDING
    )
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The task that holds the row (its id stays the same when the broker
    # delivers it again after a worker was lost) and how often it was started.
    claim = models.CharField(max_length=64, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    sha256 = models.CharField(max_length=64, blank=True)
    size_bytes = models.PositiveIntegerField(null=True, blank=True)
    data = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-version"]
        verbose_name = _("proposal document")
        verbose_name_plural = _("proposal documents")
        constraints = [
            models.UniqueConstraint(
                fields=["proposal", "version"], name="proposal_document_version"
            ),
            models.CheckConstraint(
                condition=~Q(status="ready") | (Q(pdf__isnull=False) & ~Q(sha256="")),
                name="proposal_document_ready_has_pdf",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.proposal.number} v{self.version}"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.READY, self.Status.FAILED)

    # A pending document older than this may be sent to the workers again:
    # its task message was lost (a broker restart, say) or no worker took it.
    RESEND_AFTER = timedelta(minutes=10)

    @property
    def retryable(self) -> bool:
        """Failed, or still waiting long after it was asked for."""
        if self.status == self.Status.FAILED:
            return True
        return (
            self.status == self.Status.PENDING
            and timezone.now() - self.requested_at > self.RESEND_AFTER
        )

    @property
    def filename(self) -> str:
        """A safe file name: letters, digits, dots and hyphens only."""
        stem = f"{self.proposal.number}-v{self.version}-{self.language}"
        safe = "".join(
            c if c.isascii() and (c.isalnum() or c in "-.") else "-" for c in stem
        )
        return f"{safe}.pdf"
