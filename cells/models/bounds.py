"""The bounds every length and coordinate of a plan keeps (a cell, not a
country), shared by the layout's models."""

from __future__ import annotations

from django.core.validators import (
    MaxValueValidator,
    MinValueValidator,
)
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cells.exchange import COORDINATE_LIMIT_MM

# A coordinate or length beyond COORDINATE_LIMIT_MM (100 m) is a typo, not a
# cell: refusing it keeps 10^300 out of the geometry and out of the database.
_OFF_THE_PLAN = _(
    "Keep within 100 m of the plan's origin: between -100,000 and 100,000 mm."
)
COORDINATE_VALIDATORS = [
    MinValueValidator(-COORDINATE_LIMIT_MM, message=_OFF_THE_PLAN),
    MaxValueValidator(COORDINATE_LIMIT_MM, message=_OFF_THE_PLAN),
]
LENGTH_VALIDATORS = [
    MaxValueValidator(
        COORDINATE_LIMIT_MM,
        message=_("At most 100,000 mm (100 m): more than any cell."),
    )
]
# The highest beam of a light curtain or grid: a bound against typing errors,
# not a figure from a standard.
DETECTION_UPPER_LIMIT_MM = 3000
# ISO 13855:2010, 6.3: a horizontal detection zone is at most 1000 mm high.
FIELD_HEIGHT_LIMIT_MM = 1000


def on_the_plan(name: str) -> Q:
    """CHECK condition: an optional coordinate is empty or within the limit."""
    return Q(**{f"{name}__isnull": True}) | Q(
        **{f"{name}__gte": -COORDINATE_LIMIT_MM, f"{name}__lte": COORDINATE_LIMIT_MM}
    )
