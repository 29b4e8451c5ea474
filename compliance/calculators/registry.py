"""Every calculator by its URL name; the API and the pages are built from it."""

from __future__ import annotations

from compliance.calculators import (
    iso13849,
    iso13849_b10d,
    iso13849_verify,
    iso13855,
    iso13855_2024,
    iso13855_interlock,
    iso13857,
    ts15066,
)
from compliance.calculators.base import Calculator

CALCULATORS: dict[str, Calculator] = {
    calc.name: calc
    for module in (
        iso13849,
        iso13849_verify,
        iso13849_b10d,
        iso13855,
        iso13855_2024,
        iso13855_interlock,
        iso13857,
        ts15066,
    )
    for calc in module.CALCULATORS
}
