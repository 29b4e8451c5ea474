"""The safeguards and work a cell's plan needs, as priced line items, and their
totals as ranges. Pure Python with pydantic, no Django.

``derive_line_items(facts, findings)`` reads a cell (``CellFacts``) and the
findings of the rule packs (``compliance.rules.engine.evaluate``) and lists
what to buy or commission, each line saying which rule or finding asks for it.
Prices and lead times come from the catalogue (``compliance.costs.catalogue``,
copied from ``/work/shared/reference``); where it has none the line shows
"price to be quoted" and the totals count it as unknown.

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

Money is ``Decimal``, never float. ``convert`` and ``totals`` take exchange
rates from the caller as units of each currency per 1 USD; there are no
default rates. Totals are ranges with a count of unpriced lines, and
``round_range`` rounds them outwards for display.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from compliance.calculators.base import Certainty, Line, gettext_noop
from compliance.costs.catalogue import (
    CATALOGUE_BY_KEY,
    CURRENCIES,
    CatalogueEntry,
    Category,
    Currency,
    Money,
    Quantity,
    Unit,
    Weeks,
    check_range,
)
from compliance.rules import baseline, collaborative, korea, sensing
from compliance.rules.facts import SENSING_DEVICE_KINDS, CellFacts, SegmentFacts
from compliance.rules.findings import mm

# Past the ~600-line mark of STYLE.md: the files of this package were fixed
# when it was written. Split derivation (``_Builder``) from money (``convert``,
# ``totals``, ``round_range``) into two modules when it is next touched.

# Where a line's price comes from: the catalogue's basis, or the user's own.
LineBasis = Literal["public_price", "planning_range", "unknown", "organisation", "user"]

USER_SOURCE = "entered by the user"
PRICE_TO_BE_QUOTED = gettext_noop("price to be quoted")

# iso10218_2025.json changes[3] (two sources: ibf-solutions, Mitsubishi
# Electric): the required PL/SIL is given per safety function.
SAFETY_FUNCTION_CITATION = "ISO 10218-1/-2:2025 (required PL/SIL per safety function)"
# korea_art223.json osh_act_art84_safety_certification.summary_en ("Art. 89:
# 자율안전확인 신고") and ...industrial_robot_itself (gcnq.co.kr, cobots.tistory).
SELF_DECLARATION_CITATION = (
    "산업안전보건법 제89조 (자율안전확인 신고) / OSH Act Art. 89 (self-declaration)"
)
# korea_art223.json osh_act_art84...summary_en ("Art. 93: 안전검사") and
# enforcement_rule_periods.art126_safety_inspection_industrial_robot.
SAFETY_INSPECTION_CITATION = (
    "산업안전보건법 제93조, 시행규칙 제126조 / OSH Act Art. 93 (safety "
    "inspection), Enforcement Rule Art. 126"
)

KCS_NEW_DEVICE_NOTE = gettext_noop(
    "Korea: protective devices of industrial robots that prevent collision and "
    "crushing are listed as needing KCs safety certification (안전인증): choose a "
    "certified device. The list item rests on one secondary source "
    "(korea_art223.json): confirm it."
)
KCS_ITEM_NOTE = gettext_noop(
    "The list item for industrial-robot protective devices rests on one "
    "secondary source and the current Enforcement Decree text was not obtained "
    "(korea_art223.json): confirm it before relying on this line."
)


class FindingRef(BaseModel):
    """The finding a line answers: which rule, its status, about what."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule_id: str
    status: str  # "pass", "fail", "warning", "needs_evidence"
    subject_key: str


