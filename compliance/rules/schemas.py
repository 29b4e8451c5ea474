"""The findings API's response, as a typed model: what
``GET /api/v1/cells/{id}/findings/`` answers, field by field.

The view passes its data through ``CellFindings`` before answering, so the
response and the OpenAPI schema (drf-spectacular reads these models) cannot
drift apart. Texts and labels are in the reader's language. Pure pydantic, no
Django.
"""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict, Field

from compliance.rules.findings import Jurisdiction, RuleCertainty, Status


class _Shown(BaseModel):
    # Every field is always present in the response: none has a default.
    model_config = ConfigDict(frozen=True, extra="forbid", serialize_by_alias=True)


class FindingCounts(_Shown):
    """How many findings of the cell have each status (every status, maybe 0)."""

    passed: int = Field(alias="pass", ge=0)
    fail: int = Field(ge=0)
    warning: int = Field(ge=0)
    needs_evidence: int = Field(ge=0)


class FindingRule(_Shown):
    """One requirement of a law or standard, with its citation and sources."""

    id: str
    jurisdiction: Jurisdiction
    # The edition it belongs to, as cited ("ISO 13855:2024"); "" for any.
    edition: str
    citation: str
    text: str
    certainty: RuleCertainty
    certainty_label: str
    checked_on: date  # when the text was last checked against its sources
    volatility: str  # how likely it is to change soon, in words
    caveat: str  # said with every finding of the rule; "" when none
    sources: list[str]


class RuleFinding(_Shown):
    """What the rule found for one subject of the cell (a guard segment, an
    opening, a device, or the cell), with the figures compared."""

    status: Status
    status_label: str
    subject: str
    message: str
    numbers: dict[str, int | float]  # by name, with its unit: {"height_mm": 1800}
    citation: str
    certainty: RuleCertainty
    certainty_label: str
    details: list[str]  # the working, or the items to put in place
    notes: list[str]  # caveats: sources, what is not checked


class FindingGroup(_Shown):
    """One rule and its findings (none when there was nothing to check)."""

    rule: FindingRule
    findings: list[RuleFinding]


class RulesComputedUnder(_Shown):
    """What the findings were computed under: the release of the rule set,
    the packs applied (key: the release that last changed it), the edition
    of each standard (key: year) and each rule applied (id: fingerprint).
    Kept with signed revisions and proposal versions, so that a later change
    of a rule shows them as computed under superseded rules."""

    ruleset: int = Field(ge=1)
    packs: dict[str, int]
    editions: dict[str, str]
    rules: dict[str, str]


class CellFindings(_Shown):
    """Every rule of the packs that apply to the cell's country, in the packs'
    order, each with its findings, the counts per status, and what they were
    computed under; a page at a time (``?page=``, ``?page_size=`` up to 200,
    200 unless asked): ``count`` findings in all, ``next`` and ``previous``
    the pages beside this one. A rule whose findings run over two pages is on
    both, with those of each; a rule with nothing to check is on the page
    where it falls in order."""

    cell: int
    count: int = Field(ge=0)  # findings of the cell, on every page
    next: str | None  # the next page's URL, null on the last
    previous: str | None  # the previous page's URL, null on the first
    summary: FindingCounts
    groups: list[FindingGroup]
    computed_under: RulesComputedUnder
    # The editions computed with, as cited: "ISO 13855:2024", ...
    editions: list[str]
