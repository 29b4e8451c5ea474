"""Serializers of the risk-assessment API: field mapping, input validation, and
each hazard's risk worked out for reading.

Nothing here writes: the views hand the validated values to
``compliance.assessment.services``, which check the revision's state and the person's role.
"""

from __future__ import annotations

from typing import Any, get_args

from django.utils.translation import gettext
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cells import selectors as cell_selectors
from cells.api.serializers import OwnedRelatedField
from cells.models import PerformanceLevel
from compliance.assessment import checks, declaration, selectors, services, signing
from compliance.assessment.audit import AuditEntry
from compliance.assessment.hazards import catalogue, risk
from compliance.assessment.models import (
    HAZARD_DESCRIPTION_MAX_LENGTH,
    LIMIT_TEXT_MAX_LENGTH,
    Assessment,
    Hazard,
    Measure,
    Revision,
    SignatureDeclaration,
)
from compliance.assessment.selectors import hazard_estimates
from compliance.rules import selectors as rules_selectors
from compliance.rules.serializers import (
    ComputedUnderSerializer,
    SafetyConfigurationSerializer,
)

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


def cell_checks_for(context: dict[str, Any], cell_id: int) -> checks.CellChecks:
    """The cell's compliance checks, computed once per request and cell: kept
    in the serializer context, which nested serializers share."""
    by_cell = context.setdefault("checks", rules_selectors.ChecksByCell())
    return by_cell(cell_id)


class UserRefSerializer(serializers.Serializer):
    """Who did something."""

    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)


# --- Measures -------------------------------------------------------------------


