"""What a risk-assessment revision says, as pure data (pydantic, no Django).

Signing stores the SHA-256 of this content; comparing two revisions compares
this content. A revision signed with a declaration (who signed, when, the
statement confirmed and the open findings accepted, with reasons) has it in
its content, so the hash covers it; a revision signed before declarations
existed has none, and hashes as it always did. Hazards and measures carry a ``key`` that stays the same when a
revision is copied into the next, so a diff can tell a re-estimated hazard
from a removed one and an added one.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict

ESTIMATE_FIELDS = ("severity", "frequency", "avoidance", "low_probability")
RESIDUAL_FIELDS = (
    "residual_severity",
    "residual_frequency",
    "residual_avoidance",
    "residual_low_probability",
)


class _Content(BaseModel):
    model_config = ConfigDict(frozen=True)


class MeasureContent(_Content):
    key: str
    step: str
    description: str
    link_kind: str = ""  # "device", "segment" or "" (no link)
    linked_label: str = ""
    collaborative_mode: str = ""
    is_safety_function: bool = False
    plr_required: str = ""
    pl_claimed: str = ""


class HazardContent(_Content):
    key: str
    group: str
    origin: str
    consequence: str
    description: str = ""
    phase: str
    task: str
    location_key: str = ""
    location_label: str = ""
    body_region: str = ""
    contact_type: str = ""
    contact_area_cm2: str = ""  # the decimal as written, "" when not recorded
    severity: str = ""
    frequency: str = ""
    avoidance: str = ""
    low_probability: bool = False
    residual_severity: str = ""
    residual_frequency: str = ""
    residual_avoidance: str = ""
    residual_low_probability: bool = False
    measures: tuple[MeasureContent, ...] = ()


class DeclaredFinding(_Content):
    """An open finding of the cell at signing, and the signer's reason."""

    key: str  # "<rule id>|<subject key>", see compliance.assessment.checks
    rule_id: str
    subject_key: str
    subject: str = ""
    status: str  # "fail" or "needs_evidence"
    message: str = ""  # as the signer read it
    reason: str = ""  # why a fail is accepted; required for each fail


class SafetyConfigurationContent(_Content):
    """The robot controller's safety configuration assessed: the maker's
    kind of identifier and its value."""

    kind: str
    value: str


class DeclarationContent(_Content):
    """What the signer declared: the statement, and the open findings; and
    what signing froze with it (left out of the hash when absent, as on
    revisions signed before they were recorded)."""

    signer: str  # the username at signing
    signed_at: str  # ISO 8601, UTC
    statement: str  # as shown to the signer, in their language
    language: str = ""
    findings: tuple[DeclaredFinding, ...] = ()
    safety_configuration: SafetyConfigurationContent | None = None
    cell_fingerprint: str = ""
    # rules.history.ComputedUnder as JSON: release, packs, editions, rules.
    computed_under: dict[str, Any] | None = None


# The content hash the signing preview writes while it reads the findings as
# they will stand once signed (never a real hash: it is rolled back).
PREVIEW_HASH = "0" * 64


class RevisionContent(_Content):
    intended_use: str = ""
    foreseeable_misuse: str = ""
    space_limits: str = ""
    time_limits: str = ""
    exposed_persons: tuple[str, ...] = ()
    low_guard_justification: str = ""
    conformity_route: str = ""
    hazards: tuple[HazardContent, ...] = ()
    declaration: DeclarationContent | None = None


def canonical_json(content: RevisionContent) -> str:
    """One spelling of the content: sorted keys, no spaces, hazards by key.

    Fields at their default value are left out, so that a field added to the
    content later (with a default) does not change the hash of what was
    signed before it existed.
    """
    data = content.model_dump(mode="json", exclude_defaults=True)
    data.setdefault("hazards", [])
    data["hazards"] = sorted(data["hazards"], key=lambda h: h["key"])
    for hazard in data["hazards"]:
        if "measures" in hazard:
            hazard["measures"] = sorted(hazard["measures"], key=lambda m: m["key"])
    declaration = data.get("declaration")
    if declaration and "findings" in declaration:
        declaration["findings"] = sorted(
            declaration["findings"], key=lambda f: f["key"]
        )
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(content: RevisionContent) -> str:
    return hashlib.sha256(canonical_json(content).encode()).hexdigest()


class FieldChange(_Content):
    field: str
    before: Any
    after: Any


class MeasureChange(_Content):
    key: str
    description: str
    kind: str  # "added", "removed" or "changed"
    fields: tuple[FieldChange, ...] = ()


class HazardChange(_Content):
    key: str
    task: str
    kind: str  # "added", "removed", "re_estimated" or "changed"
    fields: tuple[FieldChange, ...] = ()
    measures: tuple[MeasureChange, ...] = ()


class RevisionDiff(_Content):
    limits: tuple[FieldChange, ...] = ()
    hazards: tuple[HazardChange, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not self.limits and not self.hazards

    def of_kind(self, kind: str) -> tuple[HazardChange, ...]:
        return tuple(h for h in self.hazards if h.kind == kind)


def _field_changes(
    old: BaseModel, new: BaseModel, skip: set[str]
) -> tuple[FieldChange, ...]:
    return tuple(
        FieldChange(field=name, before=getattr(old, name), after=getattr(new, name))
        for name in type(old).model_fields
        if name not in skip and getattr(old, name) != getattr(new, name)
    )


def _measure_changes(
    old: HazardContent, new: HazardContent
) -> tuple[MeasureChange, ...]:
    before = {m.key: m for m in old.measures}
    after = {m.key: m for m in new.measures}
    changes = [
        MeasureChange(key=k, description=after[k].description, kind="added")
        for k in after
        if k not in before
    ]
    changes += [
        MeasureChange(key=k, description=before[k].description, kind="removed")
        for k in before
        if k not in after
    ]
    for k in before.keys() & after.keys():
        fields = _field_changes(before[k], after[k], {"key"})
        if fields:
            changes.append(
                MeasureChange(
                    key=k,
                    description=after[k].description,
                    kind="changed",
                    fields=fields,
                )
            )
    return tuple(sorted(changes, key=lambda c: (c.kind, c.description, c.key)))


def diff(old: RevisionContent, new: RevisionContent) -> RevisionDiff:
    """What changed from ``old`` to ``new``: limits, and hazards added, removed,
    re-estimated (a risk parameter changed) or otherwise changed, with their
    measures."""
    # The declaration belongs to the signing, not to what the revision says.
    limits = _field_changes(old, new, {"hazards", "declaration"})
    before = {h.key: h for h in old.hazards}
    after = {h.key: h for h in new.hazards}
    hazards = [
        HazardChange(key=k, task=after[k].task, kind="added")
        for k in after
        if k not in before
    ]
    hazards += [
        HazardChange(key=k, task=before[k].task, kind="removed")
        for k in before
        if k not in after
    ]
    for k in before.keys() & after.keys():
        fields = _field_changes(before[k], after[k], {"key", "measures"})
        measures = _measure_changes(before[k], after[k])
        if not fields and not measures:
            continue
        estimated = any(f.field in ESTIMATE_FIELDS + RESIDUAL_FIELDS for f in fields)
        hazards.append(
            HazardChange(
                key=k,
                task=after[k].task,
                kind="re_estimated" if estimated else "changed",
                fields=fields,
                measures=measures,
            )
        )
    order = {"added": 0, "removed": 1, "re_estimated": 2, "changed": 3}
    return RevisionDiff(
        limits=limits,
        hazards=tuple(sorted(hazards, key=lambda h: (order[h.kind], h.task, h.key))),
    )
