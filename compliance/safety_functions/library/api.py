"""The device library over the API: list (paginated, filtered by kind, PL,
IEC 61496 type, price and a search), add, read, change and remove entries,
export and import CSV, and add the starting entries. Writes go through
``services``: bad input is a 400 naming the field, a viewer's write a 403,
and another organisation's library a 404."""

from __future__ import annotations

from functools import cached_property

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells.api.fields import STRICT_FIELD_MAPPING
from cells.api.serializers import version_field
from cells.api.views import conflict_response
from cells.permissions import can_edit
from cells.services import Conflict
from compliance.safety_functions.library import selectors, services
from compliance.safety_functions.library.catalogue import REFERENCE_STATUS
from compliance.safety_functions.library.csv_io import MAX_BYTES
from compliance.safety_functions.models import LibraryDevice

TAGS = ["device library"]


class LibraryDeviceSerializer(serializers.ModelSerializer):
    """A library entry: the maker's device, its data-sheet safety figures and
    the organisation's price. ``status`` says "From the maker's data sheet;
    check the current one" for a starting entry (``from_reference``)."""

    serializer_field_mapping = STRICT_FIELD_MAPPING

    has_price = serializers.BooleanField(read_only=True)
    status = serializers.SerializerMethodField()
    version = version_field()

    class Meta:
        model = LibraryDevice
        fields = [
            "id",
            "version",
            "organisation",
            *services.EDITABLE_FIELDS,
            "from_reference",
            "status",
            "has_price",
            "updated_at",
        ]
        read_only_fields = ["organisation", "from_reference", "updated_at"]

    def get_status(self, device: LibraryDevice) -> str:
        return _(REFERENCE_STATUS) if device.from_reference else ""


class CanEditLibrary(BasePermission):
    """Members read; only editors of the organisation write. The organisation
    is looked up first, so another organisation's library is a 404."""

    message = _("Viewers can read but not change this organisation's data.")

    def has_permission(self, request, view) -> bool:
        organisation = view.organisation  # Http404 for another organisation's
        return request.method in SAFE_METHODS or can_edit(request.user, organisation.pk)


class OrganisationLibraryMixin:
    @cached_property
    def organisation(self):
        return selectors.organisation_for(self.request.user, self.kwargs["org_pk"])


@extend_schema(tags=TAGS)
class LibraryDeviceViewSet(OrganisationLibraryMixin, viewsets.ModelViewSet):
    """The entries of an organisation's device library. Filter with ``q``
    (maker, model, part number, function or code), ``kind``,
    ``pl_at_least``, ``iec61496_type`` and ``has_price``."""

    serializer_class = LibraryDeviceSerializer
    permission_classes = [IsAuthenticated, CanEditLibrary]
    filterset_class = selectors.LibraryDeviceFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return LibraryDevice.objects.none()
        return selectors.library_devices(self.organisation)

    def perform_create(self, serializer) -> None:
        data = dict(serializer.validated_data)
        data.pop("version", None)
        serializer.instance = services.library_device_save(
            organisation=self.organisation, actor=self.request.user, **data
        )

    def perform_update(self, serializer) -> None:
        serializer.instance = services.library_device_save(
            organisation=self.organisation,
            actor=self.request.user,
            device=serializer.instance,
            **serializer.validated_data,
        )

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, Conflict):  # saved by someone else since read
            return conflict_response(exc, self.get_serializer(exc.current).data)
        return super().handle_exception(exc)

    def perform_destroy(self, instance) -> None:
        services.library_device_delete(device=instance, actor=self.request.user)


class LibraryExportView(OrganisationLibraryMixin, APIView):
    """The organisation's library as CSV (the columns ``import`` reads)."""

    permission_classes = [IsAuthenticated, CanEditLibrary]

    @extend_schema(
        tags=TAGS,
        summary="Export the device library as CSV",
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request: Request, org_pk: int) -> HttpResponse:
        text = selectors.library_csv(self.organisation)
        response = HttpResponse(
            text.encode("utf-8-sig"), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = (
            f'attachment; filename="device-library-{self.organisation.pk}.csv"'
        )
        return response


class LibraryImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="A CSV with the columns of an export: at most 1 MB and 2,000 rows."
    )

    def validate_file(self, upload):
        if upload.size > MAX_BYTES:
            raise serializers.ValidationError(
                _(
                    "The file is larger than %(limit)s bytes: split it into smaller files."
                )
                % {"limit": f"{MAX_BYTES:,}"}
            )
        return upload


class ImportResultSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()


class LibraryImportView(OrganisationLibraryMixin, APIView):
    """Import a library CSV: a row updates the entry with the same key and
    adds one otherwise; if any row fails, nothing is saved and the 400 lists
    every error under ``rows`` with its row (the header is row 1) and field."""

    permission_classes = [IsAuthenticated, CanEditLibrary]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        tags=TAGS,
        summary="Import a device library CSV",
        request={"multipart/form-data": LibraryImportSerializer},
        responses={
            200: ImportResultSerializer,
            400: OpenApiResponse(
                description='{"file": [...]} or {"rows": [{"row", "field", '
                '"message"}, ...]}: nothing was saved.'
            ),
        },
    )
    def post(self, request: Request, org_pk: int) -> Response:
        serializer = LibraryImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data["file"].read(MAX_BYTES + 1)
        try:
            result = services.library_import_csv(
                organisation=self.organisation, actor=request.user, data=data
            )
        except services.LibraryImportRefused as exc:
            file_errors = [e.message for e in exc.errors if e.row == 0]
            if file_errors:
                body = {"file": file_errors}
            else:
                body = {
                    "rows": [
                        {"row": e.row, "field": e.field, "message": e.message}
                        for e in exc.errors
                    ]
                }
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(ImportResultSerializer(result).data)


class SeedResultSerializer(serializers.Serializer):
    added = serializers.IntegerField()


class LibrarySeedView(OrganisationLibraryMixin, APIView):
    """Add the starting entries the library lacks (idempotent)."""

    permission_classes = [IsAuthenticated, CanEditLibrary]

    @extend_schema(
        tags=TAGS,
        summary="Add the starting entries the device library lacks",
        request=None,
        responses={200: SeedResultSerializer},
    )
    def post(self, request: Request, org_pk: int) -> Response:
        added = services.library_seed(
            organisation=self.organisation, actor=request.user
        )
        return Response({"added": added})
