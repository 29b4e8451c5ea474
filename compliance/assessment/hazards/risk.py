"""Risk level of a hazard from the ISO 13849-1:2023 risk-graph parameters (the
2015 edition's Annex A; the outcomes are the same).

A safety engineer estimates each hazard with the three risk-graph parameters
(severity S, frequency/exposure F, possibility of avoidance P) and, since the
2015 amendment, whether the hazardous event has a low probability of
occurrence. ``estimate`` reads the required performance level (PLr) from the
``plr`` calculator (``compliance.calculators.iso13849``) and maps it to a risk
level shown on pages, in the API and in the PDF.

The level bands are a presentation choice of this product, NOT taken from any
standard: ISO 13849-1 gives a PLr, not a risk level. Each estimate says so in
its ``basis`` field. PLr a-b is "low" (green), c "medium" (amber), d "high"
(orange), e "very_high" (red).

``residual_acceptable`` applies this product's acceptance rule to a hazard's
residual risk (again a product choice, not a clause): the hazard must be
estimated, its residual level must be low or medium, every measure must reach
its PLr, a residual risk lower than the initial one must rest on at least one
measure, and a residual risk of serious injury (S2) must not rest on information
for use alone (after the three-step method of ISO 12100:2010, 6.1). The cell's
compliance checks have their say too: a residual risk lower than the initial
one cannot rest on a measure whose device or guard fails its check (the measure
is ineffective), and a hazard whose contact fails the ISO/TS 15066 power and
force limiting check is not acceptable, however it is estimated.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from compliance.calculators.base import Certainty, Line, fmt, gettext_noop
from compliance.calculators.iso13849 import PlrInput, plr
from compliance.calculators.iso13849_tables import (
    PL_ORDER,
    Avoidance,
    Frequency,
    PerformanceLevel,
    Severity,
)

RiskLevel = Literal["low", "medium", "high", "very_high"]
Colour = Literal["green", "amber", "orange", "red"]

BASIS = gettext_noop(
    "Risk level bands are a presentation choice of Cell Safety Planner, not "
    "taken from a standard: PLr a or b is low, c medium, d high, e very high."
)
ACCEPTANCE_BASIS = gettext_noop(
    "The acceptance rule is a choice of Cell Safety Planner, not taken from a "
    "standard: the hazard is estimated, its residual risk level is low or "
    "medium, every protective measure reaches its required performance level, "
    "a residual risk lower than the initial one rests on at least one measure, "
    "a residual risk of serious injury (S2) is not reduced by information "
    "for use alone (after ISO 12100:2010, 6.1), a residual risk lower than the "
    "initial one does not rest on a measure whose device or guard fails its "
    "compliance check, and no contact of the hazard fails the ISO/TS 15066 "
    "power and force limiting check."
)

# The id of step 3 of the three-step method, as in ``catalogue.THREE_STEP_METHOD``
# and ``MeasureStep`` (kept pure here: a test checks that the three agree).
INFORMATION_FOR_USE = "information_for_use"


class RiskLevelBand(BaseModel):
    """One band of the product's risk scale: its id, label, colour and PLrs."""

    model_config = ConfigDict(frozen=True)

    level: RiskLevel
    label: str  # marked with gettext_noop
    colour: Colour
    plrs: tuple[PerformanceLevel, ...]


# From the lowest to the highest band. Not from a standard: see ``BASIS``.
RISK_LEVELS: tuple[RiskLevelBand, ...] = (
    RiskLevelBand(
        level="low", label=gettext_noop("Low"), colour="green", plrs=("a", "b")
    ),
    RiskLevelBand(
        level="medium", label=gettext_noop("Medium"), colour="amber", plrs=("c",)
    ),
    RiskLevelBand(
        level="high", label=gettext_noop("High"), colour="orange", plrs=("d",)
    ),
    RiskLevelBand(
        level="very_high", label=gettext_noop("Very high"), colour="red", plrs=("e",)
    ),
)

# Residual levels this product does not accept.
UNACCEPTABLE_LEVELS: frozenset[RiskLevel] = frozenset({"high", "very_high"})


_PL_RANK: dict[str, int] = {pl: rank for rank, pl in enumerate(PL_ORDER)}


def band(pl: PerformanceLevel) -> RiskLevelBand:
    """The risk-level band a PLr falls in; ``ValueError`` for an unknown PL."""
    for b in RISK_LEVELS:
        if pl in b.plrs:
            return b
    raise ValueError(f"unknown performance level {pl!r}")


def pl_at_least(claimed: str, required: str) -> bool:
    """Whether the PL a measure claims reaches the required one (a < b < c < d < e).

    ``ValueError`` if either is not a performance level a-e.
    """
    for pl in (claimed, required):
        if pl not in _PL_RANK:
            raise ValueError(f"unknown performance level {pl!r}")
    return _PL_RANK[claimed] >= _PL_RANK[required]