class LineItem(BaseModel):
    """One line of a cell's safety budget: a device, guarding or a service,
    its quantity, why it is needed, its price range per unit and lead time.

    ``price_low``/``price_high`` are per ``unit`` in ``currency``; ``None``
    when no price is known (the line then shows "price to be quoted").
    ``basis`` and ``source`` say where the price comes from; ``certainty``
    is ``one_source`` when it rests on one public source and ``None`` when
    there is no figure, only the brief's planning range, or the user's entry.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(min_length=1)  # stable across re-derivation: overrides use it
    catalogue_key: str | None  # None for a custom line
    category: Category
    description: Line  # English template marked with gettext_noop, and values
    quantity: Quantity
    unit: Unit
    reason: Line  # which rule or finding asks for it
    citation: str = ""  # law and article, or standard and clause
    findings: tuple[FindingRef, ...] = ()
    price_low: Money | None = None
    price_high: Money | None = None
    currency: Currency | None = None
    price_date: str | None = None
    lead_time_weeks_low: Weeks | None = None
    lead_time_weeks_high: Weeks | None = None
    basis: LineBasis
    source: str
    lead_time_source: str | None = None
    certainty: Certainty | None = None
    notes: tuple[Line, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> LineItem:
        check_range(self.price_low, self.price_high, f"{self.key} price")
        check_range(
            self.lead_time_weeks_low, self.lead_time_weeks_high, f"{self.key} lead time"
        )
        priced = self.price_low is not None
        if priced and self.currency is None:
            raise ValueError(f"{self.key}: a price needs a currency")
        if priced == (self.basis == "unknown"):
            raise ValueError(
                f"{self.key}: basis 'unknown' is for lines without a price, and only "
                "for them"
            )
        return self

    @property
    def price_known(self) -> bool:
        return self.price_low is not None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total_low(self) -> Decimal | None:
        """Quantity × low unit price, exact; None when the price is unknown."""
        return None if self.price_low is None else self.quantity * self.price_low

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total_high(self) -> Decimal | None:
        """Quantity × high unit price, exact; None when the price is unknown."""
        return None if self.price_high is None else self.quantity * self.price_high

    @computed_field  # type: ignore[prop-decorator]
    @property
    def price_note(self) -> str:
        """ "price to be quoted" (marked for translation) when there is no price."""
        return "" if self.price_known else PRICE_TO_BE_QUOTED


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


# --- Lines by hand, and the user's edits ------------------------------------


def catalogue_item(
    entry: CatalogueEntry,
    *,
    key: str,
    quantity: Decimal | int | str,
    reason: Line | None = None,
    description: Line | None = None,
    citation: str = "",
    findings: tuple[FindingRef, ...] = (),
    notes: tuple[Line, ...] = (),
) -> LineItem:
    """A line for a catalogue entry, priced as the catalogue prices it (e.g. a
    safety mat the user adds from the catalogue)."""
    entry_notes = (Line(text=entry.note),) if entry.note else ()
    return LineItem(
        key=key,
        catalogue_key=entry.key,
        category=entry.category,
        description=description or Line(text=entry.name),
        quantity=quantity,
        unit=entry.unit,
        reason=reason or Line(text=gettext_noop("Added by the user.")),
        citation=citation,
        findings=findings,
        price_low=entry.price_low,
        price_high=entry.price_high,
        currency=entry.currency,
        price_date=entry.price_date,
        lead_time_weeks_low=entry.lead_time_weeks_low,
        lead_time_weeks_high=entry.lead_time_weeks_high,
        basis=entry.basis,
        source=entry.source,
        lead_time_source=entry.lead_time_source,
        certainty=entry.certainty,
        notes=(*entry_notes, *notes),
    )


def custom_item(
    *,
    key: str,
    description: str,
    quantity: Decimal | int | str,
    unit: Unit,
    category: Category = "device",
    price_low: Decimal | int | str | None = None,
    price_high: Decimal | int | str | None = None,
    currency: Currency | None = None,
    lead_time_weeks_low: Decimal | int | str | None = None,
    lead_time_weeks_high: Decimal | int | str | None = None,
    source: str = USER_SOURCE,
    note: str = "",
) -> LineItem:
    """A line the user adds by hand. ``description`` is the user's own text.
    Without prices it shows "price to be quoted"; a price needs both ends and
    a currency. Raises ``pydantic.ValidationError`` (a ValueError) on a
    negative figure or a float."""
    priced = price_low is not None or price_high is not None
    return LineItem(
        key=key,
        catalogue_key=None,
        category=category,
        description=Line(text=description),
        quantity=quantity,
        unit=unit,
        reason=Line(text=gettext_noop("Added by the user.")),
        price_low=price_low,
        price_high=price_high,
        currency=currency,
        lead_time_weeks_low=lead_time_weeks_low,
        lead_time_weeks_high=lead_time_weeks_high,
        basis="user" if priced else "unknown",
        source=source,
        lead_time_source=source if lead_time_weeks_low is not None else None,
        notes=(Line(text=note),) if note else (),
    )


class Override(BaseModel):
    """The user's edit of one derived line: any field left ``None`` keeps the
    line's own. Prices are per unit; ``currency`` is needed when the line had
    no price, and ``source`` names the quote (default "entered by the user")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    quantity: Quantity | None = None
    price_low: Money | None = None
    price_high: Money | None = None
    currency: Currency | None = None
    source: str | None = None


