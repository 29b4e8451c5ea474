"""Rules and their findings: typed data with citations. Pure pydantic, no Django.

A ``Rule`` is one requirement of a law or a standard (an article, a clause) with
its citation, its text (an English message id, its Korean in the catalogue),
how sure we are of it, and a pure ``check`` from ``CellFacts`` to findings. A
``Finding`` is the answer for one subject of the cell (a guard segment, an
opening, a device, or the cell): pass, fail, warning or needs evidence, with
the figures compared.

Messages are English templates marked with ``gettext_noop``; ``%(name)s``
placeholders are filled from ``values`` after translation, as in
``compliance.calculators.base.Line``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from compliance.calculators.base import CalcResult, Certainty, Line, fmt, gettext_noop

if TYPE_CHECKING:
    from compliance.rules.facts import CellFacts

Jurisdiction = Literal["KR", "EU", "US", "INTL"]
Volatility = Literal["low", "medium", "high"]

# The reference files record no retrieval or check date. This is the date of
# the reference data set (its files' timestamps), the
# nearest date the reference gives; replace it when the texts are re-checked.
REFERENCE_SET_DATE = date(2026, 11, 29)


class Status(StrEnum):
    """The outcome of a rule for one subject."""

    PASS = "pass"
    FAIL = "fail"
    WARNING = "warning"  # allowed by an exception someone must stand behind
    NEEDS_EVIDENCE = "needs_evidence"  # cannot be checked from what is recorded


class RuleCertainty(StrEnum):
    """How well a rule's text and figures are attested.

    No rule is ``verified_official`` yet: the Korean articles were read in
    secondary sources and not checked against the National Law Information
    Center, and the standards were not read in full.
    """

    VERIFIED_OFFICIAL = "verified_official"  # checked against the official text
    SECONDARY_SOURCES = "secondary_sources"  # two independent secondary sources
    TO_BE_CONFIRMED = "to_be_confirmed"  # one source, or not in the reference


def certainty_of(calculation: Certainty) -> RuleCertainty:
    """A calculator's certainty on the rules' scale: two public sources are
    still secondary sources; one source is to be confirmed."""
    if calculation is Certainty.TWO_SOURCES:
        return RuleCertainty.SECONDARY_SOURCES
    return RuleCertainty.TO_BE_CONFIRMED


def mm(value: float) -> str:
    """A length or time for a message: grouped thousands, decimals only if any."""
    return fmt(value, 0 if float(value).is_integer() else 1)


def number(value: float) -> int | float:
    """A figure for ``Finding.numbers``: whole numbers as int."""
    return int(value) if float(value).is_integer() else round(value, 1)


# The figures of a finding that other rooms read (the drawing, the costs, the
# proposal, the assessment): each is a typed field of ``Finding``.
TYPED_FIGURES = (
    "height_mm",
    "distance_mm",
    "required_mm",
    "speed_mm_s",
    "permissible_mm_s",
)

Figure = int | float


class Finding(BaseModel):
    """What one rule says about one subject of the cell.

    ``numbers`` holds every figure compared, by name with its unit, in the
    order the pages, the PDF and the API show them (the findings API
    publishes it: ``schemas.RuleFinding``). The figures other rooms read are
    typed fields as well, and a reader outside the rules reads those, never
    ``numbers[...]``:

    - ``height_mm``: the height of the guard or opening checked;
    - ``distance_mm``: the distance measured on the plan (for a scanner
      under ISO 13855:2024, the depth of its protective field), 0 inside the
      hazard zone;
    - ``required_mm``: what that height or distance must be (a required fence
      height, a minimum distance S);
    - ``speed_mm_s`` and ``permissible_mm_s``: a collaborative robot's speed
      and the speed a contact permits.

    A figure has one value, so the two cannot disagree: it is given once,
    either in ``numbers`` (as the rule packs write it, where it stands among
    the rule's other figures) or as its field, and the model puts it in both;
    given both ways with different values, or changed in one place only, the
    finding is refused (a ``ValidationError``). ``numbers`` is kept as written
    rather than computed, because its order is part of the published answer
    and differs from rule to rule. Findings are frozen; ``model_copy(update=)``
    skips validation, so figures are never changed that way.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule_id: str
    status: Status
    subject_key: str  # a segment, opening or device key, or "cell"
    subject_label: str
    message: str  # English template marked with gettext_noop
    values: dict[str, str | int | float] = {}
    numbers: dict[str, Figure] = {}  # every figure compared, in the order shown
    height_mm: Figure | None = None
    distance_mm: Figure | None = None
    required_mm: Figure | None = None
    speed_mm_s: Figure | None = None
    permissible_mm_s: Figure | None = None
    citation: str
    certainty: RuleCertainty
    details: tuple[Line, ...] = ()  # the working, or the items to put in place
    notes: tuple[Line, ...] = ()  # caveats: sources, what is not checked
    sources: tuple[str, ...] = ()  # sources behind this finding's figures
    # The subjects (devices) this verdict relies on: it is never better than
    # the worst verdict of their own findings (``engine.evaluate``).
    relies_on: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _figures_given_once(cls, data: Any) -> Any:
        """Each typed figure into ``numbers`` and from it, whichever way it
        was given."""
        if not isinstance(data, dict):
            return data
        numbers = dict(data.get("numbers") or {})
        fields = {}
        for name in TYPED_FIGURES:
            given, shown = data.get(name), numbers.get(name)
            if given is None and shown is not None:
                fields[name] = shown
            elif given is not None and shown is None:
                numbers[name] = given
            elif given != shown:
                raise ValueError(
                    f"{name}: {given} as a field but {shown} in numbers; a "
                    "figure is given once"
                )
        return {**data, **fields, "numbers": numbers}

    @model_validator(mode="after")
    def _figures_agree(self) -> Finding:
        for name in TYPED_FIGURES:
            if self.numbers.get(name) != getattr(self, name):
                raise ValueError(f"{name} and numbers[{name!r}] disagree")
        return self

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """The message in the reader's language (``translate`` is gettext)."""
        return Line(text=self.message, values=self.values).render(translate)


@dataclass(frozen=True)
class Rule:
    """One requirement of a law or standard, with a pure check of a cell."""

    id: str
    jurisdiction: Jurisdiction
    citation: str
    # English, marked with gettext_noop: plain words; for law, a translation
    # of the article. Its Korean is the catalogue's, for Korean law the
    # article's own words.
    text: str
    certainty: RuleCertainty
    checked_on: date
    volatility: Volatility  # how likely the requirement is to change soon
    sources: tuple[str, ...]
    check: Callable[[CellFacts], list[Finding]]
    # Said with every finding, e.g. that the legal text must be confirmed.
    caveat: str = ""  # English, marked with gettext_noop
    # Raised by hand when the check itself changes (its fingerprint follows,
    # ``history``); the texts and citation are fingerprinted as they are.
    revision: int = 1
    # (standard key, edition year) when the rule belongs to one edition of a
    # standard, e.g. ("iso13855", "2024"); it applies to a project that
    # computes with that edition only. None: whatever the edition.
    edition: tuple[str, str] | None = None

    def finding(
        self,
        status: Status,
        subject: tuple[str, str],
        message: str,
        *,
        values: Mapping[str, str | int | float] | None = None,
        numbers: Mapping[str, int | float] | None = None,
        details: tuple[Line, ...] = (),
        notes: tuple[Line, ...] = (),
        certainty: RuleCertainty | None = None,
        sources: tuple[str, ...] = (),
        citation: str = "",
        relies_on: tuple[str, ...] = (),
    ) -> Finding:
        """A finding of this rule; ``subject`` is (key, label).

        ``certainty``, ``sources`` and ``citation`` default to the rule's; a
        check that ran a calculator passes the clause, sources and certainty of
        the figures it used (e.g. a table cell that a second source
        corroborates, in a table that mostly rests on one source).
        """
        caveat = (Line(text=self.caveat),) if self.caveat else ()
        return Finding(
            rule_id=self.id,
            status=status,
            subject_key=subject[0],
            subject_label=subject[1],
            message=message,
            values=dict(values or {}),
            numbers=dict(numbers or {}),
            citation=citation or self.citation,
            certainty=certainty or self.certainty,
            details=details,
            notes=(*notes, *caveat),
            sources=sources or self.sources,
            relies_on=relies_on,
        )

    def from_result(
        self,
        status: Status,
        subject: tuple[str, str],
        message: str,
        result: CalcResult,
        *,
        values: Mapping[str, str | int | float] | None = None,
        numbers: Mapping[str, int | float] | None = None,
        details: tuple[Line, ...] = (),
        notes: tuple[Line, ...] = (),
        citation: str = "",
    ) -> Finding:
        """A finding that rests on a calculator's result: it shows the
        result's working and warnings, and carries its certainty, sources and
        clause."""
        return self.finding(
            status,
            subject,
            message,
            values=values,
            numbers=numbers,
            details=(*details, *result.steps),
            notes=(*result.warnings, *notes),
            certainty=certainty_of(result.certainty),
            sources=tuple(result.sources),
            citation=citation or result.clause,
        )

    def outside_coverage(
        self,
        subject: tuple[str, str],
        values: Mapping[str, str | int | float],
        error: str,
        *,
        numbers: Mapping[str, int | float] | None = None,
    ) -> Finding:
        """Needs evidence: the recorded figures are outside what the
        calculation covers (``calculate`` said why)."""
        return self.finding(
            Status.NEEDS_EVIDENCE,
            subject,
            OUTSIDE_COVERAGE,
            values={**values, "error": error},
            numbers=numbers,
        )

    def evaluate(self, facts: CellFacts) -> tuple[Finding, ...]:
        return tuple(self.check(facts))


# --- helpers shared by the checks -------------------------------------------

R = TypeVar("R", bound=CalcResult)

OUTSIDE_COVERAGE = gettext_noop(
    "The figures recorded for %(label)s are outside what the calculation covers: "
    "%(error)s"
)


def calculate(
    run: Callable[[Any], R], model: type[BaseModel], **inputs: Any
) -> tuple[R | None, str]:
    """Runs a calculator; figures outside what it covers give (None, why).
    A calculator is a pure function of its figures, so its answer is kept for
    the same figures: findings worked out again after one edit meet the
    other segments', openings' and devices' figures again."""
    key = (run, model, tuple(sorted(inputs.items())))
    try:
        hash(key)
    except TypeError:  # a figure that is a list: worked out each time
        return _calculate(run, model, inputs)
    return _calculated(key)


# Some 2 KB an answer: a few megabytes at the most, the figures of several
# large cells.
@functools.lru_cache(maxsize=2048)
def _calculated(key: tuple) -> tuple[Any, str]:
    run, model, inputs = key
    return _calculate(run, model, dict(inputs))


def _calculate(run, model, inputs: dict[str, Any]) -> tuple[Any, str]:
    try:
        return run(model(**inputs)), ""
    except ValidationError as exc:
        return None, "; ".join(str(err["msg"]) for err in exc.errors())


def missing_lines(missing: list[str]) -> tuple[Line, ...]:
    """One line per missing figure; each text is marked with gettext_noop."""
    return tuple(Line(text=text) for text in missing)


PENDING_IN_DRAFT = gettext_noop(
    "Pending in draft revision %(revision)s: the draft records this, but a "
    "draft changes no verdict; it counts once the revision is signed."
)


def pending_notes(assessment: Any, *keys: str) -> tuple[Line, ...]:
    """A note for a finding whose relaxation is recorded only in a newer,
    unsigned revision (``AssessmentFacts.pending``)."""
    if assessment.draft_revision is None or not set(keys) & set(assessment.pending):
        return ()
    return (
        Line(text=PENDING_IN_DRAFT, values={"revision": assessment.draft_revision}),
    )
