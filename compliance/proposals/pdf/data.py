"""Everything a PoC proposal PDF shows, as one frozen pydantic object.

Pure pydantic, no Django. A selector assembles a ``ProposalData`` from the
database; ``compliance.proposals.pdf.builder.build_proposal_pdf`` turns it into a PDF
without touching the ORM. The data is display-ready: domain strings (hazard
names, rule texts, status messages, activity names, units) are already in the
proposal's language, and figures are ``int``/``Decimal`` that the builder only
formats. Only the fixed labels of the document (section titles, table headers,
"page") are translated by the builder.

Money is ``Decimal`` in the currency named beside it; weeks are ``Decimal``
counted from week 0 of the plan; lengths are whole millimetres.
"""

from __future__ import annotations

import base64
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cells.exchange import CellDocument
from compliance.proposals.pdf.program_data import (
    MAX_PATH_POINTS,
    MAX_SLOW_SEGMENTS,
    ContactZone,
    ProgramPath,
    SlowSegment,
)

Language = Literal["ko", "en"]
SectionKey = Literal[
    "summary",
    "legal",
    "cell",
    "rules",
    "risk",
    "findings",
    "safety_functions",
    "specification",
    "validation",
    "costs",
    "schedule",
    "concepts",
    "terms",
    "working",
]
# The order the sections appear in, the cover first: what the customer
# decides from (issue 30: the legal answer right after the summary; the
# guarding concepts right after the schedule, issue 27), then the appendix
# a safety engineer wants (the rules with their ids and versions, every
# finding with its evidence notes, the ISO 13849 working, the safety
# requirements specification and the validation plan).
CUSTOMER_SECTIONS: tuple[SectionKey, ...] = (
    "summary",
    "legal",
    "cell",
    "risk",
    "safety_functions",
    "costs",
    "schedule",
    "concepts",
    "terms",
)
APPENDIX_SECTIONS: tuple[SectionKey, ...] = (
    "rules",
    "findings",
    "working",
    "specification",
    "validation",
)
SECTIONS: tuple[SectionKey, ...] = CUSTOMER_SECTIONS + APPENDIX_SECTIONS
# Sections shown only when the cell has what they show: left out of the
# default sections when their data is missing.
OPTIONAL_SECTIONS: frozenset[SectionKey] = frozenset({"concepts", "legal"})
Status = Literal["pass", "fail", "warning", "needs_evidence"]
# What the SA chose to show (issue 15): the rules that apply or every rule of
# the packs; the passed checks summarised a line per rule, in full, or left
# out (fails, warnings and findings needing evidence are always in full).
RulesShown = Literal["applicable", "all"]
PassesShown = Literal["summary", "full", "omitted"]
PlanKey = Literal["physical_first", "sim_first"]
PL = Literal["a", "b", "c", "d", "e"]
FunctionStatus = Literal["pass", "fail", "needs_evidence"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class Row(_Frozen):
    """A label and its value, both display-ready (e.g. "Payload", "20 kg")."""

    label: str
    value: str


class WeeksRange(_Frozen):
    low: Decimal = Field(ge=0)
    high: Decimal = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> WeeksRange:
        if self.high < self.low:
            raise ValueError("high is below low")
        return self


class MoneyRange(_Frozen):
    """A total as a range in one currency (ISO 4217)."""

    currency: str = Field(pattern=r"^[A-Z]{3}$")
    low: Decimal = Field(ge=0)
    high: Decimal = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> MoneyRange:
        if self.high < self.low:
            raise ValueError("high is below low")
        return self


class ProposalMeta(_Frozen):
    """What the cover says: which proposal, for whom, by whom."""

    number: str = Field(min_length=1, max_length=60)
    version: int = Field(ge=1)  # counted within the proposal's language
    date: date  # the proposal's date; also the PDF's creation date
    prepared_by: str  # the author's full name (the username when no name)
    prepared_by_role: str = ""  # their role in the organisation, its label
    organisation: str  # the name the organisation writes under
    organisation_address: str = ""
    # The organisation's logo, base64 of a PNG or JPEG checked on upload
    # (at most 1 MB, 4 megapixels); "" for none.
    logo: str = Field(default="", max_length=1_400_000)
    customer: str
    site: str
    cell_name: str


class ExecutiveSummary(_Frozen):
    proposed: str  # what is proposed, a sentence generated from the cell
    # The summary as the SA wrote it, or else generated from the cell (what
    # is proposed, the assessment's status, what is still open); printed as
    # written, its blank lines starting new paragraphs. "": data stored
    # before it was written, where ``proposed`` is printed.
    text: str = ""
    # How the cell is safeguarded, as the SA wrote it or generated; "": none.
    safety_concept: str = ""
    # The priced lines' total in the proposal currency when every one
    # converts; else one range per currency (no rate is assumed); empty when
    # nothing is priced.
    costs: tuple[MoneyRange, ...] = ()
    unpriced_lines: int = Field(default=0, ge=0)
    # The rates the converted total used, each with its date and source.
    rates: tuple[Row, ...] = ()
    # Data stored before issue 29: priced lines left out of ``costs`` for
    # want of a rate. New data totals them per currency instead (0).
    not_converted_lines: int = Field(default=0, ge=0)
    weeks_to_poc_physical_first: WeeksRange
    weeks_to_poc_sim_first: WeeksRange
    recommendation: PlanKey | None = None  # None: neither plan is shown ahead
    reasons: tuple[str, ...] = ()  # sentences generated from the data


class DeviceDistance(_Frozen):
    """A device's minimum distance (ISO 13855) against the layout."""

    device: str  # the device's label
    # Its place in ``CellSection.layout.devices``, to draw the distance at the
    # opening it guards; None when it is not in the layout document.
    device_index: int | None = Field(default=None, ge=0)
    required_mm: int = Field(ge=0)
    actual_mm: int | None = Field(default=None, ge=0)  # None: not measurable
    status: Status


class UnderlayImage(_Frozen):
    """A floor-plan image drawn faded under the plan: its bytes (a PNG or a
    JPEG, base64 so that the stored data rebuilds the same PDF), its
    rectangle on the plan (mm, y away from the viewer, not rotated) and how
    opaque it is drawn, from 0 to 1."""

    content_base64: str = Field(min_length=1)
    min_x_mm: float
    max_y_mm: float
    width_mm: float = Field(gt=0)
    height_mm: float = Field(gt=0)
    opacity: float = Field(gt=0, le=1)

    @property
    def content(self) -> bytes:
        return base64.b64decode(self.content_base64)


class CellSection(_Frozen):
    robot: tuple[Row, ...]  # manufacturer, model, payload, reach, speeds ...
    task: str
    # Their names, each for its own zone or task; () when not collaborative.
    collaborative_modes: tuple[str, ...] = ()
    collaborative_parameters: tuple[Row, ...] = ()
    layout: CellDocument
    distances: tuple[DeviceDistance, ...] = ()
    # The openings (segment index, opening index in ``layout``) that fail to
    # be guarded: drawn in the fail colour.
    failing_openings: tuple[tuple[int, int], ...] = ()
    # The approaches no protective field covers: the line S out from the
    # zone along each (plan mm), and that S; drawn in the fail colour.
    uncovered: tuple[tuple[tuple[tuple[float, float], ...], int], ...] = ()
    # Drawn under the plan when the cell's image is to be shown in the PDF.
    underlay_image: UnderlayImage | None = None
    # The robot programs' paths on the plan (issue 32), their points bounded
    # (``MAX_PATH_POINTS`` in all), with each operator station's contact
    # zone; the failing moves, worst first, at most ``MAX_SLOW_SEGMENTS``,
    # and how many more there are.
    programs: tuple[ProgramPath, ...] = ()
    contact_zones: tuple[ContactZone, ...] = ()
    slow_segments: tuple[SlowSegment, ...] = Field(
        default=(), max_length=MAX_SLOW_SEGMENTS
    )
    slow_segments_more: int = Field(default=0, ge=0)

    @model_validator(mode="before")
    @classmethod
    def _one_mode_before(cls, data: Any) -> Any:
        """Data stored before several modes has one ``collaborative_mode`` name
        ("" for none), so that a stored proposal still rebuilds."""
        if isinstance(data, dict) and "collaborative_mode" in data:
            data = dict(data)
            name = data.pop("collaborative_mode")
            data.setdefault("collaborative_modes", [name] if name else [])
        return data

    @model_validator(mode="after")
    def _paths_bounded(self) -> CellSection:
        points = sum(
            len(piece.points_mm) for path in self.programs for piece in path.pieces
        )
        if points > MAX_PATH_POINTS:
            raise ValueError(f"the programs' paths have {points} points")
        return self

    @model_validator(mode="after")
    def _devices_exist(self) -> CellSection:
        for distance in self.distances:
            index = distance.device_index
            if index is not None and index >= len(self.layout.devices):
                raise ValueError(f"{distance.device}: no device {index} in the layout")
        return self


class RuleRow(_Frozen):
    id: str
    citation: str
    text: str
    certainty: str  # its label, e.g. "Secondary sources"
    checked_on: date


class RulesSection(_Frozen):
    rows: tuple[RuleRow, ...]  # the rules that apply to the cell
    note: str  # legal text must be confirmed against the official source
    # The ids of the rules of the packs that found nothing to check here,
    # named in a line; () when they are listed in ``others``.
    left_out: tuple[str, ...] = ()
    # What the findings were computed under, in words: the rule set's
    # release with the packs' versions, and the editions of the standards.
    computed_under: tuple[str, ...] = ()
    # The rules that found nothing to check, in full, when every rule is shown.
    others: tuple[RuleRow, ...] = ()


class HazardRow(_Frozen):
    hazard: str
    phase: str
    task: str
    plr: PL | None = None  # None: not estimated yet
    measures: tuple[str, ...] = ()
    residual_risk: str = ""


class AcceptedFinding(_Frozen):
    """A failing finding the signer accepted, with the reason they gave."""

    rule_id: str
    subject: str = ""
    message: str
    reason: str


class SignatureDeclaration(_Frozen):
    """What the signer declared in signing the revision: the statement (in the
    words they confirmed, in their language), when, and the failing findings
    they accepted with their reasons."""

    signer: str
    signed_at: datetime  # in the site's zone, as the proposal's other dates
    # The zone's name as printed ("KST"); kept, as a stored offset reads back
    # without its name.
    zone: str = Field(default="UTC", max_length=10)
    statement: str
    # The statement in the proposal's language when it was signed in
    # another; "" when it was signed in this one.
    translation: str = ""
    accepted: tuple[AcceptedFinding, ...] = ()
    needing_evidence: int = Field(default=0, ge=0)  # open at signing, listed


class RiskSection(_Frozen):
    """The hazard register of the latest signed revision, or of the draft."""

    signed: bool
    revision: int = Field(ge=1)
    content_hash: str | None = None  # SHA-256 of a signed revision's content
    signed_by: str = ""
    signed_on: date | None = None
    # Revisions signed before declarations were recorded have none.
    declaration: SignatureDeclaration | None = None
    hazards: tuple[HazardRow, ...] = ()
    # The robot's safety configuration the signed revision froze, in words
    # ("Universal Robots safety checksum 1A2B3C4D"); "" when none was.
    safety_configuration: str = ""

    @model_validator(mode="after")
    def _hash_when_signed(self) -> RiskSection:
        if self.signed and not self.content_hash:
            raise ValueError("a signed revision has its content hash")
        if not self.signed and self.content_hash is not None:
            raise ValueError("a draft has no content hash")
        if not self.signed and self.declaration is not None:
            raise ValueError("a draft has no signature declaration")
        return self


class FindingRow(_Frozen):
    rule_id: str
    citation: str
    certainty: str  # its label
    status: Status
    subject: str = ""  # what it is about: a segment, an opening, the cell
    message: str
    numbers: tuple[str, ...] = ()  # the figures compared, e.g. "height 1,800 mm"


class LineItemRow(_Frozen):
    description: str
    quantity: Decimal = Field(ge=0)
    unit: str  # its label, e.g. "m", "pcs", "job"
    unit_price_low: Decimal | None = Field(default=None, ge=0)
    unit_price_high: Decimal | None = Field(default=None, ge=0)
    total_low: Decimal | None = Field(default=None, ge=0)
    total_high: Decimal | None = Field(default=None, ge=0)
    currency: str | None = None  # None when no price is known
    lead_time_weeks_low: Decimal | None = Field(default=None, ge=0)
    lead_time_weeks_high: Decimal | None = Field(default=None, ge=0)
    source: str = ""  # a public citation, in the reader's words
    # As published, e.g. "~2025/26": the sources give no exact day.
    price_date: str | None = None
    # The line's total in the proposal currency, at the organisation's rates
    # valid on the proposal's date; None when it has no price, or
    # ``rate_needed`` (no rate: its own total is shown).
    converted_low: Decimal | None = Field(default=None, ge=0)
    converted_high: Decimal | None = Field(default=None, ge=0)
    rate_needed: bool = False

    @property
    def priced(self) -> bool:
        return self.unit_price_low is not None


class CostsSection(_Frozen):
    items: tuple[LineItemRow, ...]
    totals: tuple[MoneyRange, ...] = ()  # per currency, of the priced lines
    unpriced_lines: int = Field(default=0, ge=0)
    # The total in the proposal currency when every priced line converts;
    # None while a rate is missing (the totals are then per currency).
    converted: MoneyRange | None = None
    rates_note: str = ""  # which rates were used, or that none are assumed
    currency: str | None = Field(default=None, pattern=r"^[A-Z]{3}$")
    # The currencies without a rate on the proposal's date that converting
    # the priced lines needs: their lines show their own totals.
    missing_rates: tuple[str, ...] = ()
    # The rates used, e.g. "1 USD", "1,350 KRW (2026-01-01, source)".
    rates: tuple[Row, ...] = ()


class ActivityRow(_Frozen):
    name: str
    start_week_low: Decimal = Field(ge=0)
    start_week_high: Decimal = Field(ge=0)
    finish_week_low: Decimal = Field(ge=0)
    finish_week_high: Decimal = Field(ge=0)
    critical: bool = False  # on the critical path (of the longest estimate)
    assumption: bool = False  # its duration is an assumption to edit

    @property
    def milestone(self) -> bool:
        return (
            self.finish_week_low == self.start_week_low
            and self.finish_week_high == self.start_week_high
        )


class PlanData(_Frozen):
    name: str  # "Physical first", "Simulation first", in the proposal's language
    activities: tuple[ActivityRow, ...]
    total_weeks: WeeksRange
    # Of the activities whose cost is known: in the proposal currency when
    # the plan's converts, else in the plan's own.
    cost: MoneyRange | None = None
    unpriced_activities: int = Field(default=0, ge=0)
    # The guarding and devices' priced lines per currency where they could
    # not be summed in the plan's currency for want of a rate: not in
    # ``cost``, never counted as to be quoted.
    other_costs: tuple[MoneyRange, ...] = ()
    # Data stored before issue 29: activities left out of ``cost`` for want
    # of a rate, with their own figures.
    not_converted: tuple[Row, ...] = ()


class ComparisonRow(_Frozen):
    metric: str
    physical_first: str
    sim_first: str


class ScheduleSection(_Frozen):
    physical_first: PlanData
    sim_first: PlanData
    comparison: tuple[ComparisonRow, ...] = ()
    verdict: tuple[str, ...] = ()  # what the figures support, sentence by sentence
    maturity_note: str = ""  # how well the task transfers from simulation
    assumptions: tuple[str, ...] = ()
    cannot_prove: tuple[str, ...] = ()  # what simulation cannot prove
    # The rates the plans' costs were converted with (as the costs section).
    rates: tuple[Row, ...] = ()


class PfhdFigure(_Frozen):
    """A PFHd (per hour) and what it rests on: a point from the maker's figure,
    the organisation's copy of Table K.1 or the value the alternative
    procedure assumes for the PL; or, when no figure is known, a range (from
    ``low`` up to but not including ``high``): the PL's, or the sum of the
    subsystems' ranges."""

    basis: Literal["maker", "table_k1", "alternative_procedure", "pl_range"]
    per_hour: float | None = Field(default=None, gt=0, lt=1e-4)
    # A series' range is the sum of its subsystems' bounds: it may pass 1e-4.
    low_per_hour: float | None = Field(default=None, gt=0)
    high_per_hour: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _point_or_range(self) -> PfhdFigure:
        ranged = self.low_per_hour is not None and self.high_per_hour is not None
        if (self.per_hour is None) == (not ranged):
            raise ValueError("a PFHd is a point or a range, not both or neither")
        if ranged and self.high_per_hour <= self.low_per_hour:  # type: ignore[operator]
            raise ValueError("high is not above low")
        return self


class SubsystemRow(_Frozen):
    """One subsystem of a safety function (input, logic or output), in the
    order of the chain, with the working of its PL."""

    role: Literal["input", "logic", "output"]
    role_label: str  # e.g. "Input (sensor)"
    label: str
    route: str  # how its PL is known, its label
    pl: PL | None = None  # None: not computed
    pfhd: PfhdFigure | None = None
    steps: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    one_source: bool = False  # its figures rest on a single public source
    problems: tuple[str, ...] = ()  # what keeps its PL from being computed


class PlrSource(_Frozen):
    """Where a function's PLr comes from: the hazards it mitigates (each with
    its PLr) in a revision of the risk assessment, signed or a draft."""

    plr: PL | None = None  # None: no linked hazard is estimated
    hazards: tuple[Row, ...] = ()  # the hazard's task and "PLr d"
    revision: int | None = Field(default=None, ge=1)
    signed: bool = False


class Specification(_Frozen):
    """A function's safety requirements specification (ISO 13849-1:2023,
    5.2); blanks are what is still to be stated, listed in ``gaps``."""

    trigger: str = ""
    reaction: str = ""
    stop_category: str = ""  # its label
    required_response_time_ms: int | None = Field(default=None, ge=0)
    # Whether the minimum distance (ISO 13855) rests on the response time.
    response_time_needed: bool = False
    reset: str = ""
    restart: str = ""
    collaborative_mode: str = ""  # its label
    uses_muting: bool = False
    gaps: tuple[str, ...] = ()  # what it still lacks, as sentences
    clause: str = ""


class ValidationResult(_Frozen):
    """One recorded validation test: who, when, with what, the value and
    the outcome (ISO 13849-2)."""

    performed_by: str
    performed_on: date
    instrument: str = ""
    value: str = ""
    passed: bool


class PlannedTest(_Frozen):
    """One test of a function's validation plan and its recorded results,
    latest first."""

    title: str
    procedure: str
    record: str  # what the result must state
    results: tuple[ValidationResult, ...] = ()


class SafetyFunctionRow(_Frozen):
    """A safety function of the cell: what it is, the PLr it must reach and
    where that comes from, the PL its subsystems reach with the working, the
    verdict with its reasons, its specification and its validation plan."""

    name: str
    safeguard: str  # its label
    device: str = ""  # the safeguarding device's label
    status: FunctionStatus
    reasons: tuple[str, ...] = ()
    plr: PlrSource = PlrSource()
    pl: PL | None = None  # None: not computed
    pfhd: PfhdFigure | None = None
    # Whose licensed copy of ISO 13849-1 Table K.1 the figures were read from.
    k1_source: str = ""
    # The series combination of the subsystems and the check against the
    # PLr; each subsystem's own working is with the subsystem.
    steps: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    clause: str = ""  # of the whole verification
    one_source: bool = False  # some figure rests on a single public source
    subsystems: tuple[SubsystemRow, ...] = ()
    specification: Specification = Specification()
    plan: tuple[PlannedTest, ...] = ()
    plan_clause: str = ""


class ConceptCheck(_Frozen):
    """A check of a concept's guarding as the customer reads it: its status,
    what it is about, its public citation and its message."""

    status: Status
    subject: str = ""
    citation: str = ""
    text: str


class ConceptSpeed(_Frozen):
    """A collaborative concept's speed check: the programmed speed against
    the lowest permissible one (ISO/TS 15066), with the body region it is
    for, and how much longer the motions take at it (None: no longer)."""

    programmed_mm_s: Decimal = Field(ge=0)
    permissible_mm_s: Decimal = Field(ge=0)
    region: str = ""
    slower_by: Decimal | None = Field(default=None, gt=0)
    status: Status = "needs_evidence"


class ConceptColumn(_Frozen):
    """One offered guarding concept: its plan, its checks, cost, time to the
    PoC and floor space, side by side with the others."""

    name: str
    chosen: bool = False
    recommended: bool = False
    layout: CellDocument
    # The openings (segment index, opening index in ``layout``) that fail to
    # be guarded: drawn in the fail colour.
    failing_openings: tuple[tuple[int, int], ...] = ()
    # The approaches no protective field covers: the line S out from the
    # zone along each (plan mm), and that S; drawn in the fail colour.
    uncovered: tuple[tuple[tuple[tuple[float, float], ...], int], ...] = ()
    fails: int = Field(default=0, ge=0)
    needs_evidence: int = Field(default=0, ge=0)
    warnings: int = Field(default=0, ge=0)
    passes: int = Field(default=0, ge=0)
    # The national rules' checks that do not pass: the legal route; and
    # whether the country has national rules here at all.
    law: tuple[ConceptCheck, ...] = ()
    national_rules: bool = True
    speed: ConceptSpeed | None = None
    # Its priced lines in the proposal's currency at the organisation's
    # rates when every one converts; else ``costs``, one range per currency.
    cost: MoneyRange | None = None
    costs: tuple[MoneyRange, ...] = ()
    # Data stored before issue 29: the lines in a currency without a rate,
    # summed per currency, apart from ``cost``.
    not_converted: tuple[MoneyRange, ...] = ()
    unpriced_lines: int = Field(default=0, ge=0)
    # The work of its physical-first plan no line prices (installation,
    # commissioning), costed from the organisation's labour rates, and the
    # count of such activities still without a cost.
    work: MoneyRange | None = None
    work_unknown: int = Field(default=0, ge=0)
    weeks_to_poc: WeeksRange | None = None  # physical first
    floor_m2: Decimal | None = Field(default=None, ge=0)
    # Certifications it still needs that no line prices (KIRIA's): to be
    # quoted, in the reader's language.
    certifications: tuple[str, ...] = ()


class ConceptNotOffered(_Frozen):
    name: str
    reasons: tuple[str, ...] = ()


class ConceptsSection(_Frozen):
    """The cell's guarding concepts side by side (issue 27): the offered
    ones in their order, the recommendation in sentences, those not offered
    with the reason."""

    offered: tuple[ConceptColumn, ...] = ()
    not_offered: tuple[ConceptNotOffered, ...] = ()
    recommendation: tuple[str, ...] = ()
    # The country whose law the legal route is, its name ("Korea"); "" none.
    country: str = ""


class LegalGap(_Frozen):
    """What is missing for a duty: a fail, or an open point and who closes it."""

    subject: str = ""
    status: Status
    text: str
    closed_by: str = ""


class LegalDuty(_Frozen):
    """One duty of the law for this cell (``compliance.plan.legal``)."""

    key: str
    status: Literal["met", "missing", "open", "later"]
    status_label: str
    requirement: str
    citation: str = ""
    met: str = ""  # the subjects that meet it, joined
    gaps: tuple[LegalGap, ...] = ()
    more: int = Field(default=0, ge=0)  # gaps not listed
    closed_by: str = ""
    note: str = ""
    covered: bool = False
    cost: str = ""  # the closing activity's cost and weeks, display-ready


class LegalSection(_Frozen):
    """What the law requires, on one page: the duties, each cited once."""

    title: str
    duties: tuple[LegalDuty, ...] = ()
    missing: int = Field(default=0, ge=0)
    open: int = Field(default=0, ge=0)
    # The laws and standards cited, as the reader reads them.
    cited: tuple[str, ...] = ()


class ProposalData(_Frozen):
    """A PoC proposal, whole: the cover and the sections chosen."""

    language: Language
    sections: tuple[SectionKey, ...] = SECTIONS  # the cover is always included
    rules_shown: RulesShown = "applicable"
    passes_shown: PassesShown = "summary"
    meta: ProposalMeta
    summary: ExecutiveSummary | None = None
    legal: LegalSection | None = None
    cell: CellSection | None = None
    rules: RulesSection | None = None
    risk: RiskSection | None = None
    findings: tuple[FindingRow, ...] = ()
    # Fails first; () when none is specified (the sections then say so).
    safety_functions: tuple[SafetyFunctionRow, ...] = ()
    costs: CostsSection | None = None
    schedule: ScheduleSection | None = None
    # None: the cell has no guarding concepts (data from before them too).
    concepts: ConceptsSection | None = None
    assumptions: tuple[str, ...] = ()
    exclusions: tuple[str, ...] = ()
    disclaimers: tuple[str, ...] = ()
    # The rule set, packs, editions and rules its findings were computed
    # under (compliance.rules.history.ComputedUnder as JSON): kept with the
    # version, not printed as such.
    computed_under: dict[str, Any] | None = None

    @model_validator(mode="before")
    @classmethod
    def _optional_sections_by_default(cls, data: Any) -> Any:
        """Without sections given, every section, but an optional one only
        with its data."""
        if isinstance(data, dict) and "sections" not in data:
            data = dict(data)
            data["sections"] = tuple(
                key
                for key in SECTIONS
                if key not in OPTIONAL_SECTIONS or data.get(key) is not None
            )
        return data

    @model_validator(mode="after")
    def _sections_have_data(self) -> ProposalData:
        if len(set(self.sections)) != len(self.sections):
            raise ValueError("a section is listed twice")
        needs = {
            "summary": self.summary,
            "legal": self.legal,
            "cell": self.cell,
            "rules": self.rules,
            "risk": self.risk,
            "costs": self.costs,
            "schedule": self.schedule,
            "concepts": self.concepts,
        }
        missing = [
            key
            for key, value in needs.items()
            if key in self.sections and value is None
        ]
        if missing:
            raise ValueError(f"sections without data: {', '.join(missing)}")
        return self

    @property
    def appendix(self) -> tuple[SectionKey, ...]:
        """The appendix sections chosen, in document order."""
        return tuple(key for key in APPENDIX_SECTIONS if key in self.sections)

    def includes(self, section: SectionKey) -> bool:
        return section in self.sections

    @property
    def ordered_sections(self) -> tuple[SectionKey, ...]:
        """The chosen sections in document order, whatever order they were given in."""
        return tuple(key for key in SECTIONS if key in self.sections)

    @property
    def numbered_sections(self) -> tuple[tuple[str, SectionKey], ...]:
        """The chosen sections with their numbers: 1, 2 ... for the
        customer's, A, B ... for the appendix."""
        main = [k for k in self.ordered_sections if k not in APPENDIX_SECTIONS]
        numbered = [(str(n), key) for n, key in enumerate(main, start=1)]
        numbered += [(chr(ord("A") + n), key) for n, key in enumerate(self.appendix)]
        return tuple(numbered)
