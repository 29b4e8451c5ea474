"""The risk assessment over HTTP: assessments, revisions and their workflow,
hazards and measures.

Reads are scoped by ``compliance.assessment.selectors`` (another organisation's object is a
404, lists are empty). Every write goes through ``compliance.assessment.services`` with the
requesting user as the actor: the services check the role and the revision's
state, record the change in the audit trail, and refuse to overwrite a newer
change. Their errors become HTTP answers: ``ValidationError`` 400 (by the
project's exception handler), ``PermissionDenied`` 403, ``Conflict`` 409 with
the object's current values.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import django_filters
from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Model, Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from cells.api.errors import validation_detail
from cells.api.filters import IdFilter
from cells.api.permissions import CanEditOrganisationData
from cells.permissions import can_edit, require_edit
from compliance.assessment import selectors, services
from compliance.assessment.content import diff
from compliance.assessment.hazards import catalogue
from compliance.assessment.models import Assessment, Hazard, Measure, Phase, Revision
from compliance.assessment.serializers import (
    AssessmentDetailSerializer,
    AssessmentOpenSerializer,
    AssessmentSerializer,
    AuditEntrySerializer,
    DiffQuerySerializer,
    HazardSerializer,
    MeasureSerializer,
    RevisionDetailSerializer,
    RevisionDiffSerializer,
    RevisionLimitsSerializer,
    RevisionSerializer,
    SignPreviewSerializer,
    SignRequestSerializer,
    sign_preview,
)
from compliance.rules import selectors as rules_selectors

FIELD_ERRORS = OpenApiResponse(
    description="Bad input, or a change the revision's state refuses (a signed "
    "revision: start a new one): {field: [messages]} or non_field_errors."
)
FORBIDDEN = OpenApiResponse(description="Your role does not allow this.")


def _conflict_schema(name: str, serializer) -> OpenApiResponse:
    return OpenApiResponse(
        inline_serializer(
            name,
            fields={"detail": serializers.CharField(), "current": serializer()},
        ),
        description="Someone else saved it since you read it: nothing was "
        "written. ``current`` holds what is stored now.",
    )


def organisation_id_of(obj: Model) -> int:
    """The organisation owning an assessment, revision, hazard or measure, through
    the foreign keys the selectors ``select_related``."""
    if isinstance(obj, Assessment):
        return obj.cell.project.organisation_id
    if isinstance(obj, Revision):
        return obj.assessment.cell.project.organisation_id
    if isinstance(obj, Hazard):
        return obj.revision.assessment.cell.project.organisation_id
    if isinstance(obj, Measure):
        return obj.hazard.revision.assessment.cell.project.organisation_id
    raise TypeError(f"No organisation for {type(obj).__name__}")


class CanEditAssessment(CanEditOrganisationData):
    """Members read; editors of the object's organisation may ask for a change
    (the services then check what the role and the revision's state allow)."""

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return can_edit(request.user, organisation_id_of(obj))


class AssessmentDataViewSet(viewsets.GenericViewSet):
    """Scoped to the user's organisations by a selector; ids are numbers."""

    permission_classes = [IsAuthenticated, CanEditAssessment]
    lookup_value_regex = r"[0-9]+"
    model: type[Model]
    scope: Callable[[Any], QuerySet]

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):
            return self.model.objects.none()
        return self.scoped(type(self).scope(self.request.user))

    def scoped(self, queryset: QuerySet) -> QuerySet:
        """What each viewset loads with its objects."""
        return queryset

    def get_serializer_context(self) -> dict[str, Any]:
        # The cells' compliance checks, worked out once per request and cell
        # for every hazard and measure answered.
        return {
            **super().get_serializer_context(),
            "checks": rules_selectors.ChecksByCell(),
        }

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ObjectDoesNotExist):
            # Deleted by someone else while this request was being answered
            # (a service reads the row again after writing).
            exc = NotFound()
        return super().handle_exception(exc)

    def stored_data(self, pk: int, serializer_class=None) -> dict[str, Any]:
        """The object as stored now, serialized for the answer."""
        instance = self.get_queryset().get(pk=pk)
        serializer_class = serializer_class or self.get_serializer_class()
        return serializer_class(instance, context=self.get_serializer_context()).data

    def conflict(self, current: Model, message: str, serializer_class=None) -> Response:
        return Response(
            {
                "detail": message,
                "current": self.stored_data(current.pk, serializer_class),
            },
            status=status.HTTP_409_CONFLICT,
        )


