"""Safety functions over the API: a cell's functions with their verdicts,
their subsystems and validation records, the proposed functions, the safety
documents, and an organisation's imported Table K.1.

Reads are scoped by the selectors: another organisation's object is a 404.
Every write goes through ``compliance.safety_functions.services`` with the
requesting user as the actor, and their errors become HTTP answers:
``ValidationError`` 400 naming the field (the project's exception handler),
``PermissionDenied`` 403, ``Conflict`` 409 with the function as stored now.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from cells.models import Cell
from cells.permissions import require_edit
from compliance.safety_functions import selectors, services
from compliance.safety_functions.documents import (
    SRS_CLAUSE,
    VALIDATION_CLAUSE,
    specification_gaps,
)
from compliance.safety_functions.models import (
    PfhdTableImport,
    SafeguardKind,
    SafetyFunction,
)
from compliance.safety_functions.serializers import (
    PfhdTableSerializer,
    PfhdTableWriteSerializer,
    SafetyDocumentsSerializer,
    SafetyFunctionSerializer,
    SafetyFunctionWriteSerializer,
    SubsystemSerializer,
    SuggestionSerializer,
    ValidationRecordSerializer,
    pfhd_table_data,
    plan_mapping,
    verdict_mapping,
)
from config.parsers import JSONParser  # bounded depth (issue 13)

TAGS = ["safety functions"]
FIELD_ERRORS = OpenApiResponse(
    description="Bad input: {field: [messages]}, or non_field_errors."
)
FORBIDDEN = OpenApiResponse(description="Your role does not allow this.")
CONFLICT = OpenApiResponse(
    inline_serializer(
        "SafetyFunctionConflict",
        fields={
            "detail": serializers.CharField(),
            "current": SafetyFunctionSerializer(),
        },
    ),
    description="Someone else saved the function since you read it: nothing "
    "was written. ``current`` holds it as stored now, with its version.",
)
WRITE = {400: FIELD_ERRORS, 403: FORBIDDEN}


def _cell_edit(user, cell: Cell) -> None:
    """Refuse a viewer before reading the body, so the answer does not depend
    on it (the services check again)."""
    require_edit(user, cell.project.organisation_id)


def _function_data(function: SafetyFunction) -> dict[str, Any]:
    """The function as stored now, with its verdict."""
    return SafetyFunctionSerializer(selectors.function_detail(function)).data


class CellSafetyFunctionsView(APIView):
    """The safety functions of a cell (fails first, then those that need
    evidence, then passes), and adding one."""

    @extend_schema(
        tags=TAGS,
        summary="The safety functions of a cell, with their verdicts",
        description="Each function with its subsystems, its verdict (the PLr "
        "from the signed risk assessment, the PL computed from its subsystems "
        "with the working, and its validation) and its validation plan with "
        "the records made. ``io_counts``: the safety controller's inputs and "
        "outputs the functions use.",
        responses={
            200: inline_serializer(
                "CellSafetyFunctions",
                fields={
                    "cell": serializers.IntegerField(),
                    "functions": SafetyFunctionSerializer(many=True),
                    "io_counts": inline_serializer(
                        "SafetyIoCounts",
                        fields={
                            "inputs": serializers.IntegerField(),
                            "outputs": serializers.IntegerField(),
                        },
                    ),
                },
            )
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        rows = selectors.cell_functions(cell)
        return Response(
            {
                "cell": cell.pk,
                "functions": SafetyFunctionSerializer(rows, many=True).data,
                "io_counts": selectors.io_counts(rows),
            }
        )

    @extend_schema(
        tags=TAGS,
        summary="Add a safety function to a cell",
        request=SafetyFunctionWriteSerializer,
        responses={201: SafetyFunctionSerializer, **WRITE},
    )
    def post(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        _cell_edit(request.user, cell)
        body = SafetyFunctionWriteSerializer(
            data=request.data, context={"request": request}
        )
        body.is_valid(raise_exception=True)
        values = dict(body.validated_data)
        values.pop("version", None)
        function = services.function_create(cell=cell, actor=request.user, **values)
        return Response(_function_data(function), status=status.HTTP_201_CREATED)


class SafetyFunctionDetailView(APIView):
    """One safety function: read it, change it (with the version read), or
    delete it with its subsystems and records."""

    @extend_schema(
        tags=TAGS,
        summary="A safety function with its verdict",
        responses={200: SafetyFunctionSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        function = selectors.function_for(request.user, pk)
        return Response(_function_data(function))

    @extend_schema(
        tags=TAGS,
        summary="Change a safety function (send the version you read)",
        request=SafetyFunctionWriteSerializer,
        responses={200: SafetyFunctionSerializer, **WRITE, 409: CONFLICT},
    )
    def patch(self, request: Request, pk: int) -> Response:
        function = selectors.function_for(request.user, pk)
        _cell_edit(request.user, function.cell)
        body = SafetyFunctionWriteSerializer(
            function, data=request.data, partial=True, context={"request": request}
        )
        body.is_valid(raise_exception=True)
        values = dict(body.validated_data)
        version = values.pop("version")
        try:
            services.function_update(
                function=function, actor=request.user, version=version, **values
            )
        except services.Conflict:
            return Response(
                {
                    "detail": _(
                        "This safety function was changed by someone else since "
                        "you read it: nothing was saved. Here are its current "
                        "values."
                    ),
                    "current": _function_data(function),
                },
                status=status.HTTP_409_CONFLICT,
            )
        return Response(_function_data(function))

    @extend_schema(
        tags=TAGS,
        summary="Delete a safety function",
        responses={204: None, 403: FORBIDDEN},
    )
    def delete(self, request: Request, pk: int) -> Response:
        function = selectors.function_for(request.user, pk)
        services.function_delete(function=function, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _with_library_figures(values: dict[str, Any]) -> dict[str, Any]:
    """The subsystem's values with its library device's figures (and name as
    label) filled in: what was sent wins."""
    entry = values.get("library_device")
    if entry is None:
        return dict(values)
    return {"label": str(entry)[:80], **services.library_fields(entry), **values}


class SafetyFunctionSubsystemsView(APIView):
    """Adding a subsystem at the end of a function's chain."""

    @extend_schema(
        tags=TAGS,
        summary="Add a subsystem to a safety function",
        description="With a ``library_device``, the subsystem takes that "
        "device's figures (PL, PFHd, category, MTTFd, B10d, DCavg, the route "
        "and the source) and its name as label, except the fields sent.",
        request=SubsystemSerializer,
        responses={201: SubsystemSerializer, **WRITE},
    )
    def post(self, request: Request, pk: int) -> Response:
        function = selectors.function_for(request.user, pk)
        _cell_edit(request.user, function.cell)
        body = SubsystemSerializer(data=request.data, context={"request": request})
        body.is_valid(raise_exception=True)
        subsystem = services.subsystem_add(
            function=function,
            actor=request.user,
            **_with_library_figures(body.validated_data),
        )
        return Response(
            SubsystemSerializer(subsystem).data, status=status.HTTP_201_CREATED
        )


