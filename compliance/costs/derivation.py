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
  self-declaration (자율안전확인); the safety inspection (안전검사); and, for a
  collaborative robot not fenced to the Art. 223 height all round with no
  KIRIA certificate in force on the day of the check, the KIRIA
  collaborative-robot workplace safety certification (one job, to be quoted:
  no public fee was found), the route the conformity-route rule asks for.
- EU / EEA (``jurisdiction_of(country) == "EU"``) only: the CE conformity
  assessment and technical file of the cell (one job, to be quoted: no
  public figure exists for an integrator's own assessment), answering the EU
  rules on the conformity assessment procedure and the technical file. A
  notified body's EC type examination (``ec_type_certification``) is never
  derived: only Annex IV (Directive) or Annex I Part A (Regulation)
  machinery needs one; the user adds it where the cell's route does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from compliance.calculators.editions import jurisdiction_of
from compliance.costs import guarding, work
from compliance.costs.builder import LineBuilder, as_decimal
from compliance.costs.catalogue import (
    CATALOGUE_BY_KEY,
    CatalogueEntry,
)
from compliance.costs.line_items import (
    FindingRef,
    LineItem,
)
from compliance.rules import korea
from compliance.rules.facts import CellFacts

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
    build = LineBuilder(facts, finding_refs(flat), catalogue, _required_heights(flat))
    guarding.fence(build)
    guarding.recorded_devices(build)
    guarding.openings(build)
    guarding.laser_scanner(build)
    guarding.safety_controller(build)
    guarding.emergency_stops(build, operator_station_count)
    work.signage(build)
    work.risk_assessment(build)
    if build.korea:
        work.kcs_certifications(build)
        work.self_declaration(build)
        work.safety_inspection(build)
        work.kiria_certification(build)
    elif jurisdiction_of(facts.country) == "EU":
        work.ce_conformity(build)
    work.measurements(build)
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
    failing Korean Art. 223 fence-height findings (``Finding.required_mm``)."""
    required = {}
    for finding in findings:
        status = str(getattr(finding.status, "value", finding.status))
        if finding.rule_id != korea.FENCE_HEIGHT.id or status != "fail":
            continue
        height = getattr(finding, "required_mm", None)
        if height is None:
            height = korea.FENCE_MIN_HEIGHT_MM
        required[finding.subject_key] = as_decimal(float(height))
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
