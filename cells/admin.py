from __future__ import annotations

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from knox import admin as knox_admin
from knox.models import AuthToken

from cells.models import (
    Cell,
    CellCertificate,
    Device,
    DxfLayerMapping,
    GuardSegment,
    LayoutImage,
    LayoutUnderlay,
    Membership,
    MotionProgram,
    Opening,
    OperatorStation,
    Organisation,
    Project,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "organisation", "role"]
    list_filter = ["role", "organisation"]
    list_select_related = ["user", "organisation"]
    autocomplete_fields = ["user", "organisation"]


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):
    list_display = ["name", "customer_name", "organisation", "country", "updated_at"]
    list_filter = ["organisation", "country"]
    list_select_related = ["organisation"]
    search_fields = ["name", "customer_name", "site_name"]


class GuardSegmentInline(admin.TabularInline):
    model = GuardSegment
    extra = 0


class OperatorStationInline(admin.TabularInline):
    model = OperatorStation
    extra = 0


@admin.register(Cell)
class CellAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "project",
        "robot_manufacturer",
        "robot_model",
        "robot_kind",
    ]
    list_filter = ["robot_kind", "project__organisation"]
    list_select_related = ["project"]
    search_fields = ["name", "robot_manufacturer", "robot_model"]
    inlines = [GuardSegmentInline, OperatorStationInline]


@admin.register(Opening)
class OpeningAdmin(admin.ModelAdmin):
    list_display = ["__str__", "segment", "offset_mm", "width_mm", "purpose"]
    list_select_related = ["segment"]


@admin.register(Device)
class DeviceAdmin(admin.ModelAdmin):
    list_display = ["label", "kind", "cell", "claimed_pl", "library_device"]
    list_filter = ["kind", "claimed_pl"]
    list_select_related = ["cell", "library_device"]
    search_fields = ["label", "cell__name"]
    autocomplete_fields = ["cell", "library_device"]
    raw_id_fields = ["opening"]

    def get_readonly_fields(self, request, obj=None):
        # A device a risk-reduction measure names stays in its cell
        # (Device.clean, and the database once the measure is signed).
        return ["cell"] if obj is not None and obj.measures.exists() else []


@admin.register(CellCertificate)
class CellCertificateAdmin(admin.ModelAdmin):
    list_display = [
        "number",
        "kind",
        "cell",
        "issuing_body",
        "issued_on",
        "valid_until",
    ]
    list_filter = ["kind", "valid_until"]
    list_select_related = ["cell"]
    search_fields = ["number", "issuing_body", "cell__name"]
    autocomplete_fields = ["cell"]
    readonly_fields = ["created_by", "created_at"]


@admin.register(LayoutImage)
class LayoutImageAdmin(admin.ModelAdmin):
    """The picture is uploaded on the cell's page: here only how it is placed
    and shown can be changed, or the picture removed."""

    list_display = [
        "__str__",
        "cell",
        "content_type",
        "width_px",
        "height_px",
        "shown",
        "in_pdf",
        "uploaded_at",
    ]
    list_filter = ["shown", "in_pdf", "content_type"]
    list_select_related = ["cell"]
    search_fields = ["file_name", "cell__name"]
    # What the bytes are: they come with the upload.
    readonly_fields = [
        "cell",
        "file_name",
        "content_type",
        "width_px",
        "height_px",
        "uploaded_at",
        "updated_at",
    ]

    def has_add_permission(self, request):
        return False


@admin.register(LayoutUnderlay)
class LayoutUnderlayAdmin(admin.ModelAdmin):
    """Read-only: the lines are what the DXF import kept; importing again
    replaces them, and they can be removed here."""

    list_display = ["__str__", "cell", "line_count", "imported_at"]
    list_select_related = ["cell"]
    search_fields = ["source_name", "cell__name"]
    # Not the lines themselves: up to tens of thousands of numbers.
    fields = ["cell", "source_name", "line_count", "imported_at"]
    readonly_fields = ["line_count", "imported_at"]

    @admin.display(description=_("lines"))
    def line_count(self, obj: LayoutUnderlay) -> int:
        return len(obj.lines)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(MotionProgram)
class MotionProgramAdmin(admin.ModelAdmin):
    """Read-only: the file as the robot programmer wrote it, kept unchanged
    (its checksum says so); it can be removed here."""

    list_display = ["file_name", "format", "cell", "imported_by", "imported_at"]
    list_select_related = ["cell", "imported_by"]
    search_fields = ["file_name", "cell__name", "sha256"]
    fields = ["cell", "file_name", "format", "units", "sha256", "imported_by"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(DxfLayerMapping)
class DxfLayerMappingAdmin(admin.ModelAdmin):
    """What each organisation's DXF layers became at its last import: it can
    be corrected or removed here (the next import then guesses again)."""

    list_display = ["layer_name", "target", "organisation", "updated_at"]
    list_filter = ["target"]
    list_select_related = ["organisation"]
    search_fields = ["layer_name", "organisation__name"]
    fields = ["organisation", "layer_name", "target", "updated_at"]
    readonly_fields = ["organisation", "layer_name", "updated_at"]

    def has_add_permission(self, request):
        return False


# Authentication (issue 13): a token made in the admin must expire too (knox's
# own form lets the expiry be left blank, for a token that never does).
class ExpiringAuthTokenCreateForm(knox_admin.AuthTokenCreateForm):
    expiry = forms.DateTimeField(help_text=_("When the token stops working."))


admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class ExpiringAuthTokenAdmin(knox_admin.AuthTokenAdmin):
    add_form = ExpiringAuthTokenCreateForm
