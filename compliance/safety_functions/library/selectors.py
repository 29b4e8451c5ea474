"""Reads of the device library, always scoped to the user's organisations:
the organisation's entries with search and filters (for the page and the
API alike), the entries a cell device may be chosen from, and the CSV
export."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field

from cells import selectors as cell_selectors
from cells.models import Organisation
from cells.models import PerformanceLevel as PL
from compliance.safety_functions.library.catalogue import (
    fixture_messages,
    levels_at_least,
)
from compliance.safety_functions.library.csv_io import COLUMNS, write_library_csv
from compliance.safety_functions.models import (
    DEVICE_KINDS_FOR,
    LibraryDevice,
    LibraryKind,
)

SEARCH_MAX_LENGTH = 100
HAS_PRICE_CHOICES = [
    ("", _("Any")),
    ("true", _("With a price")),
    ("false", _("To be quoted")),
]


def organisation_for(user, pk: int) -> Organisation:
    """One of the user's organisations; another organisation's is a 404."""
    return get_object_or_404(cell_selectors.organisations_for(user), pk=pk)


def library_devices(organisation: Organisation) -> QuerySet[LibraryDevice]:
    """The organisation's library, in the model's order (kind, maker, model)."""
    return LibraryDevice.objects.filter(organisation=organisation)


def library_device_of(organisation: Organisation, pk: int) -> LibraryDevice:
    """One entry of the organisation's library; any other is a 404."""
    return get_object_or_404(library_devices(organisation), pk=pk)


def library_devices_for(user) -> QuerySet[LibraryDevice]:
    """Every library entry of the user's organisations."""
    return LibraryDevice.objects.filter(organisation__memberships__user=user)


def library_kinds_for(device_kind: str) -> list[str]:
    """The library kinds a cell device of ``device_kind`` can be chosen from."""
    return [
        str(kind) for kind, kinds in DEVICE_KINDS_FOR.items() if device_kind in kinds
    ]


def compatible_library_devices(
    organisation_id: int, device_kind: str = ""
) -> QuerySet[LibraryDevice]:
    """The entries a cell device of the organisation may be chosen from: of a
    kind compatible with ``device_kind`` (every kind when it is not known)."""
    queryset = LibraryDevice.objects.filter(organisation_id=organisation_id)
    if device_kind:
        queryset = queryset.filter(kind__in=library_kinds_for(device_kind))
    return queryset


class LibraryDeviceFilter(django_filters.FilterSet):
    """Search and filters of the library, shared by the page and the API.
    A value that does not parse is a field error (a 400 in the API; on the
    page, the error is shown and that filter ignored)."""

    q = django_filters.CharFilter(
        method="search",
        label=_("Search"),
        max_length=SEARCH_MAX_LENGTH,
        help_text=_("Maker, model, part number, function or code."),
    )
    kind = django_filters.ChoiceFilter(choices=LibraryKind.choices, label=_("Kind"))
    pl_at_least = django_filters.ChoiceFilter(
        choices=PL.choices, method="filter_pl", label=_("PL at least")
    )
    # A ChoiceFilter (not Typed...) so the select starts at "any type"; the
    # query string carries the digit as text, as the schema says.
    iec61496_type = extend_schema_field({"type": "string", "enum": ["2", "3", "4"]})(
        django_filters.ChoiceFilter
    )(
        choices=[("2", _("Type 2")), ("3", _("Type 3")), ("4", _("Type 4"))],
        label=_("IEC 61496 type"),
    )
    has_price = django_filters.BooleanFilter(
        method="filter_price",
        label=_("Price"),
        widget=forms.Select(choices=HAS_PRICE_CHOICES),
    )

    class Meta:
        model = LibraryDevice
        fields = ["q", "kind", "pl_at_least", "iec61496_type", "has_price"]

    def search(self, queryset, name, value):
        words = value.split()
        for word in words:
            functions, kinds = _shown_matches(word)
            queryset = queryset.filter(
                Q(maker__icontains=word)
                | Q(model__icontains=word)
                | Q(part_number__icontains=word)
                | Q(function__icontains=word)
                | Q(key__icontains=word)
                # What the reader sees: a shipped entry's function and the
                # kind in their language ("라이트 커튼" finds the light
                # curtains, issue 30).
                | Q(function__in=functions)
                | Q(kind__in=kinds)
            )
        return queryset

    def filter_pl(self, queryset, name, value):
        return queryset.filter(pl__in=levels_at_least(value))

    def filter_price(self, queryset, name, value):
        priced = Q(price_low__isnull=False) & ~Q(currency="")
        return queryset.filter(priced) if value else queryset.exclude(priced)


def _shown_matches(word: str) -> tuple[list[str], list[str]]:
    """The shipped functions (stored as their English message ids) and the
    kinds whose text in the reader's language contains ``word``."""
    word = word.casefold()
    functions = [
        text for text in fixture_messages() if word in gettext(text).casefold()
    ]
    kinds = [
        value for value, label in LibraryKind.choices if word in str(label).casefold()
    ]
    return functions, kinds


def library_search(organisation: Organisation, params) -> LibraryDeviceFilter:
    """The organisation's library filtered by ``params`` (a GET QueryDict)."""
    return LibraryDeviceFilter(params, queryset=library_devices(organisation))


def library_rows(organisation: Organisation) -> list[dict[str, Any]]:
    """Every entry of the library as the CSV's columns, in one query."""
    return list(library_devices(organisation).values(*COLUMNS))


def library_csv(organisation: Organisation) -> str:
    """The organisation's library as CSV text (``csv_io``)."""
    return write_library_csv(library_rows(organisation))
