"""An organisation's exchange rates over the API, as its catalogue is
exposed (``compliance.costs.api``): list them (per currency, newest first),
add one, read or delete one. Writes go through
``compliance.costs.rate_services``: bad input is a 400 naming the field and
saves nothing; another organisation's rate is a 404."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from compliance.costs import rate_services
from compliance.costs.models import ExchangeRate


class ExchangeRateSerializer(serializers.ModelSerializer):
    """A rate: ``units_per_usd`` of ``currency`` per 1 USD from
    ``valid_from``, and where it comes from."""

    # Checked by the service (a 400 naming the field): KRW or EUR.
    currency = serializers.CharField(max_length=3, help_text="KRW or EUR")
    # Parsed here, bounded by the service: above zero, below its limit, at
    # most six decimal places.
    units_per_usd = serializers.DecimalField(max_digits=None, decimal_places=None)
    source = serializers.CharField(max_length=rate_services.SOURCE_LENGTH)

    class Meta:
        model = ExchangeRate
        fields = ["id", "currency", "units_per_usd", "valid_from", "source"]


def _organisation(request: Request, pk: int):
    return get_object_or_404(cell_selectors.organisations_for(request.user), pk=pk)


class ExchangeRateListView(APIView):
    """The organisation's exchange rates: list them, or add one."""

    @extend_schema(
        tags=["compliance"],
        summary="The organisation's exchange rates, per currency, newest first",
        responses={200: ExchangeRateSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        organisation = _organisation(request, pk)
        rows = ExchangeRate.objects.filter(organisation=organisation).order_by(
            "currency", "-valid_from", "-pk"
        )
        return Response(ExchangeRateSerializer(rows, many=True).data)

    @extend_schema(
        tags=["compliance"],
        summary="Add an exchange rate of the organisation",
        request=ExchangeRateSerializer,
        responses={201: ExchangeRateSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        organisation = _organisation(request, pk)
        rate_services.require_edit(request.user, organisation.pk)
        serializer = ExchangeRateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rate = rate_services.exchange_rate_add(
            organisation=organisation, actor=request.user, **serializer.validated_data
        )
        return Response(
            ExchangeRateSerializer(rate).data, status=status.HTTP_201_CREATED
        )


class ExchangeRateDetailView(APIView):
    """One exchange rate of the organisation: read it, or delete it."""

    def _rate(self, request: Request, pk: int, rate_pk: int) -> ExchangeRate:
        organisation = _organisation(request, pk)
        return get_object_or_404(
            ExchangeRate.objects.filter(organisation=organisation), pk=rate_pk
        )

    @extend_schema(
        tags=["compliance"],
        summary="An exchange rate of the organisation",
        responses={200: ExchangeRateSerializer},
    )
    def get(self, request: Request, pk: int, rate_pk: int) -> Response:
        return Response(ExchangeRateSerializer(self._rate(request, pk, rate_pk)).data)

    @extend_schema(tags=["compliance"], responses={204: None})
    def delete(self, request: Request, pk: int, rate_pk: int) -> Response:
        rate = self._rate(request, pk, rate_pk)
        rate_services.exchange_rate_delete(rate=rate, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
