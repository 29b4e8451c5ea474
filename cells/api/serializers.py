"""Serializers: field mapping and validation only; writes happen in the views.

Every rule about a layout lives on the models (``clean()``); ``ModelCleanMixin``
runs it so the API refuses exactly what the pages refuse.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Model, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from pydantic import ValidationError as PydanticValidationError
from rest_framework import serializers

from cells import selectors
from cells.api.errors import validation_detail
from cells.exchange import (
    COORDINATE_LIMIT_MM,
    FORMAT,
    MAX_DEVICES,
    MAX_GUARD_SEGMENTS,
    MAX_OPENINGS,
    MAX_OPERATOR_STATIONS,
    POLYGON_MAX_CORNERS,
    CellDocument,
)
from cells.models import (
    Cell,
    CellCertificate,
    CollaborativeMode,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Project,
)
from cells.models.cell import TASK_TYPE_CHOICES
from cells.models.projects import default_currency
from cells.permissions import editable_organisation_ids
from compliance.calculators import editions as editions_registry
from compliance.calculators.editions import STANDARDS
from compliance.calculators.ts15066_tables import BodyRegion
from compliance.safety_functions.library import selectors as library_selectors
from compliance.safety_functions.library import services as library_services

# The exchange document is described in words: pydantic's JSON Schema (2020-12)
# is not valid OpenAPI 3.0, which the schema is validated against.
DOCUMENT_HELP = (
    f"A cell exchange document (format {FORMAT!r}), as returned by "
    "GET /api/v1/cells/{id}/export/: name, task_description, application (its "
    "task_type follows from it; in an older document without one, the task_type "
    "gives it), robot, robot_base, hazard_zone, guard_segments (each with openings), operator_stations and "
    "devices. Fields added since the format began are optional. Bounded as the "
    f"rest of the API: coordinates within ±{COORDINATE_LIMIT_MM:,} mm, lengths up "
    f"to {COORDINATE_LIMIT_MM:,} mm, at most {POLYGON_MAX_CORNERS} hazard-zone "
    f"corners, {MAX_GUARD_SEGMENTS} guard segments, {MAX_OPENINGS} openings, "
    f"{MAX_DEVICES} devices and {MAX_OPERATOR_STATIONS} operator stations."
)


@extend_schema_field(OpenApiTypes.INT)
class OwnedRelatedField(serializers.PrimaryKeyRelatedField):
    """The id of a related object, looked up only among the requesting user's.

    A foreign id is answered like a missing one ("object does not exist"), so
    the API never tells whether another organisation's object exists.
    """

    def __init__(self, *, selector: Callable[[Any], QuerySet], **kwargs: Any):
        self.selector = selector
        super().__init__(**kwargs)

    def get_queryset(self) -> QuerySet:
        return self.selector(self.context["request"].user)


class CappedListField(serializers.ListField):
    """A list whose length is checked before its items: 10,000 corners are
    refused at once, not after 10,000 items have been validated."""

    def to_internal_value(self, data):
        if (
            self.max_length is not None
            and isinstance(data, list)
            and len(data) > self.max_length
        ):
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class ModelCleanMixin:
    """Runs the model's ``clean()`` on the object as it would be saved.

    ModelSerializer checks fields one by one but never calls ``clean()``, where
    the domain rules live (a segment of zero length, an opening wider than its
    segment...). Django's messages come back as DRF field errors.
    """

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)  # type: ignore[misc]
        try:
            self._candidate(attrs).clean()
        except DjangoValidationError as exc:
            raise serializers.ValidationError(validation_detail(exc)) from exc
        return attrs

    def _candidate(self, attrs: dict[str, Any]) -> Model:
        """A new object, or a copy of the instance, with the validated values."""
        instance = self.instance  # type: ignore[attr-defined]
        if instance is None:
            return self.Meta.model(**attrs)  # type: ignore[attr-defined]
        # A copy, so that a refused update leaves the instance untouched.
        candidate = copy.copy(instance)
        for name, value in attrs.items():
            setattr(candidate, name, value)
        return candidate


def version_field() -> serializers.IntegerField:
    """The row's version: read it with the object, send it back with a
    change. A change sent with a version someone else's save has raised since
    answers 409 with the object as stored and the fields that differ; without
    one, only the fields sent are written (issue 28)."""
    return serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2_147_483_647,
        help_text=(
            "The version you read; on a change, a newer stored version answers "
            "409 with the current object."
        ),
    )


class ProjectSerializer(ModelCleanMixin, serializers.ModelSerializer):
    """A customer project; ``organisation`` is one the user may edit."""

    organisation = OwnedRelatedField(
        selector=selectors.organisations_for,
        required=False,
        help_text=(
            "Optional when you can edit exactly one organisation: that one is used."
        ),
    )

    # Only the standards with two editions in force may be chosen, each
    # once: the object holds at most one entry per such standard.
    standard_editions = serializers.DictField(
        child=serializers.CharField(max_length=8),
        required=False,
        help_text="The edition chosen for each standard with two in force, e.g. "
        '{"iso13855": "2024"} (ISO 13855:2010 or ISO 13855:2024). A standard left '
        "out takes the jurisdiction's default (see editions).",
    )
    jurisdiction = serializers.CharField(
        read_only=True,
        help_text="The rule packs' jurisdiction, from the country: KR, EU (EU and "
        "EEA), US or INTL (the international baseline only).",
    )
    editions = serializers.DictField(
        child=serializers.CharField(),
        read_only=True,
        help_text="The edition of every standard the project computes with "
        "(standard: year): its choices, else its jurisdiction's defaults.",
    )

    def validate_standard_editions(self, value: dict) -> dict:
        if len(value) > len(STANDARDS):
            raise serializers.ValidationError(
                f"At most {len(STANDARDS)} entries, one per standard."
            )
        problems = editions_registry.choice_problems(value)
        if problems:
            raise serializers.ValidationError(problems)
        return value

    class Meta:
        model = Project
        fields = [
            "id",
            "organisation",
            "name",
            "customer_name",
            "site_name",
            "country",
            "proposal_language",
            "currency",
            "time_zone",
            "planned_start",
            "standard_editions",
            "jurisdiction",
            "editions",
            "created_by",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["created_by", "created_at", "updated_at"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is None and "organisation" not in attrs:
            attrs["organisation"] = self._only_editable_organisation()
        if self.instance is None and not attrs.get("currency"):
            # A new project proposes in its country's currency unless it says.
            attrs["currency"] = default_currency(attrs.get("country") or "KR")
        return super().validate(attrs)

    def _only_editable_organisation(self):
        user = self.context["request"].user
        editable = editable_organisation_ids(user)
        if len(editable) != 1:
            raise serializers.ValidationError(
                {
                    "organisation": [
                        _("Say which organisation: you can edit more than one.")
                    ]
                }
            )
        return selectors.organisations_for(user).get(pk=editable[0])


class CellSerializer(ModelCleanMixin, serializers.ModelSerializer):
    """A robot cell: the robot, its task and its hazard zone."""

    version = version_field()

    project = OwnedRelatedField(selector=selectors.projects_for)
    organisation = serializers.IntegerField(
        source="project.organisation_id", read_only=True
    )
    # Typed (pairs of whole millimetres) rather than free JSON, so that every
    # stored outline can be exported: the exchange document wants integers.
    hazard_zone_polygon_mm = CappedListField(
        child=serializers.ListField(
            child=serializers.IntegerField(
                min_value=-COORDINATE_LIMIT_MM, max_value=COORDINATE_LIMIT_MM
            ),
            min_length=2,
            max_length=2,
        ),
        max_length=POLYGON_MAX_CORNERS,
        required=False,
        help_text="Corner points [[x, y], ...] when the zone is a polygon.",
    )
    # Follows from the application (cells.applications): shown for the clients
    # of before applications, never written.
    task_type = serializers.ChoiceField(
        choices=TASK_TYPE_CHOICES,
        read_only=True,
        help_text="How the application is planned in the sim-first comparison, "
        "derived from it.",
    )
    # Repeats are refused by Cell.clean(), as on the page.
    collaborative_modes = serializers.ListField(
        child=serializers.ChoiceField(choices=CollaborativeMode.choices),
        max_length=len(CollaborativeMode.values),
        required=False,
        help_text="The ISO/TS 15066 modes the cell uses, each for its own zone or "
        "task, without repeats; empty when it does not work collaboratively.",
    )

    class Meta:
        model = Cell
        fields = [
            "id",
            "version",
            "project",
            "organisation",
            "name",
            "robot_manufacturer",
            "robot_model",
            "robot_kind",
            "payload_kg",
            "reach_mm",
            "max_tcp_speed_mm_s",
            "moving_mass_kg",
            "end_effector_mm",
            "workpiece_mm",
            "task_description",
            "application",
            "task_type",
            "robot_base_x_mm",
            "robot_base_y_mm",
            "robot_base_rotation_deg",
            "stopping_time_ms",
            "stopping_distance_mm",
            "programmed_speed_mm_s",
            "collaborative_modes",
            "hazard_zone_height_mm",
            "hazard_zone_lower_mm",
            "hazard_zone_shape",
            "hazard_zone_radius_mm",
            "hazard_zone_polygon_mm",
            "hazard_zone_reduction_reason",
            "safety_config_kind",
            "safety_config_value",
            "safety_rated_limits",
            "annex_i_category",
            "conformity_procedure",
            "harmonised_standards",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["created_at", "updated_at"]
        # Refused before it reaches Cell.clean(), with the bound in the schema.
        extra_kwargs = {
            "hazard_zone_radius_mm": {"min_value": 1},
            # Optional, as the task type was for the clients of before
            # applications: a cell created without one is pick-and-place.
            "application": {
                "help_text": "What the cell does; the hazards proposed and the "
                "sim-first maturity follow from it. Without one, a new cell is "
                "pick_and_place (as a cell without a task type was)."
            },
        }


class GuardSegmentSerializer(ModelCleanMixin, serializers.ModelSerializer):
    """A straight piece of a cell's guard; ``length_mm`` is computed."""

    version = version_field()

    cell = OwnedRelatedField(selector=selectors.cells_for)
    length_mm = serializers.SerializerMethodField()

    class Meta:
        model = GuardSegment
        fields = [
            "id",
            "version",
            "cell",
            "label",
            "start_x_mm",
            "start_y_mm",
            "end_x_mm",
            "end_y_mm",
            "height_mm",
            "bottom_gap_mm",
            "kind",
            "mesh_opening_mm",
            "length_mm",
        ]

    def get_length_mm(self, segment: GuardSegment) -> float:
        return round(segment.length_mm, 1)


