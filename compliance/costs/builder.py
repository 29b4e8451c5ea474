"""The collector of a cell's derived line items: the facts, the findings
they answer, the catalogue they are priced from; ``add`` prices a line from
its catalogue entry. Pure Python, no Django."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal

from compliance.calculators.base import Line
from compliance.costs.catalogue import (
    CatalogueEntry,
)
from compliance.costs.line_items import (
    FindingRef,
    LineItem,
    catalogue_item,
)
from compliance.rules.facts import CellFacts


def as_decimal(value: float) -> Decimal:
    """A recorded float as the Decimal of its shortest repr (4000.0 -> 4000.0)."""
    return Decimal(repr(value))


def plain_number(value: Decimal) -> str:
    """A Decimal without exponent or trailing zeros: 1800.0 -> "1800"."""
    return format(value.normalize(), "f")


class LineBuilder:
    """Collects the lines of one cell; the rules of derivation are functions
    of it (``guarding``, ``work``)."""

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
        self._by_rule: dict[object, list[tuple[int, FindingRef]]] | None = None

    def about(
        self, rule_ids: Iterable[str], subjects: Iterable[str] | None = None
    ) -> tuple[FindingRef, ...]:
        """The findings of ``rule_ids`` (about ``subjects``, if given), in
        the findings' order: looked up in an index, not in every finding,
        as each line asks for its own."""
        if self._by_rule is None:
            self._by_rule = {}
            for place, ref in enumerate(self.refs):
                pair = (place, ref)
                self._by_rule.setdefault(ref.rule_id, []).append(pair)
                self._by_rule.setdefault((ref.rule_id, ref.subject_key), []).append(
                    pair
                )
        wanted = set(rule_ids)
        if subjects is None:
            found = [p for rule in wanted for p in self._by_rule.get(rule, ())]
        else:
            keys = set(subjects)
            found = [
                p
                for rule in wanted
                for key in keys
                for p in self._by_rule.get((rule, key), ())
            ]
        return tuple(ref for _place, ref in sorted(found, key=lambda p: p[0]))

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
