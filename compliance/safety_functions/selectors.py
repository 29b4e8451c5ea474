"""Reads of safety functions, scoped to the user's organisations, with their
PLr, the PL they reach and their verdict, in a fixed number of queries."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from cells.models import Cell, Device
from compliance.assessment.models import Assessment, RevisionStatus
from compliance.assessment.selectors import hazard_plr, perimeter_labels
from compliance.calculators.iso13849_k1 import K1Table
from compliance.calculators.written import field_shown
from compliance.safety_functions import proposing
from compliance.safety_functions.documents import ValidationTest, validation_plan
from compliance.safety_functions.models import (
    PfhdTableImport,
    SafetyFunction,
    Subsystem,
    ValidationRecord,
)
from compliance.safety_functions.verification import (
    FunctionDevice,
    FunctionVerdict,
    PlrBasis,
    SubsystemData,
    verify_function,
)

PL_ORDER = "abcde"


def functions_for(user) -> QuerySet[SafetyFunction]:
    return SafetyFunction.objects.filter(
        cell__project__organisation__memberships__user=user
    ).select_related("cell__project__organisation")


def function_for(user, pk: int) -> SafetyFunction:
    return get_object_or_404(functions_for(user), pk=pk)


def subsystem_for(user, pk: int) -> Subsystem:
    return get_object_or_404(
        Subsystem.objects.filter(
            function__cell__project__organisation__memberships__user=user
        ).select_related("function__cell__project__organisation"),
        pk=pk,
    )


def validation_record_for(user, pk: int) -> ValidationRecord:
    return get_object_or_404(
        ValidationRecord.objects.filter(
            function__cell__project__organisation__memberships__user=user
        ).select_related("function__cell__project__organisation"),
        pk=pk,
    )


def k1_table(organisation_id: int) -> K1Table | None:
    """The organisation's imported Table K.1, if it has one."""
    return _k1(PfhdTableImport.objects.filter(organisation_id=organisation_id).first())


def _k1(row: PfhdTableImport | None) -> K1Table | None:
    if row is None:
        return None
    return K1Table.model_validate({"source": row.source, "rows": row.rows})


@dataclass(frozen=True)
class HazardRef:
    key: str
    label: str
    plr: str | None
    location_key: str
    device_keys: tuple[str, ...]


@dataclass(frozen=True)
class AssessmentHazards:
    """The hazards a function can mitigate: those of the latest signed
    revision (which decide), and those of a newer draft (pending)."""

    signed: dict[str, HazardRef]
    signed_revision: int | None
    draft: dict[str, HazardRef]
    draft_revision: int | None

    def choices(self) -> list[tuple[str, str]]:
        """Every hazard a user can link, newest wording first."""
        merged = {**self.signed, **self.draft}
        return [(key, ref.label) for key, ref in merged.items()]

    def basis(self, keys: list[str]) -> PlrBasis:
        """The PLr from the signed revision; if it has none of these hazards
        estimated, what a newer draft says (pending)."""
        for hazards, revision, signed in (
            (self.signed, self.signed_revision, True),
            (self.draft, self.draft_revision, False),
        ):
            linked = [(hazards[k].label, hazards[k].plr) for k in keys if k in hazards]
            known = [(label, plr) for label, plr in linked if plr]
            if known:
                highest = max((plr for _, plr in known), key=PL_ORDER.index)
                return PlrBasis(
                    plr=highest,
                    hazards=tuple(known),
                    revision=revision,
                    signed=signed,
                )
        return PlrBasis(plr=None)


def _refs(revision) -> dict[str, HazardRef]:
    refs = {}
    for hazard in revision.hazards.all():
        refs[str(hazard.key)] = HazardRef(
            key=str(hazard.key),
            # An accepted suggestion's task is stored in English: read it in
            # the reader's language, as the register shows it.
            label=field_shown(hazard, "task", gettext),
            plr=hazard_plr(hazard),
            location_key=hazard.location_key,
            device_keys=tuple(
                f"device:{m.device_id}" for m in hazard.measures.all() if m.device_id
            ),
        )
    return refs


def assessment_hazards(cell: Cell, *, inputs=None) -> AssessmentHazards:
    """The hazards of the cell's latest signed revision and of a newer draft;
    from ``inputs`` (``compliance.rules.inputs.CellInputs``) when the caller
    has read them already."""
    if inputs is not None:
        inputs.load()
        return _hazards_of(inputs.signed, inputs.draft)
    assessment = (
        Assessment.objects.filter(cell=cell)
        .prefetch_related(
            "revisions__hazards__measures",
        )
        .first()
    )
    if assessment is None:
        return AssessmentHazards({}, None, {}, None)
    revisions = sorted(assessment.revisions.all(), key=lambda r: -r.number)
    signed = next((r for r in revisions if r.status == RevisionStatus.SIGNED), None)
    current = revisions[0] if revisions else None
    draft = (
        current
        if current and (signed is None or current.number > signed.number)
        else None
    )
    return _hazards_of(signed, draft)


