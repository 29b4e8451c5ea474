"""API viewsets: scope to the user's organisations, check the role, save.

Reads come from ``cells.selectors`` (so another organisation's object is a 404
and lists are empty); writes of several objects go through ``cells.services``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model, ProtectedError, QuerySet, RestrictedError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from cells import selectors, services
from cells.api import filters
from cells.api.errors import document_error_detail
from cells.api.permissions import CanEditOrganisationData, organisation_id_of
from cells.api.serializers import (
    DOCUMENT_HELP,
    CellCertificateSerializer,
    CellImportSerializer,
    CellSerializer,
    DeviceSerializer,
    GuardSegmentSerializer,
    OpeningSerializer,
    OperatorStationSerializer,
    ProjectSerializer,
)
from cells.exchange import CellDocument
from cells.models import (
    Cell,
    CellCertificate,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Project,
)
from cells.permissions import can_edit, require_edit
from config.parsers import JSONParser


class KeptForTheRecord(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "kept_for_the_record"
    default_detail = _(
        "A risk assessment names this object (a signed one must be kept as it "
        "was signed): it cannot be deleted."
    )


def conflict_response(exc: services.Conflict, current: dict) -> Response:
    """409: someone else saved the object since the version sent; with the
    object as stored now (``current``, serialized) and the fields sent that
    it holds otherwise (issue 28)."""
    model = type(exc.current)
    names = {f.attname: f.name for f in model._meta.concrete_fields}
    return Response(
        {
            "detail": _(
                "Someone else saved this since you read it (version %(version)s "
                "now): nothing was saved. Compare, then send your change again "
                "with the current version."
            )
            % {"version": exc.current.version},
            "differs": [names.get(n, n) for n in exc.differs],
            "current": current,
        },
        status=status.HTTP_409_CONFLICT,
    )


class OrganisationDataViewSet(viewsets.ModelViewSet):
    """A plain resource owned by an organisation.

    Subclasses name their ``model``, the body field that names the object's
    ``parent`` (checked for edit rights on create and on a move), and how to
    ``scope`` the model to a user.
    """

    permission_classes = [IsAuthenticated, CanEditOrganisationData]
    lookup_value_regex = r"[0-9]+"
    model: type[Model]
    parent_field: str
    scope: Callable[[Any], QuerySet]  # a selector: user -> the objects they see

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):
            # Schema generation has no user; it only needs to know the model.
            return self.model.objects.none()
        return type(self).scope(self.request.user)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, services.Conflict):
            return self.conflict(exc)
        if isinstance(exc, ObjectDoesNotExist):
            # Deleted by someone else while this change was being made.
            exc = NotFound()
        return super().handle_exception(exc)

    def conflict(self, exc: services.Conflict) -> Response:
        return conflict_response(exc, self.get_serializer(exc.current).data)

    def perform_create(self, serializer) -> None:
        self.require_edit_parent(serializer)
        self.save_atomically(serializer)

    def perform_update(self, serializer) -> None:
        self.require_edit_parent(serializer)
        self.save_atomically(serializer)

    def require_edit_parent(self, serializer) -> None:
        """The object may only be put under a parent the user may edit."""
        parent = serializer.validated_data.get(self.parent_field)
        if parent is not None:
            require_edit(self.request.user, organisation_id_of(parent))

    def perform_destroy(self, instance) -> None:
        try:
            with transaction.atomic():
                instance.delete()
        except (IntegrityError, RestrictedError, ProtectedError) as exc:
            raise KeptForTheRecord() from exc

    # A change through a service writing only the fields sent, under a lock
    # on the row (``cells.services``); None: the serializer saves it.
    change: Callable[..., Model] | None = None

    def save_atomically(self, serializer, **extra) -> None:
        if serializer.instance is not None and self.change is not None:
            _saved(serializer, self.model, self.change)
            return
        # A savepoint, so that a write the database refuses leaves the
        # connection usable (the error handler answers 400).
        with transaction.atomic():
            serializer.save(**extra)


class ProjectViewSet(OrganisationDataViewSet):
    """Customer projects of the user's organisations."""

    model = Project
    scope = staticmethod(selectors.projects_for)
    parent_field = "organisation"
    serializer_class = ProjectSerializer
    filterset_class = filters.ProjectFilter

    def perform_create(self, serializer) -> None:
        self.require_edit_parent(serializer)
        self.save_atomically(serializer, created_by=self.request.user)

    def change(self, row, fields, version):
        return services.project_save(project=row, fields=fields)