class RiskEstimate(BaseModel):
    """The estimated risk of one hazard: the risk-graph PLr and its risk level.

    ``plr`` is the risk-graph value; ``plr_low_probability`` the PLr lowered by
    one level when the caller says the probability of occurrence is low.
    ``effective_plr`` (and so ``level`` and ``colour``) follows the lowered PLr
    only when ``low_probability_applied``: the caller accepted the reduction.
    """

    model_config = ConfigDict(frozen=True)

    severity: Severity
    frequency: Frequency
    avoidance: Avoidance
    low_probability: bool
    low_probability_applied: bool
    plr: PerformanceLevel
    plr_low_probability: PerformanceLevel | None
    effective_plr: PerformanceLevel
    level: RiskLevel
    label: str  # the level's English label, marked with gettext_noop
    colour: Colour
    basis: str = BASIS
    clause: str  # the clause the PLr was read from
    steps: tuple[Line, ...]
    warnings: tuple[Line, ...]
    certainty: Certainty
    sources: tuple[str, ...]


def estimate(
    severity: Severity,
    frequency: Frequency,
    avoidance: Avoidance,
    low_probability: bool = False,
    apply_low_probability: bool = False,
) -> RiskEstimate:
    """The risk of a hazard from S, F, P (ISO 13849-1:2023 risk graph) as a level.

    ``apply_low_probability`` says the risk assessment accepts the one-level
    reduction for a low probability of occurrence; it has no effect unless
    ``low_probability`` is set. Invalid parameters raise pydantic's
    ``ValidationError`` (a ``ValueError``).
    """
    result = plr(
        PlrInput(
            severity=severity,
            frequency=frequency,
            avoidance=avoidance,
            low_probability=low_probability,
        )
    )
    # The calculator gives a lowered PLr only when low_probability is set.
    reduced = result.plr_low_probability
    applied = apply_low_probability and reduced is not None
    effective = reduced if apply_low_probability and reduced is not None else result.plr
    chosen = band(effective)
    steps = list(result.steps)
    if applied:
        steps.append(
            Line(
                text=gettext_noop(
                    "The lowered PLr is applied, as accepted in the risk assessment"
                ),
                formula=f"PLr {result.plr} → {effective}",
            )
        )
    elif low_probability:
        steps.append(
            Line(
                text=gettext_noop(
                    "The lowered PLr is not applied: the risk level follows the "
                    "risk-graph PLr %(plr)s"
                ),
                values={"plr": result.plr},
            )
        )
    steps.append(
        Line(
            text=gettext_noop("Risk level (product scale, not a standard)"),
            formula=f"PLr {effective} → {chosen.level}",
        )
    )
    return RiskEstimate(
        severity=severity,
        frequency=frequency,
        avoidance=avoidance,
        low_probability=low_probability,
        low_probability_applied=applied,
        plr=result.plr,
        plr_low_probability=result.plr_low_probability,
        effective_plr=effective,
        level=chosen.level,
        label=chosen.label,
        colour=chosen.colour,
        clause=result.clause,
        steps=tuple(steps),
        warnings=result.warnings,
        certainty=result.certainty,
        sources=result.sources,
    )


ReasonCode = Literal[
    "not_estimated",
    "residual_not_estimated",
    "residual_level_too_high",
    "measure_pl_below_plr",
    "residual_lowered_without_measure",
    "serious_risk_information_only",
    "measure_ineffective",
    "contact_check_fails",
]


class Reason(BaseModel):
    """Why a residual risk is not acceptable: a code and a readable sentence.

    ``text`` is English, marked with ``gettext_noop``, with ``%(name)s``
    placeholders filled from ``values`` after translation.
    """

    model_config = ConfigDict(frozen=True)

    code: ReasonCode
    text: str
    values: dict[str, str] = {}

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """The sentence, translated by ``translate`` (e.g. Django's ``gettext``)."""
        text = translate(self.text)
        if self.values:
            text = text % {k: translate(v) for k, v in self.values.items()}
        return text


class Acceptability(BaseModel):
    """Whether a hazard's residual risk is acceptable, and every reason it is not.

    ``reasons`` is empty exactly when ``acceptable`` is true.
    """

    model_config = ConfigDict(frozen=True)

    acceptable: bool
    reasons: tuple[Reason, ...]
    basis: str = ACCEPTANCE_BASIS


class IneffectiveMeasure(BaseModel):
    """A measure that relies on a device or guard whose compliance check fails.

    ``message`` is the failing finding's message, already in the reader's
    language.
    """

    model_config = ConfigDict(frozen=True)

    measure: str  # the measure's description
    linked: str  # the device or guard it relies on, as labelled
    rule_id: str
    message: str


class FailingContact(BaseModel):
    """A failing ISO/TS 15066 power and force limiting check of a hazard's
    contact, with the speeds compared when the check gave a permissible one."""

    model_config = ConfigDict(frozen=True)

    rule_id: str
    message: str  # the finding's message, in the reader's language
    speed_mm_s: float | None = None
    permissible_mm_s: float | None = None


def _speed(value: float) -> str:
    return fmt(value, 0 if float(value).is_integer() else 1)