def _hazards_of(signed, draft) -> AssessmentHazards:
    return AssessmentHazards(
        signed=_refs(signed) if signed else {},
        signed_revision=signed.number if signed else None,
        draft=_refs(draft) if draft else {},
        draft_revision=draft.number if draft else None,
    )


def subsystem_data(subsystem: Subsystem) -> SubsystemData:
    device = subsystem.device
    return SubsystemData(
        role=subsystem.role,
        label=subsystem.label,
        route=subsystem.route,
        pl=subsystem.pl,
        pfhd_per_hour=subsystem.pfhd_per_hour,
        category=subsystem.category,
        mttfd_years=subsystem.mttfd_years,
        mttfd_channel2_years=subsystem.mttfd_channel2_years,
        b10d_cycles=subsystem.b10d_cycles,
        days_per_year=subsystem.days_per_year,
        hours_per_day=subsystem.hours_per_day,
        cycle_time_s=subsystem.cycle_time_s,
        dcavg_percent=subsystem.dcavg_percent,
        ccf_measures=tuple(subsystem.ccf_measures or ()),
        device_pk=device.pk if device else None,
        device_label=device.label if device else "",
        device_kind=device.kind if device else "",
        device_claimed_pl=device.claimed_pl if device else "",
        iec61496_type=device.iec61496_type if device else None,
    )


def function_device(function: SafetyFunction) -> FunctionDevice | None:
    device = function.device
    if device is None:
        return None
    return FunctionDevice(pk=device.pk, label=device.label, kind=device.kind)


# What a validation record holds for (ISO 13849-1:2023, 10): the function's
# settings, its subsystems' figures and the cell devices it rests on (its own
# and its subsystems'). Any change to them makes it another function, whose
# tests are performed again. Its name, the hazards it mitigates (they set the
# PLr, not what is tested), the subsystems' labels and sources (text that
# explains) are not part of it.
FUNCTION_FINGERPRINT = (
    "safeguard",
    "device_id",
    "collaborative_mode",
    "trigger",
    "reaction",
    "stop_category",
    "required_response_time_ms",
    "reset_behaviour",
    "restart_behaviour",
    "uses_muting",
)
SUBSYSTEM_FINGERPRINT = (
    "role",
    "library_device_id",
    "device_id",
    "route",
    "pl",
    "pfhd_per_hour",
    "category",
    "mttfd_years",
    "mttfd_channel2_years",
    "b10d_cycles",
    "days_per_year",
    "hours_per_day",
    "cycle_time_s",
    "dcavg_percent",
    "ccf_measures",
)
DEVICE_FINGERPRINT = (
    "kind",
    "opening_id",
    "library_device_id",
    "claimed_pl",
    "response_time_ms",
    "iec61496_type",
    "guard_locking",
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
)


def _fields(instance, names: tuple[str, ...]) -> list:
    return [getattr(instance, name) for name in names]


def _device_fields(device: Device | None) -> list | None:
    return _fields(device, DEVICE_FINGERPRINT) if device is not None else None