class CellViewSet(OrganisationDataViewSet):
    """Robot cells, plus their export and import as one exchange document."""

    model = Cell
    scope = staticmethod(selectors.cells_for)
    parent_field = "project"
    serializer_class = CellSerializer
    filterset_class = filters.CellFilter

    def change(self, row, **kw):
        return services.cell_save(cell=row, **kw)

    def get_serializer_class(self):
        if self.action == "import_document":
            return CellImportSerializer
        return super().get_serializer_class()

    def get_queryset(self) -> QuerySet:
        # A guarding concept's cell is listed with its cell's concepts, not
        # among the cells; it is read and edited by its id like any cell.
        queryset = super().get_queryset()
        if self.action == "list":
            queryset = queryset.filter(variant_of__isnull=True)
        return queryset

    @extend_schema(
        summary="Export a cell as an exchange document",
        responses={200: OpenApiResponse(CellDocument, DOCUMENT_HELP)},
        filters=False,
    )
    @action(detail=True, methods=["get"], url_path="export")
    def export(self, request: Request, pk: str) -> Response:
        cell = selectors.cell_with_layout(request.user, int(pk))
        return Response(selectors.cell_document(cell).model_dump(mode="json"))

    @extend_schema(
        summary="Create a cell in a project from an exchange document",
        request=CellImportSerializer,
        responses={
            201: CellSerializer,
            400: OpenApiResponse(
                description="Errors keyed by body path, "
                "e.g. document.guard_segments.0.height_mm."
            ),
        },
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        url_name="import",
        parser_classes=[JSONParser],
    )
    def import_document(self, request: Request) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        project = serializer.validated_data["project"]
        require_edit(request.user, project.organisation_id)
        try:
            cell = services.cell_import(
                project=project, document=serializer.validated_data["document"]
            )
        except DjangoValidationError as exc:
            raise ValidationError(document_error_detail(exc)) from exc
        data = CellSerializer(cell, context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_201_CREATED)


def _unsaved(
    serializer, model: type[Model]
) -> tuple[Model, list[str] | None, int | None]:
    """The object as the validated data would leave it (not saved yet), and,
    for a change, the fields sent (attribute names) and the version read: a
    service writes only those, and refuses a stale version (issue 28)."""
    data = dict(serializer.validated_data)
    version = data.pop("version", None)
    instance = serializer.instance or model()
    for name, value in data.items():
        setattr(instance, name, value)
    if serializer.instance is None:
        return instance, None, None
    return instance, [model._meta.get_field(n).attname for n in data], version


def _saved(serializer, model: type[Model], save: Callable[..., Model]) -> None:
    instance, fields, version = _unsaved(serializer, model)
    serializer.instance = save(instance, fields=fields, version=version)


class GuardSegmentViewSet(OrganisationDataViewSet):
    """Straight pieces of a cell's perimeter guard."""

    model = GuardSegment
    scope = staticmethod(selectors.segments_for)
    parent_field = "cell"
    serializer_class = GuardSegmentSerializer
    filterset_class = filters.GuardSegmentFilter

    def save_atomically(self, serializer, **extra) -> None:
        # Checked again under a lock on the segment (cells.services).
        _saved(
            serializer,
            GuardSegment,
            lambda row, **kw: services.guard_segment_save(segment=row, **kw),
        )


class OpeningViewSet(OrganisationDataViewSet):
    """Gaps in guard segments. Two overlapping openings sent at once: one is
    stored, the other refused (400 naming ``offset_mm``)."""

    model = Opening
    scope = staticmethod(selectors.openings_for)
    parent_field = "segment"
    serializer_class = OpeningSerializer
    filterset_class = filters.OpeningFilter

    def save_atomically(self, serializer, **extra) -> None:
        # Checked again under a lock on the segment (cells.services).
        _saved(
            serializer,
            Opening,
            lambda row, **kw: services.opening_save(opening=row, **kw),
        )


class OperatorStationViewSet(OrganisationDataViewSet):
    """Where people stand to work at a cell."""

    model = OperatorStation
    scope = staticmethod(selectors.stations_for)
    parent_field = "cell"
    serializer_class = OperatorStationSerializer
    filterset_class = filters.OperatorStationFilter

    def save_atomically(self, serializer, **extra) -> None:
        # Checked again under a lock on the cell, for its cap (cells.services).
        _saved(
            serializer,
            OperatorStation,
            lambda row, **kw: services.operator_station_save(station=row, **kw),
        )


class DeviceViewSet(OrganisationDataViewSet):
    """Safety devices of a cell. One named by a risk-assessment measure is kept
    (409 on delete): unlink it from the measure first."""

    model = Device
    scope = staticmethod(selectors.devices_for)
    parent_field = "cell"
    serializer_class = DeviceSerializer
    filterset_class = filters.DeviceFilter

    def save_atomically(self, serializer, **extra) -> None:
        # Checked again under a lock on the cell, for its cap (cells.services).
        _saved(
            serializer,
            Device,
            lambda row, **kw: services.device_save(device=row, **kw),
        )


class CanEditCellRecord(CanEditOrganisationData):
    """``CanEditOrganisationData`` for a record of a cell: the cell's
    organisation decides (``organisation_id_of`` does not know certificates)."""

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return can_edit(request.user, obj.cell.project.organisation_id)


class CellCertificateViewSet(OrganisationDataViewSet):
    """Certificates on file for a cell, e.g. the KIRIA collaborative-robot
    workplace safety certificate the Korean cobot route rests on. Filter by
    ``?cell=``."""

    model = CellCertificate
    scope = staticmethod(selectors.certificates_for)
    parent_field = "cell"
    permission_classes = [IsAuthenticated, CanEditCellRecord]
    serializer_class = CellCertificateSerializer
    filterset_class = filters.CellCertificateFilter

    def perform_create(self, serializer) -> None:
        self.require_edit_parent(serializer)
        self.save_atomically(serializer, created_by=self.request.user)

    def change(self, row, **kw):
        return services.certificate_save(certificate=row, **kw)
