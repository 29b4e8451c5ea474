"""Costs over the API: a cell's safeguards, edits of its derived cost lines,
the user's own lines, the organisation's catalogue and the plan's assumptions.
Writes go through ``compliance.costs.services``: bad input is a 400 naming the
field, and another organisation's object is a 404. A derived line's edit, a
line of one's own and a catalogue entry's figures are read with their
``version``; a change sent with one someone else's save has raised since
answers 409 with the object as stored (issue 28)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from pydantic import BaseModel, ConfigDict, Field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from cells.api.serializers import version_field
from cells.api.views import conflict_response
from cells.services import Conflict
from compliance.costs import CATALOGUE
from compliance.costs import selectors as cost_selectors
from compliance.costs import services as cost_services
from compliance.costs.models import CatalogueEdit, CustomLineItem, LineItemEdit
from compliance.costs.schemas import (
    CellLineItems,
    CellSafeguards,
    CostLine,
    OrganisationCatalogue,
    OrganisationCatalogueEntry,
)
from compliance.rules.inputs import forget, versioned

CURRENCIES = ["KRW", "USD", "EUR"]


def line_json(item) -> dict[str, Any]:
    """A line item as the API gives it, its texts in the reader's language."""
    return item.model_dump(mode="json", context={"translate": gettext})


def shown(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """``data`` through the response's model (in ``schemas``): the answer is
    what the OpenAPI schema says, or an error here rather than a surprise for
    the client."""
    return model.model_validate(data).model_dump(mode="json")


# Beside the line or the entry, not among its fields: ``CostLine`` and
# ``OrganisationCatalogueEntry`` are what the PUTs and the lists answer.
class VersionedCostLine(BaseModel):
    """A derived cost line and the version of the user's edit of it: send the
    version back with a change; null while the line is as derived (no edit
    saved)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    line: CostLine
    version: int | None = Field(ge=1)


class VersionedCatalogueEntry(BaseModel):
    """An entry of the organisation's catalogue and the version of its own
    figures: send the version back with a change; null while the entry has
    the starting figures (none entered)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    entry: OrganisationCatalogueEntry
    version: int | None = Field(ge=1)


def money_field() -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=14, decimal_places=2, required=False, allow_null=True, default=None
    )


def weeks_field() -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=6, decimal_places=1, required=False, allow_null=True, default=None
    )


def currency_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=CURRENCIES, required=False, allow_blank=True, default=""
    )


class CellSafeguardsView(APIView):
    """The physical safeguards the cell's findings call for (guarding and
    devices), each with the rule and findings it answers."""

    @extend_schema(
        tags=["compliance"],
        summary="Safeguards a cell needs",
        responses={200: CellSafeguards},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = versioned(pk, lambda: cell_selectors.cell_for(request.user, pk))
        items = cost_selectors.safeguards(cost_selectors.line_items(cell))
        data = {"cell": cell.pk, "safeguards": [line_json(i) for i in items]}
        return Response(shown(CellSafeguards, data))


class LineEditSerializer(serializers.Serializer):
    quantity = serializers.DecimalField(
        max_digits=12, decimal_places=2, required=False, allow_null=True, default=None
    )
    price_low = money_field()
    price_high = money_field()
    currency = currency_field()
    source = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default=""
    )
    version = version_field()


def versioned_line(cell, key: str) -> dict[str, Any]:
    """The derived line ``key`` of ``cell`` as stored now, with the version
    of its edit (null when there is none)."""
    line = next((i for i in cost_selectors.line_items(cell) if i.key == key), None)
    if line is None:
        raise Http404
    version = (
        LineItemEdit.objects.filter(cell=cell, key=key)
        .values_list("version", flat=True)
        .first()
    )
    return shown(VersionedCostLine, {"line": line_json(line), "version": version})