class FailedCheckSerializer(serializers.Serializer):
    """The failing compliance check a measure's device or guard has."""

    key = serializers.CharField(help_text="The finding's key: <rule id>|<subject>.")
    rule_id = serializers.CharField()
    subject = serializers.CharField()
    message = serializers.CharField()


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
    ineffective = serializers.SerializerMethodField(
        help_text="Set when the device or guard the measure relies on fails a "
        "compliance check: the failing rule and its message. An ineffective "
        "measure cannot lower the hazard's residual risk. Null otherwise."
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
            "ineffective",
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

    @extend_schema_field(FailedCheckSerializer(allow_null=True))
    def get_ineffective(self, measure: Measure) -> dict[str, str] | None:
        cell_id = measure.hazard.revision.assessment.cell_id
        failure = cell_checks_for(self.context, cell_id).measure_failure(measure)
        if failure is None:
            return None
        return {
            "key": failure.key,
            "rule_id": failure.rule_id,
            "subject": failure.subject,
            "message": failure.message,
        }


# --- Hazards --------------------------------------------------------------------


def hazard_acceptability(
    hazard: Hazard, cell_checks: checks.CellChecks
) -> risk.Acceptability:
    """The product's acceptance rule on the hazard (its measures prefetched),
    with what the cell's compliance checks say of its measures and contact."""
    initial, residual = hazard_estimates(hazard)
    return checks.acceptability(
        initial=initial,
        residual=residual,
        hazard_key=str(hazard.key),
        body_region=hazard.body_region,
        measures=list(hazard.measures.all()),
        checks=cell_checks,
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
        extra_kwargs = {"description": {"max_length": HAZARD_DESCRIPTION_MAX_LENGTH}}
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

    def _acceptability(self, hazard: Hazard) -> risk.Acceptability:
        cell_id = hazard.revision.assessment.cell_id
        return hazard_acceptability(hazard, cell_checks_for(self.context, cell_id))

    def get_acceptable(self, hazard: Hazard) -> bool:
        return self._acceptability(hazard).acceptable

    @extend_schema_field(ReasonSerializer(many=True))
    def get_reasons(self, hazard: Hazard) -> list[dict[str, str]]:
        return [
            {"code": reason.code, "text": reason.render(gettext)}
            for reason in self._acceptability(hazard).reasons
        ]


# --- Revisions ------------------------------------------------------------------


class RevisionSummarySerializer(serializers.ModelSerializer):
    """A revision in a list of an assessment's revisions."""

    class Meta:
        model = Revision
        fields = ["id", "number", "status", "version", "signed_at"]


class DeclaredFindingSerializer(serializers.Serializer):
    """An open finding of the cell at signing, with the signer's reason."""

    key = serializers.CharField()
    rule_id = serializers.CharField()
    subject_key = serializers.CharField()
    subject = serializers.CharField()
    # Text, not an enum: "status" names other choice sets in the schema.
    status = serializers.CharField(help_text='"fail" or "needs_evidence".')
    message = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)


class DeclarationSerializer(serializers.ModelSerializer):
    """What the signer declared: the statement confirmed and the open findings
    of the cell at signing, each fail with the reason it is accepted. The
    revision's content hash covers it."""

    findings = DeclaredFindingSerializer(many=True, read_only=True)
    safety_configuration = SafetyConfigurationSerializer(
        read_only=True,
        allow_null=True,
        help_text="The robot's safety configuration assessed, frozen at signing; "
        "null when the cell recorded none, or for revisions signed before it "
        "was recorded.",
    )
    cell_fingerprint = serializers.CharField(
        read_only=True,
        allow_null=True,
        help_text="The fingerprint of the cell as assessed (robot figures, hazard "
        "zone, guards, openings, devices); null before it was recorded.",
    )
    computed_under = ComputedUnderSerializer(
        read_only=True,
        allow_null=True,
        help_text="The rules the open findings were computed under at signing; "
        "null before it was recorded (taken as release 1).",
    )

    class Meta:
        model = SignatureDeclaration
        fields = [
            "signer_name",
            "signed_at",
            "statement",
            "language",
            "findings",
            "safety_configuration",
            "cell_fingerprint",
            "computed_under",
        ]
        read_only_fields = fields


class RevisionSerializer(serializers.ModelSerializer):
    """A numbered revision of an assessment: its state, limits and sign-off."""

    cell = serializers.IntegerField(source="assessment.cell_id", read_only=True)
    exposed_persons = serializers.ListField(
        child=serializers.ChoiceField(choices=catalogue.exposed_person_choices()),
        read_only=True,
    )
    created_by = UserRefSerializer(read_only=True, allow_null=True)
    submitted_by = UserRefSerializer(read_only=True, allow_null=True)
    approved_by = UserRefSerializer(read_only=True, allow_null=True)
    signed_by = UserRefSerializer(read_only=True, allow_null=True)
    declaration = serializers.SerializerMethodField(
        help_text="Signed revisions: the signer's declaration. Null until "
        "signed, and for revisions signed before declarations were recorded."
    )

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
            "declaration",
        ]
        read_only_fields = fields

    @extend_schema_field(DeclarationSerializer(allow_null=True))
    def get_declaration(self, revision: Revision) -> dict[str, Any] | None:
        found = selectors.declaration_of(revision)
        return DeclarationSerializer(found).data if found is not None else None


