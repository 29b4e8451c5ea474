"""Serializers of the risk-assessment API: field mapping, input validation, and
each hazard's risk worked out for reading.

Nothing here writes: the views hand the validated values to
``compliance.assessment.services``, which check the revision's state and the person's role.
"""

from __future__ import annotations

import functools
from typing import Any, get_args

from django.utils.translation import gettext
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cells import selectors as cell_selectors
from cells.api.serializers import OwnedRelatedField
from cells.models import PerformanceLevel
from compliance.assessment import selectors, services
from compliance.assessment.audit import AuditEntry
from compliance.assessment.hazards import catalogue, risk
from compliance.assessment.models import Assessment, Hazard, Measure, Revision

VERSION_HELP = (
    "The version you read. Required to change the object: if someone saved it "
    "since, nothing is written and the answer is 409 with its current values."
)
# Named once in the schema (SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]).
RISK_LEVEL_CHOICES = [band.level for band in risk.RISK_LEVELS]


def _required_version() -> serializers.ValidationError:
    return serializers.ValidationError(
        {"version": [_("Send the version you read, to change this.")]}
    )


class UserRefSerializer(serializers.Serializer):
    """Who did something."""

    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)


# --- Measures -------------------------------------------------------------------


class MeasureSerializer(serializers.ModelSerializer):
    """A risk-reduction measure against one hazard (ISO 12100 three-step method).

    ``device`` and ``segment`` (at most one) must be of the hazard's cell. When
    ``is_safety_function`` is set without ``plr_required``, the hazard's PLr is
    taken; a device's claimed PL fills ``pl_claimed`` when it is not given.
    """

    hazard = OwnedRelatedField(
        selector=selectors.hazards_for,
        help_text="The hazard, of a draft revision. Cannot be changed later.",
    )
    device = OwnedRelatedField(
        selector=cell_selectors.devices_for,
        required=False,
        allow_null=True,
        help_text="A safety device of the hazard's cell.",
    )
    segment = OwnedRelatedField(
        selector=cell_selectors.segments_for,
        required=False,
        allow_null=True,
        help_text="A guard segment of the hazard's cell.",
    )
    version = serializers.IntegerField(
        required=False, min_value=1, help_text=VERSION_HELP
    )
    pl_below_plr = serializers.BooleanField(
        read_only=True,
        help_text="A safety function whose claimed PL is missing or below its PLr.",
    )

    class Meta:
        model = Measure
        fields = [
            "id",
            "key",
            "hazard",
            "step",
            "description",
            "device",
            "segment",
            "linked_label",
            "collaborative_mode",
            "is_safety_function",
            "plr_required",
            "pl_claimed",
            "pl_below_plr",
            "version",
        ]
        read_only_fields = ["key", "linked_label"]
        # The (hazard, key) constraint: keys are made by the server.
        validators: list[Any] = []

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is not None:
            if "version" not in attrs:
                raise _required_version()
            hazard = attrs.get("hazard")
            if hazard is not None and hazard.pk != self.instance.hazard_id:
                raise serializers.ValidationError(
                    {"hazard": [_("A measure cannot move to another hazard.")]}
                )
        return attrs


# --- Hazards --------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _estimate(severity: str, frequency: str, avoidance: str, low: bool):
    # Pure and called for every hazard of a register: S, F, P and the flag
    # take 16 values in all.
    return risk.estimate(severity, frequency, avoidance, low_probability=low)


def hazard_estimates(hazard: Hazard) -> tuple[Any, Any]:
    """The initial and residual estimates of a hazard, each None until estimated."""

    def one(prefix: str):
        if not all(
            getattr(hazard, f"{prefix}{name}")
            for name in ("severity", "frequency", "avoidance")
        ):
            return None
        return _estimate(
            getattr(hazard, f"{prefix}severity"),
            getattr(hazard, f"{prefix}frequency"),
            getattr(hazard, f"{prefix}avoidance"),
            getattr(hazard, f"{prefix}low_probability"),
        )

    return one(""), one("residual_")


