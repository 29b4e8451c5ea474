"""Serializers of the safety-functions API: the input of each write, and a
function as read, with its subsystems, its verdict and its validation plan,
its texts in the reader's language.

Nothing here writes or decides: the views hand the validated values to
``compliance.safety_functions.services``, and the verdict is the one
``compliance.safety_functions.selectors`` worked out. The read serializers
take the selectors' rows (``FunctionRow``); a verdict's calculation is the
calculator's own result model, dumped with its lines translated.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cells import selectors as cell_selectors
from cells.api.fields import STRICT_FIELD_MAPPING, StrictFloatField
from cells.api.serializers import OwnedRelatedField
from cells.models import PerformanceLevel
from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import Certainty
from compliance.calculators.iso13849_verify import ROUTES
from compliance.safety_functions import services
from compliance.safety_functions.documents import ValidationTest
from compliance.safety_functions.library.selectors import library_devices_for
from compliance.safety_functions.models import (
    PfhdTableImport,
    SafeguardKind,
    SafetyFunction,
    StopCategory,
    Subsystem,
    SubsystemRole,
    ValidationRecord,
)
from compliance.safety_functions.selectors import FunctionRow
from compliance.safety_functions.verification import FunctionVerdict

VERSION_HELP = (
    "The version you read. Required to change the function: if someone saved "
    "it since, nothing is written and the answer is 409 with its current values."
)
# A hazard's key is its UUID (36 characters); the service caps the list.
HAZARD_KEY_MAX_LENGTH = 36
HAZARD_KEYS_MAX = 200
# The Annex F measures against common cause failure, by id.
CCF_MEASURE_IDS = [m.id for m in vt.CCF_MEASURES]
PL_CHOICES = PerformanceLevel.choices
CERTAINTY_CHOICES = [c.value for c in Certainty]
# The calculation's figures a verdict gives, when the PL could be computed.
RESULT_FIELDS = (
    "pfhd_per_hour",
    "pfhd_min_per_hour",
    "pfhd_max_per_hour",
    "combination",
    "meets_plr",
    "clause",
    "certainty",
    "k1_source",
)


def _translated(lines) -> list[str]:
    return [line.render(gettext) for line in lines]


# --- Writes ---------------------------------------------------------------------


class SafetyFunctionWriteSerializer(serializers.ModelSerializer):
    """A safety function as sent to create or change it. ``device`` is a
    device of the function's cell; ``hazard_keys`` the keys of the hazards of
    the cell's risk assessment it mitigates (its PLr is the highest PLr of
    those in the signed revision)."""

    device = OwnedRelatedField(
        selector=cell_selectors.devices_for,
        required=False,
        allow_null=True,
        help_text="The safeguarding device, of the function's cell.",
    )
    hazard_keys = serializers.ListField(
        child=serializers.CharField(max_length=HAZARD_KEY_MAX_LENGTH),
        max_length=HAZARD_KEYS_MAX,
        required=False,
        help_text="Keys of the hazards it mitigates (the hazards' ``key``).",
    )
    version = serializers.IntegerField(
        required=False, min_value=1, help_text=VERSION_HELP
    )

    class Meta:
        model = SafetyFunction
        fields = [*services.FUNCTION_FIELDS, "version"]
        # The unique keys are made by the server.
        validators: list[Any] = []

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is not None and "version" not in attrs:
            raise serializers.ValidationError(
                {"version": [_("Send the version you read, to change this.")]}
            )
        return attrs


class SubsystemSerializer(serializers.ModelSerializer):
    """One subsystem of a safety function in series, with the figures its PL
    is computed from. ``route`` says which figures count: ``certified`` (the
    maker's PL and PFHd), ``pl_only`` (the maker's PL) or ``designed``
    (category, MTTFd or B10d with the operating profile, DCavg and the Annex F
    measures against common cause failure). Given a ``library_device`` when
    it is added, the subsystem takes that device's figures, except those
    sent."""

    serializer_field_mapping = STRICT_FIELD_MAPPING

    library_device = OwnedRelatedField(
        selector=library_devices_for,
        required=False,
        allow_null=True,
        help_text="A device of the organisation's library.",
    )
    device = OwnedRelatedField(
        selector=cell_selectors.devices_for,
        required=False,
        allow_null=True,
        help_text="The device of the function's cell this subsystem is.",
    )
    ccf_measures = serializers.ListField(
        child=serializers.ChoiceField(choices=CCF_MEASURE_IDS),
        max_length=len(CCF_MEASURE_IDS),
        required=False,
        help_text="Ids of the Annex F measures taken against common cause failure.",
    )

    class Meta:
        model = Subsystem
        fields = ["id", "order", *services.SUBSYSTEM_FIELDS]
        read_only_fields = ["id", "order"]
        extra_kwargs = {
            # Taken from the library device when one is given.
            "label": {"required": False},
        }


class ValidationRecordSerializer(serializers.ModelSerializer):
    """One validation test performed on a safety function (ISO 13849-2): who,
    when, with what, the value measured and the outcome. ``test`` is one of
    the function's validation plan. ``function_fingerprint`` is the function
    as it was recorded for: when it is not the function's ``fingerprint``
    now, the record was made for an earlier version and counts for nothing."""

    recorded_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = ValidationRecord
        fields = [
            "id",
            "test",
            "performed_by",
            "performed_on",
            "instrument",
            "measured_value",
            "outcome",
            "notes",
            "recorded_by",
            "recorded_at",
            "function_fingerprint",
        ]
        read_only_fields = [
            "id",
            "recorded_by",
            "recorded_at",
            "function_fingerprint",
        ]


class PfhdTableWriteSerializer(serializers.Serializer):
    """Table K.1 from the organisation's licensed copy of ISO 13849-1, as CSV:
    the text in ``csv``, or a file in ``file`` (multipart). Errors in its rows
    come back under ``file``, whichever way it was sent."""

    source = serializers.CharField(
        max_length=200,
        help_text="Whose licensed copy of ISO 13849-1 the table is taken from.",
    )
    csv = serializers.CharField(
        required=False,
        trim_whitespace=False,
        max_length=services.K1_MAX_BYTES,
        help_text="The table as CSV text.",
    )
    file = serializers.FileField(
        required=False,
        write_only=True,
        help_text="The table as a CSV file (UTF-8).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        upload = attrs.pop("file", None)
        if upload is not None:
            if "csv" in attrs:
                raise serializers.ValidationError(
                    {"file": [_("Send the table once: as text or as a file.")]}
                )
            if upload.size > services.K1_MAX_BYTES:
                raise serializers.ValidationError(
                    {"file": [_("The file is larger than 64 KB.")]}
                )
            try:
                attrs["csv"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise serializers.ValidationError(
                    {"file": [_("The file is not UTF-8 text.")]}
                ) from exc
        if "csv" not in attrs:
            raise serializers.ValidationError(
                {"csv": [_("Send the table as CSV text, or as a file.")]}
            )
        return attrs


class K1RowSerializer(serializers.Serializer):
    """One row of Table K.1: the MTTFd of each channel and the PFHd per hour
    of each column (null where the category is not defined for it)."""

    mttfd_years = StrictFloatField()

    def get_fields(self) -> dict[str, serializers.Field]:
        return {
            **super().get_fields(),
            **{key: StrictFloatField(allow_null=True) for key in vt.K1_COLUMN_KEYS},
        }


class PfhdTableSerializer(serializers.Serializer):
    """The organisation's imported Table K.1, or ``imported: false``."""

    imported = serializers.BooleanField()
    source = serializers.CharField(required=False)
    rows = K1RowSerializer(
        many=True, required=False, help_text="The table's rows as imported."
    )
    imported_by = serializers.CharField(required=False, allow_null=True)
    imported_at = serializers.DateTimeField(required=False)

    def to_representation(self, table: PfhdTableImport) -> dict[str, Any]:
        return super().to_representation(
            {
                "imported": True,
                "source": table.source,
                "rows": table.rows,
                "imported_by": table.imported_by.username
                if table.imported_by
                else None,
                "imported_at": table.imported_at,
            }
        )


