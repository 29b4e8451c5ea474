"""Pydantic validation errors as field errors a person can read, in their language.

Used by the calculator API (400 with field errors) and the calculator pages
(form errors), so both say the same thing.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from pydantic import ValidationError

NON_FIELD = "non_field_errors"


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def _message(error: dict) -> str:
    ctx = error.get("ctx") or {}
    kind = error["type"]
    if kind == "missing":
        return _("This field is required.")
    if kind == "greater_than_equal":
        return _("Must be at least %(limit)s.") % {"limit": _number(ctx["ge"])}
    if kind == "greater_than":
        return _("Must be greater than %(limit)s.") % {"limit": _number(ctx["gt"])}
    if kind == "less_than_equal":
        return _("Must be at most %(limit)s.") % {"limit": _number(ctx["le"])}
    if kind == "less_than":
        return _("Must be less than %(limit)s.") % {"limit": _number(ctx["lt"])}
    if kind in {"literal_error", "enum"}:
        return _("Choose one of: %(choices)s.") % {"choices": ctx.get("expected", "")}
    if kind in {"int_parsing", "int_from_float", "int_type"}:
        return _("Enter a whole number.")
    if kind in {"float_parsing", "float_type", "finite_number"}:
        return _("Enter a number.")
    if kind in {"bool_parsing", "bool_type"}:
        return _("Enter true or false.")
    if kind == "extra_forbidden":
        return _("This calculator has no such input.")
    if kind == "value_error":
        # The calculators' own rules: English text marked for translation.
        return _(str(ctx.get("error", error["msg"])))
    return error["msg"]


def field_errors(exc: ValidationError) -> dict[str, list[str]]:
    """{field name: [messages]}; errors about the whole input go under non_field_errors."""
    errors: dict[str, list[str]] = {}
    for error in exc.errors(include_url=False):
        loc = error.get("loc") or ()
        key = str(loc[0]) if loc else NON_FIELD
        errors.setdefault(key, []).append(_message(error))
    return errors