# --- Assessments ----------------------------------------------------------------


class AssessmentFilter(django_filters.FilterSet):
    cell = IdFilter()
    project = IdFilter(field_name="cell__project")

    class Meta:
        model = Assessment
        fields = ["cell", "project"]


@extend_schema_view(
    list=extend_schema(summary="Risk assessments of the user's cells"),
    retrieve=extend_schema(
        summary="A risk assessment with its current revision in full",
        description="The current revision with its hazards, each with its "
        "measures, PLr, risk level, residual PLr and level, and whether its "
        "residual risk is acceptable (this product's rule, with reasons).",
    ),
)
class AssessmentViewSet(AssessmentDataViewSet, viewsets.ReadOnlyModelViewSet):
    """The risk assessment of each cell (ISO 12100), across its revisions."""

    model = Assessment
    scope = staticmethod(selectors.assessments_for)
    filterset_class = AssessmentFilter

    def scoped(self, queryset: QuerySet) -> QuerySet:
        revisions = Revision.objects.select_related(
            "created_by", "submitted_by", "approved_by", "signed_by", "declaration"
        ).order_by("-number")
        return queryset.prefetch_related(
            Prefetch("revisions", queryset=revisions)
        ).order_by("id")

    def get_serializer_class(self):
        if self.action == "retrieve":
            return AssessmentDetailSerializer
        if self.action == "create":
            return AssessmentOpenSerializer
        return AssessmentSerializer

    @extend_schema(
        summary="Open a cell's risk assessment",
        description="Creates the assessment and its revision 1 (201) the first "
        "time; afterwards answers the existing assessment (200).",
        request=AssessmentOpenSerializer,
        responses={
            201: AssessmentDetailSerializer,
            200: AssessmentDetailSerializer,
            400: FIELD_ERRORS,
            403: FORBIDDEN,
        },
    )
    def create(self, request: Request) -> Response:
        serializer = AssessmentOpenSerializer(
            data=request.data, context=self.get_serializer_context()
        )
        serializer.is_valid(raise_exception=True)
        cell = serializer.validated_data["cell"]
        # Opening is a change, even when the assessment exists already.
        require_edit(request.user, cell.project.organisation_id)
        existed = Assessment.objects.filter(cell=cell).exists()
        revision = services.assessment_open(cell=cell, actor=request.user)
        return Response(
            self.stored_data(revision.assessment_id, AssessmentDetailSerializer),
            status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED,
        )


# --- Revisions ------------------------------------------------------------------


class RevisionFilter(django_filters.FilterSet):
    assessment = IdFilter()
    cell = IdFilter(field_name="assessment__cell")

    class Meta:
        model = Revision
        fields = ["assessment", "cell", "status"]


REVISION_ACTION = {
    200: RevisionDetailSerializer,
    400: FIELD_ERRORS,
    403: FORBIDDEN,
    409: _conflict_schema("RevisionConflict", RevisionDetailSerializer),
}