def residual_acceptable(
    initial: RiskEstimate | None,
    residual: RiskEstimate | None,
    measures_pl_ok: bool,
    *,
    measure_steps: Collection[str],
    ineffective: Sequence[IneffectiveMeasure] = (),
    failing_contacts: Sequence[FailingContact] = (),
) -> Acceptability:
    """Judge a hazard's residual risk by this product's rule (see ``ACCEPTANCE_BASIS``).

    Not acceptable, with every reason that applies: the hazard has no initial
    estimate; its residual risk has not been estimated (no estimate is never
    taken to mean "no risk" - re-estimate it, even if unchanged); the residual
    level is high or very high; a measure's claimed PL is below its PLr
    (``measures_pl_ok`` false, computed by the caller with ``pl_at_least``);
    the residual PLr is below the initial one with no measure at all; the
    residual severity is S2 and every measure is information for use.

    ``measure_steps`` holds the three-step-method step of each of the hazard's
    measures (``"inherently_safe_design"``, ``"safeguarding"`` or
    ``INFORMATION_FOR_USE``), one per measure.

    ``ineffective`` lists the hazard's measures whose device or guard fails its
    compliance check: when the residual PLr is below the initial one, the
    reduction rests on the measures, and each ineffective one is a reason
    (an estimate left at the initial risk relies on no measure). Each of
    ``failing_contacts`` (the hazard's failing ISO/TS 15066 power and force
    limiting checks) is a reason whatever the estimate.
    """
    reasons: list[Reason] = []
    if initial is None:
        reasons.append(
            Reason(
                code="not_estimated",
                text=gettext_noop("The hazard's risk has not been estimated."),
            )
        )
    if residual is None:
        reasons.append(
            Reason(
                code="residual_not_estimated",
                text=gettext_noop("The residual risk has not been estimated."),
            )
        )
    elif residual.level in UNACCEPTABLE_LEVELS:
        reasons.append(
            Reason(
                code="residual_level_too_high",
                text=gettext_noop(
                    "The residual risk level is %(level)s: reduce it to low or medium."
                ),
                values={"level": residual.label},
            )
        )
    if not measures_pl_ok:
        reasons.append(
            Reason(
                code="measure_pl_below_plr",
                text=gettext_noop(
                    "A protective measure's performance level is below its "
                    "required performance level (PLr)."
                ),
            )
        )
    if (
        initial is not None
        and residual is not None
        and not measure_steps
        and _PL_RANK[residual.effective_plr] < _PL_RANK[initial.effective_plr]
    ):
        # A lower estimate with nothing done is a claim without a record.
        reasons.append(
            Reason(
                code="residual_lowered_without_measure",
                text=gettext_noop(
                    "The residual risk was lowered without a measure: record the "
                    "measure that reduces it, or estimate the residual risk as "
                    "the initial one."
                ),
            )
        )
    if (
        residual is not None
        and residual.severity == "S2"
        and measure_steps
        and all(step == INFORMATION_FOR_USE for step in measure_steps)
    ):
        # ISO 12100:2010 6.1: information for use comes last, after inherently
        # safe design and safeguarding; it cannot be all that is done against
        # a risk of serious injury.
        reasons.append(
            Reason(
                code="serious_risk_information_only",
                text=gettext_noop(
                    "Information for use is the only measure against a residual "
                    "risk of serious injury (S2): information for use cannot be "
                    "the only reduction of a serious risk. Add an inherently safe "
                    "design or safeguarding measure (ISO 12100:2010, 6.1)."
                ),
            )
        )
    lowered = (
        initial is not None
        and residual is not None
        and _PL_RANK[residual.effective_plr] < _PL_RANK[initial.effective_plr]
    )
    if lowered:
        # A device or guard that fails its check does not do what the measure
        # says it does: the estimate cannot count on it.
        reasons.extend(
            Reason(
                code="measure_ineffective",
                text=gettext_noop(
                    "Measure “%(measure)s” relies on %(linked)s, whose %(rule)s "
                    "check fails: it cannot lower the residual risk until the "
                    "check passes. %(message)s"
                ),
                values={
                    "measure": m.measure,
                    "linked": m.linked,
                    "rule": m.rule_id,
                    "message": m.message,
                },
            )
            for m in ineffective
        )
    for contact in failing_contacts:
        if contact.permissible_mm_s is not None and contact.speed_mm_s is not None:
            reasons.append(
                Reason(
                    code="contact_check_fails",
                    text=gettext_noop(
                        "The %(rule)s check of this contact fails: the robot "
                        "moves at %(speed)s mm/s, above the %(permissible)s mm/s "
                        "permissible (ISO/TS 15066)."
                    ),
                    values={
                        "rule": contact.rule_id,
                        "speed": _speed(contact.speed_mm_s),
                        "permissible": _speed(contact.permissible_mm_s),
                    },
                )
            )
        else:
            reasons.append(
                Reason(
                    code="contact_check_fails",
                    text=gettext_noop(
                        "The %(rule)s check of this contact fails: %(message)s"
                    ),
                    values={"rule": contact.rule_id, "message": contact.message},
                )
            )
    return Acceptability(acceptable=not reasons, reasons=tuple(reasons))