class OpeningSerializer(ModelCleanMixin, serializers.ModelSerializer):
    """A gap in a guard segment, measured along it from its start."""

    version = version_field()

    segment = OwnedRelatedField(selector=selectors.segments_for)
    cell = serializers.IntegerField(source="segment.cell_id", read_only=True)

    class Meta:
        model = Opening
        fields = [
            "id",
            "version",
            "segment",
            "cell",
            "label",
            "offset_mm",
            "width_mm",
            "lower_edge_mm",
            "upper_edge_mm",
            "purpose",
        ]


class OperatorStationSerializer(ModelCleanMixin, serializers.ModelSerializer):
    """Where a person stands to work at a cell."""

    version = version_field()

    cell = OwnedRelatedField(selector=selectors.cells_for)
    exposed_regions = serializers.ListField(
        child=serializers.ChoiceField(choices=[str(r) for r in BodyRegion]),
        max_length=len(BodyRegion),
        required=False,
        help_text="ISO/TS 15066 body regions the robot can touch at the station.",
    )

    class Meta:
        model = OperatorStation
        fields = [
            "id",
            "version",
            "cell",
            "label",
            "x_mm",
            "y_mm",
            "exposed_regions",
            "contact_reach_mm",
        ]


class DeviceSerializer(ModelCleanMixin, serializers.ModelSerializer):
    """A safety device of a cell; ``opening`` (optional) must be of the same cell.
    Choosing a ``library_device`` copies its figures into the device."""

    version = version_field()

    cell = OwnedRelatedField(selector=selectors.cells_for)
    opening = OwnedRelatedField(
        selector=selectors.openings_for,
        required=False,
        allow_null=True,
        help_text="The opening the device guards: one of the same cell's.",
    )
    library_device = OwnedRelatedField(
        selector=library_selectors.library_devices_for,
        required=False,
        allow_null=True,
        help_text="An entry of the cell's organisation's device library, of a kind "
        "this device can be. Choosing one (a new one) copies its PL, response time "
        "(rounded up to whole ms), IEC 61496 type, detection capability and KCs "
        "certificate into the device, in place of the values sent.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        chosen = attrs.get("library_device")
        instance = self.instance
        if chosen is not None and (
            instance is None or chosen.pk != instance.library_device_id
        ):
            # Newly chosen: its figures are copied in, then checked with the rest.
            attrs.update(self._library_values(chosen, attrs))
        return super().validate(attrs)

    def _library_values(self, chosen, attrs: dict[str, Any]) -> dict[str, Any]:
        instance = self.instance
        current = {
            name: attrs.get(name, getattr(instance, name, None))
            for name in ("cell", "kind", *library_services.EMPTY_DEVICE_VALUES)
        }
        previous = (
            instance.library_device
            if instance is not None and instance.library_device_id
            else None
        )
        try:
            return library_services.library_device_values(
                library_device=chosen,
                device_kind=current["kind"],
                organisation_id=current["cell"].project.organisation_id,
                previous=previous,
                current=current,
            )
        except DjangoValidationError as exc:
            raise serializers.ValidationError(validation_detail(exc)) from exc

    class Meta:
        model = Device
        fields = [
            "id",
            "version",
            "cell",
            "kind",
            "label",
            "opening",
            "claimed_pl",
            "response_time_ms",
            "iec61496_type",
            "guard_locking",
            "existing",
            "kcs_certified",
            "kcs_certificate_no",
            "detection_capability_mm",
            "beam_count",
            "protective_field_mm",
            "x1_mm",
            "y1_mm",
            "x2_mm",
            "y2_mm",
            "detection_lower_mm",
            "detection_upper_mm",
            "field_height_mm",
            "supplement_z_mm",
            "reach_over_ddo_mm",
            "library_device",
        ]


class CellCertificateSerializer(ModelCleanMixin, serializers.ModelSerializer):
    """A certificate on file for a cell, e.g. the KIRIA collaborative-robot
    workplace safety certificate; ``valid_until`` is after ``issued_on``."""

    version = version_field()

    cell = OwnedRelatedField(selector=selectors.cells_for)

    class Meta:
        model = CellCertificate
        fields = [
            "id",
            "version",
            "cell",
            "kind",
            "issuing_body",
            "number",
            "issued_on",
            "valid_until",
            "scope",
            "created_by",
            "created_at",
        ]
        read_only_fields = ["created_by", "created_at"]


class CellImportSerializer(serializers.Serializer):
    """The body of ``POST /cells/import/``: where to put the cell, and the cell."""

    project = OwnedRelatedField(selector=selectors.projects_for)
    document = extend_schema_field(OpenApiTypes.OBJECT)(
        serializers.DictField(help_text=DOCUMENT_HELP)
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs["document"] = _parse_document(attrs["document"])
        return attrs


def _parse_document(data: dict[str, Any]) -> CellDocument:
    """The exchange document, or a ValidationError keyed by dotted body paths."""
    given = data.get("format", FORMAT)
    if given != FORMAT:
        raise serializers.ValidationError(
            {
                "document.format": [
                    _("Unknown format %(given)r: this server reads %(known)r.")
                    % {"given": given, "known": FORMAT}
                ]
            }
        )
    try:
        return CellDocument.model_validate(data)
    except PydanticValidationError as exc:
        errors: dict[str, list[str]] = {}
        for error in exc.errors(include_url=False):
            key = ".".join(["document", *(str(part) for part in error["loc"])])
            errors.setdefault(key, []).append(error["msg"])
        raise serializers.ValidationError(errors) from exc