@extend_schema_view(
    list=extend_schema(summary="Revisions of the user's risk assessments"),
    retrieve=extend_schema(summary="A revision with its hazards and measures"),
)
class RevisionViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, AssessmentDataViewSet
):
    """Numbered revisions of an assessment, their limits and their workflow:
    draft → in review → (approved) → signed; a signed revision is changed by
    starting the next one."""

    model = Revision
    scope = staticmethod(selectors.revisions_for)
    filterset_class = RevisionFilter

    def scoped(self, queryset: QuerySet) -> QuerySet:
        return queryset.select_related(
            "created_by", "submitted_by", "approved_by", "signed_by", "declaration"
        )

    def get_serializer_class(self):
        if self.action == "list":
            return RevisionSerializer
        if self.action == "partial_update":
            return RevisionLimitsSerializer
        return RevisionDetailSerializer

    @extend_schema(
        summary="Change the limits of the machine (ISO 12100 5.3)",
        request=RevisionLimitsSerializer,
        responses=REVISION_ACTION,
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        revision = self.get_object()
        serializer = RevisionLimitsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        limits = dict(serializer.validated_data)
        version = limits.pop("version")
        try:
            services.revision_update_limits(
                revision=revision, actor=request.user, version=version, **limits
            )
        except services.Conflict as exc:
            return self.conflict(
                exc.current,
                _(
                    "The limits were changed by someone else since you read them: "
                    "nothing was saved. Here are the current values."
                ),
                RevisionDetailSerializer,
            )
        return Response(self.stored_data(revision.pk, RevisionDetailSerializer))

    def _move(self, service, request: Request) -> Response:
        revision = self.get_object()
        try:
            service(revision=revision, actor=request.user)
        except services.Conflict as exc:
            return self.conflict(
                exc.current,
                _(
                    "The revision was changed by someone else, or is no longer "
                    "in a state that allows this: nothing was done. Here it is "
                    "as it is now."
                ),
                RevisionDetailSerializer,
            )
        return Response(self.stored_data(revision.pk, RevisionDetailSerializer))

    @extend_schema(
        summary="Submit a draft for review", request=None, responses=REVISION_ACTION
    )
    @action(detail=True, methods=["post"])
    def submit(self, request: Request, pk: str) -> Response:
        return self._move(services.revision_submit, request)

    @extend_schema(
        summary="Approve a revision in review (a second person)",
        request=None,
        responses=REVISION_ACTION,
    )
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, pk: str) -> Response:
        return self._move(services.revision_approve, request)

    @extend_schema(
        methods=["GET"],
        summary="What signing this revision declares",
        description="The statement the signer confirms and the open findings "
        "of the cell (fails, then those needing evidence) as they will stand "
        "once the revision is signed, each with the key to give its reason by. "
        "Once signed, the declaration that was made.",
        request=None,
        responses={200: SignPreviewSerializer},
    )
    @extend_schema(
        methods=["POST"],
        summary="Sign a revision (safety engineers): a declaration, then its "
        "content is frozen",
        description="Send the signer's ``password`` again, ``confirm: true`` "
        "for the statement, and in ``accepted`` a reason for each open fail by "
        "its key (GET this URL for them). A 400 names each missing or wrong "
        "field, and in ``accepted`` each finding still without a reason.",
        request=SignRequestSerializer,
        responses=REVISION_ACTION,
    )
    @action(detail=True, methods=["get", "post"])
    def sign(self, request: Request, pk: str) -> Response:
        revision = self.get_object()
        if request.method == "GET":
            return Response(
                sign_preview(
                    revision, services.revision_sign_preview(revision=revision)
                )
            )
        body = SignRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            services.revision_sign(
                revision=revision,
                actor=request.user,
                request=request,
                **body.validated_data,
            )
        except DjangoValidationError as exc:
            raise ValidationError(sign_error_detail(exc)) from exc
        except services.Conflict as exc:
            return self.conflict(
                exc.current,
                _(
                    "The revision was changed by someone else, or is no longer "
                    "in a state that allows this: nothing was done. Here it is "
                    "as it is now."
                ),
                RevisionDetailSerializer,
            )
        return Response(self.stored_data(revision.pk, RevisionDetailSerializer))

    @extend_schema(
        summary="Send a revision in review or approved back to draft",
        request=None,
        responses=REVISION_ACTION,
    )
    @action(detail=True, methods=["post"], url_path="return", url_name="return")
    def return_to_draft(self, request: Request, pk: str) -> Response:
        return self._move(services.revision_return, request)

    @extend_schema(
        summary="Start the next revision as a draft copy of this signed one",
        request=None,
        responses={
            201: RevisionDetailSerializer,
            400: FIELD_ERRORS,
            403: FORBIDDEN,
        },
    )
    @action(detail=True, methods=["post"], url_path="start-next", url_name="start-next")
    def start_next(self, request: Request, pk: str) -> Response:
        revision = self.get_object()
        copy = services.revision_start_next(revision=revision, actor=request.user)
        return Response(
            self.stored_data(copy.pk, RevisionDetailSerializer),
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary="What changed from another revision of the assessment to this one",
        parameters=[DiffQuerySerializer],
        responses={200: RevisionDiffSerializer, 400: FIELD_ERRORS},
        filters=False,
    )
    @action(detail=True, methods=["get"])
    def diff(self, request: Request, pk: str) -> Response:
        revision = self.get_object()
        query = DiffQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        against = (
            self.get_queryset()
            .filter(assessment_id=revision.assessment_id)
            .filter(pk=query.validated_data["against"])
            .first()
        )
        if against is None:
            raise ValidationError(
                {"against": [_("Choose another revision of the same assessment.")]}
            )
        changes = diff(
            selectors.revision_content(against), selectors.revision_content(revision)
        )
        data = {
            "from_revision": against,
            "to_revision": revision,
            "is_empty": changes.is_empty,
            "limits": changes.limits,
            "hazards": changes.hazards,
        }
        return Response(RevisionDiffSerializer(data).data)

    @extend_schema(
        summary="The audit trail of this revision, newest first",
        responses=AuditEntrySerializer(many=True),
        filters=False,
    )
    @action(detail=True, methods=["get"])
    def history(self, request: Request, pk: str) -> Response:
        revision = self.get_object()
        entries = selectors.history(revision.assessment).filter(
            revision_number=revision.number
        )
        page = self.paginate_queryset(entries)
        data = AuditEntrySerializer(page, many=True).data
        return self.get_paginated_response(data)


