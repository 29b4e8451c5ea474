"""Compliance findings of a cell over the API: the rules that apply and what
each found, with citations, certainty and the numbers compared."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from compliance.rules.schemas import CellFindings
from compliance.rules.selectors import cell_findings


class CellFindingsView(APIView):
    """The rule packs of the cell's country evaluated on the cell as drawn now."""

    @extend_schema(
        tags=["compliance"],
        summary="Compliance findings of a cell",
        responses={200: CellFindings},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        data = cell_findings(cell)
        summary = {status: count for _label, status, count in data["summary"]}
        # Through the schema's model, so the answer is what the schema says.
        shown = CellFindings.model_validate(
            {"cell": cell.pk, "summary": summary, "groups": data["groups"]}
        )
        return Response(shown.model_dump(mode="json"))