def pfhd_table_data(table: PfhdTableImport | None) -> dict[str, Any]:
    """The organisation's Table K.1 as the API gives it."""
    if table is None:
        return {"imported": False}
    return PfhdTableSerializer(table).data


# --- Reading a function ---------------------------------------------------------


class HazardPlrSerializer(serializers.Serializer):
    label = serializers.CharField(help_text="The hazard's task or description.")
    plr = serializers.ChoiceField(choices=PL_CHOICES)


class PlrSourceSerializer(serializers.Serializer):
    """Where the PLr comes from: the hazards it mitigates in the latest
    signed revision, or (pending, deciding nothing) in a newer draft."""

    revision = serializers.IntegerField(allow_null=True)
    signed = serializers.BooleanField()
    hazards = HazardPlrSerializer(many=True)


class ProblemSerializer(serializers.Serializer):
    """What keeps one subsystem's PL from being computed."""

    subsystem = serializers.IntegerField(help_text="The subsystem's id.")
    index = serializers.IntegerField(help_text="Its place in the chain, from 0.")
    label = serializers.CharField()
    message = serializers.CharField()


class SubsystemWorkingSerializer(serializers.Serializer):
    """The PL and PFHd one subsystem contributes, with its working (the
    calculator's ``SubsystemResult``)."""

    subsystem = serializers.IntegerField(help_text="The subsystem's id.")
    label = serializers.CharField()
    route = serializers.ChoiceField(
        choices=list(ROUTES),
        help_text="How the calculation took it (a certified subsystem without "
        "a PFHd counts as known by its PL only).",
    )
    category = serializers.CharField(allow_null=True)
    mttfd_years = StrictFloatField(
        allow_null=True, help_text="Effective: capped, symmetrised."
    )
    mttfd_band = serializers.CharField(allow_null=True)
    dcavg_band = serializers.CharField(allow_null=True)
    ccf_points = serializers.IntegerField(allow_null=True)
    pl = serializers.ChoiceField(choices=PL_CHOICES)
    pfhd_per_hour = StrictFloatField(
        allow_null=True, help_text="A point value, when known."
    )
    pfhd_min_per_hour = StrictFloatField()
    pfhd_max_per_hour = StrictFloatField()
    pfhd_basis = serializers.ChoiceField(
        choices=["maker", "table_k1", "alternative_procedure", "pl_range"]
    )
    certainty = serializers.ChoiceField(choices=CERTAINTY_CHOICES)
    steps = serializers.ListField(child=serializers.CharField())
    warnings = serializers.ListField(child=serializers.CharField())
    sources = serializers.ListField(child=serializers.CharField())


