"""A cell's robot programs over the API (issue 32): import one (multipart),
list them, read one's lines not checked and skipped, remove one. Their path's
segments judged on the plan and the annotated file are the rules' to give
(``compliance.motion.api``), under this API's names.

Scoped like every cell endpoint: another organisation's cell or program is a
404 before anything else, a viewer's import or removal a 403.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors
from cells.api.errors import validation_detail
from cells.api.uploads import declared_too_large
from cells.motion import reading, services
from cells.motion.models import MotionProgram, ProgramFormat
from cells.permissions import require_edit

# A CSV program's coordinates: named once, for the API schema's enum.
PROGRAM_UNITS = ["mm", "m"]


class MotionImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The program file, at most 5 MB.")
    format = serializers.ChoiceField(
        choices=ProgramFormat.values,
        required=False,
        help_text="csv, urscript, rapid or krl; by default told from the file's "
        "name and content.",
    )
    units = serializers.ChoiceField(
        choices=PROGRAM_UNITS,
        required=False,
        help_text="CSV only: the coordinates' units when the header does not "
        "say them (x_mm, x_m).",
    )


class ListedSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    reason = serializers.CharField()
    text = serializers.CharField()


extend_schema_field_listed = extend_schema_field(ListedSerializer(many=True))


class MotionProgramSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    cell = serializers.IntegerField(source="cell_id")
    file_name = serializers.CharField()
    format = serializers.ChoiceField(choices=ProgramFormat.values)
    sha256 = serializers.CharField()
    imported_by = serializers.CharField(
        source="imported_by.get_full_name", default="", allow_null=True
    )
    imported_at = serializers.DateTimeField()
    moves = serializers.IntegerField(source="move_count")
    segments = serializers.SerializerMethodField()
    not_checked = serializers.SerializerMethodField()
    skipped = serializers.SerializerMethodField()

    def get_segments(self, obj: MotionProgram) -> int:
        return len(obj.segments)

    @extend_schema_field_listed
    def get_not_checked(self, obj: MotionProgram) -> list[dict]:
        return listed(obj.not_checked)

    @extend_schema_field_listed
    def get_skipped(self, obj: MotionProgram) -> list[dict]:
        return listed(obj.skipped)


def listed(rows: list) -> list[dict]:
    return [
        {"line": line, "reason": reason, "text": text} for line, reason, text in rows
    ]


def _program(request: Request, pk: int, program_pk: int) -> MotionProgram:
    cell = selectors.cell_for(request.user, pk)
    return get_object_or_404(
        MotionProgram.objects.select_related("imported_by"),
        cell=cell,
        pk=program_pk,
    )


class CellMotionProgramsView(APIView):
    """The cell's robot programs; POST imports one (multipart ``file``,
    ``format``, ``units``): read whole first, refused with its line, nothing
    saved."""

    parser_classes = [MultiPartParser]

    @extend_schema(
        tags=["cells"],
        operation_id="cells_motion_list",
        responses={200: MotionProgramSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = selectors.cell_for(request.user, pk)
        programs = MotionProgram.objects.filter(cell=cell).select_related("imported_by")
        return Response(MotionProgramSerializer(programs, many=True).data)

    @extend_schema(
        tags=["cells"],
        summary="Import a robot program into a cell",
        operation_id="cells_motion_import",
        request={"multipart/form-data": MotionImportSerializer},
        responses={
            201: MotionProgramSerializer,
            400: OpenApiResponse(description="Nothing was imported."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        cell = selectors.cell_for(request.user, pk)
        require_edit(request.user, cell.project.organisation_id)
        if declared_too_large(request, reading.MAX_FILE_BYTES):
            raise ValidationError({"file": [_file_too_large()]})
        serializer = MotionImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        given = serializer.validated_data
        upload = given["file"]
        if upload.size > reading.MAX_FILE_BYTES:
            raise ValidationError({"file": [_file_too_large()]})
        try:
            program = services.motion_program_import(
                cell=cell,
                actor=request.user,
                data=upload.read(),
                file_name=upload.name or "",
                format=given.get("format"),
                units=given.get("units"),
            )
        except DjangoValidationError as exc:
            raise ValidationError(validation_detail(exc)) from exc
        return Response(
            MotionProgramSerializer(program).data, status=status.HTTP_201_CREATED
        )


class CellMotionProgramView(APIView):
    """One robot program of the cell: its lines not checked and skipped."""

    @extend_schema(
        tags=["cells"],
        operation_id="cells_motion_detail",
        responses={200: MotionProgramSerializer},
    )
    def get(self, request: Request, pk: int, program_pk: int) -> Response:
        return Response(MotionProgramSerializer(_program(request, pk, program_pk)).data)

    @extend_schema(
        tags=["cells"], operation_id="cells_motion_delete", responses={204: None}
    )
    def delete(self, request: Request, pk: int, program_pk: int) -> Response:
        program = _program(request, pk, program_pk)
        require_edit(request.user, program.cell.project.organisation_id)
        services.motion_program_delete(program=program)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _file_too_large() -> str:
    return _("The file is larger than %(limit_mb)s MB: send the program alone.") % {
        "limit_mb": reading.MAX_FILE_BYTES // (1024 * 1024)
    }
