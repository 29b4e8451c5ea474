"""Pydantic validation errors as field errors a person can read, in their language.

Used by the calculator API (400 with field errors) and the calculator pages
(form errors), so both say the same thing. An error inside a nested input is
keyed by its dotted path (``subsystems.0.dcavg_percent``); flat inputs keep
their plain field names.
"""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin

from django.utils.translation import gettext as _
from pydantic import BaseModel, ValidationError

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
    if kind == "too_long" and "max_length" in ctx:
        return _("Give at most %(limit)s.") % {"limit": ctx["max_length"]}
    if kind == "too_short" and "min_length" in ctx:
        return _("Give at least %(limit)s.") % {"limit": ctx["min_length"]}
    if kind == "string_too_long":
        return _("Enter at most %(limit)s characters.") % {"limit": ctx["max_length"]}
    if kind in {"model_type", "model_attributes_type", "dict_type"}:
        return _("Send an object.")
    if kind in {"tuple_type", "list_type"}:
        return _("Send a list.")
    if kind == "value_error":
        # The calculators' own rules: English text marked for translation.
        return _(str(ctx.get("error", error["msg"])))
    return error["msg"]


def nested_model(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    """The model a field holds, and whether it holds a sequence of them."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        annotation = args[0] if len(args) == 1 else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, False
    if get_origin(annotation) in (tuple, list):
        args = [a for a in get_args(annotation) if a is not Ellipsis]
        if (
            len(args) == 1
            and isinstance(args[0], type)
            and issubclass(args[0], BaseModel)
        ):
            return args[0], True
    return None, False


def error_key(loc: tuple[int | str, ...], model: type[BaseModel] | None) -> str:
    """The key an error is reported under: the path through nested models (field
    names and item numbers, joined by dots), ending at the field in error. Parts
    of the location inside a plain field (an item of a list of numbers, a union
    member) are dropped, so a flat input keeps its plain field names."""
    if not loc:
        return NON_FIELD
    parts: list[str] = []
    current = model
    index = 0
    while current is not None and index < len(loc):
        name = loc[index]
        if not isinstance(name, str):
            break
        parts.append(name)
        index += 1
        info = current.model_fields.get(name)
        if info is None:  # an input the model does not have
            break
        current, many = nested_model(info.annotation)
        if current is not None and many:
            if index < len(loc) and isinstance(loc[index], int):
                parts.append(str(loc[index]))
                index += 1
            else:
                break
    return ".".join(parts) if parts else str(loc[0])


def field_errors(
    exc: ValidationError, model: type[BaseModel] | None = None
) -> dict[str, list[str]]:
    """{field: [messages]}; errors about the whole input go under non_field_errors.

    With ``model`` (the input model validated) errors inside nested models are
    keyed by their dotted path. A rule raised by a model's validator may name the
    field it is about with a ``field`` attribute on the exception (e.g.
    ``iso13849_verify.FieldError``): it is then keyed by that field."""
    errors: dict[str, list[str]] = {}
    for error in exc.errors(include_url=False):
        loc = tuple(error.get("loc") or ())
        key = error_key(loc, model) if model is not None else _flat_key(loc)
        named = getattr((error.get("ctx") or {}).get("error"), "field", None)
        if isinstance(named, str) and named:
            key = named if key == NON_FIELD else f"{key}.{named}"
        errors.setdefault(key, []).append(_message(error))
    return errors


def _flat_key(loc: tuple[int | str, ...]) -> str:
    return str(loc[0]) if loc else NON_FIELD
