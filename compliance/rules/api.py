"""Compliance findings of a cell over the API: the rules that apply and what
each found, with citations, certainty and the numbers compared."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from compliance.calculators.editions import labels as edition_labels
from compliance.rules.inputs import versioned
from compliance.rules.schemas import CellFindings
from compliance.rules.selectors import (
    STATUS_ORDER,
    cell_findings,
    findings_first,
    groups_between,
    status_filter,
)
from config.pagination import Pages


class FindingPages(Pages):
    """Findings a page: 200 unless ``?page_size=`` asks for fewer."""

    page_size = 200


class CellFindingsView(APIView):
    """The rule packs of the cell's country evaluated on the cell as drawn
    now, a page of findings at a time: fails first (the rules with a fail
    first, as on the page), and only one status with ``?status=``."""

    @extend_schema(
        tags=["compliance"],
        summary="Compliance findings of a cell",
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=list(STATUS_ORDER),
                description="Only the findings of this status (the summary "
                "still counts every finding).",
            ),
            OpenApiParameter(
                "page", int, description="A page number within the findings."
            ),
            OpenApiParameter(
                "page_size",
                int,
                description="Findings a page: 200 unless fewer are asked for.",
            ),
        ],
        responses={200: CellFindings},
    )
    def get(self, request: Request, pk: int) -> Response:
        asked = request.query_params.get("status")
        status = status_filter(asked)
        if asked is not None and status is None:
            raise ValidationError(
                {"status": [f"Give one of: {', '.join(STATUS_ORDER)}."]}
            )
        cell = versioned(pk, lambda: cell_selectors.cell_for(request.user, pk))
        data = cell_findings(cell)
        summary = {s: count for _label, s, count in data["summary"]}
        data = {**data, "groups": findings_first(data, status)["groups"]}
        pages = FindingPages()
        # Positions in the findings of every group, in order: a page of them.
        positions = range(sum(len(group["findings"]) for group in data["groups"]))
        page = pages.paginate_queryset(positions, request, view=self)
        start = page[0] if page else 0
        groups = groups_between(data["groups"], start, start + len(page))
        stamp = data["computed_under"]
        # Through the schema's model, so the answer is what the schema says.
        shown = CellFindings.model_validate(
            {
                "cell": cell.pk,
                "count": len(positions),
                "next": pages.get_next_link(),
                "previous": pages.get_previous_link(),
                "summary": summary,
                "groups": groups,
                "computed_under": stamp.model_dump(mode="json"),
                "editions": list(edition_labels(stamp.editions)),
            }
        )
        return Response(shown.model_dump(mode="json"))