def sign_error_detail(exc: DjangoValidationError) -> dict[str, Any]:
    """A refused signing as the API answers it: messages by field, and under
    ``accepted`` the messages of each finding by its key."""
    if not hasattr(exc, "error_dict"):
        return validation_detail(exc)
    reasons = exc.error_dict.get("accepted", [])
    detail: dict[str, Any] = validation_detail(
        DjangoValidationError(
            {k: v for k, v in exc.error_dict.items() if k != "accepted"}
        )
    )
    if reasons:
        detail["accepted"] = {
            error.params["key"]: list(error) for error in reasons if error.params
        }
    return detail


# --- Hazards and measures -------------------------------------------------------


class ServiceWritesViewSet(AssessmentDataViewSet, viewsets.ModelViewSet, ABC):
    """A resource written only through services: create, update (with the
    version read) and delete, each answered with the object as stored."""

    conflict_message: str  # lazy: translated for each request

    @abstractmethod
    def add(self, data: dict[str, Any]) -> Model:
        """Create through the service; return the new object."""

    @abstractmethod
    def change(self, instance: Model, version: int, data: dict[str, Any]) -> None:
        """Update through the service, which raises Conflict on a stale version."""

    @abstractmethod
    def remove(self, instance: Model) -> None:
        """Delete through the service."""

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data.pop("version", None)
        instance = self.add(data)
        return Response(self.stored_data(instance.pk), status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        instance = self.get_object()
        serializer = self.get_serializer(
            instance, data=request.data, partial=kwargs.pop("partial", False)
        )
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        version = data.pop("version")
        try:
            self.change(instance, version, data)
        except services.Conflict as exc:
            return self.conflict(exc.current, self.conflict_message)
        return Response(self.stored_data(instance.pk))

    def perform_destroy(self, instance: Model) -> None:
        self.remove(instance)


class HazardFilter(django_filters.FilterSet):
    revision = IdFilter()
    assessment = IdFilter(field_name="revision__assessment")
    group = django_filters.ChoiceFilter(choices=catalogue.group_choices())
    phase = django_filters.ChoiceFilter(choices=Phase.choices)

    class Meta:
        model = Hazard
        fields = ["revision", "assessment", "group", "phase"]


HAZARD_WRITE = {
    400: FIELD_ERRORS,
    403: FORBIDDEN,
    409: _conflict_schema("HazardConflict", HazardSerializer),
}


@extend_schema_view(
    create=extend_schema(
        summary="Add a hazard to a draft revision",
        responses={201: HazardSerializer, 400: FIELD_ERRORS, 403: FORBIDDEN},
    ),
    update=extend_schema(
        summary="Replace a hazard (send the version you read)",
        responses={200: HazardSerializer, **HAZARD_WRITE},
    ),
    partial_update=extend_schema(
        summary="Change a hazard (send the version you read)",
        responses={200: HazardSerializer, **HAZARD_WRITE},
    ),
    destroy=extend_schema(
        summary="Delete a hazard of a draft revision, with its measures",
        responses={204: None, 400: FIELD_ERRORS, 403: FORBIDDEN},
    ),
)
class HazardViewSet(ServiceWritesViewSet):
    """Hazards of the user's revisions, with their measures and risk."""

    model = Hazard
    scope = staticmethod(selectors.hazards_for)
    serializer_class = HazardSerializer
    filterset_class = HazardFilter
    conflict_message = gettext_lazy(
        "This hazard was changed by someone else since you read it: nothing was "
        "saved. Here are its current values."
    )

    def scoped(self, queryset: QuerySet) -> QuerySet:
        return queryset.prefetch_related("measures")

    def add(self, data: dict[str, Any]) -> Hazard:
        revision = data.pop("revision")
        return services.hazard_add(revision=revision, actor=self.request.user, **data)

    def change(self, instance: Hazard, version: int, data: dict[str, Any]) -> None:
        data.pop("revision", None)
        services.hazard_update(
            hazard=instance, actor=self.request.user, version=version, **data
        )

    def remove(self, instance: Hazard) -> None:
        services.hazard_delete(hazard=instance, actor=self.request.user)


class MeasureFilter(django_filters.FilterSet):
    hazard = IdFilter()
    revision = IdFilter(field_name="hazard__revision")
    device = IdFilter()

    class Meta:
        model = Measure
        fields = ["hazard", "revision", "device", "step"]


MEASURE_WRITE = {
    400: FIELD_ERRORS,
    403: FORBIDDEN,
    409: _conflict_schema("MeasureConflict", MeasureSerializer),
}


@extend_schema_view(
    create=extend_schema(
        summary="Add a measure to a hazard of a draft revision",
        responses={201: MeasureSerializer, 400: FIELD_ERRORS, 403: FORBIDDEN},
    ),
    update=extend_schema(
        summary="Replace a measure (send the version you read)",
        responses={200: MeasureSerializer, **MEASURE_WRITE},
    ),
    partial_update=extend_schema(
        summary="Change a measure (send the version you read)",
        responses={200: MeasureSerializer, **MEASURE_WRITE},
    ),
    destroy=extend_schema(
        summary="Delete a measure of a draft revision",
        responses={204: None, 400: FIELD_ERRORS, 403: FORBIDDEN},
    ),
)
class MeasureViewSet(ServiceWritesViewSet):
    """Risk-reduction measures against the user's hazards."""

    model = Measure
    scope = staticmethod(selectors.measures_for)
    serializer_class = MeasureSerializer
    filterset_class = MeasureFilter
    conflict_message = gettext_lazy(
        "This measure was changed by someone else since you read it: nothing was "
        "saved. Here are its current values."
    )

    def add(self, data: dict[str, Any]) -> Measure:
        hazard = data.pop("hazard")
        return services.measure_add(hazard=hazard, actor=self.request.user, **data)

    def change(self, instance: Measure, version: int, data: dict[str, Any]) -> None:
        data.pop("hazard", None)
        services.measure_update(
            measure=instance, actor=self.request.user, version=version, **data
        )

    def remove(self, instance: Measure) -> None:
        services.measure_delete(measure=instance, actor=self.request.user)
