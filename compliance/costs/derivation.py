"""Deriving a cell's line items from its facts and the rule findings.

``derive_line_items(facts, findings)`` reads a cell (``CellFacts``) and the
findings of the rule packs (``compliance.rules.engine.evaluate``) and lists
what to buy or commission, each line saying which rule or finding asks for it.

How the lines are derived (simple on purpose; users edit the result with
``apply_overrides`` and ``custom_item``):

- Fence: the layout's segments of kind ``fence``, grouped by height; the
  metres are the segment lengths summed and rounded up to 0.1 m. Openings in
  a segment are not subtracted: doors and sensing devices are priced on their
  own lines. No fence segments, no fence line.
- An opening with no presence-sensing device and no interlocked door linked
  to it (or one the Korean Art. 223 opening rule fails): a light curtain for a
  ``material_entry``, an interlocked guard door for an ``operator_access`` or
  ``maintenance_door`` opening, one line per opening.
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
    refs = finding_refs(findings)
    build = _Builder(facts, refs, catalogue)
    build.fence()
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
    ) -> None:
        self.facts = facts
        self.refs = refs
        self.catalogue = catalogue
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
        groups: dict[Decimal, list[SegmentFacts]] = {}
        for segment in self.facts.segments:
            if segment.kind == "fence":
                groups.setdefault(_dec(segment.height_mm), []).append(segment)
        rule_ids = (
            (korea.FENCE_HEIGHT.id,)
            if self.korea
            else (baseline.REACH_OVER.id, baseline.MESH.id)
        )
        citation = (
            korea.FENCE_HEIGHT.citation if self.korea else baseline.REACH_OVER.citation
        )
        for height, segments in groups.items():
            length_mm = sum((_dec(s.length_mm) for s in segments), Decimal(0))
            metres = (length_mm / 1000).quantize(Decimal("0.1"), rounding=ROUND_CEILING)
            if metres == 0:
                continue
            values = {
                "height": mm(float(height)),
                "segments": ", ".join(s.label for s in segments),
                "metres": _plain(metres),
            }
            self.add(
                "fence",
                key=f"fence:{_plain(height)}",
                quantity=metres,
                description=Line(
                    text=gettext_noop(
                        "Safety fence, %(height)s mm high (%(segments)s)"
                    ),
                    values=values,
                ),
                reason=Line(
                    text=gettext_noop(
                        "The fence segments of the layout %(height)s mm high: "
                        "%(metres)s m, their lengths summed and rounded up to 0.1 m. "
                        "Openings in them are not subtracted; doors and sensing "
                        "devices are priced on their own lines."
                    ),
                    values=values,
                ),
                citation=citation,
                findings=self.about(rule_ids, (s.key for s in segments)),
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
            values = {"opening": opening.label, "width": mm(opening.width_mm)}
            material = opening.purpose == "material_entry"
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
            entry_key = "light_curtain" if material else "interlocked_door"
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
