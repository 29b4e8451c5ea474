"""A cell's robot programs over the API (issue 32): import one (multipart),
list them, read one's lines not checked and skipped, page through its path's
segments drawn on the plan, remove one.

Scoped like every cell endpoint: another organisation's cell or program is a
404 before anything else, a viewer's import or removal a 403.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
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
from cells.api.fields import StrictFloatField
from cells.api.uploads import declared_too_large
from cells.motion import reading, services
from cells.motion import selectors as motion_selectors
from cells.motion.models import MotionProgram, ProgramFormat
from cells.motion.path import Point, to_plan
from cells.permissions import require_edit
from config.pagination import Pages

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


class PlanPointSerializer(serializers.Serializer):
    x_mm = StrictFloatField()
    y_mm = StrictFloatField()
    z_mm = StrictFloatField()


VERDICTS = ["fail", "measure", "not_checked", "pass"]


class MotionSegmentSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    line = serializers.IntegerField()
    kind = serializers.CharField()
    start = PlanPointSerializer(help_text="On the cell's plan, in mm.")
    end = PlanPointSerializer()
    speed_mm_s = StrictFloatField(allow_null=True)
    verdict = serializers.ChoiceField(
        choices=VERDICTS,
        help_text="Power and force limiting and clamping, judged where people "
        "are: fail, measure (force and pressure on the real cell), not_checked "
        "(a figure is missing), pass.",
    )
    nearest_station = serializers.CharField(allow_null=True)
    nearest_station_distance_mm = StrictFloatField(allow_null=True)
    pfl_limit_mm_s = StrictFloatField(
        allow_null=True,
        help_text="The permissible transient speed where the segment passes a "
        "station's contact zone (ISO/TS 15066 Annex A).",
    )
    permissible_speed_mm_s = StrictFloatField(
        allow_null=True, help_text="The speed it may have; 0: none."
    )
    clamping_obstacle = serializers.CharField(allow_null=True)


class MotionSegmentsPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = MotionSegmentSerializer(many=True)


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


class MotionSegmentsView(APIView):
    """The straight pieces of the program's path, drawn on the cell's plan
    (the robot base's position and rotation applied), a page at a time."""

    @extend_schema(
        tags=["cells"],
        operation_id="cells_motion_segments",
        responses={200: MotionSegmentsPageSerializer},
    )
    def get(self, request: Request, pk: int, program_pk: int) -> Response:
        program = _program(request, pk, program_pk)
        cell = program.cell
        judged = motion_selectors.program_judgement(cell, program)
        results = {s.index: s for s in judged.segments} if judged else {}
        paginator = Pages()
        page = paginator.paginate_queryset(
            _Indexed(program.segments), request, view=self
        )
        rows = [
            _segment(index, row, cell, results.get(index))
            for index, row in page  # type: ignore[union-attr]
        ]
        return paginator.get_paginated_response(
            MotionSegmentSerializer(rows, many=True).data
        )


class MotionAnnotatedView(APIView):
    """The program's file with a comment above each failing line giving the
    speed it may have; the rest of the file as imported."""

    @extend_schema(
        tags=["cells"],
        operation_id="cells_motion_annotated",
        responses={
            (200, "text/plain"): OpenApiResponse(description="The program file.")
        },
    )
    def get(self, request: Request, pk: int, program_pk: int) -> HttpResponse:
        program = _program(request, pk, program_pk)
        if program.format not in motion_selectors.COMMENT:
            raise ValidationError(
                {
                    "format": [
                        _(
                            "A CSV file has no comments: the failing rows and "
                            "their speeds are in the segments."
                        )
                    ]
                }
            )
        judged = motion_selectors.program_judgement(program.cell, program)
        response = HttpResponse(
            motion_selectors.annotated(program, judged),
            content_type="text/plain; charset=utf-8",
        )
        response["Content-Disposition"] = content_disposition_header(
            as_attachment=True, filename=program.file_name
        )
        return response


class _Indexed(list):
    """The stored rows with their place, for the paginator to slice."""

    def __init__(self, rows: list) -> None:
        super().__init__(enumerate(rows))


def _segment(index: int, row: list, cell, judged) -> dict:
    line, x1, y1, z1, x2, y2, z2, speed, kind = row

    def plan(x: float, y: float, z: float) -> dict:
        point = to_plan(
            Point(x, y, z),
            base_x_mm=cell.robot_base_x_mm,
            base_y_mm=cell.robot_base_y_mm,
            rotation_deg=cell.robot_base_rotation_deg,
        )
        return {
            "x_mm": round(point.x_mm, 1),
            "y_mm": round(point.y_mm, 1),
            "z_mm": round(point.z_mm, 1),
        }

    return {
        "index": index,
        "line": line,
        "kind": kind,
        "start": plan(x1, y1, z1),
        "end": plan(x2, y2, z2),
        "speed_mm_s": speed,
        "verdict": judged.verdict if judged else "not_checked",
        "nearest_station": judged.nearest_station if judged else None,
        "nearest_station_distance_mm": _rounded(
            judged.nearest_station_distance_mm if judged else None
        ),
        "pfl_limit_mm_s": _rounded(judged.pfl_limit_mm_s if judged else None),
        "permissible_speed_mm_s": _rounded(
            judged.permissible_speed_mm_s if judged else None
        ),
        "clamping_obstacle": judged.clamping_obstacle if judged else None,
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _file_too_large() -> str:
    return _("The file is larger than %(limit_mb)s MB: send the program alone.") % {
        "limit_mb": reading.MAX_FILE_BYTES // (1024 * 1024)
    }