class CellLineItemView(APIView):
    """One derived cost line of a cell with the version of its edit (GET):
    change its quantity or quote its price (PUT, with the version read), or
    drop the edit and go back to the derived line (DELETE)."""

    def _item(self, request: Request, pk: int, key: str):
        cell = versioned(pk, lambda: cell_selectors.cell_for(request.user, pk))
        items = cost_selectors.line_items(cell)
        item = next((i for i in items if i.key == key and i.catalogue_key), None)
        if item is None:
            raise Http404
        return cell, item

    @extend_schema(
        tags=["compliance"],
        summary="A derived cost line with the version of its edit",
        operation_id="cells_line_item_retrieve",
        responses={200: VersionedCostLine},
    )
    def get(self, request: Request, pk: int, key: str) -> Response:
        cell, _item = self._item(request, pk, key)
        return Response(versioned_line(cell, key))

    @extend_schema(
        tags=["compliance"],
        summary="Edit a derived cost line",
        request=LineEditSerializer,
        responses={200: CostLine},
    )
    def put(self, request: Request, pk: int, key: str) -> Response:
        cell, item = self._item(request, pk, key)
        serializer = LineEditSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            cost_services.line_item_edit(
                cell=cell, actor=request.user, item=item, **serializer.validated_data
            )
        except Conflict as exc:  # saved by someone else since read
            forget(cell)
            return conflict_response(exc, versioned_line(cell, key))
        forget(cell)
        edited = next(i for i in cost_selectors.line_items(cell) if i.key == key)
        return Response(shown(CostLine, line_json(edited)))

    @extend_schema(
        tags=["compliance"],
        summary="Drop the edit of a derived cost line",
        responses={204: None},
    )
    def delete(self, request: Request, pk: int, key: str) -> Response:
        cell, _item = self._item(request, pk, key)
        cost_services.line_item_edit_reset(cell=cell, actor=request.user, key=key)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CustomLineSerializer(serializers.ModelSerializer):
    key = serializers.CharField(read_only=True)
    version = version_field()

    class Meta:
        model = CustomLineItem
        fields = [
            "id",
            "key",
            "description",
            "category",
            "quantity",
            "unit",
            "price_low",
            "price_high",
            "currency",
            "lead_time_weeks_low",
            "lead_time_weeks_high",
            "source",
            "version",
        ]


