"""Deriving a cell's line items from its facts and the rule findings.

``derive_line_items(facts, findings)`` reads a cell (``CellFacts``) and the
findings of the rule packs (``compliance.rules.engine.evaluate``) and lists
what to buy or commission, each line saying which rule or finding asks for it.

How the lines are derived (simple on purpose; users edit the result with
``apply_overrides`` and ``custom_item``):

- Fence: the layout's segments of kind ``fence``, grouped by the height they
  are priced at; the metres are the segment lengths less the widths of their
  openings (an opening is a gap that a door or a sensing device fills, and
  those are priced on their own lines), summed and rounded up to 0.1 m. A
  segment that fails the Korean Art. 223 fence height is priced at the height
  the finding requires (1,800 mm), on a line of its own that says so. No fence
  segments, no fence line.
- Every device the layout records: one line each, "recorded in the layout",
  priced from the catalogue entry of its kind (to be quoted where the
  catalogue has none, e.g. an enabling device). The layout does not say
  whether a device is existing equipment: the user sets such a line to 0.
- An opening with no presence-sensing device and no interlocked door linked
  to it (or one the Korean Art. 223 opening rule fails): a light curtain for a
  ``material_entry``, an interlocked guard door for an ``operator_access`` or
  ``maintenance_door`` opening, one line per opening; never when a device of
  that kind is already recorded at the opening (its recorded line stands).
- A safety laser scanner when the collaborative mode is speed and separation
  monitoring (``ssm``) and the cell records none.
- A safety controller when the cell records none.
- Emergency stops: one per operator station when the caller knows the number
  of stations (``CellFacts`` does not record them), else one per cell; the
  line asks for the shortfall against those recorded.
- Signage: one job. Risk assessment: always. Stopping-time measurement:
  always. Force and pressure measurement: when the mode is ``pfl``.
- Korea (``country == "KR"``) only: KCs safety certification for each
  recorded device of a kind the KCs rule lists (light curtain, multi-beam
  grid, laser scanner) not recorded as certified; the robot's
  self-declaration (자율안전확인); the safety inspection (안전검사).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import ROUND_CEILING, Decimal
from typing import Any

from compliance.calculators.base import Line, gettext_noop
from compliance.costs.catalogue import (
    CATALOGUE_BY_KEY,
    CatalogueEntry,
)
from compliance.costs.line_items import (
    KCS_ITEM_NOTE,
    KCS_NEW_DEVICE_NOTE,
    SAFETY_FUNCTION_CITATION,
    SAFETY_INSPECTION_CITATION,
    SELF_DECLARATION_CITATION,
    FindingRef,
    LineItem,
    catalogue_item,
)
from compliance.rules import baseline, collaborative, korea, sensing
from compliance.rules.facts import SENSING_DEVICE_KINDS, CellFacts, SegmentFacts
from compliance.rules.findings import mm

# The catalogue entry that prices a recorded device of each kind.
DEVICE_ENTRIES = {
    kind: kind
    for kind in (
        "light_curtain",
        "multibeam",
        "safety_mat",
        "laser_scanner",
        "interlocked_door",
        "emergency_stop",
        "safety_controller",
    )
}
# The kinds the catalogue has no entry for: their lines are to be quoted.
DEVICE_NAMES = {
    "enabling_device": gettext_noop("Enabling device"),
    "other": gettext_noop("Safety device"),
}
NO_CATALOGUE_ENTRY = gettext_noop(
    "The catalogue has no entry for this kind of device: ask suppliers for a quote."
)

# --- Deriving the lines from a cell -----------------------------------------


def derive_line_items(
    facts: CellFacts,
    findings: Iterable[Any] = (),
    *,
    operator_station_count: int | None = None,
    catalogue: Mapping[str, CatalogueEntry] = CATALOGUE_BY_KEY,
) -> tuple[LineItem, ...]:
    """The lines a cell's plan needs (see the module docstring for the rules).

    ``findings``: anything with ``rule_id``, ``status`` and ``subject_key``,
    e.g. ``Finding`` objects; the ``RuleFindings`` pairs of
    ``engine.evaluate`` are flattened too. ``catalogue``: an organisation's
    edited catalogue, keyed as the starting one.
    """
    if operator_station_count is not None and operator_station_count < 0:
        raise ValueError("operator_station_count must not be negative")
    flat = _flat(findings)
    build = _Builder(facts, finding_refs(flat), catalogue, _required_heights(flat))
    build.fence()
    build.recorded_devices()
    build.openings()
    build.laser_scanner()
    build.safety_controller()
    build.emergency_stops(operator_station_count)
    build.signage()
    build.risk_assessment()
    if build.korea:
        build.kcs_certifications()
        build.self_declaration()
        build.safety_inspection()
    build.measurements()
    return tuple(build.items)


def _flat(findings: Iterable[Any]) -> list[Any]:
    """Findings, with the ``RuleFindings`` pairs holding them opened up."""
    flat: list[Any] = []
    for finding in findings:
        if not hasattr(finding, "rule_id") and hasattr(finding, "findings"):
            flat.extend(_flat(finding.findings))
        else:
            flat.append(finding)
    return flat


def _required_heights(findings: Iterable[Any]) -> dict[str, Decimal]:
    """The fence height each segment must have, by subject key: from the
    failing Korean Art. 223 fence-height findings (their ``required_mm``)."""
    required = {}
    for finding in findings:
        status = str(getattr(finding.status, "value", finding.status))
        if finding.rule_id != korea.FENCE_HEIGHT.id or status != "fail":
            continue
        numbers = getattr(finding, "numbers", None) or {}
        height = numbers.get("required_mm", korea.FENCE_MIN_HEIGHT_MM)
        required[finding.subject_key] = _dec(float(height))
    return required


def finding_refs(findings: Iterable[Any]) -> tuple[FindingRef, ...]:
    """Findings (or ``RuleFindings`` pairs holding them) as ``FindingRef``."""
    refs: list[FindingRef] = []
    for finding in findings:
        if not hasattr(finding, "rule_id") and hasattr(finding, "findings"):
            refs.extend(finding_refs(finding.findings))
            continue
        status = getattr(finding.status, "value", finding.status)
        refs.append(
            FindingRef(
                rule_id=finding.rule_id,
                status=str(status),
                subject_key=finding.subject_key,
            )
        )
    return tuple(refs)


def _dec(value: float) -> Decimal:
    """A recorded float as the Decimal of its shortest repr (4000.0 -> 4000.0)."""
    return Decimal(repr(value))


def _plain(value: Decimal) -> str:
    """A Decimal without exponent or trailing zeros: 1800.0 -> "1800"."""
    return format(value.normalize(), "f")


class _Builder:
    """Collects the lines of one cell; one method per rule of derivation."""

    def __init__(
        self,
        facts: CellFacts,
        refs: tuple[FindingRef, ...],
        catalogue: Mapping[str, CatalogueEntry],
        required_heights: Mapping[str, Decimal],
    ) -> None:
        self.facts = facts
        self.refs = refs
        self.catalogue = catalogue
        self.required_heights = required_heights
        self.korea = facts.country == "KR"
        self.items: list[LineItem] = []

    def about(
        self, rule_ids: Iterable[str], subjects: Iterable[str] | None = None
    ) -> tuple[FindingRef, ...]:
        wanted = set(rule_ids)
        keys = None if subjects is None else set(subjects)
        return tuple(
            r
            for r in self.refs
            if r.rule_id in wanted and (keys is None or r.subject_key in keys)
        )

    def add(
        self,
        entry_key: str,
        *,
        key: str,
        quantity: Decimal,
        reason: Line,
        description: Line | None = None,
        citation: str = "",
        findings: tuple[FindingRef, ...] = (),
        notes: tuple[Line, ...] = (),
    ) -> None:
        entry = self.catalogue.get(entry_key)
        if entry is None:
            raise ValueError(f"the catalogue has no entry {entry_key!r}")
        self.items.append(
            catalogue_item(
                entry,
                key=key,
                quantity=quantity,
                reason=reason,
                description=description,
                citation=citation,
                findings=findings,
                notes=notes,
            )
        )

    def fence(self) -> None:
        # Segments priced at the same height share a line; a segment priced
        # above its recorded height (a failing Art. 223 height) gets a line of
        # its own per recorded height, so the line can say why.
        groups: dict[tuple[Decimal, Decimal | None], list[SegmentFacts]] = {}
        for segment in self.facts.segments:
            if segment.kind != "fence":
                continue
            recorded = _dec(segment.height_mm)
            required = self.required_heights.get(segment.key)
            if required is not None and required > recorded:
                groups.setdefault((required, recorded), []).append(segment)
            else:
                groups.setdefault((recorded, None), []).append(segment)
        gaps: dict[str, Decimal] = {}
        for opening in self.facts.openings:
            gaps[opening.segment_key] = gaps.get(
                opening.segment_key, Decimal(0)
            ) + _dec(opening.width_mm)
        for (height, raised_from), segments in groups.items():
            gross_mm = sum((_dec(s.length_mm) for s in segments), Decimal(0))
            gaps_mm = sum((gaps.get(s.key, Decimal(0)) for s in segments), Decimal(0))
            net_mm = sum(
                (
                    max(_dec(s.length_mm) - gaps.get(s.key, Decimal(0)), Decimal(0))
                    for s in segments
                ),
                Decimal(0),
            )
            metres = (net_mm / 1000).quantize(Decimal("0.1"), rounding=ROUND_CEILING)
            if metres == 0:
                continue
            values: dict[str, str | int | float] = {
                "height": mm(float(height)),
                "segments": ", ".join(s.label for s in segments),
                "metres": _plain(metres),
                "gross": _plain(gross_mm / 1000),
                "openings": _plain(gaps_mm / 1000),
            }
            length = (
                gettext_noop(
                    "%(metres)s m of fence: the segments' %(gross)s m less "
                    "%(openings)s m of openings, rounded up to 0.1 m. The doors "
                    "and sensing devices that fill the openings are priced on "
                    "their own lines."
                )
                if gaps_mm
                else gettext_noop(
                    "%(metres)s m of fence: the segments' lengths summed and "
                    "rounded up to 0.1 m."
                )
            )
            if raised_from is None:
                self._fence_line(height, metres, segments, values, length)
            else:
                self._raised_fence_line(
                    height, raised_from, metres, segments, values, length
                )

    def _fence_rules(self) -> tuple[tuple[str, ...], str]:
        if self.korea:
            return (korea.FENCE_HEIGHT.id,), korea.FENCE_HEIGHT.citation
        return (baseline.REACH_OVER.id, baseline.MESH.id), baseline.REACH_OVER.citation

    def _fence_line(
        self,
        height: Decimal,
        metres: Decimal,
        segments: list[SegmentFacts],
        values: dict[str, str | int | float],
        length: str,
    ) -> None:
        rule_ids, citation = self._fence_rules()
        self.add(
            "fence",
            key=f"fence:{_plain(height)}",
            quantity=metres,
            description=Line(
                text=gettext_noop("Safety fence, %(height)s mm high (%(segments)s)"),
                values=values,
            ),
            reason=Line(text=length, values=values),
            citation=citation,
            findings=self.about(rule_ids, (s.key for s in segments)),
        )

    def _raised_fence_line(
        self,
        height: Decimal,
        recorded: Decimal,
        metres: Decimal,
        segments: list[SegmentFacts],
        values: dict[str, str | int | float],
        length: str,
    ) -> None:
        values = values | {"recorded": mm(float(recorded))}
        self.add(
            "fence",
            key=f"fence:{_plain(height)}:from:{_plain(recorded)}",
            quantity=metres,
            description=Line(
                text=gettext_noop(
                    "Safety fence, %(height)s mm high, the height Art. 223 "
                    "requires (%(segments)s, recorded %(recorded)s mm)"
                ),
                values=values,
            ),
            reason=Line(
                text=gettext_noop(
                    "%(segments)s: recorded %(recorded)s mm high, below the "
                    "%(height)s mm fence that Art. 223 requires (the fence-height "
                    "finding fails), so the fence is priced at the required "
                    "%(height)s mm. If the risk assessment records why a lower "
                    "guard carries no height-related risk and is signed, the "
                    "finding changes and so does this line."
                ),
                values=values,
            ),
            citation=korea.FENCE_HEIGHT.citation,
            findings=self.about((korea.FENCE_HEIGHT.id,), (s.key for s in segments)),
            notes=(Line(text=length, values=values),),
        )

    def recorded_devices(self) -> None:
        for device in self.facts.devices:
            entry_key = DEVICE_ENTRIES.get(device.kind)
            entry = self.catalogue.get(entry_key) if entry_key else None
            name = entry.name if entry else DEVICE_NAMES.get(device.kind, device.kind)
            values = {"name": name, "label": device.label}
            description = Line(
                text=gettext_noop("%(name)s: %(label)s, recorded in the layout"),
                values=values,
            )
            reason = Line(
                text=gettext_noop(
                    "%(label)s is recorded in the cell's layout: priced so that "
                    "the budget covers every device the cell uses. If it is "
                    "existing equipment, set the quantity to 0."
                ),
                values=values,
            )
            refs = tuple(r for r in self.refs if r.subject_key == device.key)
            if device.opening_key is not None:
                refs += self.about((korea.OPENINGS.id,), (device.opening_key,))
            key = f"recorded:{device.key}"
            if entry_key is not None and entry is not None:
                self.add(
                    entry_key,
                    key=key,
                    quantity=Decimal(1),
                    description=description,
                    reason=reason,
                    findings=refs,
                )
                continue
            self.items.append(
                LineItem(
                    key=key,
                    catalogue_key=None,
                    category="device",
                    description=description,
                    quantity=Decimal(1),
                    unit="piece",
                    reason=reason,
                    findings=refs,
                    basis="unknown",
                    source=NO_CATALOGUE_ENTRY,
                )
            )

    def openings(self) -> None:
        for opening in self.facts.openings:
            linked = self.facts.devices_for(opening.key)
            guarded = any(
                d.kind in SENSING_DEVICE_KINDS or d.kind == "interlocked_door"
                for d in linked
            )
            refs = self.about((korea.OPENINGS.id,), (opening.key,))
            if guarded and not any(r.status == "fail" for r in refs):
                continue
            material = opening.purpose == "material_entry"
            entry_key = "light_curtain" if material else "interlocked_door"
            if any(d.kind == entry_key for d in linked):
                continue  # recorded at the opening: its own line prices it
            values = {"opening": opening.label, "width": mm(opening.width_mm)}
            if material and self.korea:
                reason = gettext_noop(
                    "%(opening)s (%(width)s mm wide, material entry) has no "
                    "protective device linked to it. Art. 223 requires a "
                    "presence-sensing protective device, such as a light curtain "
                    "or a safety mat, where a fence cannot be installed."
                )
            elif material:
                reason = gettext_noop(
                    "%(opening)s (%(width)s mm wide, material entry) has no "
                    "protective device linked to it: a light curtain is planned "
                    "so that nobody reaches the hazard through it unnoticed. The "
                    "risk assessment decides the final measure."
                )
            elif self.korea:
                reason = gettext_noop(
                    "%(opening)s (%(width)s mm wide, an access or maintenance "
                    "opening) has no interlocked door or protective device linked "
                    "to it: an interlocked guard door is planned, closing the Art. "
                    "223 fence."
                )
            else:
                reason = gettext_noop(
                    "%(opening)s (%(width)s mm wide, an access or maintenance "
                    "opening) has no interlocked door or protective device linked "
                    "to it: an interlocked guard door is planned. The risk "
                    "assessment decides the final measure."
                )
            description = (
                gettext_noop("Safety light curtain at %(opening)s")
                if material
                else gettext_noop("Interlocked guard door at %(opening)s")
            )
            self.add(
                entry_key,
                key=f"{entry_key}:{opening.key}",
                quantity=Decimal(1),
                description=Line(text=description, values=values),
                reason=Line(text=reason, values=values),
                citation=(
                    korea.OPENINGS.citation
                    if self.korea
                    else baseline.RISK_ASSESSMENT.citation
                ),
                findings=refs,
                notes=(
                    (Line(text=KCS_NEW_DEVICE_NOTE),) if self.korea and material else ()
                ),
            )

    def laser_scanner(self) -> None:
        facts = self.facts
        if facts.collaborative_mode != "ssm" or facts.devices_of("laser_scanner"):
            return
        self.add(
            "laser_scanner",
            key="laser_scanner",
            quantity=Decimal(1),
            reason=Line(
                text=gettext_noop(
                    "Speed and separation monitoring keeps the robot at least the "
                    "protective separation distance from a person, which a safety "
                    "laser scanner's protective field must cover; the cell records "
                    "no laser scanner."
                )
            ),
            citation=collaborative.SSM.citation,
            findings=self.about((collaborative.SSM.id,)),
            notes=(Line(text=KCS_NEW_DEVICE_NOTE),) if self.korea else (),
        )

    def safety_controller(self) -> None:
        if self.facts.devices_of("safety_controller"):
            return
        self.add(
            "safety_controller",
            key="safety_controller",
            quantity=Decimal(1),
            reason=Line(
                text=gettext_noop(
                    "No safety controller is recorded: the protective devices and "
                    "emergency stops need safety-rated logic to stop the robot, at "
                    "the performance level required for each safety function. If "
                    "the robot controller's integrated safety functions do this, "
                    "set the quantity to 0."
                )
            ),
            citation=SAFETY_FUNCTION_CITATION,
        )

    def emergency_stops(self, stations: int | None) -> None:
        required = 1 if stations is None else max(1, stations)
        present = len(self.facts.devices_of("emergency_stop"))
        if present >= required:
            return
        values = {"required": required, "present": present}
        if stations is None:
            reason = gettext_noop(
                "At least one emergency stop per cell (no operator stations are "
                "recorded); the cell records %(present)s."
            )
        else:
            values["stations"] = stations
            reason = gettext_noop(
                "One emergency stop per operator station, at least one: "
                "%(required)s for %(stations)s stations; the cell records "
                "%(present)s."
            )
        self.add(
            "emergency_stop",
            key="emergency_stop",
            quantity=Decimal(required - present),
            reason=Line(text=reason, values=values),
            notes=(
                Line(
                    text=gettext_noop(
                        "A planning rule of this application, not taken from a "
                        "cited clause: adjust it to the risk assessment."
                    )
                ),
            ),
        )

    def signage(self) -> None:
        if self.korea:
            reason = gettext_noop(
                "Signs for the cell, including the 'work in progress' sign for the "
                "start switch while teaching (Art. 222 item 3) and during repair, "
                "inspection, adjustment or cleaning (Art. 224)."
            )
            citation = korea.PROCEDURES.citation
            refs = self.about((korea.PROCEDURES.id,))
        else:
            reason = gettext_noop(
                "Warning signs at the cell's entrances: a planning allowance, not "
                "taken from a cited clause."
            )
            citation, refs = "", ()
        self.add(
            "signage",
            key="signage",
            quantity=Decimal(1),
            reason=Line(text=reason),
            citation=citation,
            findings=refs,
        )

    def risk_assessment(self) -> None:
        self.add(
            "risk_assessment",
            key="risk_assessment",
            quantity=Decimal(1),
            reason=Line(
                text=gettext_noop(
                    "ISO 10218-2:2025 requires a documented risk assessment of the "
                    "complete cell, following ISO 12100."
                )
            ),
            citation=baseline.RISK_ASSESSMENT.citation,
            findings=self.about((baseline.RISK_ASSESSMENT.id,)),
        )

    def kcs_certifications(self) -> None:
        for device in self.facts.devices_of(*korea.KCS_LISTED_KINDS):
            if device.kcs_certified is True:
                continue
            reason = (
                gettext_noop(
                    "%(label)s is recorded as not KCs-certified: certify it, or "
                    "replace it with a certified device."
                )
                if device.kcs_certified is False
                else gettext_noop(
                    "%(label)s is not recorded as KCs-certified: check its "
                    "certificate, or certify or replace it."
                )
            )
            values = {"label": device.label}
            self.add(
                "kcs_certification",
                key=f"kcs_certification:{device.key}",
                quantity=Decimal(1),
                description=Line(
                    text=gettext_noop("KCs safety certification of %(label)s"),
                    values=values,
                ),
                reason=Line(text=reason, values=values),
                citation=korea.KCS.citation,
                findings=self.about((korea.KCS.id,), (device.key,)),
                notes=(Line(text=KCS_ITEM_NOTE),),
            )

    def self_declaration(self) -> None:
        self.add(
            "kr_self_declaration",
            key="kr_self_declaration",
            quantity=Decimal(1),
            reason=Line(
                text=gettext_noop(
                    "An industrial robot (3 or more axes) is subject to "
                    "self-declaration of safety (자율안전확인 신고), not to safety "
                    "certification: plan its lead time. Set the quantity to 0 if "
                    "the robot's supplier has already filed it."
                )
            ),
            citation=SELF_DECLARATION_CITATION,
        )

    def safety_inspection(self) -> None:
        self.add(
            "kr_safety_inspection",
            key="kr_safety_inspection",
            quantity=Decimal(1),
            reason=Line(
                text=gettext_noop(
                    "The first safety inspection (안전검사) of an industrial robot "
                    "is due within 3 years of installation, then every 2 years."
                )
            ),
            citation=SAFETY_INSPECTION_CITATION,
        )

    def measurements(self) -> None:
        notes: tuple[Line, ...] = ()
        if self.facts.robot_stopping_time_ms is None:
            notes = (
                Line(text=gettext_noop("No stopping time is recorded for the robot.")),
            )
        self.add(
            "stopping_time_measurement",
            key="stopping_time_measurement",
            quantity=Decimal(1),
            reason=Line(
                text=gettext_noop(
                    "The minimum distance of each sensing device (ISO 13855, S = K "
                    "× T + C) and the protective separation distance of speed and "
                    "separation monitoring use the robot's stopping time: measure "
                    "it in the cell."
                )
            ),
            citation=sensing.MINIMUM_DISTANCE.citation,
            findings=self.about((sensing.MINIMUM_DISTANCE.id, collaborative.SSM.id)),
            notes=notes,
        )
        if self.facts.collaborative_mode == "pfl":
            self.add(
                "pfl_measurement",
                key="pfl_measurement",
                quantity=Decimal(1),
                reason=Line(
                    text=gettext_noop(
                        "Power and force limiting allows contact only within the "
                        "ISO/TS 15066 Annex A force and pressure limits of each body "
                        "region: measure the forces and pressures in the cell."
                    )
                ),
                citation=collaborative.PFL.citation,
                findings=self.about((collaborative.PFL.id,)),
            )