def function_fingerprint(
    function: SafetyFunction, subsystems: Sequence[Subsystem]
) -> str:
    """The function as a validation record holds for it: a hash of its
    settings, its subsystems in order and their devices (loaded with them)."""
    content = [
        _fields(function, FUNCTION_FINGERPRINT),
        _device_fields(function.device),
        [
            [*_fields(s, SUBSYSTEM_FINGERPRINT), _device_fields(s.device)]
            for s in subsystems
        ],
    ]
    text = json.dumps(content, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def current_fingerprint(function: SafetyFunction) -> str:
    """The fingerprint of the function as it is stored now (read afresh)."""
    function = (
        SafetyFunction.objects.select_related("device")
        .prefetch_related(
            Prefetch("subsystems", queryset=Subsystem.objects.select_related("device"))
        )
        .get(pk=function.pk)
    )
    return function_fingerprint(function, list(function.subsystems.all()))


def latest_outcomes(records) -> dict[str, str]:
    """The latest recorded outcome per test kind."""
    latest: dict[str, tuple] = {}
    for record in records:
        stamp = (record.performed_on, record.pk)
        if record.test not in latest or stamp > latest[record.test][0]:
            latest[record.test] = (stamp, record.outcome)
    return {test: outcome for test, (_, outcome) in latest.items()}


@dataclass(frozen=True)
class FunctionRow:
    """A safety function with what its pages show. ``records`` are the
    validation records made for the function as it is now (``fingerprint``);
    ``earlier_records`` those made for an earlier version of it, kept as
    history and counting for nothing."""

    function: SafetyFunction
    subsystems: tuple[Subsystem, ...]
    records: tuple[ValidationRecord, ...]
    plan: tuple[ValidationTest, ...]
    verdict: FunctionVerdict
    earlier_records: tuple[ValidationRecord, ...] = ()
    fingerprint: str = ""

    @property
    def pk(self) -> int:
        return self.function.pk


def plan_of(function: SafetyFunction) -> tuple[ValidationTest, ...]:
    return validation_plan(
        safeguard=function.safeguard,
        collaborative_mode=function.collaborative_mode,
        uses_muting=function.uses_muting,
    )


def function_row(
    function: SafetyFunction,
    hazards: AssessmentHazards,
    k1: K1Table | None,
    subsystems: Sequence[Subsystem] | None = None,
) -> FunctionRow:
    """One function's verdict; its subsystems and records prefetched. With
    ``subsystems``, the verdict the function would have with those instead
    (a preview: its records hold only if they leave it as it was)."""
    if subsystems is None:
        subsystems = function.subsystems.all()
    subsystems = tuple(subsystems)
    fingerprint = function_fingerprint(function, subsystems)
    records = tuple(function.validation_records.all())
    current = tuple(r for r in records if r.function_fingerprint == fingerprint)
    earlier = tuple(r for r in records if r.function_fingerprint != fingerprint)
    plan = plan_of(function)
    verdict = verify_function(
        [subsystem_data(s) for s in subsystems],
        hazards.basis(list(function.hazard_keys or [])),
        plan=plan,
        outcomes=latest_outcomes(current),
        k1=k1,
        device=function_device(function),
        outdated=tuple({r.test for r in earlier}),
    )
    return FunctionRow(
        function, subsystems, current, plan, verdict, earlier, fingerprint
    )


FUNCTION_PREFETCH = (
    Prefetch(
        "subsystems",
        queryset=Subsystem.objects.select_related("library_device", "device"),
    ),
    Prefetch(
        "validation_records",
        queryset=ValidationRecord.objects.select_related("recorded_by"),
    ),
)


def cell_functions(cell: Cell, *, inputs=None) -> list[FunctionRow]:
    """Every safety function of the cell with its verdict: fails first, then
    those that need evidence, then passes. ``inputs``: the cell's
    ``compliance.rules.inputs.CellInputs``, when the caller has read them
    (the functions, the assessment and Table K.1 are not read again)."""
    if inputs is not None:
        functions = inputs.load().functions
    else:
        functions = list(
            SafetyFunction.objects.filter(cell=cell)
            .select_related("device__opening")
            .prefetch_related(*FUNCTION_PREFETCH)
        )
    if not functions:
        # A cell without functions reads nothing more: the findings and the
        # pages of every cell build on this.
        return []
    hazards = assessment_hazards(cell, inputs=inputs)
    designed = any(s.route == "designed" for f in functions for s in f.subsystems.all())
    if inputs is not None:
        k1 = _k1(inputs.k1) if designed else None
    else:
        k1 = k1_table(cell.project.organisation_id) if designed else None
    rows = [function_row(f, hazards, k1) for f in functions]
    order = {"fail": 0, "needs_evidence": 1, "pass": 2}
    return sorted(rows, key=lambda r: (order[r.verdict.status], r.function.order))


def function_detail(function: SafetyFunction) -> FunctionRow:
    function = (
        SafetyFunction.objects.select_related(
            "device__opening", "cell__project__organisation"
        )
        .prefetch_related(*FUNCTION_PREFETCH)
        .get(pk=function.pk)
    )
    return function_row(
        function,
        assessment_hazards(function.cell),
        k1_table(function.cell.project.organisation_id),
    )


def suggestions(cell: Cell) -> list[proposing.Suggestion]:
    """The functions the cell's layout and assessment call for, not yet
    accepted or discarded."""
    hazards = assessment_hazards(cell)
    merged = {**hazards.signed, **hazards.draft}
    # Openings by the names the plan gives them (an unlabelled one is O3).
    opening_names = {
        pk: name for pk, name, _purpose, _segment in perimeter_labels(cell)["openings"]
    }
    devices = [
        proposing.DeviceInfo(
            key=f"device:{d.pk}",
            pk=d.pk,
            label=d.label,
            kind=d.kind,
            opening_key=f"opening:{d.opening_id}" if d.opening_id else None,
            opening_label=opening_names.get(d.opening_id, ""),
            guard_locking=d.guard_locking,
        )
        for d in Device.objects.filter(cell=cell)
    ]
    taken = set(
        SafetyFunction.objects.filter(cell=cell)
        .exclude(suggestion_key="")
        .values_list("suggestion_key", flat=True)
    ) | set(cell.dismissed_function_suggestions.values_list("key", flat=True))
    return proposing.suggest_functions(
        devices=devices,
        hazards=[
            proposing.HazardInfo(
                key=ref.key,
                label=ref.label,
                plr=ref.plr,
                location_key=ref.location_key,
                device_keys=ref.device_keys,
            )
            for ref in merged.values()
        ],
        collaborative_modes=list(cell.collaborative_modes or []),
        taken=taken,
    )


def io_counts(rows: list[FunctionRow]) -> dict[str, int]:
    """The safety controller's inputs and outputs the functions use: one per
    input subsystem and one per output subsystem."""
    inputs = sum(1 for r in rows for s in r.subsystems if s.role == "input")
    outputs = sum(1 for r in rows for s in r.subsystems if s.role == "output")
    return {"inputs": inputs, "outputs": outputs}