class VerdictSerializer(serializers.Serializer):
    """The verdict on one function (ISO 13849-1 and -2): ``pass`` only with a
    PLr from the signed risk assessment, a computed PL at least as high and
    every test of the validation plan recorded as passed; ``fail`` when the
    PL is below the PLr or a test failed; otherwise ``needs_evidence``. The
    calculation's figures are null when the PL cannot be computed."""

    status = serializers.ChoiceField(choices=["pass", "fail", "needs_evidence"])
    plr = serializers.ChoiceField(choices=PL_CHOICES, allow_null=True)
    plr_source = PlrSourceSerializer()
    pl = serializers.ChoiceField(choices=PL_CHOICES, allow_null=True)
    reasons = serializers.ListField(child=serializers.CharField())
    problems = ProblemSerializer(many=True)
    tests_passed = serializers.ListField(child=serializers.CharField())
    tests_missing = serializers.ListField(child=serializers.CharField())
    tests_failed = serializers.ListField(child=serializers.CharField())
    tests_outdated = serializers.ListField(
        child=serializers.CharField(),
        help_text="Tests recorded only for an earlier version of the function "
        "(its subsystems, devices or settings have changed since); they are "
        "also among the missing.",
    )
    # The calculation (ISO 13849-1), null when the PL cannot be computed.
    pfhd_per_hour = StrictFloatField(
        allow_null=True, help_text="The sum, when every subsystem has a PFHd."
    )
    pfhd_min_per_hour = StrictFloatField(allow_null=True)
    pfhd_max_per_hour = StrictFloatField(allow_null=True)
    combination = serializers.ChoiceField(
        choices=["pfhd_sum", "series_table"], allow_null=True
    )
    meets_plr = serializers.BooleanField(
        allow_null=True, help_text="Null without a PLr from a signed revision."
    )
    subsystems = SubsystemWorkingSerializer(many=True)
    clause = serializers.CharField(allow_null=True)
    steps = serializers.ListField(child=serializers.CharField())
    warnings = serializers.ListField(child=serializers.CharField())
    certainty = serializers.ChoiceField(choices=CERTAINTY_CHOICES, allow_null=True)
    sources = serializers.ListField(child=serializers.CharField())
    k1_source = serializers.CharField(
        allow_null=True, help_text="Whose Table K.1 gave a PFHd, if one did."
    )

    def to_representation(self, row: FunctionRow) -> dict[str, Any]:
        return super().to_representation(verdict_mapping(row))


