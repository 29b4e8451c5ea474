"""Guarding concepts over the API: a cell's concepts compared, and designing
them."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from cells.permissions import require_edit
from compliance.concepts import services
from compliance.concepts.schemas import CellConcepts, ConceptsDesigned
from compliance.concepts.selectors import concepts_compared
from compliance.rules.inputs import versioned


def _number(value) -> str | None:
    return None if value is None else format(value, "f")


def _finding(found: dict[str, Any]) -> dict[str, Any]:
    return {k: found[k] for k in ("status", "subject", "citation", "text")}


def _column(column: dict[str, Any]) -> dict[str, Any]:
    concept = column["concept"]
    shown = {
        "id": concept.pk,
        "kind": concept.kind,
        "name": str(column["name"]),
        "offered": column["offered"],
        "chosen": concept.chosen,
        "reasons": column["reasons"],
        "base_changed": column["base_changed"],
        "design_cell": concept.variant_id or concept.cell_id,
    }
    if not column["offered"]:
        return shown
    cost = column["cost"]
    low, high = column["weeks"]
    return {
        **shown,
        "counts": column["counts"],
        "by_pack": column["by_pack"],
        "fails": [_finding(f) for f in column["fails"]],
        "needs_evidence": [_finding(f) for f in column["open"]],
        "law": [_finding(f) for f in column["law"]],
        "speed": column["speed"]
        and {
            **column["speed"],
            "slower_by": _number(column["speed"]["slower_by"]),
        },
        "cost": cost
        and {
            "currency": cost.currency,
            "low": _number(cost.low),
            "high": _number(cost.high),
        },
        "unpriced_lines": column["unpriced"],
        "work": (work := column["work"])
        and {
            "currency": work.currency,
            "low": _number(work.low),
            "high": _number(work.high),
        },
        "work_unknown": column["work_unknown"],
        "poc_start_weeks": {"low": _number(low), "high": _number(high)},
        "floor_m2": _number(column["floor_m2"]),
        "certifications": column["certifications"],
    }


class CellConceptsCompareView(APIView):
    """The guarding concepts of a cell side by side, each judged, priced and
    scheduled by the same engine, with the recommendation."""

    @extend_schema(
        tags=["compliance"],
        summary="Guarding concepts of a cell, compared",
        responses={200: CellConcepts},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = versioned(pk, lambda: cell_selectors.cell_with_layout(request.user, pk))
        compared = concepts_compared(cell)
        recommendation = compared["recommendation"]
        shown = CellConcepts.model_validate(
            {
                "cell": cell.pk,
                "concepts": [_column(c) for c in compared["columns"]],
                "recommendation": {
                    "recommended": recommendation.recommended
                    and int(recommendation.recommended),
                    "ranked": [int(k) for k in recommendation.ranked],
                    "excluded": [int(k) for k in recommendation.excluded],
                    "lines": compared["recommendation_lines"],
                },
            }
        )
        return Response(shown.model_dump(mode="json"))


class CellConceptsGenerateView(APIView):
    """Design the cell's guarding concepts (those not designed yet)."""

    @extend_schema(
        tags=["compliance"],
        summary="Design the guarding concepts of a cell",
        request=None,
        responses={201: ConceptsDesigned},
    )
    def post(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        require_edit(request.user, cell.project.organisation_id)
        try:
            made = services.concepts_generate(cell=cell, actor=request.user)
        except DjangoValidationError as error:
            raise ValidationError(error.message_dict) from error
        shown = ConceptsDesigned(cell=cell.pk, designed=[c.kind for c in made])
        return Response(shown.model_dump(mode="json"), status=status.HTTP_201_CREATED)
