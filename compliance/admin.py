"""Admin for staff. What is signed or sealed is shown read-only and cannot be
deleted (signed revisions with their hazards, measures and declaration, the
audit trail, a built proposal version); the database refuses changes to the
signed records anyway. Records only the app's workers or imports write are
shown, not edited."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from compliance.assessment.audit import AuditEntry
from compliance.assessment.models import (
    Assessment,
    Hazard,
    Measure,
    Revision,
    SignatureDeclaration,
)
from compliance.concepts.models import GuardingConcept
from compliance.costs.models import (
    CatalogueEdit,
    CustomLineItem,
    ExchangeRate,
    LineItemEdit,
)
from compliance.costs.quotes.models import QuoteRow, SupplierQuote
from compliance.plan.labour.models import LabourRate, WorkDefault
from compliance.plan.models import PlanAssumption
from compliance.proposals.models import (
    OrganisationBranding,
    Proposal,
    ProposalDocument,
    ProposalPreview,
    ProposalPreviewPage,
    ProposalText,
)
from compliance.safety_functions.models import (
    DismissedFunctionSuggestion,
    LibraryDevice,
    PfhdTableImport,
    SafetyFunction,
    Subsystem,
    ValidationRecord,
)


class SignedIsReadOnly:
    """Each admin using this says, in ``_signed(obj)``, whether obj is frozen."""

    def has_change_permission(self, request, obj=None):
        return obj is None or not self._signed(obj)

    def has_delete_permission(self, request, obj=None):
        return obj is None or not self._signed(obj)


class KeptAsWritten:
    """For records that are never changed once written (the audit trail, a
    signature's declaration): shown, never added, changed or deleted here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MadeByWorker:
    """For rows the app's workers or imports make: shown, not added or changed
    here (``delete`` stays as the admin has it)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


# The risk assessment ---------------------------------------------------------


@admin.register(Assessment)
class AssessmentAdmin(admin.ModelAdmin):
    list_display = ["cell", "created_at"]
    list_select_related = ["cell"]
    search_fields = ["cell__name"]
    autocomplete_fields = ["cell"]

    def get_readonly_fields(self, request, obj=None):
        # A signed assessment stays with its cell (Assessment.clean, and the
        # database on PostgreSQL).
        return ["cell"] if obj is not None and obj.is_signed() else []


@admin.register(Revision)
class RevisionAdmin(SignedIsReadOnly, admin.ModelAdmin):
    list_display = ["assessment", "number", "status", "signed_by", "signed_at"]
    list_filter = ["status"]
    list_select_related = ["assessment__cell", "signed_by"]
    # Not a list of every assessment (each names its cell) or revision.
    raw_id_fields = ["assessment", "based_on"]
    readonly_fields = ["content_hash", "seal", "signed_by", "signed_at", "version"]

    def _signed(self, obj) -> bool:
        return obj.is_signed


@admin.register(Hazard)
class HazardAdmin(SignedIsReadOnly, admin.ModelAdmin):
    list_display = [
        "task",
        "group",
        "phase",
        "severity",
        "frequency",
        "avoidance",
        "revision",
    ]
    list_filter = ["group", "phase"]
    list_select_related = ["revision__assessment__cell"]
    raw_id_fields = ["revision"]

    def _signed(self, obj) -> bool:
        return obj.revision.is_signed


@admin.register(Measure)
class MeasureAdmin(SignedIsReadOnly, admin.ModelAdmin):
    list_display = ["description", "step", "hazard", "pl_claimed", "plr_required"]
    list_select_related = ["hazard__revision"]
    raw_id_fields = ["hazard", "device", "segment"]

    def _signed(self, obj) -> bool:
        return obj.hazard.revision.is_signed


@admin.register(SignatureDeclaration)
class SignatureDeclarationAdmin(KeptAsWritten, admin.ModelAdmin):
    """Written in the transaction that signs; the database refuses any change
    to it or its deletion (migration 0008)."""

    list_display = ["revision", "cell", "signer_name", "signed_at", "language"]
    list_select_related = ["revision__assessment__cell"]
    search_fields = ["signer_name", "revision__assessment__cell__name"]

    @admin.display(description=_("cell"), ordering="revision__assessment__cell__name")
    def cell(self, obj: SignatureDeclaration):
        return obj.revision.assessment.cell


@admin.register(AuditEntry)
class AuditEntryAdmin(KeptAsWritten, admin.ModelAdmin):
    list_display = [
        "at",
        "actor",
        "action",
        "object_type",
        "object_key",
        "revision_number",
    ]
    list_filter = ["action", "object_type"]
    list_select_related = ["actor"]


# Proposals -------------------------------------------------------------------


@admin.register(Proposal)
class ProposalAdmin(admin.ModelAdmin):
    list_display = ["number", "cell", "rules_shown", "passes_shown", "created_at"]
    list_filter = ["rules_shown", "passes_shown"]
    list_select_related = ["cell"]
    search_fields = ["number", "cell__name"]
    autocomplete_fields = ["cell"]
    readonly_fields = ["created_by", "created_at"]


@admin.register(ProposalText)
class ProposalTextAdmin(admin.ModelAdmin):
    list_display = ["proposal", "language", "updated_by", "updated_at"]
    list_filter = ["language"]
    list_select_related = ["proposal", "updated_by"]
    search_fields = ["proposal__number", "summary", "safety_concept"]
    autocomplete_fields = ["proposal"]
    readonly_fields = ["updated_by", "updated_at"]


@admin.register(ProposalDocument)
class ProposalDocumentAdmin(MadeByWorker, admin.ModelAdmin):
    """Read-only: documents are made by the build task, and kept as made. A
    ready one (its PDF and SHA-256 written) is a version a customer may hold:
    it cannot be deleted here; a failed or stuck one can."""

    list_display = [
        "proposal",
        "version",
        "language",
        "status",
        "attempts",
        "requested_at",
        "finished_at",
    ]
    list_filter = ["status", "language"]
    list_select_related = ["proposal"]
    exclude = ["pdf", "data"]

    def has_delete_permission(self, request, obj=None):
        return obj is None or obj.status != ProposalDocument.Status.READY


class ProposalPreviewPageInline(KeptAsWritten, admin.TabularInline):
    model = ProposalPreviewPage
    fields = ["number", "width_px", "height_px"]
    readonly_fields = fields
    extra = 0


@admin.register(ProposalPreview)
class ProposalPreviewAdmin(MadeByWorker, admin.ModelAdmin):
    """Read-only: a worker draws it; asking again replaces it. Deleting one
    only means the next request draws it afresh."""

    list_display = [
        "proposal",
        "language",
        "status",
        "page_count",
        "attempts",
        "requested_at",
        "finished_at",
    ]
    list_filter = ["status", "language"]
    list_select_related = ["proposal"]
    inlines = [ProposalPreviewPageInline]


@admin.register(OrganisationBranding)
class OrganisationBrandingAdmin(admin.ModelAdmin):
    list_display = ["__str__", "organisation", "logo_type", "updated_at"]
    list_select_related = ["organisation"]
    search_fields = ["display_name", "organisation__name"]
    autocomplete_fields = ["organisation"]
    # The logo is uploaded (and checked) on the organisation's page; its type
    # goes with it (a constraint ties the two).
    readonly_fields = ["logo_type", "updated_by", "updated_at"]


# Safety functions and the device library ------------------------------------


@admin.register(LibraryDevice)
class LibraryDeviceAdmin(admin.ModelAdmin):
    list_display = [
        "maker",
        "model",
        "kind",
        "key",
        "organisation",
        "pl",
        "pfhd_per_hour",
        "from_reference",
    ]
    list_filter = ["kind", "from_reference", "organisation"]
    list_select_related = ["organisation"]
    search_fields = ["maker", "model", "key", "part_number"]
    autocomplete_fields = ["organisation"]
    # Whether the figures are still the reference's is worked out on saving
    # through the library's pages (library.services), not chosen.
    readonly_fields = ["from_reference", "updated_at"]


@admin.register(PfhdTableImport)
class PfhdTableImportAdmin(MadeByWorker, admin.ModelAdmin):
    """Read-only: every row is checked on import; importing again replaces
    the table, and it can be removed here."""

    list_display = ["organisation", "source", "row_count", "imported_by", "imported_at"]
    list_select_related = ["organisation", "imported_by"]
    search_fields = ["source", "organisation__name"]
    fields = ["organisation", "source", "row_count", "imported_by", "imported_at"]
    readonly_fields = ["row_count", "imported_at"]

    @admin.display(description=_("rows"))
    def row_count(self, obj: PfhdTableImport) -> int:
        return len(obj.rows)


@admin.register(SafetyFunction)
class SafetyFunctionAdmin(admin.ModelAdmin):
    list_display = ["name", "cell", "safeguard", "stop_category", "device"]
    list_filter = ["safeguard", "stop_category"]
    list_select_related = ["cell", "device"]
    search_fields = ["name", "cell__name"]
    autocomplete_fields = ["cell", "device"]
    readonly_fields = ["key", "created_at", "updated_at"]


@admin.register(Subsystem)
class SubsystemAdmin(admin.ModelAdmin):
    list_display = ["label", "function", "role", "route", "pl", "library_device"]
    list_filter = ["role", "route"]
    list_select_related = ["function", "library_device"]
    search_fields = ["label", "function__name"]
    autocomplete_fields = ["function", "library_device", "device"]


@admin.register(ValidationRecord)
class ValidationRecordAdmin(admin.ModelAdmin):
    """Kept as recorded, as in the app: a wrong record is deleted and the test
    recorded again, never edited."""

    list_display = [
        "function",
        "test",
        "outcome",
        "performed_by",
        "performed_on",
        "recorded_by",
    ]
    list_filter = ["test", "outcome"]
    list_select_related = ["function", "recorded_by"]
    search_fields = ["function__name", "performed_by"]
    autocomplete_fields = ["function"]
    readonly_fields = ["recorded_by", "recorded_at"]

    def has_change_permission(self, request, obj=None):
        return obj is None


@admin.register(DismissedFunctionSuggestion)
class DismissedFunctionSuggestionAdmin(admin.ModelAdmin):
    list_display = ["key", "cell"]
    list_select_related = ["cell"]
    search_fields = ["key", "cell__name"]
    autocomplete_fields = ["cell"]


# Costs and the plan ----------------------------------------------------------


@admin.register(LineItemEdit)
class LineItemEditAdmin(admin.ModelAdmin):
    list_display = [
        "key",
        "cell",
        "quantity",
        "price_low",
        "price_high",
        "currency",
        "updated_at",
    ]
    list_filter = ["currency"]
    list_select_related = ["cell"]
    search_fields = ["key", "cell__name"]
    autocomplete_fields = ["cell"]
    readonly_fields = ["updated_by", "updated_at"]


@admin.register(CustomLineItem)
class CustomLineItemAdmin(admin.ModelAdmin):
    list_display = [
        "description",
        "cell",
        "category",
        "quantity",
        "unit",
        "price_low",
        "price_high",
        "currency",
    ]
    list_filter = ["category", "currency"]
    list_select_related = ["cell"]
    search_fields = ["description", "source", "cell__name"]
    autocomplete_fields = ["cell"]
    readonly_fields = ["created_by", "created_at"]


@admin.register(CatalogueEdit)
class CatalogueEditAdmin(admin.ModelAdmin):
    list_display = [
        "key",
        "organisation",
        "price_low",
        "price_high",
        "currency",
        "price_date",
        "source",
    ]
    list_filter = ["currency", "organisation"]
    list_select_related = ["organisation"]
    search_fields = ["key", "source", "organisation__name"]
    autocomplete_fields = ["organisation"]
    readonly_fields = ["updated_by", "updated_at"]


class QuoteRowInline(admin.TabularInline):
    model = QuoteRow
    extra = 0
    fields = [
        "row",
        "kind",
        "maker",
        "part_number",
        "model",
        "unit",
        "price_low",
        "price_high",
        "currency",
        "catalogue_key",
        "library_device",
        "matched_by",
    ]
    raw_id_fields = ["library_device"]
    readonly_fields = ["matched_by"]


@admin.register(SupplierQuote)
class SupplierQuoteAdmin(admin.ModelAdmin):
    """A supplier's quote as imported (``costs.quotes``); its rows inline."""

    list_display = ["supplier", "number", "organisation", "quoted_on", "valid_until"]
    list_filter = ["organisation"]
    list_select_related = ["organisation"]
    search_fields = ["supplier", "number", "organisation__name"]
    autocomplete_fields = ["organisation"]
    readonly_fields = ["imported_by", "imported_at", "file_name", "version"]
    inlines = [QuoteRowInline]


@admin.register(ExchangeRate)
class ExchangeRateAdmin(admin.ModelAdmin):
    list_display = ["currency", "units_per_usd", "valid_from", "organisation", "source"]
    list_filter = ["currency", "organisation"]
    list_select_related = ["organisation"]
    search_fields = ["source", "organisation__name"]
    autocomplete_fields = ["organisation"]
    readonly_fields = ["created_by", "created_at", "version"]


@admin.register(LabourRate)
class LabourRateAdmin(admin.ModelAdmin):
    list_display = [
        "role",
        "unit",
        "rate_low",
        "rate_high",
        "currency",
        "valid_from",
        "valid_until",
        "organisation",
    ]
    list_filter = ["role", "unit", "currency", "organisation"]
    list_select_related = ["organisation"]
    search_fields = ["source", "organisation__name"]
    autocomplete_fields = ["organisation"]
    readonly_fields = ["created_by", "created_at"]


@admin.register(WorkDefault)
class WorkDefaultAdmin(admin.ModelAdmin):
    list_display = [
        "activity",
        "role",
        "effort_low",
        "effort_high",
        "fee_low",
        "fee_high",
        "organisation",
    ]
    list_filter = ["activity", "role", "organisation"]
    list_select_related = ["organisation"]
    search_fields = ["activity", "source", "organisation__name"]
    autocomplete_fields = ["organisation"]
    readonly_fields = ["updated_by", "updated_at"]


@admin.register(GuardingConcept)
class GuardingConceptAdmin(admin.ModelAdmin):
    list_display = ["cell", "kind", "offered", "chosen", "variant", "created_at"]
    list_filter = ["kind", "offered", "chosen"]
    raw_id_fields = ["cell", "variant", "created_by"]
    readonly_fields = ["base_version", "created_at", "created_by"]


@admin.register(PlanAssumption)
class PlanAssumptionAdmin(admin.ModelAdmin):
    list_display = [
        "key",
        "cell",
        "weeks_low",
        "weeks_high",
        "cost_low",
        "cost_high",
        "currency",
    ]
    list_filter = ["currency"]
    list_select_related = ["cell"]
    search_fields = ["key", "source", "cell__name"]
    autocomplete_fields = ["cell"]
    readonly_fields = ["updated_by", "updated_at"]
