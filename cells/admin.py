from __future__ import annotations

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from knox import admin as knox_admin
from knox.models import AuthToken

from cells.models import (
    Cell,
    GuardSegment,
    Membership,
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


# Authentication (issue 13): a token made in the admin must expire too (knox's
# own form lets the expiry be left blank, for a token that never does).
class ExpiringAuthTokenCreateForm(knox_admin.AuthTokenCreateForm):
    expiry = forms.DateTimeField(help_text=_("When the token stops working."))


admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class ExpiringAuthTokenAdmin(knox_admin.AuthTokenAdmin):
    add_form = ExpiringAuthTokenCreateForm
