"""Costs of a cell's safety plan: the device and service catalogue, the line
items a cell needs, and their totals as ranges. Pure Python with pydantic, no
Django.

``catalogue`` holds the starting catalogue, every figure from the reference
data with its source (most prices are unknown there; the few public ones are
article estimates, marked so, and a fee with no public figure, such as the
KIRIA certification's, stays "to be quoted"); ``line_items`` is the
priced line and the user's edits of it; ``derivation`` derives the lines from
``CellFacts`` and the rule findings; ``money`` converts currencies with the
caller's rates and totals the plan. The Django edge (``models``, ``selectors``,
``services``, ``views``, ``api``) sits beside them and is not imported here.
"""

from __future__ import annotations

from compliance.costs.catalogue import (
    CATALOGUE,
    CATALOGUE_BY_KEY,
    CURRENCIES,
    CatalogueEntry,
)
from compliance.costs.derivation import derive_line_items
from compliance.costs.line_items import (
    FindingRef,
    LineItem,
    Override,
    apply_overrides,
    catalogue_item,
    custom_item,
)
from compliance.costs.money import TotalLine, Totals, convert, round_range, totals

__all__ = [
    "CATALOGUE",
    "CATALOGUE_BY_KEY",
    "CURRENCIES",
    "CatalogueEntry",
    "FindingRef",
    "LineItem",
    "Override",
    "TotalLine",
    "Totals",
    "apply_overrides",
    "catalogue_item",
    "convert",
    "custom_item",
    "derive_line_items",
    "round_range",
    "totals",
]
