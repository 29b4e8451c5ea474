"""The plan over the API: a cell's physical-first and sim-first schedules
with their comparison, and the project's own figures for an activity, read
with their ``version``: a change sent with one someone else's save has raised
since answers 409 with the figures as stored (issue 28)."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from cells.api.errors import validation_detail
from cells.api.serializers import version_field
from cells.api.views import conflict_response
from cells.services import Conflict
from compliance.costs import selectors as cost_selectors
from compliance.costs.api import currency_field, money_field, shown, weeks_field
from compliance.plan import services as plan_services
from compliance.plan.comparison import compare
from compliance.plan.labour.costing import PER_NAMES, ROLES, UNITS
from compliance.plan.schemas import CellPlan
from compliance.plan.selectors import plan_inputs
from compliance.rules.inputs import versioned


class CellPlanView(APIView):
    """The physical-first and sim-first plans of the cell and their comparison."""

    @extend_schema(
        tags=["compliance"],
        summary="Schedule and sim-first comparison of a cell",
        responses={200: CellPlan},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = versioned(pk, lambda: cell_selectors.cell_for(request.user, pk))
        items = cost_selectors.line_items(cell)
        comparison = compare(plan_inputs(cell, items))
        data = comparison.model_dump(mode="json", context={"translate": gettext})
        return Response(shown(CellPlan, {"cell": cell.pk, **data}))


def effort_field() -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=8,
        decimal_places=1,
        min_value=0,
        required=False,
        allow_null=True,
        default=None,
    )


class AssumptionSerializer(serializers.Serializer):
    weeks_low = weeks_field()
    weeks_high = weeks_field()
    cost_low = money_field()
    cost_high = money_field()
    currency = currency_field()
    source = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default=""
    )
    # The project's own work for the activity, costed at the organisation's
    # rate of the role; the cost above, when given, replaces it.
    effort_role = serializers.ChoiceField(
        source="role",
        choices=["", *ROLES],
        required=False,
        allow_blank=True,
        default="",
    )
    effort_unit = serializers.ChoiceField(
        choices=["", *UNITS], required=False, allow_blank=True, default=""
    )
    effort_per = serializers.ChoiceField(
        choices=list(PER_NAMES), required=False, default="activity"
    )
    effort_low = effort_field()
    effort_high = effort_field()
    version = version_field()


class PlanAssumptionView(APIView):
    """The project's own duration and cost of one activity of the plan, with
    its version (GET; 404 while none is entered): enter them (PUT, with the
    version read), or go back to the assumption default (DELETE)."""

    @extend_schema(
        tags=["compliance"],
        summary="The project's own figures for an activity of the plan",
        responses={200: AssumptionSerializer},
    )
    def get(self, request: Request, pk: int, key: str) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        row = get_object_or_404(cell.plan_assumptions, key=key)
        return Response(AssumptionSerializer(row).data)

    @extend_schema(
        tags=["compliance"],
        request=AssumptionSerializer,
        responses={200: AssumptionSerializer},
    )
    def put(self, request: Request, pk: int, key: str) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        serializer = AssumptionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            row = plan_services.plan_assumption_set(
                cell=cell, actor=request.user, key=key, **serializer.validated_data
            )
        except DjangoValidationError as exc:
            # The service names the role ``role``; the API, ``effort_role``.
            detail = validation_detail(exc)
            if isinstance(detail, dict) and "role" in detail:
                detail["effort_role"] = detail.pop("role")
            raise serializers.ValidationError(detail) from exc
        except Conflict as exc:  # saved by someone else since read
            return conflict_response(exc, AssumptionSerializer(exc.current).data)
        return Response(AssumptionSerializer(row).data)

    @extend_schema(tags=["compliance"], responses={204: None})
    def delete(self, request: Request, pk: int, key: str) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        plan_services.plan_assumption_reset(cell=cell, actor=request.user, key=key)
        return Response(status=status.HTTP_204_NO_CONTENT)