class SubsystemDetailView(APIView):
    """One subsystem: change its figures, or remove it from the chain."""

    @extend_schema(
        tags=TAGS,
        summary="Change a subsystem",
        description="Only the fields sent change. Choosing another "
        "``library_device`` takes its figures, except the fields sent.",
        request=SubsystemSerializer,
        responses={200: SubsystemSerializer, **WRITE},
    )
    def patch(self, request: Request, pk: int) -> Response:
        subsystem = selectors.subsystem_for(request.user, pk)
        _cell_edit(request.user, subsystem.function.cell)
        body = SubsystemSerializer(
            subsystem, data=request.data, partial=True, context={"request": request}
        )
        body.is_valid(raise_exception=True)
        values = dict(body.validated_data)
        if values.get("library_device") not in (None, subsystem.library_device):
            values = _with_library_figures(values)
        subsystem = services.subsystem_update(
            subsystem=subsystem, actor=request.user, **values
        )
        return Response(SubsystemSerializer(subsystem).data)

    @extend_schema(
        tags=TAGS,
        summary="Remove a subsystem",
        responses={204: None, 403: FORBIDDEN},
    )
    def delete(self, request: Request, pk: int) -> Response:
        subsystem = selectors.subsystem_for(request.user, pk)
        services.subsystem_delete(subsystem=subsystem, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ValidationRecordsView(APIView):
    """The validation tests recorded for a function (ISO 13849-2)."""

    @extend_schema(
        tags=TAGS,
        summary="The validation records of a safety function",
        responses={200: ValidationRecordSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        function = selectors.function_for(request.user, pk)
        records = function.validation_records.select_related("recorded_by")
        return Response(ValidationRecordSerializer(records, many=True).data)

    @extend_schema(
        tags=TAGS,
        summary="Record a validation test of a safety function",
        description="``test`` is one of the function's validation plan.",
        request=ValidationRecordSerializer,
        responses={201: ValidationRecordSerializer, **WRITE},
    )
    def post(self, request: Request, pk: int) -> Response:
        function = selectors.function_for(request.user, pk)
        _cell_edit(request.user, function.cell)
        body = ValidationRecordSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        record = services.validation_record_add(
            function=function, actor=request.user, **body.validated_data
        )
        return Response(
            ValidationRecordSerializer(record).data, status=status.HTTP_201_CREATED
        )


class ValidationRecordDetailView(APIView):
    @extend_schema(
        tags=TAGS,
        summary="Delete a validation record",
        responses={204: None, 403: FORBIDDEN},
    )
    def delete(self, request: Request, pk: int) -> Response:
        record = selectors.validation_record_for(request.user, pk)
        services.validation_record_delete(record=record, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CellSuggestionsView(APIView):
    """The safety functions the cell's layout and risk assessment call for,
    not yet accepted or discarded."""

    @extend_schema(
        tags=TAGS,
        summary="Safety functions proposed for a cell",
        responses={200: SuggestionSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        return Response(
            SuggestionSerializer(selectors.suggestions(cell), many=True).data
        )


class SuggestionAcceptView(APIView):
    @extend_schema(
        tags=TAGS,
        summary="Accept a proposed safety function",
        description="Creates the function with its chain of subsystems; the "
        "input takes the device's library figures, or the PL it claims.",
        request=None,
        responses={201: SafetyFunctionSerializer, **WRITE},
    )
    def post(self, request: Request, pk: int, key: str) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        function = services.function_suggestion_accept(
            cell=cell, actor=request.user, key=key
        )
        return Response(_function_data(function), status=status.HTTP_201_CREATED)


class SuggestionDismissView(APIView):
    @extend_schema(
        tags=TAGS,
        summary="Discard a proposed safety function",
        description="It is not proposed again for the cell.",
        request=None,
        responses={204: None, **WRITE},
    )
    def post(self, request: Request, pk: int, key: str) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        services.function_suggestion_dismiss(cell=cell, actor=request.user, key=key)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _specification(row: selectors.FunctionRow) -> dict[str, Any]:
    function = row.function
    verdict = verdict_mapping(row)
    return {
        "function": function.pk,
        "name": function.name,
        "safeguard": str(SafeguardKind(function.safeguard).label),
        "trigger": function.trigger,
        "reaction": function.reaction,
        "plr": verdict["plr"],
        "plr_source": verdict["plr_source"],
        "stop_category": function.get_stop_category_display(),
        "required_response_time_ms": function.required_response_time_ms,
        "reset_behaviour": function.reset_behaviour,
        "restart_behaviour": function.restart_behaviour,
        "gaps": [
            line.render(gettext)
            for line in specification_gaps(
                trigger=function.trigger,
                reaction=function.reaction,
                plr=row.verdict.plr.plr,
                stop_category=function.stop_category,
                required_response_time_ms=function.required_response_time_ms,
                reset_behaviour=function.reset_behaviour,
                restart_behaviour=function.restart_behaviour,
                safeguard=function.safeguard,
            )
        ],
    }


class CellSafetyDocumentsView(APIView):
    """A cell's safety requirements specification and validation plan, in
    the reader's language (Accept-Language)."""

    @extend_schema(
        tags=TAGS,
        summary="The safety requirements specification and validation plan",
        description="Per function: what it does, its trigger and reaction, "
        "the PLr with its source, the stop category, the response time the "
        "minimum distance allows, reset and restart, and what the "
        "specification still lacks; then each planned validation test with "
        "what to do and record, and the records made.",
        responses={200: SafetyDocumentsSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        rows = sorted(selectors.cell_functions(cell), key=lambda r: r.function.order)
        data = {
            "cell": cell.pk,
            "specification_clause": SRS_CLAUSE,
            "specification": [_specification(row) for row in rows],
            "validation_clause": VALIDATION_CLAUSE,
            "validation_plan": [
                {
                    "function": row.pk,
                    "name": row.function.name,
                    "tests": plan_mapping(
                        row.plan, row.records, row.verdict, row.earlier_records
                    ),
                }
                for row in rows
            ],
        }
        return Response(SafetyDocumentsSerializer(data).data)


class PfhdTableView(APIView):
    """The organisation's Table K.1, imported from its own licensed copy of
    ISO 13849-1: designed subsystems read their PFHd from it."""

    parser_classes = [JSONParser, MultiPartParser, FormParser]

    def _organisation(self, request: Request, pk: int):
        return get_object_or_404(cell_selectors.organisations_for(request.user), pk=pk)

    @extend_schema(
        tags=TAGS,
        summary="The organisation's imported Table K.1",
        responses={200: PfhdTableSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        organisation = self._organisation(request, pk)
        table = (
            PfhdTableImport.objects.filter(organisation=organisation)
            .select_related("imported_by")
            .first()
        )
        return Response(pfhd_table_data(table))

    @extend_schema(
        tags=TAGS,
        summary="Import Table K.1 from the organisation's licensed copy",
        description="Replaces the table the organisation had. Every row is "
        "checked and nothing is saved if one is wrong: the errors, row by row, "
        "come under ``file``.",
        request=PfhdTableWriteSerializer,
        responses={200: PfhdTableSerializer, **WRITE},
    )
    def put(self, request: Request, pk: int) -> Response:
        organisation = self._organisation(request, pk)
        require_edit(request.user, organisation.pk)
        body = PfhdTableWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        table = services.pfhd_table_import(
            organisation=organisation,
            actor=request.user,
            text=body.validated_data["csv"],
            source=body.validated_data["source"],
        )
        return Response(pfhd_table_data(table))

    @extend_schema(
        tags=TAGS,
        summary="Remove the organisation's Table K.1",
        responses={204: None, 403: FORBIDDEN},
    )
    def delete(self, request: Request, pk: int) -> Response:
        organisation = self._organisation(request, pk)
        services.pfhd_table_remove(organisation=organisation, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