def hazard_acceptability(hazard: Hazard) -> risk.Acceptability:
    """The product's acceptance rule on the hazard (its measures prefetched)."""
    initial, residual = hazard_estimates(hazard)
    measures = hazard.measures.all()
    measures_pl_ok = not any(m.pl_below_plr for m in measures)
    return risk.residual_acceptable(
        initial, residual, measures_pl_ok, measure_steps=[m.step for m in measures]
    )


def _label(lookup, *ids: str) -> str:
    """The catalogue's text for an id, translated; the id itself if unknown."""
    try:
        item = lookup(*ids)
    except ValueError:
        return ids[-1]
    return gettext(getattr(item, "name", None) or item.text)


class ReasonSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=list(get_args(risk.ReasonCode)))
    text = serializers.CharField()


_PL_FIELD = serializers.ChoiceField(choices=PerformanceLevel.choices, allow_null=True)
_LEVEL_FIELD = serializers.ChoiceField(choices=RISK_LEVEL_CHOICES, allow_null=True)


class HazardSerializer(serializers.ModelSerializer):
    """A hazard of a revision (ISO 12100 Annex B), with its risk worked out.

    ``group``, ``origin`` and ``consequence`` are catalogue ids (an origin and a
    consequence of the group); ``location_key`` names a place of the cell's
    layout (``segment:12``, ``opening:7``, ``station:3``). ``plr`` and
    ``risk_level`` follow from S, F and P (ISO 13849-1 Annex A), the
    ``residual_`` ones from the residual parameters; both are null until
    estimated. The risk level bands and the acceptance rule are this product's
    choices, not a standard's.
    """

    revision = OwnedRelatedField(
        selector=selectors.revisions_for,
        help_text="A draft revision. Cannot be changed later.",
    )
    group = serializers.ChoiceField(choices=catalogue.group_choices())
    origin = serializers.CharField(
        max_length=80, help_text="An origin id of the hazard group."
    )
    consequence = serializers.CharField(
        max_length=80, help_text="A consequence id of the hazard group."
    )
    version = serializers.IntegerField(
        required=False, min_value=1, help_text=VERSION_HELP
    )
    group_label = serializers.SerializerMethodField()
    origin_label = serializers.SerializerMethodField()
    consequence_label = serializers.SerializerMethodField()
    plr = serializers.SerializerMethodField()
    risk_level = serializers.SerializerMethodField()
    residual_plr = serializers.SerializerMethodField()
    residual_risk_level = serializers.SerializerMethodField()
    acceptable = serializers.SerializerMethodField()
    reasons = serializers.SerializerMethodField()
    measures = MeasureSerializer(many=True, read_only=True)

    class Meta:
        model = Hazard
        fields = [
            "id",
            "key",
            "revision",
            "order",
            "group",
            "group_label",
            "origin",
            "origin_label",
            "consequence",
            "consequence_label",
            "description",
            "phase",
            "task",
            "location_key",
            "location_label",
            "body_region",
            "contact_type",
            "contact_area_cm2",
            "severity",
            "frequency",
            "avoidance",
            "low_probability",
            "residual_severity",
            "residual_frequency",
            "residual_avoidance",
            "residual_low_probability",
            "plr",
            "risk_level",
            "residual_plr",
            "residual_risk_level",
            "acceptable",
            "reasons",
            "measures",
            "version",
        ]
        read_only_fields = ["key", "order", "location_label"]
        validators: list[Any] = []

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        instance: Hazard | None = self.instance
        if instance is not None:
            if "version" not in attrs:
                raise _required_version()
            revision = attrs.get("revision")
            if revision is not None and revision.pk != instance.revision_id:
                raise serializers.ValidationError(
                    {"revision": [_("A hazard cannot move to another revision.")]}
                )
        if {"group", "origin", "consequence"} & attrs.keys():
            self._check_catalogue(attrs, instance)
        return attrs

    def _check_catalogue(self, attrs: dict[str, Any], instance: Hazard | None):
        """Origin and consequence must be the group's, each named where it is wrong."""

        def value(name: str) -> str:
            return attrs[name] if name in attrs else getattr(instance, name, "")

        group = catalogue.group(value("group"))
        errors = {}
        for name, lookup in (
            ("origin", group.origin),
            ("consequence", group.consequence),
        ):
            try:
                lookup(value(name))
            except catalogue.UnknownId:
                errors[name] = [
                    _("Choose an item of hazard group “%(group)s” (ISO 12100 Annex B).")
                    % {"group": gettext(group.name)}
                ]
        if errors:
            raise serializers.ValidationError(errors)

    def get_group_label(self, hazard: Hazard) -> str:
        return _label(catalogue.group, hazard.group)

    def get_origin_label(self, hazard: Hazard) -> str:
        return _label(catalogue.origin, hazard.group, hazard.origin)

    def get_consequence_label(self, hazard: Hazard) -> str:
        return _label(catalogue.consequence, hazard.group, hazard.consequence)

    @extend_schema_field(_PL_FIELD)
    def get_plr(self, hazard: Hazard) -> str | None:
        initial, _residual = hazard_estimates(hazard)
        return initial.effective_plr if initial else None

    @extend_schema_field(_LEVEL_FIELD)
    def get_risk_level(self, hazard: Hazard) -> str | None:
        initial, _residual = hazard_estimates(hazard)
        return initial.level if initial else None

    @extend_schema_field(_PL_FIELD)
    def get_residual_plr(self, hazard: Hazard) -> str | None:
        _initial, residual = hazard_estimates(hazard)
        return residual.effective_plr if residual else None

    @extend_schema_field(_LEVEL_FIELD)
    def get_residual_risk_level(self, hazard: Hazard) -> str | None:
        _initial, residual = hazard_estimates(hazard)
        return residual.level if residual else None

    def get_acceptable(self, hazard: Hazard) -> bool:
        return hazard_acceptability(hazard).acceptable

    @extend_schema_field(ReasonSerializer(many=True))
    def get_reasons(self, hazard: Hazard) -> list[dict[str, str]]:
        return [
            {"code": reason.code, "text": reason.render(gettext)}
            for reason in hazard_acceptability(hazard).reasons
        ]


