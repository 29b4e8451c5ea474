"""The concepts API's responses as typed models: what
``GET /api/v1/cells/{id}/concepts/compare/`` and ``POST .../generate/``
answer, field by field. The views pass their data through these models, so
the response and the OpenAPI schema cannot drift apart. Texts are in the
reader's language. Pure pydantic, no Django."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from compliance.rules.schemas import FindingCounts


class _Shown(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", serialize_by_alias=True)


class ConceptFinding(_Shown):
    """A finding as a concept's column lists it."""

    status: str
    subject: str
    citation: str
    text: str


class ConceptSpeed(_Shown):
    """The collaborative speed check: programmed against permissible."""

    programmed_mm_s: float
    permissible_mm_s: float
    region: str
    # How many times as long the motions take at the permissible speed;
    # None when the programmed speed is within it.
    slower_by: str | None
    status: str


class ConceptCost(_Shown):
    """The cost of a concept's lines: a range in one currency, exact."""

    currency: str
    low: str
    high: str


class WeeksRange(_Shown):
    low: str | None
    high: str | None


class Concept(_Shown):
    """One guarding concept: why it was designed so (or is not offered) and,
    when offered, how the same engine judges, prices and schedules it."""

    id: int
    kind: str
    name: str
    offered: bool
    chosen: bool
    reasons: list[str]
    base_changed: bool
    design_cell: int  # the cell holding its guarding (the cell itself: as drawn)
    counts: FindingCounts | None = None
    by_pack: dict[str, FindingCounts] | None = None
    fails: list[ConceptFinding] | None = None
    needs_evidence: list[ConceptFinding] | None = None
    law: list[ConceptFinding] | None = None
    speed: ConceptSpeed | None = None
    cost: ConceptCost | None = None
    unpriced_lines: int | None = Field(default=None, ge=0)
    # The work of its physical-first plan that no cost line prices, costed
    # from the organisation's labour rates; the activities still without one.
    work: ConceptCost | None = None
    work_unknown: int | None = Field(default=None, ge=0)
    poc_start_weeks: WeeksRange | None = None
    floor_m2: str | None = None
    # Certifications it still needs that no cost line prices (to be quoted).
    certifications: list[str] | None = None


class ConceptRecommendation(_Shown):
    recommended: int | None
    ranked: list[int]
    excluded: list[int]
    lines: list[str]


class CellConcepts(_Shown):
    """A cell's guarding concepts side by side, with the recommendation."""

    cell: int
    concepts: list[Concept]
    recommendation: ConceptRecommendation


class ConceptsDesigned(_Shown):
    """The kinds of concept designed by this request (none: all were there)."""

    cell: int
    designed: list[str]