class CustomLineListView(APIView):
    """The lines of the user's own on a cell: list them, or add one."""

    @extend_schema(
        tags=["compliance"],
        summary="The user's own cost lines of a cell",
        responses={200: CustomLineSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        rows = cell.custom_line_items.all()
        return Response(CustomLineSerializer(rows, many=True).data)

    @extend_schema(
        tags=["compliance"],
        summary="Add a cost line of the user's own",
        request=CustomLineSerializer,
        responses={201: CustomLineSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        serializer = CustomLineSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data.pop("version", None)  # a new line starts at version 1
        row = cost_services.custom_line_save(cell=cell, actor=request.user, **data)
        return Response(CustomLineSerializer(row).data, status=status.HTTP_201_CREATED)


class CustomLineDetailView(APIView):
    """A line of the user's own, with its version: change it (PUT, with the
    version read) or remove it."""

    def _row(self, request: Request, pk: int, line_pk: int) -> CustomLineItem:
        cell = cell_selectors.cell_for(request.user, pk)
        return get_object_or_404(
            CustomLineItem.objects.select_related("cell__project"),
            cell=cell,
            pk=line_pk,
        )

    @extend_schema(tags=["compliance"], responses={200: CustomLineSerializer})
    def get(self, request: Request, pk: int, line_pk: int) -> Response:
        return Response(CustomLineSerializer(self._row(request, pk, line_pk)).data)

    @extend_schema(
        tags=["compliance"],
        request=CustomLineSerializer,
        responses={200: CustomLineSerializer},
    )
    def put(self, request: Request, pk: int, line_pk: int) -> Response:
        row = self._row(request, pk, line_pk)
        serializer = CustomLineSerializer(row, data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            row = cost_services.custom_line_save(
                cell=row.cell, actor=request.user, row=row, **serializer.validated_data
            )
        except Conflict as exc:  # saved by someone else since read
            return conflict_response(exc, CustomLineSerializer(exc.current).data)
        return Response(CustomLineSerializer(row).data)

    @extend_schema(tags=["compliance"], responses={204: None})
    def delete(self, request: Request, pk: int, line_pk: int) -> Response:
        row = self._row(request, pk, line_pk)
        cost_services.custom_line_delete(row=row, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CatalogueEditSerializer(serializers.Serializer):
    price_low = money_field()
    price_high = money_field()
    currency = currency_field()
    price_date = serializers.DateField(required=False, allow_null=True, default=None)
    lead_time_weeks_low = weeks_field()
    lead_time_weeks_high = weeks_field()
    source = serializers.CharField(max_length=200)
    version = version_field()


def _entry(entry) -> dict[str, Any]:
    data = entry.model_dump(mode="json", context={"translate": gettext})
    data["name"] = gettext(entry.name)
    data["note"] = gettext(entry.note) if entry.note else ""
    return data


class CatalogueView(APIView):
    """The organisation's catalogue: the starting entries with its own figures."""

    @extend_schema(
        tags=["compliance"],
        summary="The organisation's catalogue of prices and lead times",
        responses={200: OrganisationCatalogue},
    )
    def get(self, request: Request, pk: int) -> Response:
        organisation = get_object_or_404(
            cell_selectors.organisations_for(request.user), pk=pk
        )
        current = cost_selectors.catalogue_for(organisation.pk)
        data = {
            "organisation": organisation.pk,
            "entries": [_entry(current[e.key]) for e in CATALOGUE],
        }
        return Response(shown(OrganisationCatalogue, data))


def versioned_entry(organisation, key: str) -> dict[str, Any]:
    """Catalogue entry ``key`` of ``organisation`` as stored now, with the
    version of its own figures (null when there are none)."""
    version = (
        CatalogueEdit.objects.filter(organisation=organisation, key=key)
        .values_list("version", flat=True)
        .first()
    )
    entry = _entry(cost_selectors.catalogue_for(organisation.pk)[key])
    return shown(VersionedCatalogueEntry, {"entry": entry, "version": version})


class CatalogueEntryView(APIView):
    """One entry of the organisation's catalogue with the version of its own
    figures (GET): enter its own price and lead time with their source (PUT,
    with the version read), or go back to the starting figures (DELETE)."""

    def _organisation(self, request: Request, pk: int, key: str):
        organisation = get_object_or_404(
            cell_selectors.organisations_for(request.user), pk=pk
        )
        if key not in {e.key for e in CATALOGUE}:
            raise Http404
        return organisation

    @extend_schema(
        tags=["compliance"],
        summary="A catalogue entry with the version of the organisation's figures",
        operation_id="organisations_catalogue_entry_retrieve",
        responses={200: VersionedCatalogueEntry},
    )
    def get(self, request: Request, pk: int, key: str) -> Response:
        organisation = self._organisation(request, pk, key)
        return Response(versioned_entry(organisation, key))

    @extend_schema(
        tags=["compliance"],
        request=CatalogueEditSerializer,
        responses={200: OrganisationCatalogueEntry},
    )
    def put(self, request: Request, pk: int, key: str) -> Response:
        organisation = self._organisation(request, pk, key)
        serializer = CatalogueEditSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            cost_services.catalogue_entry_edit(
                organisation=organisation,
                actor=request.user,
                key=key,
                **serializer.validated_data,
            )
        except Conflict as exc:  # saved by someone else since read
            return conflict_response(exc, versioned_entry(organisation, key))
        entry = _entry(cost_selectors.catalogue_for(organisation.pk)[key])
        return Response(shown(OrganisationCatalogueEntry, entry))

    @extend_schema(tags=["compliance"], responses={204: None})
    def delete(self, request: Request, pk: int, key: str) -> Response:
        organisation = self._organisation(request, pk, key)
        cost_services.catalogue_entry_reset(
            organisation=organisation, actor=request.user, key=key
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class CellLineItemsView(APIView):
    """The safeguards and work the cell's findings call for, priced from the
    starting catalogue (unknown prices stay null), with totals per currency."""

    @extend_schema(
        tags=["compliance"],
        summary="Cost and lead-time line items of a cell",
        responses={200: CellLineItems},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = versioned(pk, lambda: cell_selectors.cell_for(request.user, pk))
        items = cost_selectors.line_items(cell)
        totals = [
            {"currency": t["currency"], "low": t["range"][0], "high": t["range"][1]}
            if t["currency"]
            else {"unknown_count": t["unknown"]}
            for t in cost_selectors.totals_by_currency(items)
        ]
        data = {
            "cell": cell.pk,
            "items": [line_json(i) for i in items],
            "totals": totals,
        }
        return Response(shown(CellLineItems, data))