# --- Revisions ------------------------------------------------------------------


class RevisionSummarySerializer(serializers.ModelSerializer):
    """A revision in a list of an assessment's revisions."""

    class Meta:
        model = Revision
        fields = ["id", "number", "status", "version", "signed_at"]


class RevisionSerializer(serializers.ModelSerializer):
    """A numbered revision of an assessment: its state, limits and sign-off."""

    cell = serializers.IntegerField(source="assessment.cell_id", read_only=True)
    created_by = UserRefSerializer(read_only=True, allow_null=True)
    submitted_by = UserRefSerializer(read_only=True, allow_null=True)
    approved_by = UserRefSerializer(read_only=True, allow_null=True)
    signed_by = UserRefSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Revision
        fields = [
            "id",
            "assessment",
            "cell",
            "number",
            "status",
            "version",
            "based_on",
            "intended_use",
            "foreseeable_misuse",
            "space_limits",
            "time_limits",
            "exposed_persons",
            "low_guard_justification",
            "conformity_route",
            "created_by",
            "created_at",
            "submitted_by",
            "submitted_at",
            "approved_by",
            "approved_at",
            "signed_by",
            "signed_at",
            "content_hash",
        ]
        read_only_fields = fields


class RevisionDetailSerializer(RevisionSerializer):
    """A revision with its hazards (each with its measures and risk) and, once
    signed, whether its content still hashes to what was signed."""

    intact = serializers.SerializerMethodField(
        help_text="Signed revisions: the content still matches content_hash. "
        "Null until signed."
    )
    hazards = serializers.SerializerMethodField()

    class Meta(RevisionSerializer.Meta):
        fields = [*RevisionSerializer.Meta.fields, "intact", "hazards"]
        read_only_fields = fields

    def get_intact(self, revision: Revision) -> bool | None:
        return services.revision_is_intact(revision) if revision.is_signed else None

    @extend_schema_field(HazardSerializer(many=True))
    def get_hazards(self, revision: Revision) -> list[dict[str, Any]]:
        return HazardSerializer(
            selectors.register(revision), many=True, context=self.context
        ).data


