"""Costs of a cell's safety plan: the device and service catalogue, the line
items a cell needs, and their totals as ranges. Pure Python with pydantic, no
Django.

``catalogue`` holds the starting catalogue, every figure copied from
``/work/shared/reference`` with its source (most prices are unknown there);
``line_items`` derives the lines from ``CellFacts`` and the rule findings,
applies the user's edits, converts currencies with the caller's rates and
totals the plan.
"""

from __future__ import annotations

from compliance.costs.catalogue import (
    CATALOGUE,
    CATALOGUE_BY_KEY,
    CURRENCIES,
    CatalogueEntry,
)
from compliance.costs.line_items import (
    FindingRef,
    LineItem,
    Override,
    TotalLine,
    Totals,
    apply_overrides,
    catalogue_item,
    convert,
    custom_item,
    derive_line_items,
    round_range,
    totals,
)

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
