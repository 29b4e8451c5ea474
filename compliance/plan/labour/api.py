"""An organisation's labour rates and default work over the API, as its
exchange rates are exposed (``compliance.costs.rate_api``): list, add (a
rate) or set (an activity's work of one role, or its fee), read, delete.
Writes go through ``plan.labour.services``: bad input is a 400 naming the
field and saves nothing; another organisation's row is a 404."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from compliance.plan.labour import services
from compliance.plan.labour.models import LabourRate, WorkDefault

# Codes checked by the service (a 400 naming the field); plain text here so
# that the schema's choice sets keep their names.
ROLE_HELP = (
    "safety_engineering, electrical_design, installation, commissioning or programming"
)


def _decimal(**more) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=None, decimal_places=None, **more)


class LabourRateSerializer(serializers.ModelSerializer):
    """A rate of one role per hour or per day, a figure or a range
    (``rate_high`` left out: one figure), from ``valid_from``."""

    role = serializers.CharField(max_length=30, help_text=ROLE_HELP)
    unit = serializers.CharField(max_length=4, help_text="hour or day")
    currency = serializers.CharField(max_length=3, help_text="KRW, USD or EUR")
    rate_low = _decimal()
    rate_high = _decimal(required=False, allow_null=True, default=None)
    valid_until = serializers.DateField(required=False, allow_null=True, default=None)
    source = serializers.CharField(max_length=services.SOURCE_LENGTH)

    class Meta:
        model = LabourRate
        fields = [
            "id",
            "role",
            "unit",
            "rate_low",
            "rate_high",
            "currency",
            "valid_from",
            "valid_until",
            "source",
        ]


class WorkDefaultSerializer(serializers.ModelSerializer):
    """The default work of one activity: an effort of one role (``role``,
    ``unit``, both ends, ``per`` activity or safety function) or a fee
    (``role`` blank, both ends, ``currency``)."""

    activity = serializers.CharField(max_length=60)
    role = serializers.CharField(
        max_length=30, required=False, allow_blank=True, default="", help_text=ROLE_HELP
    )
    unit = serializers.CharField(
        max_length=4,
        required=False,
        allow_blank=True,
        default="",
        help_text="hour or day",
    )
    per = serializers.CharField(
        max_length=20,
        required=False,
        default="activity",
        help_text="activity or safety_function",
    )
    effort_low = _decimal(required=False, allow_null=True, default=None)
    effort_high = _decimal(required=False, allow_null=True, default=None)
    fee_low = _decimal(required=False, allow_null=True, default=None)
    fee_high = _decimal(required=False, allow_null=True, default=None)
    currency = serializers.CharField(
        max_length=3, required=False, allow_blank=True, default=""
    )
    source = serializers.CharField(max_length=services.SOURCE_LENGTH)

    class Meta:
        model = WorkDefault
        fields = [
            "id",
            "activity",
            "role",
            "unit",
            "per",
            "effort_low",
            "effort_high",
            "fee_low",
            "fee_high",
            "currency",
            "source",
        ]


def _organisation(request: Request, pk: int):
    return get_object_or_404(cell_selectors.organisations_for(request.user), pk=pk)


class LabourRateListView(APIView):
    """The organisation's labour rates: list them, or add one."""

    @extend_schema(
        tags=["compliance"],
        summary="The organisation's labour rates, by role, newest first",
        responses={200: LabourRateSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        organisation = _organisation(request, pk)
        rows = LabourRate.objects.filter(organisation=organisation).order_by(
            "role", "unit", "-valid_from", "-pk"
        )
        return Response(LabourRateSerializer(rows, many=True).data)

    @extend_schema(
        tags=["compliance"],
        summary="Add a labour rate of the organisation",
        request=LabourRateSerializer,
        responses={201: LabourRateSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        organisation = _organisation(request, pk)
        services.require_edit(request.user, organisation.pk)
        serializer = LabourRateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rate = services.labour_rate_add(
            organisation=organisation, actor=request.user, **serializer.validated_data
        )
        return Response(LabourRateSerializer(rate).data, status=status.HTTP_201_CREATED)


class LabourRateDetailView(APIView):
    """One labour rate of the organisation: read it, or delete it."""

    def _rate(self, request: Request, pk: int, rate_pk: int) -> LabourRate:
        organisation = _organisation(request, pk)
        return get_object_or_404(
            LabourRate.objects.filter(organisation=organisation), pk=rate_pk
        )

    @extend_schema(
        tags=["compliance"],
        summary="A labour rate of the organisation",
        responses={200: LabourRateSerializer},
    )
    def get(self, request: Request, pk: int, rate_pk: int) -> Response:
        return Response(LabourRateSerializer(self._rate(request, pk, rate_pk)).data)

    @extend_schema(tags=["compliance"], responses={204: None})
    def delete(self, request: Request, pk: int, rate_pk: int) -> Response:
        rate = self._rate(request, pk, rate_pk)
        services.labour_rate_delete(rate=rate, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WorkDefaultListView(APIView):
    """The organisation's default work per activity: list it, or set one
    (made, or replacing the one of the same activity and role)."""

    @extend_schema(
        tags=["compliance"],
        summary="The organisation's default work per plan activity",
        responses={200: WorkDefaultSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        organisation = _organisation(request, pk)
        rows = WorkDefault.objects.filter(organisation=organisation).order_by(
            "activity", "role"
        )
        return Response(WorkDefaultSerializer(rows, many=True).data)

    @extend_schema(
        tags=["compliance"],
        summary="Set the default work of an activity for one role, or its fee",
        request=WorkDefaultSerializer,
        responses={201: WorkDefaultSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        organisation = _organisation(request, pk)
        services.require_edit(request.user, organisation.pk)
        serializer = WorkDefaultSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = services.work_default_set(
            organisation=organisation, actor=request.user, **serializer.validated_data
        )
        return Response(WorkDefaultSerializer(row).data, status=status.HTTP_201_CREATED)


class WorkDefaultDetailView(APIView):
    """One default work row of the organisation: read it, or delete it."""

    def _row(self, request: Request, pk: int, work_pk: int) -> WorkDefault:
        organisation = _organisation(request, pk)
        return get_object_or_404(
            WorkDefault.objects.filter(organisation=organisation), pk=work_pk
        )

    @extend_schema(
        tags=["compliance"],
        summary="A default work row of the organisation",
        responses={200: WorkDefaultSerializer},
    )
    def get(self, request: Request, pk: int, work_pk: int) -> Response:
        return Response(WorkDefaultSerializer(self._row(request, pk, work_pk)).data)

    @extend_schema(tags=["compliance"], responses={204: None})
    def delete(self, request: Request, pk: int, work_pk: int) -> Response:
        row = self._row(request, pk, work_pk)
        services.work_default_delete(row=row, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