class RevisionDetailSerializer(RevisionSerializer):
    """A revision with its hazards (each with its measures and risk) and, once
    signed, whether its content still hashes to what was signed."""

    intact = serializers.SerializerMethodField(
        help_text="Signed revisions: the content still matches content_hash, and "
        "the revision its seal under the server's key (cell, signer, links). "
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


def _limit_text() -> serializers.CharField:
    return serializers.CharField(
        required=False, allow_blank=True, max_length=LIMIT_TEXT_MAX_LENGTH
    )


class RevisionLimitsSerializer(serializers.Serializer):
    """The limits of the machine (ISO 12100:2010 5.3), as a PATCH of a revision."""

    version = serializers.IntegerField(min_value=1, help_text=VERSION_HELP)
    intended_use = _limit_text()
    foreseeable_misuse = _limit_text()
    space_limits = _limit_text()
    time_limits = _limit_text()
    low_guard_justification = _limit_text()
    conformity_route = _limit_text()
    exposed_persons = serializers.ListField(
        child=serializers.ChoiceField(choices=catalogue.exposed_person_choices()),
        required=False,
        max_length=len(catalogue.EXPOSED_PERSONS),
    )

    def validate_exposed_persons(self, value: list[str]) -> list[str]:
        return list(dict.fromkeys(value))  # each kind once, in the order given


@extend_schema_field(
    {
        "type": ["object", "null"],
        "additionalProperties": True,
        "description": "The recorded fields by name, each with its JSON value; "
        "null when the action has no such side (before a creation, after a "
        "deletion).",
    }
)
class AuditValuesField(serializers.JSONField):
    """One side of an audit entry: the object's fields as recorded, or null."""


class AuditEntrySerializer(serializers.ModelSerializer):
    """One change recorded in the assessment's audit trail."""

    actor = serializers.SerializerMethodField()
    before = AuditValuesField(read_only=True)
    after = AuditValuesField(read_only=True)

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


# --- Signing --------------------------------------------------------------------


class OpenFindingSerializer(serializers.Serializer):
    """An open finding of the cell the signer declares to accept."""

    key = serializers.CharField(
        help_text="The finding's key, <rule id>|<subject key> (#2, #3... for a "
        "rule's further findings on one subject): give reasons by it."
    )
    rule_id = serializers.CharField()
    # Text, not an enum: "status" names other choice sets in the schema.
    status = serializers.CharField(help_text='"fail" or "needs_evidence".')
    subject_key = serializers.CharField()
    subject = serializers.CharField()
    message = serializers.CharField()
    citation = serializers.CharField()
    reason_required = serializers.BooleanField(
        help_text="A fail: signing needs a reason it is accepted."
    )


class SignPreviewSerializer(serializers.Serializer):
    """What signing the revision would declare: the statement to confirm and
    the open findings of the cell (as they will stand once it is signed),
    fails first."""

    revision = serializers.IntegerField()
    status = serializers.CharField()
    statement = serializers.CharField()
    reason_max_length = serializers.IntegerField()
    open_findings = OpenFindingSerializer(many=True)
    declaration = DeclarationSerializer(
        allow_null=True, help_text="Once signed: what was declared."
    )


def sign_preview(revision: Revision, open_findings) -> dict[str, Any]:
    found = selectors.declaration_of(revision)
    return SignPreviewSerializer(
        {
            "revision": revision.pk,
            "status": revision.status,
            # The text the record keeps: in the project's language (issue 30).
            "statement": signing.signed_statement(revision)[0],
            "reason_max_length": declaration.REASON_MAX_CHARS,
            "open_findings": [
                {**f.model_dump(), "reason_required": f.status == checks.FAIL}
                for f in open_findings
            ],
            "declaration": found,
        }
    ).data


class SignRequestSerializer(serializers.Serializer):
    """Signing is a declaration: the password, the confirmed statement, and a
    reason for each open fail. What is missing is a 400 naming it."""

    password = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        trim_whitespace=False,
        write_only=True,
        max_length=declaration.PASSWORD_MAX_LENGTH,
        style={"input_type": "password"},
        help_text="The signer's password, entered again.",
    )
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="True: the signer makes the declaration's statement.",
    )
    accepted = serializers.DictField(
        child=serializers.CharField(allow_blank=True, trim_whitespace=True),
        required=False,
        default=dict,
        help_text="The reason each open fail is accepted, by finding key "
        f"(at most {declaration.REASON_MAX_CHARS} characters each).",
    )


# --- Diff -----------------------------------------------------------------------


@extend_schema_field(
    {
        "type": ["string", "boolean", "array"],
        "items": {"type": "string"},
        "description": "A content field's value: text, a yes/no, or a list "
        "of codes (the persons exposed).",
    }
)
class ContentValueField(serializers.JSONField):
    """A value of a revision's content (``content.RevisionContent``)."""


class FieldChangeSerializer(serializers.Serializer):
    field = serializers.CharField()
    before = ContentValueField()
    after = ContentValueField()


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
