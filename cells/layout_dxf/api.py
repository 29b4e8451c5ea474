"""DXF in and out over the API: import a drawing into a cell's layout
(multipart), export the cell's plan as a DXF file.

Scoped like every cell endpoint: another organisation's cell is a 404 before
anything else, a viewer's import a 403, and then the input is read.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import renderers, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors
from cells.api.errors import validation_detail
from cells.api.uploads import declared_too_large
from cells.layout_dxf import reading, services
from cells.layout_dxf.schemas import DxfImportErrors, DxfImportResult, import_result
from cells.layout_dxf.writing import MEDIA_TYPE, build_dxf
from cells.permissions import require_edit
from cells.views import distance_requirements, drawing_labels
from compliance.rules.inputs import versioned
from config.parsers import JSONDepthError
from config.parsers import loads as json_loads

MAX_MAPPED_LAYERS = reading.MAX_LAYERS


def file_too_large_message() -> str:
    return _(
        "The file is larger than %(limit_mb)s MB: send a drawing of the cell alone."
    ) % {"limit_mb": reading.MAX_FILE_BYTES // (1024 * 1024)}


class LayerMappingField(serializers.DictField):
    """Layer name → a guard kind, "underlay" or "ignore". In a multipart body
    it is one field holding a JSON object (``{"FENCE": "fence"}``), as
    OpenAPI encodes an object in multipart; ``mapping.FENCE=fence`` fields
    are read too."""

    def __init__(self, **kwargs) -> None:
        super().__init__(
            child=serializers.ChoiceField(choices=list(reading.TARGETS)), **kwargs
        )

    def get_value(self, dictionary):
        raw = dictionary.get(self.field_name)
        if isinstance(raw, str):
            if not raw.strip():
                return {}
            try:
                return json_loads(raw, max_depth=2)
            except (ValueError, JSONDepthError):
                # Left as text: to_internal_value refuses it, by name.
                return raw
        return super().get_value(dictionary)

    def to_internal_value(self, data):
        if isinstance(data, dict) and len(data) > MAX_MAPPED_LAYERS:
            raise serializers.ValidationError(
                _("At most %(limit)s layers.") % {"limit": MAX_MAPPED_LAYERS}
            )
        if isinstance(data, dict) and any(len(str(k)) > 255 for k in data):
            raise serializers.ValidationError(
                _("A layer name has at most 255 characters.")
            )
        return super().to_internal_value(data)


class DxfImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="The DXF drawing (text or binary), at most 5 MB."
    )
    units = serializers.ChoiceField(
        choices=list(reading.UNIT_NAMES),
        required=False,
        help_text="The units the drawing is in; by default its header's "
        "$INSUNITS. Required when the header has none (400 naming units).",
    )
    height_mm = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=100_000,
        help_text="The height of the guards whose line has no thickness in "
        "the file. A line with a thickness stands from its elevation (the gap "
        "under the guard) to elevation + thickness.",
    )
    mapping = LayerMappingField(
        required=False,
        help_text="Layer name (any case) → fence, wall, machine_body, door (its "
        "lines become openings in the guard they lie on, or a guard with an "
        "opening across a gap in a guard line), underlay or ignore. Layers not named are underlay, except this app's own "
        "export layers (CSP-FENCE, CSP-WALL, CSP-MACHINE-BODY read as their "
        "kind; its other CSP- layers are ignored).",
    )


class CellLayoutDxfImportView(APIView):
    """Import a DXF drawing into the cell's layout: LINE, LWPOLYLINE and
    POLYLINE on layers mapped to a guard kind become guard segments (added to
    the layout; a closed polyline gives its closing segment too; an arc in a
    polyline is skipped, not straightened); lines on other layers become the
    underlay drawn behind the plan, replacing the last one. Other entity types
    are skipped, counted by type. All or nothing: the whole file is checked
    first."""

    parser_classes = [MultiPartParser]

    @extend_schema(
        tags=["cells"],
        summary="Import a DXF drawing into a cell's layout",
        operation_id="cells_layout_dxf_import",
        request={"multipart/form-data": DxfImportSerializer},
        responses={
            201: DxfImportResult,
            400: OpenApiResponse(DxfImportErrors, "Nothing was imported."),
            403: OpenApiResponse(description="Your role does not allow this."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        cell = selectors.cell_for(request.user, pk)
        require_edit(request.user, cell.project.organisation_id)
        if declared_too_large(request, reading.MAX_FILE_BYTES):
            raise ValidationError({"file": [file_too_large_message()]})
        serializer = DxfImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        given = serializer.validated_data
        upload = given["file"]
        if upload.size > reading.MAX_FILE_BYTES:
            raise ValidationError({"file": [file_too_large_message()]})
        try:
            planned = services.layout_dxf_import(
                cell=cell,
                data=upload.read(),
                source_name=upload.name or "",
                mapping=given.get("mapping"),
                units=given.get("units"),
                height_mm=given.get("height_mm"),
            )
        except DjangoValidationError as exc:
            raise ValidationError(validation_detail(exc)) from exc
        result = import_result(
            cell.pk,
            planned.dxf,
            openings=len(planned.openings),
            doors_left_out=planned.doors_left_out,
            names=[e.label for e in [*planned.segments, *planned.openings] if e.label],
        )
        return Response(result.model_dump(mode="json"), status=status.HTTP_201_CREATED)


class DxfRenderer(renderers.BaseRenderer):
    """A DXF file, as built; anything else (an error) as JSON."""

    media_type = MEDIA_TYPE
    format = "dxf"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        return renderers.JSONRenderer().render(data)


# Characters no file name may hold on some system: replaced in the download's.
_NOT_IN_FILE_NAMES = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')


def dxf_response(cell, data: bytes) -> HttpResponse:
    """The file as a download, named after the cell (in any script: the
    header carries it encoded)."""
    name = _NOT_IN_FILE_NAMES.sub("_", cell.name).strip(" .") or f"cell-{cell.pk}"
    response = HttpResponse(data, content_type=MEDIA_TYPE)
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{name}-layout.dxf"
    )
    return response


def cell_layout_dxf(cell) -> bytes:
    """The DXF file of a cell loaded by ``selectors.cell_with_layout``: its
    plan, with each device's minimum distance S from the findings, labelled in
    the reader's language."""
    return build_dxf(
        selectors.cell_document(cell),
        required=distance_requirements(cell),
        labels=drawing_labels(),
    )


class CellLayoutDxfView(APIView):
    """The cell's plan as a DXF drawing in millimetres ($INSUNITS = 4): a
    layer per kind of element (CSP-FENCE, CSP-WALL, CSP-MACHINE-BODY,
    CSP-OPENINGS, CSP-DEVICES, CSP-HAZARD-ZONE, CSP-OPERATOR-STATIONS,
    CSP-MINIMUM-DISTANCES) and the labels as TEXT on CSP-LABELS. A guard's
    line stands from the gap under it (elevation) to its height (elevation +
    thickness); importing the file again gives the same guard segments."""

    renderer_classes = [renderers.JSONRenderer, DxfRenderer]

    @extend_schema(
        tags=["cells"],
        summary="Export a cell's plan as a DXF drawing",
        operation_id="cells_layout_dxf_export",
        # The JSON renderer is there for errors only: no ?format= to offer.
        parameters=[OpenApiParameter("format", exclude=True)],
        responses={
            (200, MEDIA_TYPE): OpenApiResponse(
                OpenApiTypes.BINARY, "The DXF file (R2010, UTF-8)."
            ),
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        cell = versioned(pk, lambda: selectors.cell_with_layout(request.user, pk))
        return dxf_response(cell, cell_layout_dxf(cell))
