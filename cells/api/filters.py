"""Query-string filters for the list endpoints."""

from __future__ import annotations

import django_filters
from django import forms
from drf_spectacular.utils import extend_schema_field

from cells.models import (
    Cell,
    CellCertificate,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Project,
)

# The largest id a database column holds (a signed 64-bit integer); a larger
# one is a 400 naming the parameter, not a database overflow (issue 13).
MAX_ID = 2**63 - 1


class IdField(forms.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class IdFilter(django_filters.Filter):
    """Filters by the id of a related object.

    Unlike the ``ModelChoiceFilter`` django-filter would generate, it does not look
    the id up among *all* objects, so a foreign id matches nothing instead of
    telling apart "exists elsewhere" from "does not exist".
    """

    field_class = IdField


class ProjectFilter(django_filters.FilterSet):
    organisation = IdFilter()
    customer_name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Project
        fields = ["organisation", "country", "customer_name"]


class CellFilter(django_filters.FilterSet):
    project = IdFilter()

    class Meta:
        model = Cell
        fields = ["project", "robot_kind"]


class GuardSegmentFilter(django_filters.FilterSet):
    cell = IdFilter()

    class Meta:
        model = GuardSegment
        fields = ["cell", "kind"]


class OpeningFilter(django_filters.FilterSet):
    segment = IdFilter()
    cell = IdFilter(field_name="segment__cell")

    class Meta:
        model = Opening
        fields = ["segment", "cell", "purpose"]


class OperatorStationFilter(django_filters.FilterSet):
    cell = IdFilter()

    class Meta:
        model = OperatorStation
        fields = ["cell"]


class DeviceFilter(django_filters.FilterSet):
    cell = IdFilter()
    opening = IdFilter()

    class Meta:
        model = Device
        fields = ["cell", "opening", "kind"]


class CellCertificateFilter(django_filters.FilterSet):
    cell = IdFilter()

    class Meta:
        model = CellCertificate
        fields = ["cell", "kind"]