def verdict_mapping(row: FunctionRow) -> dict[str, Any]:
    """A function's verdict as the API gives it (the names of
    ``VerdictSerializer``), its texts translated."""
    verdict: FunctionVerdict = row.verdict
    basis = verdict.plr
    subsystems = row.subsystems
    data: dict[str, Any] = {
        "status": verdict.status,
        "plr": basis.plr,
        "plr_source": {
            "revision": basis.revision,
            "signed": basis.signed,
            "hazards": [{"label": label, "plr": plr} for label, plr in basis.hazards],
        },
        "pl": verdict.pl,
        "reasons": _translated(verdict.reasons),
        "problems": [
            {
                "subsystem": subsystems[index].pk,
                "index": index,
                "label": subsystems[index].label,
                "message": gettext(message),
            }
            for index, message in verdict.problems
        ],
        "tests_passed": list(verdict.tests_passed),
        "tests_missing": list(verdict.tests_missing),
        "tests_failed": list(verdict.tests_failed),
        "tests_outdated": list(verdict.tests_outdated),
    }
    result = (
        verdict.result.model_dump(mode="json", context={"translate": gettext})
        if verdict.result is not None
        else {}
    )
    for name in RESULT_FIELDS:
        data[name] = result.get(name)
    for name in ("steps", "warnings", "sources"):
        data[name] = result.get(name, [])
    data["subsystems"] = [
        {**part, "subsystem": subsystem.pk}
        for part, subsystem in zip(
            result.get("subsystems", []), subsystems, strict=False
        )
    ]
    return data


class PlannedTestSerializer(serializers.Serializer):
    """One test of a function's validation plan (ISO 13849-2), what to do and
    what to record, with the records made of it, latest first."""

    test = serializers.CharField(help_text="The test's kind (a record's ``test``).")
    title = serializers.CharField()
    procedure = serializers.CharField()
    record = serializers.CharField(help_text="What the record must state.")
    status = serializers.ChoiceField(
        choices=["passed", "failed", "missing"],
        help_text="The latest record's outcome for the function as it is now, "
        "or missing.",
    )
    records = ValidationRecordSerializer(
        many=True, help_text="Made for the function as it is now."
    )
    earlier_records = ValidationRecordSerializer(
        many=True,
        help_text="Made for an earlier version of the function: kept as "
        "history, counting for nothing.",
    )


def plan_mapping(
    plan: tuple[ValidationTest, ...],
    records: tuple[ValidationRecord, ...],
    verdict: FunctionVerdict,
    earlier: tuple[ValidationRecord, ...] = (),
) -> list[dict[str, Any]]:
    """Each planned test with its records, as ``PlannedTestSerializer`` names it."""
    return [
        {
            "test": test.kind,
            "title": gettext(test.title),
            "procedure": gettext(test.procedure),
            "record": gettext(test.record),
            "status": "failed"
            if test.kind in verdict.tests_failed
            else "passed"
            if test.kind in verdict.tests_passed
            else "missing",
            "records": [r for r in records if r.test == test.kind],
            "earlier_records": [r for r in earlier if r.test == test.kind],
        }
        for test in plan
    ]


