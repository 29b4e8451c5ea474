"""The bounds every length, coordinate, time and speed of a plan keeps (a cell,
not a country), and the caps on what a cell holds, shared by the layout's
models: as validators (so forms and the API refuse with the field named) and
as database checks (so no other path can store them either).

The figures themselves are stated once, in ``cells.exchange``.
"""

from __future__ import annotations

from django.core.validators import (
    MaxValueValidator,
    MinValueValidator,
)
from django.db.models import BooleanField, Func, Q
from django.utils.translation import gettext_lazy as _

from cells.exchange import (
    BEAM_COUNT_LIMIT,
    COORDINATE_LIMIT_MM,
    SPEED_LIMIT_MM_S,
    TIME_LIMIT_MS,
)

_OFF_THE_PLAN = _(
    "Keep within 100 m of the plan's origin: between -100,000 and 100,000 mm."
)
COORDINATE_VALIDATORS = [
    MinValueValidator(-COORDINATE_LIMIT_MM, message=_OFF_THE_PLAN),
    MaxValueValidator(COORDINATE_LIMIT_MM, message=_OFF_THE_PLAN),
]
_TOO_LONG = MaxValueValidator(
    COORDINATE_LIMIT_MM,
    message=_("At most 100,000 mm (100 m): more than any cell."),
)
LENGTH_VALIDATORS = [_TOO_LONG]
# For lengths that must be there at all (a mesh opening, a radius).
POSITIVE_LENGTH_VALIDATORS = [
    MinValueValidator(1, message=_("Must be at least 1 mm.")),
    _TOO_LONG,
]
_TOO_SLOW = MaxValueValidator(
    TIME_LIMIT_MS, message=_("At most 60,000 ms (a minute): check the unit.")
)
TIME_VALIDATORS = [_TOO_SLOW]
POSITIVE_TIME_VALIDATORS = [
    MinValueValidator(1, message=_("Must be at least 1 ms.")),
    _TOO_SLOW,
]
_TOO_FAST = MaxValueValidator(
    SPEED_LIMIT_MM_S,
    message=_("At most 20,000 mm/s (20 m/s): faster than any robot."),
)
SPEED_VALIDATORS = [_TOO_FAST]
POSITIVE_SPEED_VALIDATORS = [
    MinValueValidator(1, message=_("Must be at least 1 mm/s.")),
    _TOO_FAST,
]
BEAM_COUNT_VALIDATORS = [
    MaxValueValidator(
        BEAM_COUNT_LIMIT,
        message=_("At most 1,000 beams: more than any light curtain or grid."),
    )
]
# The highest beam of a light curtain or grid: a bound against typing errors,
# not a figure from a standard.
DETECTION_UPPER_LIMIT_MM = 3000
# ISO 13855:2010, 6.3: a horizontal detection zone is at most 1000 mm high.
FIELD_HEIGHT_LIMIT_MM = 1000


def within(name: str, low: int, high: int) -> Q:
    """CHECK condition: ``name`` is empty or between ``low`` and ``high``."""
    return Q(**{f"{name}__isnull": True}) | Q(
        **{f"{name}__gte": low, f"{name}__lte": high}
    )


def on_the_plan(name: str) -> Q:
    """CHECK condition: an optional coordinate is empty or within the limit."""
    return within(name, -COORDINATE_LIMIT_MM, COORDINATE_LIMIT_MM)


def lengths(*names: str) -> Q:
    """CHECK condition: each length is empty or from 0 to the limit."""
    return _all(within(name, 0, COORDINATE_LIMIT_MM) for name in names)


def times(*names: str) -> Q:
    return _all(within(name, 0, TIME_LIMIT_MS) for name in names)


def speeds(*names: str) -> Q:
    return _all(within(name, 0, SPEED_LIMIT_MM_S) for name in names)


def _all(conditions) -> Q:
    combined = Q()
    for condition in conditions:
        combined &= condition
    return combined


class PolygonOnThePlan(Func):
    """CHECK condition on a JSON list of corners [[x, y], ...]: at most
    ``max_corners`` of them and, on PostgreSQL, every x and y within
    ``limit_mm`` of the origin. SQLite cannot look inside the list in a CHECK
    (that needs a subquery); there the count is checked, the model the rest.
    The figures are arguments, so that a migration keeps the ones it made."""

    arity = 1
    output_field = BooleanField()
    conditional = True

    def __init__(self, expression, *, max_corners: int, limit_mm: int) -> None:
        super().__init__(expression)
        self.max_corners = int(max_corners)
        self.limit_mm = int(limit_mm)

    def as_sql(self, compiler, connection, **extra_context):
        # SQLite: json_array_length() is 0 for anything but a list.
        return super().as_sql(
            compiler,
            connection,
            template=f"(json_array_length(%(expressions)s) <= {self.max_corners})",
            **extra_context,
        )

    def as_postgresql(self, compiler, connection, **extra_context):
        limit = self.limit_mm
        return super().as_sql(
            compiler,
            connection,
            # jsonb_array_length() fails on a non-list: CASE reads it only on
            # a list (anything else is refused by the model, and here too).
            template=(
                "(CASE WHEN jsonb_typeof((%(expressions)s)::jsonb) = 'array' THEN "
                f"jsonb_array_length((%(expressions)s)::jsonb) <= {self.max_corners} "
                "AND NOT jsonb_path_exists((%(expressions)s)::jsonb, "
                f"'$[*][*] ? (@ > {limit} || @ < -{limit})') ELSE false END)"
            ),
            **extra_context,
        )
