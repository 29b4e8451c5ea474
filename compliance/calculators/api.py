"""The calculators over HTTP: POST an input, get the result with its working.

One view per calculator, generated from the registry, so that each appears in
the OpenAPI schema with its own request and response.
"""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from pydantic import RootModel, ValidationError
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from compliance.calculators import ts15066
from compliance.calculators.base import Calculator
from compliance.calculators.registry import CALCULATORS
from compliance.calculators.validation import field_errors

FIELD_ERRORS = OpenApiResponse(
    description="Bad input: {field: [messages]}, non_field_errors for rules "
    "between fields."
)


def _as_dict(data) -> dict:
    # A form-encoded body arrives as a QueryDict; JSON as a dict already.
    return data.dict() if hasattr(data, "dict") else data


class CalculatorView(APIView):
    calculator: Calculator

    def post(self, request: Request) -> Response:
        data = _as_dict(request.data)
        if not isinstance(data, dict):
            return Response(
                {"non_field_errors": [gettext("Send a JSON object.")]}, status=400
            )
        try:
            calc_input = self.calculator.input_model.model_validate(data)
        except ValidationError as exc:
            return Response(field_errors(exc, self.calculator.input_model), status=400)
        result = self.calculator.run(calc_input)
        return Response(result.model_dump(mode="json", context={"translate": gettext}))


def calculator_view(calculator: Calculator) -> type[CalculatorView]:
    """An API view for one calculator, described in the schema by its models."""
    schema = extend_schema(
        operation_id=f"calculator_{calculator.name.replace('-', '_')}",
        summary=calculator.title,
        description=f"{calculator.summary} ({calculator.standard})",
        request=calculator.input_model,
        responses={200: calculator.result_model, 400: FIELD_ERRORS},
        tags=["calculators"],
    )

    # A function of its own per view: the schema is attached to the function.
    def post(self, request: Request) -> Response:
        return CalculatorView.post(self, request)

    return type(
        f"{calculator.input_model.__name__}View",
        (CalculatorView,),
        {"calculator": calculator, "__doc__": calculator.summary, "post": schema(post)},
    )


class CalculatorListView(APIView):
    """Every calculator with its input schema and a valid example input."""

    @extend_schema(
        tags=["calculators"],
        responses=inline_serializer(
            "CalculatorDescription",
            many=True,
            fields={
                "name": serializers.CharField(),
                "title": serializers.CharField(),
                "summary": serializers.CharField(),
                "standard": serializers.CharField(),
                "url": serializers.URLField(),
                "input_schema": serializers.JSONField(),
                "example": serializers.JSONField(),
            },
        ),
    )
    def get(self, request: Request) -> Response:
        return Response(
            [
                {
                    "name": calc.name,
                    "title": gettext(calc.title),
                    "summary": gettext(calc.summary),
                    "standard": calc.standard,
                    "url": reverse(f"calculator-{calc.name}", request=request),
                    "input_schema": calc.input_model.model_json_schema(),
                    "example": dict(calc.example),
                }
                for calc in CALCULATORS.values()
            ]
        )


class BodyRegionTable(RootModel[tuple[ts15066.BodyRegionRow, ...]]):
    """Every body region of the ISO/TS 15066 Annex A body model."""


class BodyRegionsView(APIView):
    """The ISO/TS 15066 Annex A body model: limits per body region and area."""

    @extend_schema(tags=["calculators"], responses=BodyRegionTable)
    def get(self, request: Request) -> Response:
        return Response(
            [row.model_dump(mode="json") for row in ts15066.body_region_table()]
        )
