"""The PoC proposal of a cell and its versions, each a PDF built by a worker."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cells.models import Cell, Organisation

LANGUAGES = [("ko", "한국어"), ("en", "English")]
LANGUAGE_CODES = tuple(code for code, _name in LANGUAGES)  # the API's bare codes


class ShownRules(models.TextChoices):
    """Which rules the proposal lists."""

    APPLICABLE = "applicable", _("Only the rules that apply to the cell")
    ALL = "all", _("Every rule of the packs checked")


class ShownPasses(models.TextChoices):
    """How the proposal shows the checks that passed (fails, warnings and
    findings needing evidence are always shown in full)."""

    SUMMARY = "summary", _("Summarised, a line per rule")
    FULL = "full", _("In full, each with its figures")
    OMITTED = "omitted", _("Left out, counted only")


class Proposal(models.Model):
    """The PoC proposal of a cell for its customer. Each PDF made of it is a
    numbered ``ProposalDocument``: the versions of the proposal. It keeps
    what the SA chose to show; the texts they wrote are ``ProposalText``."""

    cell = models.OneToOneField(Cell, on_delete=models.CASCADE, related_name="proposal")
    number = models.CharField(_("proposal number"), max_length=40)
    rules_shown = models.CharField(
        _("rules shown"),
        max_length=12,
        choices=ShownRules.choices,
        default=ShownRules.APPLICABLE,
    )
    passes_shown = models.CharField(
        _("passed checks shown"),
        max_length=12,
        choices=ShownPasses.choices,
        default=ShownPasses.SUMMARY,
    )
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
    # Counted within the language: the first English build is version 1 even
    # after Korean ones (rows made before kept the numbers they had).
    version = models.PositiveIntegerField(_("version"))
    language = models.CharField(_("language"), max_length=2, choices=LANGUAGES)
    sections = models.JSONField(_("sections"), default=list)
    # What the proposal's choices were when this version was asked for, so
    # that building it again shows the same (rows made before: the defaults,
    # which are what they showed).
    rules_shown = models.CharField(
        _("rules shown"),
        max_length=12,
        choices=ShownRules.choices,
        default=ShownRules.APPLICABLE,
    )
    passes_shown = models.CharField(
        _("passed checks shown"),
        max_length=12,
        choices=ShownPasses.choices,
        default=ShownPasses.SUMMARY,
    )
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
    # What the check before building said when this version was asked for
    # (compliance.proposals.checks), in the requester's words: built knowingly.
    notes = models.JSONField(_("noted before building"), default=list, blank=True)
    # The rule packs, rules and editions its findings were computed under
    # (compliance.rules.history.ComputedUnder), written with the PDF; None
    # before it is built, and on versions built before this was recorded.
    computed_under = models.JSONField(
        _("rules computed under"), null=True, blank=True, editable=False
    )

    class Meta:
        ordering = ["-version"]
        verbose_name = _("proposal document")
        verbose_name_plural = _("proposal documents")
        constraints = [
            models.UniqueConstraint(
                fields=["proposal", "language", "version"],
                name="proposal_document_language_version",
            ),
            models.CheckConstraint(
                condition=~Q(status="ready") | (Q(pdf__isnull=False) & ~Q(sha256="")),
                name="proposal_document_ready_has_pdf",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.proposal.number} v{self.version} ({self.language})"

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


class ProposalPreview(models.Model):
    """The proposal as it would be built now, shown as page images before a
    version is built (issue 15): built by a worker as the versions are
    (pending, processing, then ready with its pages or failed with the
    error), never numbered and never kept as a PDF. One per proposal and
    language: asking again replaces it."""

    Status = ProposalDocument.Status
    # The bounds: the pages drawn (the count is the whole PDF's) and their
    # widths in pixels, the page and its thumbnail.
    MAX_PAGES = 60
    WIDTH_PX = 800
    THUMBNAIL_PX = 200

    proposal = models.ForeignKey(
        Proposal, on_delete=models.CASCADE, related_name="previews"
    )
    language = models.CharField(_("language"), max_length=2, choices=LANGUAGES)
    sections = models.JSONField(_("sections"), default=list)
    rules_shown = models.CharField(
        _("rules shown"),
        max_length=12,
        choices=ShownRules.choices,
        default=ShownRules.APPLICABLE,
    )
    passes_shown = models.CharField(
        _("passed checks shown"),
        max_length=12,
        choices=ShownPasses.choices,
        default=ShownPasses.SUMMARY,
    )
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.PENDING
    )
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # When it was last asked for (asking again replaces it).
    requested_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    claim = models.CharField(max_length=64, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    page_count = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("proposal preview")
        verbose_name_plural = _("proposal previews")
        constraints = [
            models.UniqueConstraint(
                fields=["proposal", "language"], name="proposal_preview_language"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.proposal.number} preview ({self.language})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.READY, self.Status.FAILED)

    @property
    def stamp(self) -> str:
        """Changes with each build: the page images' addresses carry it, so a
        browser never shows a cached page of the preview before."""
        return f"{self.finished_at:%Y%m%d%H%M%S%f}" if self.finished_at else "0"


class ProposalPreviewPage(models.Model):
    """One page of a preview as a PNG image, and its thumbnail."""

    preview = models.ForeignKey(
        ProposalPreview, on_delete=models.CASCADE, related_name="pages"
    )
    number = models.PositiveSmallIntegerField()
    width_px = models.PositiveSmallIntegerField()
    height_px = models.PositiveSmallIntegerField()
    image = models.BinaryField(editable=False)
    thumbnail = models.BinaryField(editable=False)

    class Meta:
        ordering = ["number"]
        verbose_name = _("proposal preview page")
        verbose_name_plural = _("proposal preview pages")
        constraints = [
            models.UniqueConstraint(
                fields=["preview", "number"], name="proposal_preview_page_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.preview} p. {self.number}"


class ProposalText(models.Model):
    """What the SA wrote for the proposal in one language: the executive
    summary and the safety concept, printed as written. A blank text is not
    written: the proposal then uses the one generated from the cell
    (``compliance.proposals.authoring``), which follows the cell as it
    changes."""

    # Bounded so that one paragraph of either, of the widest letters, still
    # fits on one page of the PDF: it is never split by a page break.
    SUMMARY_MAX = 1500
    SAFETY_CONCEPT_MAX = 1500

    proposal = models.ForeignKey(
        Proposal, on_delete=models.CASCADE, related_name="texts"
    )
    language = models.CharField(_("language"), max_length=2, choices=LANGUAGES)
    summary = models.TextField(
        _("executive summary"), max_length=SUMMARY_MAX, blank=True
    )
    safety_concept = models.TextField(
        _("safety concept"), max_length=SAFETY_CONCEPT_MAX, blank=True
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("proposal text")
        verbose_name_plural = _("proposal texts")
        constraints = [
            models.UniqueConstraint(
                fields=["proposal", "language"], name="proposal_text_language"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.proposal.number} ({self.language})"


class OrganisationBranding(models.Model):
    """How an organisation presents itself on its proposals' cover and page
    headers: the name and address it writes under, and its logo (a PNG or
    JPEG checked on upload, kept in the database with its type)."""

    LOGO_TYPES = (("image/png", "PNG"), ("image/jpeg", "JPEG"))

    organisation = models.OneToOneField(
        Organisation, on_delete=models.CASCADE, related_name="branding"
    )
    display_name = models.CharField(
        _("name on proposals"),
        max_length=200,
        blank=True,
        help_text=_("Leave empty to use the organisation's name."),
    )
    address = models.TextField(_("address"), max_length=400, blank=True)
    logo = models.BinaryField(null=True, blank=True, editable=False)
    logo_type = models.CharField(max_length=20, choices=LOGO_TYPES, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("organisation branding")
        verbose_name_plural = _("organisation brandings")
        constraints = [
            models.CheckConstraint(
                condition=Q(logo__isnull=True, logo_type="")
                | (
                    Q(logo__isnull=False) & Q(logo_type__in=["image/png", "image/jpeg"])
                ),
                name="organisation_branding_logo_has_type",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or str(self.organisation_id)
