"""The register as XLSX over the API: GET the workbook, POST one back
(multipart ``file``) into a draft; 400 lists every error with its row."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import renderers, serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells.permissions import can_edit
from compliance.assessment import selectors
from compliance.assessment.register_xlsx import importer
from compliance.assessment.register_xlsx.template import MAX_BYTES
from compliance.assessment.register_xlsx.views import XLSX, xlsx_response

TAGS = ["risk assessment"]


class RegisterImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="The register template (an export), filled in: at most 2 MB."
    )

    def validate_file(self, upload):
        if upload.size > MAX_BYTES:
            raise serializers.ValidationError(
                _(
                    "The file is larger than 2 MB: split the register into smaller files."
                )
            )
        return upload


class RegisterResultSerializer(serializers.Serializer):
    hazards = serializers.IntegerField()
    measures = serializers.IntegerField()


class XlsxRenderer(renderers.BaseRenderer):
    """The workbook as built; anything else (an error) as JSON."""

    media_type = XLSX
    format = "xlsx"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        return renderers.JSONRenderer().render(data)


class RegisterExportView(APIView):
    """The hazard register of a revision as XLSX."""

    renderer_classes = [renderers.JSONRenderer, XlsxRenderer]

    @extend_schema(
        tags=TAGS,
        summary="The hazard register of a revision (XLSX)",
        responses={(200, XLSX): OpenApiResponse(OpenApiTypes.BINARY)},
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        return xlsx_response(selectors.revision_for(request.user, pk))


class RegisterImportView(APIView):
    """Append the hazards and measures of a filled-in register template to a
    draft revision; any error, and nothing is saved."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        tags=TAGS,
        summary="Import a hazard register (XLSX) into a draft revision",
        request={"multipart/form-data": RegisterImportSerializer},
        responses={
            201: RegisterResultSerializer,
            400: OpenApiResponse(
                description='{"file": [...]} or {"rows": [{"sheet", "row", "field", '
                '"message", "text"}, ...]}: nothing was saved.'
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        revision = selectors.revision_for(request.user, pk)
        if not can_edit(request.user, revision.assessment.cell.project.organisation_id):
            raise PermissionDenied
        serializer = RegisterImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data["file"].read(MAX_BYTES + 1)
        try:
            result = importer.register_import(
                revision=revision, actor=request.user, data=data
            )
        except importer.ImportRefused as exc:
            file_errors = [e.message for e in exc.errors if e.row == 0]
            if file_errors and len(file_errors) == len(exc.errors):
                return Response({"file": file_errors}, status=400)
            return Response({"rows": [e.as_dict() for e in exc.errors]}, status=400)
        return Response(
            {"hazards": result.hazards, "measures": result.measures}, status=201
        )
