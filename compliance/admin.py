"""Admin for staff. Signed revisions are shown read-only; the database refuses
changes to them anyway."""

from __future__ import annotations

from django.contrib import admin

from compliance.assessment.audit import AuditEntry
from compliance.assessment.models import Assessment, Hazard, Measure, Revision
from compliance.proposals.models import ProposalDocument


class SignedIsReadOnly:
    """Each admin using this says, in ``_signed(obj)``, whether obj is frozen."""

    def has_change_permission(self, request, obj=None):
        return obj is None or not self._signed(obj)

    def has_delete_permission(self, request, obj=None):
        return obj is None or not self._signed(obj)


@admin.register(Assessment)
class AssessmentAdmin(admin.ModelAdmin):
    list_display = ["cell", "created_at"]
    list_select_related = ["cell"]
    search_fields = ["cell__name"]

    def get_readonly_fields(self, request, obj=None):
        # A signed assessment stays with its cell (Assessment.clean, and the
        # database on PostgreSQL).
        return ["cell"] if obj is not None and obj.is_signed() else []


@admin.register(Revision)
class RevisionAdmin(SignedIsReadOnly, admin.ModelAdmin):
    list_display = ["assessment", "number", "status", "signed_by", "signed_at"]
    list_filter = ["status"]
    list_select_related = ["assessment__cell", "signed_by"]
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

    def _signed(self, obj) -> bool:
        return obj.revision.is_signed


@admin.register(Measure)
class MeasureAdmin(SignedIsReadOnly, admin.ModelAdmin):
    list_display = ["description", "step", "hazard", "pl_claimed", "plr_required"]
    list_select_related = ["hazard__revision"]

    def _signed(self, obj) -> bool:
        return obj.hazard.revision.is_signed


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
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

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ProposalDocument)
class ProposalDocumentAdmin(admin.ModelAdmin):
    """Read-only: documents are made by the build task, and kept as made."""

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

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
