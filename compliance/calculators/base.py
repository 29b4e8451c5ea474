"""What every standards calculator shares. Pure Python with pydantic, no Django.

A calculator is a plain function from one frozen input model to one frozen
result model. Results explain themselves: the clause cited, the working as
readable lines, warnings, and how sure we are of the figures used (two
independent public sources agree, or only one).

Readable text is written in English and marked with ``gettext_noop`` so that
Django's ``makemessages`` collects it; the web layer translates it when it
renders a result. ``%(name)s`` placeholders are filled from ``values`` after
translation, so a translator can move them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, SerializationInfo, model_serializer


def gettext_noop(message: str) -> str:
    """Marks ``message`` for translation without translating it (no Django here)."""
    return message


class Certainty(StrEnum):
    """How well the figures behind a result are attested in public sources."""

    TWO_SOURCES = "two_sources"  # two independent public sources agree
    ONE_SOURCE = "one_source"  # rests on a single source: say so wherever shown


# The few words the formulas of the working carry (a unit, a band, a note on
# how a table was read), translated where they stand: the rest of a formula
# is symbols and numbers.
FORMULA_WORDS = (
    gettext_noop("(next lower column, no interpolation)"),
    gettext_noop("(table column)"),
    gettext_noop("(table row)"),
    gettext_noop("rows a (c)"),
    gettext_noop("column b"),
    gettext_noop("row a"),
    gettext_noop("row"),
    gettext_noop("/year"),
    gettext_noop("years"),
    gettext_noop("points"),
    gettext_noop("depth"),
    gettext_noop("none"),
    gettext_noop("low"),
    gettext_noop("medium"),
    gettext_noop("high"),
)
_FORMULA_WORD = re.compile(
    "|".join(
        # Whole words only ("low" in "PL_low" is a symbol's subscript).
        rf"(?<![\w/]){re.escape(word)}(?![\w])"
        for word in sorted(FORMULA_WORDS, key=len, reverse=True)
    )
)


def formula_text(formula: str, translate: Callable[[str], str]) -> str:
    """A formula with its few words in the reader's language."""
    parts = _formula_parts(formula)
    if len(parts) == 1 and not parts[0][1]:
        return formula  # most formulas are figures and symbols only
    return "".join(translate(text) if word else text for text, word in parts)


@functools.lru_cache(maxsize=4096)
def _formula_parts(formula: str) -> tuple[tuple[str, bool], ...]:
    """The formula cut into its text and its words (True): found once per
    formula, as a large cell's findings repeat the same ones."""
    parts: list[tuple[str, bool]] = []
    last = 0
    for found in _FORMULA_WORD.finditer(formula):
        parts += [(formula[last : found.start()], False), (found.group(), True)]
        last = found.end()
    parts.append((formula[last:], False))
    return tuple(part for part in parts if part[0]) or (("", False),)


class Line(BaseModel):
    """One readable line of working or one warning.

    ``text`` is an English template (marked for translation) with optional
    ``%(name)s`` placeholders filled from ``values``; ``formula`` is the
    language-neutral arithmetic, e.g. ``S = 2000 × 0.150 + 0 = 300 mm``.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    values: dict[str, str | int | float] = {}
    formula: str = ""

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        text = translate(self.text)
        if self.values:
            # Words filled in (a body region's name, a table's name) are
            # translated too; numbers are not.
            text = text % {
                key: translate(value) if isinstance(value, str) else value
                for key, value in self.values.items()
            }
        if not self.formula:
            return text
        return f"{text}: {formula_text(self.formula, translate)}"

    @model_serializer(mode="plain")
    def _as_text(self, info: SerializationInfo) -> str:
        """Serialised (JSON, the API) as one readable line, translated when the
        caller passes ``context={"translate": gettext}``."""
        translate = (info.context or {}).get("translate", lambda s: s)
        return self.render(translate)


class CalcInput(BaseModel):
    """Base of every calculator input: frozen, and unknown fields are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class CalcResult(BaseModel):
    """Base of every calculator result."""

    model_config = ConfigDict(frozen=True)

    clause: str  # e.g. "ISO 13855:2010, 6.2.3 (ESPE, normal approach)"
    steps: tuple[Line, ...] = ()
    warnings: tuple[Line, ...] = ()
    certainty: Certainty = Certainty.TWO_SOURCES
    sources: tuple[str, ...] = ()  # the public sources the figures were taken from


@dataclass(frozen=True)
class Calculator:
    """A calculator as the API and the pages see it."""

    name: str  # URL slug, e.g. "iso13855-espe"
    title: str  # marked with gettext_noop
    summary: str  # one or two plain sentences, marked with gettext_noop
    standard: str  # e.g. "ISO 13855:2010"
    input_model: type[CalcInput]
    result_model: type[CalcResult]
    run: Callable[[Any], CalcResult]
    headline: tuple[
        str, ...
    ]  # result fields shown first, e.g. ("minimum_distance_mm",)
    example: Mapping[str, Any] = field(default_factory=dict)  # a valid input
    # Readable names for choice values, e.g. {"hands_fingers": "Hands and fingers"}.
    choice_labels: Mapping[str, str] = field(default_factory=dict)


def format_number(value: Decimal) -> str:
    """A week count, a fraction or a price for a readable line: no trailing
    zeros."""
    text = format(value.quantize(Decimal("0.01")).normalize(), "f")
    return "0" if text in {"-0", "0"} else text


def grouped_figure(value: Decimal) -> str:
    """A money figure or a rate as written: grouped thousands, no trailing
    zeros (95,000; 23.17; 1,380)."""
    value = Decimal(value).normalize()
    if value == value.to_integral_value():
        return f"{int(value):,}"
    return f"{value:,f}"


def format_range(low: Decimal, high: Decimal) -> str:
    """A low–high figure (lead times, costs), one figure when they agree."""
    if low == high:
        return format_number(low)
    return f"{format_number(low)}–{format_number(high)}"


def fmt(value: float, digits: int = 0) -> str:
    """A number for a formula line: grouped thousands, fixed decimals, no '-0'."""
    if round(value, digits) == 0:
        value = 0.0
    return f"{value:,.{digits}f}"