def apply_overrides(
    items: Iterable[LineItem], overrides: Mapping[str, Override]
) -> tuple[LineItem, ...]:
    """The lines with the user's edits applied, matched by ``LineItem.key``.

    A new price makes the line's basis ``user`` (no public source behind it).
    Overrides whose key matches no line are ignored: the line was not derived
    this time (e.g. the opening now has a device). Raises ValueError (a
    pydantic ``ValidationError``) when the edit leaves the line inconsistent,
    e.g. one end of a price range on an unpriced line.
    """
    result = []
    for item in items:
        override = overrides.get(item.key)
        result.append(item if override is None else _override(item, override))
    return tuple(result)


def _override(item: LineItem, override: Override) -> LineItem:
    update: dict[str, Any] = {}
    if override.quantity is not None:
        update["quantity"] = override.quantity
    new_price = override.price_low is not None or override.price_high is not None
    if (
        override.currency is not None
        and override.currency != item.currency
        and (override.price_low is None or override.price_high is None)
    ):
        raise ValueError(
            f"{item.key}: a new currency needs both the low and the high price"
        )
    if new_price:
        low, high = override.price_low, override.price_high
        update |= {
            "price_low": item.price_low if low is None else low,
            "price_high": item.price_high if high is None else high,
            "currency": override.currency or item.currency,
            "price_date": None,
            "basis": "user",
            "source": override.source or USER_SOURCE,
            "certainty": None,
        }
    return LineItem(**(dict(item) | update))


# --- Money: conversion, totals, display ranges ------------------------------


def _decimal(value: object, what: str) -> Decimal:
    if isinstance(value, float | bool) or not isinstance(value, Decimal | int):
        raise ValueError(
            f"{what} must be a Decimal (or int), not {type(value).__name__}"
        )
    number = Decimal(value)
    if not number.is_finite():
        raise ValueError(f"{what} must be finite")
    return number


def _check_currency(code: str) -> None:
    if code not in CURRENCIES:
        raise ValueError(
            f"unknown currency {code!r}: use one of {', '.join(CURRENCIES)}"
        )


def _rate(code: str, rates: Mapping[str, Decimal]) -> Decimal:
    """Units of ``code`` per 1 USD, from the caller's rates (USD is 1)."""
    if code == "USD":
        if "USD" in rates and _decimal(rates["USD"], "rates['USD']") != 1:
            raise ValueError("rates['USD'] must be 1: rates are per 1 USD")
        return Decimal(1)
    if code not in rates:
        raise ValueError(
            f"no exchange rate for {code}: pass rates[{code!r}] as units of {code} "
            "per 1 USD"
        )
    rate = _decimal(rates[code], f"rates[{code!r}]")
    if rate <= 0:
        raise ValueError(f"rates[{code!r}] must be positive, not {rate}")
    return rate


