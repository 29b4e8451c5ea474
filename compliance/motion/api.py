"""A robot program's judged path over the API (issue 32): its segments on the
plan a page at a time with their verdicts, and the program annotated with
the speed each failing line may have. The judgement is the Motion tab's and
the findings' (``compliance.motion.selectors.judgement``), kept per change.

Mounted in the ``api`` namespace beside the programs' other endpoints
(``cells.motion.urls``) by ``config.urls``: the cells API may not read the
rules. Scoped like every cell endpoint: another organisation's cell or
program is a 404.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from cells.api.fields import StrictFloatField
from cells.models import Cell
from cells.motion.models import MotionProgram
from cells.motion.selectors import COMMENT, annotated
from compliance.motion.selectors import VERDICTS, Judgement, judgement
from compliance.rules.inputs import versioned
from config.pagination import Pages


class PlanPointSerializer(serializers.Serializer):
    x_mm = StrictFloatField()
    y_mm = StrictFloatField()
    z_mm = StrictFloatField()


class MotionSegmentSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    line = serializers.IntegerField()
    kind = serializers.CharField()
    start = PlanPointSerializer(help_text="On the cell's plan, in mm.")
    end = PlanPointSerializer()
    speed_mm_s = StrictFloatField(allow_null=True)
    verdict = serializers.ChoiceField(
        choices=list(VERDICTS),
        help_text="Power and force limiting, clamping and, where the cell uses "
        "it, speed and separation monitoring, judged where people are: fail, "
        "measure (force and pressure on the real cell), not_checked (a figure "
        "is missing), pass. The same judgement as the cell's findings.",
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


def _judged(
    request: Request, pk: int, program_pk: int, *, with_file: bool = False
) -> tuple[MotionProgram, Judgement]:
    """The program of the user's cell and its judgement; 404 otherwise."""
    cell: Cell = versioned(
        pk, lambda: cell_selectors.cell_with_layout(request.user, pk)
    )
    rows = (
        MotionProgram.objects.all()
        if with_file
        else MotionProgram.objects.defer("data")
    )
    program = get_object_or_404(rows, cell=cell, pk=program_pk)
    judged = judgement(cell, program.pk)
    if judged is None:  # removed while this request read it
        raise Http404
    return program, judged


class MotionSegmentsView(APIView):
    """The straight pieces of the program's path, drawn on the cell's plan
    (the robot base's position and rotation applied), a page at a time, each
    with its verdict; ``?verdict=fail`` (or measure, not_checked, pass) lists
    only those."""

    @extend_schema(
        tags=["cells"],
        operation_id="cells_motion_segments",
        parameters=[
            OpenApiParameter(
                "verdict",
                OpenApiTypes.STR,
                enum=list(VERDICTS),
                description="Only the segments with this verdict.",
            )
        ],
        responses={200: MotionSegmentsPageSerializer},
    )
    def get(self, request: Request, pk: int, program_pk: int) -> Response:
        program, judged = _judged(request, pk, program_pk)
        asked = request.query_params.get("verdict")
        if asked is not None and asked not in VERDICTS:
            raise ValidationError(
                {"verdict": [_("Give fail, measure, not_checked or pass.")]}
            )
        verdicts = judged.verdicts
        indices = [i for i, v in enumerate(verdicts) if asked in (None, v)]
        paginator = Pages()
        page = paginator.paginate_queryset(indices, request, view=self)
        rows = [_segment(i, program, judged) for i in page or ()]
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
        program, judged = _judged(request, pk, program_pk, with_file=True)
        if program.format not in COMMENT:
            raise ValidationError({"format": [csv_has_no_comments()]})
        return annotated_response(program, judged)


def csv_has_no_comments() -> str:
    return _(
        "A CSV file has no comments: the failing rows and their speeds are in "
        "the segments."
    )


def annotated_response(program: MotionProgram, judged: Judgement) -> HttpResponse:
    """The annotated program as a download, under the file's own name."""
    response = HttpResponse(
        annotated(program, judged.segments), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=program.file_name
    )
    return response


def _segment(index: int, program: MotionProgram, judged: Judgement) -> dict:
    line, x1, y1, z1, x2, y2, z2, speed = judged.program.segments[index]
    result = judged.segments[index] if judged.segments else None
    stored = program.segments[index] if index < len(program.segments) else None
    return {
        "index": index,
        "line": line,
        "kind": stored[8] if stored else "linear",
        "start": _point(x1, y1, z1),
        "end": _point(x2, y2, z2),
        "speed_mm_s": speed,
        "verdict": result.verdict if result else "not_checked",
        "nearest_station": result.nearest_station if result else None,
        "nearest_station_distance_mm": _rounded(
            result.nearest_station_distance_mm if result else None
        ),
        "pfl_limit_mm_s": _rounded(result.pfl_limit_mm_s if result else None),
        "permissible_speed_mm_s": _rounded(
            result.permissible_speed_mm_s if result else None
        ),
        "clamping_obstacle": result.clamping_obstacle if result else None,
    }


def _point(x: float, y: float, z: float) -> dict:
    return {"x_mm": round(x, 1), "y_mm": round(y, 1), "z_mm": round(z, 1)}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