class SafetyFunctionSerializer(serializers.Serializer):
    """A safety function of a cell: what it does, the hazards it mitigates,
    its subsystems in series, its verdict and its validation plan."""

    id = serializers.IntegerField(source="function.pk")
    key = serializers.UUIDField(source="function.key")
    cell = serializers.IntegerField(source="function.cell_id")
    name = serializers.CharField(source="function.name")
    safeguard = serializers.ChoiceField(
        source="function.safeguard", choices=SafeguardKind.choices
    )
    device = serializers.IntegerField(source="function.device_id", allow_null=True)
    collaborative_mode = serializers.CharField(source="function.collaborative_mode")
    trigger = serializers.CharField(source="function.trigger")
    reaction = serializers.CharField(source="function.reaction")
    stop_category = serializers.CharField(
        source="function.stop_category",
        help_text="IEC 60204-1 stop category 0, 1 or 2; empty when not stated.",
    )
    required_response_time_ms = serializers.IntegerField(
        source="function.required_response_time_ms", allow_null=True
    )
    reset_behaviour = serializers.CharField(source="function.reset_behaviour")
    restart_behaviour = serializers.CharField(source="function.restart_behaviour")
    uses_muting = serializers.BooleanField(source="function.uses_muting")
    hazard_keys = serializers.ListField(
        source="function.hazard_keys", child=serializers.CharField()
    )
    version = serializers.IntegerField(source="function.version")
    fingerprint = serializers.CharField(
        help_text="The function as its validation records hold for it (its "
        "settings, subsystems and devices): a record made for another is for "
        "an earlier version."
    )
    subsystems = SubsystemSerializer(many=True)
    verdict = VerdictSerializer(source="*")
    validation_plan = serializers.SerializerMethodField()

    @extend_schema_field(PlannedTestSerializer(many=True))
    def get_validation_plan(self, row: FunctionRow) -> list[dict[str, Any]]:
        return PlannedTestSerializer(
            plan_mapping(row.plan, row.records, row.verdict, row.earlier_records),
            many=True,
        ).data


# --- Proposals ------------------------------------------------------------------


class SuggestedSubsystemSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=SubsystemRole.choices)
    label = serializers.CharField()
    device = serializers.IntegerField(allow_null=True)


class SuggestionSerializer(serializers.Serializer):
    """A safety function the cell's layout and risk assessment call for, not
    yet accepted or discarded. Accepting it creates the function with these
    subsystems; its PL is computed only from the figures then given."""

    key = serializers.CharField()
    name = serializers.CharField()
    safeguard = serializers.ChoiceField(choices=SafeguardKind.choices)
    device = serializers.IntegerField(allow_null=True)
    collaborative_mode = serializers.CharField()
    trigger = serializers.CharField()
    reaction = serializers.CharField()
    stop_category = serializers.ChoiceField(choices=StopCategory.choices)
    rationale = serializers.CharField()
    hazard_keys = serializers.ListField(child=serializers.CharField())
    plr = serializers.ChoiceField(choices=PL_CHOICES, allow_null=True)
    subsystems = SuggestedSubsystemSerializer(many=True)

    def to_representation(self, suggestion) -> dict[str, Any]:
        return super().to_representation(
            {
                "key": suggestion.key,
                "name": suggestion.name.render(gettext),
                "safeguard": suggestion.safeguard,
                "device": suggestion.device_pk,
                "collaborative_mode": suggestion.collaborative_mode,
                "trigger": suggestion.trigger.render(gettext),
                "reaction": suggestion.reaction.render(gettext),
                "stop_category": suggestion.stop_category,
                "rationale": suggestion.rationale.render(gettext),
                "hazard_keys": list(suggestion.hazard_keys),
                "plr": suggestion.plr,
                "subsystems": [
                    {
                        "role": s.role,
                        "label": s.label.render(gettext),
                        "device": s.device_pk,
                    }
                    for s in suggestion.subsystems
                ],
            }
        )


# --- Documents ------------------------------------------------------------------


class SpecificationSerializer(serializers.Serializer):
    """One function in the safety requirements specification (ISO
    13849-1:2023, 5.2), with what it still lacks."""

    function = serializers.IntegerField(help_text="The function's id.")
    name = serializers.CharField(help_text="What the function does.")
    safeguard = serializers.CharField()
    trigger = serializers.CharField()
    reaction = serializers.CharField()
    plr = serializers.ChoiceField(choices=PL_CHOICES, allow_null=True)
    plr_source = PlrSourceSerializer()
    stop_category = serializers.CharField()
    required_response_time_ms = serializers.IntegerField(allow_null=True)
    reset_behaviour = serializers.CharField()
    restart_behaviour = serializers.CharField()
    gaps = serializers.ListField(child=serializers.CharField())


class FunctionPlanSerializer(serializers.Serializer):
    function = serializers.IntegerField(help_text="The function's id.")
    name = serializers.CharField()
    tests = PlannedTestSerializer(many=True)


class SafetyDocumentsSerializer(serializers.Serializer):
    """A cell's safety requirements specification and validation plan."""

    cell = serializers.IntegerField()
    specification_clause = serializers.CharField()
    specification = SpecificationSerializer(many=True)
    validation_clause = serializers.CharField()
    validation_plan = FunctionPlanSerializer(many=True)