def convert(
    amount: Decimal,
    from_currency: str,
    to_currency: str,
    rates: Mapping[str, Decimal],
) -> Decimal:
    """``amount`` in ``from_currency`` expressed in ``to_currency``, exactly as
    Decimal arithmetic allows (no rounding here).

    ``rates`` are the caller's: units of each currency per 1 USD, e.g.
    ``{"KRW": Decimal("1350"), "EUR": Decimal("0.92")}``; USD is 1 and may be
    left out. There are no default rates. Raises ValueError for an unknown
    currency, a missing or non-positive rate, or a float.
    """
    value = _decimal(amount, "amount")
    _check_currency(from_currency)
    _check_currency(to_currency)
    if from_currency == to_currency:
        return value
    return value * _rate(to_currency, rates) / _rate(from_currency, rates)


def round_range(
    low: Decimal, high: Decimal, significant: int = 2
) -> tuple[Decimal, Decimal]:
    """A range for display: ``low`` rounded down and ``high`` rounded up to
    ``significant`` figures, so the shown range still holds the exact one
    (3,260.87-5,434.78 -> 3,200-5,500). Keep the exact figures in the model."""
    if significant < 1:
        raise ValueError("significant must be at least 1")
    if low > high:
        raise ValueError(f"low {low} is above high {high}")
    return _round_sig(low, significant, ROUND_FLOOR), _round_sig(
        high, significant, ROUND_CEILING
    )


def _round_sig(value: Decimal, significant: int, rounding: str) -> Decimal:
    if value == 0:
        return Decimal(0)
    exponent = value.adjusted() - (significant - 1)
    quantum = Decimal(1).scaleb(exponent)
    rounded = (value / quantum).to_integral_value(rounding=rounding) * quantum
    return Decimal(int(rounded)) if exponent >= 0 else rounded.quantize(quantum)


class TotalLine(BaseModel):
    """One line's total in the totals' currency; None when it has no price."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    description: Line
    total_low: Decimal | None
    total_high: Decimal | None


class Totals(BaseModel):
    """A plan's cost as a range in one currency, never a single figure.

    ``low``/``high`` sum the priced lines exactly; ``unknown_count`` says how
    many lines (quantity above 0) have no price and are not in the sum.
    ``rates`` are the exchange rates used (units per 1 USD).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    low: Decimal
    high: Decimal
    unknown_count: int
    currency: Currency
    lines: tuple[TotalLine, ...]
    rates: dict[str, Decimal] = {}

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rounded_low(self) -> Decimal:
        """``low`` rounded down to two significant figures, for display."""
        return round_range(self.low, self.high)[0]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rounded_high(self) -> Decimal:
        """``high`` rounded up to two significant figures, for display."""
        return round_range(self.low, self.high)[1]


def totals(
    items: Iterable[LineItem], currency: str, rates: Mapping[str, Decimal]
) -> Totals:
    """The lines' totals converted to ``currency`` with the caller's ``rates``
    (units per 1 USD; see ``convert``). Only the rates of currencies that
    occur are needed. Lines with quantity 0 add nothing and are not counted
    as unknown."""
    _check_currency(currency)
    low = high = Decimal(0)
    unknown = 0
    used: dict[str, Decimal] = {}
    lines = []
    for item in items:
        line_low = line_high = None
        if item.total_low is not None and item.total_high is not None:
            assert item.currency is not None  # checked by LineItem
            line_low = convert(item.total_low, item.currency, currency, rates)
            line_high = convert(item.total_high, item.currency, currency, rates)
            low += line_low
            high += line_high
            if item.currency != currency:
                for code in {item.currency, currency} - {"USD"}:
                    used[code] = _rate(code, rates)
        elif item.quantity > 0:
            unknown += 1
        lines.append(
            TotalLine(
                key=item.key,
                description=item.description,
                total_low=line_low,
                total_high=line_high,
            )
        )
    return Totals(
        low=low,
        high=high,
        unknown_count=unknown,
        currency=currency,  # type: ignore[arg-type]  # checked above
        lines=tuple(lines),
        rates=used,
    )