class RevisionLimitsSerializer(serializers.Serializer):
    """The limits of the machine (ISO 12100:2010 5.3), as a PATCH of a revision."""

    version = serializers.IntegerField(min_value=1, help_text=VERSION_HELP)
    intended_use = serializers.CharField(required=False, allow_blank=True)
    foreseeable_misuse = serializers.CharField(required=False, allow_blank=True)
    space_limits = serializers.CharField(required=False, allow_blank=True)
    time_limits = serializers.CharField(required=False, allow_blank=True)
    low_guard_justification = serializers.CharField(required=False, allow_blank=True)
    conformity_route = serializers.CharField(required=False, allow_blank=True)
    exposed_persons = serializers.ListField(
        child=serializers.ChoiceField(choices=catalogue.exposed_person_choices()),
        required=False,
        max_length=len(catalogue.EXPOSED_PERSONS),
    )

    def validate_exposed_persons(self, value: list[str]) -> list[str]:
        return list(dict.fromkeys(value))  # each kind once, in the order given


class AuditEntrySerializer(serializers.ModelSerializer):
    """One change recorded in the assessment's audit trail."""

    actor = serializers.SerializerMethodField()

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "at",
            "actor",
            "action",
            "object_type",
            "object_key",
            "before",
            "after",
        ]

    def get_actor(self, entry: AuditEntry) -> str | None:
        return entry.actor.username if entry.actor else None


# --- Diff -----------------------------------------------------------------------


class FieldChangeSerializer(serializers.Serializer):
    field = serializers.CharField()
    before = serializers.JSONField()
    after = serializers.JSONField()


class MeasureChangeSerializer(serializers.Serializer):
    key = serializers.CharField()
    description = serializers.CharField()
    kind = serializers.ChoiceField(choices=["added", "removed", "changed"])
    fields = FieldChangeSerializer(many=True)


class HazardChangeSerializer(serializers.Serializer):
    key = serializers.CharField()
    task = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=["added", "removed", "re_estimated", "changed"]
    )
    fields = FieldChangeSerializer(many=True)
    measures = MeasureChangeSerializer(many=True)


class RevisionDiffSerializer(serializers.Serializer):
    """What changed from one revision (``against``) to this one."""

    from_revision = RevisionSummarySerializer()
    to_revision = RevisionSummarySerializer()
    is_empty = serializers.BooleanField()
    limits = FieldChangeSerializer(many=True)
    hazards = HazardChangeSerializer(many=True)


class DiffQuerySerializer(serializers.Serializer):
    against = serializers.IntegerField(
        help_text="The id of another revision of the same assessment, to compare "
        "this one with (usually the one before)."
    )


# --- Assessments ----------------------------------------------------------------


class AssessmentSerializer(serializers.ModelSerializer):
    """A cell's risk assessment, with its revisions, newest first."""

    cell_name = serializers.CharField(source="cell.name", read_only=True)
    revisions = RevisionSummarySerializer(many=True, read_only=True)
    current_revision = serializers.SerializerMethodField()

    class Meta:
        model = Assessment
        fields = [
            "id",
            "cell",
            "cell_name",
            "created_at",
            "current_revision",
            "revisions",
        ]
        read_only_fields = fields

    @extend_schema_field(RevisionSummarySerializer)
    def get_current_revision(self, assessment: Assessment) -> dict[str, Any] | None:
        current = _current(assessment)
        return RevisionSummarySerializer(current).data if current else None


class AssessmentDetailSerializer(AssessmentSerializer):
    """An assessment with its current revision in full."""

    @extend_schema_field(RevisionDetailSerializer)
    def get_current_revision(self, assessment: Assessment) -> dict[str, Any] | None:
        current = _current(assessment)
        if current is None:
            return None
        return RevisionDetailSerializer(current, context=self.context).data


def _current(assessment: Assessment) -> Revision | None:
    # The revisions are prefetched newest first by the view.
    revisions = list(assessment.revisions.all())
    return revisions[0] if revisions else None


class AssessmentOpenSerializer(serializers.Serializer):
    """Open a cell's risk assessment: revision 1 the first time."""

    cell = OwnedRelatedField(selector=cell_selectors.cells_for)
