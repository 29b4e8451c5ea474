"""Compliance findings of a cell over the API: the rules that apply and what
each found, with citations, certainty and the numbers compared."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from compliance import cost_selectors
from compliance.api.cost_views import line_json
from compliance.compliance_views import cell_findings
from compliance.plan.comparison import compare


class CellFindingsView(APIView):
    """The rule packs of the cell's country evaluated on the cell as drawn now."""

    @extend_schema(
        tags=["compliance"],
        summary="Compliance findings of a cell",
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="{summary: [[label, status, count]], groups: [{rule, findings}]}",
            )
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_with_layout(request.user, pk)
        data = cell_findings(cell)
        data["summary"] = {status: count for _label, status, count in data["summary"]}
        for group in data["groups"]:
            group["rule"]["checked_on"] = group["rule"]["checked_on"].isoformat()
            group["rule"]["certainty_label"] = str(group["rule"]["certainty_label"])
            group["rule"]["volatility"] = str(group["rule"]["volatility"])
            for finding in group["findings"]:
                finding["status_label"] = str(finding["status_label"])
                finding["certainty_label"] = str(finding["certainty_label"])
        return Response({"cell": cell.pk, **data})


class CellLineItemsView(APIView):
    """The safeguards and work the cell's findings call for, priced from the
    starting catalogue (unknown prices stay null), with totals per currency."""

    @extend_schema(
        tags=["compliance"],
        summary="Cost and lead-time line items of a cell",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT)},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_with_layout(request.user, pk)
        items = cost_selectors.line_items(cell)
        totals = [
            {
                "currency": t["currency"],
                "low": str(t["range"][0]),
                "high": str(t["range"][1]),
            }
            if t["currency"]
            else {"unknown_count": t["unknown"]}
            for t in cost_selectors.totals_by_currency(items)
        ]
        return Response(
            {
                "cell": cell.pk,
                "items": [line_json(i) for i in items],
                "totals": totals,
            }
        )


class CellPlanView(APIView):
    """The physical-first and sim-first plans of the cell and their comparison."""

    @extend_schema(
        tags=["compliance"],
        summary="Schedule and sim-first comparison of a cell",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT)},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_with_layout(request.user, pk)
        items = cost_selectors.line_items(cell)
        comparison = compare(cost_selectors.plan_inputs(cell, items))
        data = comparison.model_dump(mode="json", context={"translate": gettext})
        return Response({"cell": cell.pk, **data})
