"""Compliance findings of a cell over the API: the rules that apply and what
each found, with citations, certainty and the numbers compared."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from compliance.rules.editions import labels as edition_labels
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
        cell = cell_selectors.cell_with_layout(request.user, pk)
        data = cell_findings(cell)
        stamp = data["computed_under"]
        data["computed_under"] = stamp.model_dump(mode="json")
        data["editions"] = list(edition_labels(stamp.editions))
        data["summary"] = {status: count for _label, status, count in data["summary"]}
        for group in data["groups"]:
            group["rule"]["certainty_label"] = str(group["rule"]["certainty_label"])
            group["rule"]["volatility"] = str(group["rule"]["volatility"])
            for finding in group["findings"]:
                finding["status_label"] = str(finding["status_label"])
                finding["certainty_label"] = str(finding["certainty_label"])
        # Through the schema's model, so the answer is what the schema says.
        shown = CellFindings.model_validate({"cell": cell.pk, **data})
        return Response(shown.model_dump(mode="json"))
