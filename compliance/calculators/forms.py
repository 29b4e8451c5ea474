"""A Django form for each calculator, built from its pydantic input model.

The form only parses what the browser sends; the pydantic model decides what
is valid, so a page and the API refuse exactly the same input with the same
words.

An input holding a list of models (the subsystems of ``pl-verify``) gets three
fixed rows, input, logic and output, whose fields are prefixed ``s0-``, ``s1-``
and ``s2-``; a row left blank is ignored.
"""

from __future__ import annotations

import enum
import functools
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from compliance.calculators.base import CalcInput, Calculator
from compliance.calculators.presentation import field_label
from compliance.calculators.registry import CALCULATORS
from compliance.calculators.validation import NON_FIELD, field_errors, nested_model

# The fixed rows of a list input: a safety function's input, logic and output.
ROW_LABELS = (_("Input"), _("Logic"), _("Output"))


def row_prefix(index: int) -> str:
    return f"s{index}-"


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    """The type a field holds (``StrictFloat | None``: float), and whether it
    may be left empty."""
    optional = False
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            annotation, optional = args[0], True
    if get_origin(annotation) is Annotated:  # StrictFloat = Annotated[float, ...]
        annotation = get_args(annotation)[0]
    return annotation, optional


def _bounds(info: FieldInfo) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    for item in info.metadata:
        if isinstance(item, annotated_types.Ge | annotated_types.Gt):
            attrs["min"] = getattr(item, "ge", None) or getattr(item, "gt", None) or 0
        if isinstance(item, annotated_types.Le | annotated_types.Lt):
            attrs["max"] = getattr(item, "le", None) or getattr(item, "lt", None)
    return attrs


def _choices(annotation: Any) -> list[tuple[str, str]] | None:
    if get_origin(annotation) is Literal:
        return [(str(v), str(v)) for v in get_args(annotation)]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [(str(m.value), str(m.value)) for m in annotation]
    return None


def _many_choices(annotation: Any) -> list[tuple[str, str]] | None:
    """The choices of a tuple of choice values, e.g. ``tuple[Literal[...], ...]``."""
    if get_origin(annotation) is tuple:
        args = [a for a in get_args(annotation) if a is not Ellipsis]
        if len(args) == 1:
            return _choices(args[0])
    return None


def form_field(name: str, info: FieldInfo, labels: dict[str, str]) -> forms.Field:
    annotation, optional = _unwrap_optional(info.annotation)
    label = field_label(name, is_input=True)
    common = {
        "label": format_lazy("{} ({})", label.label, label.unit)
        if label.unit
        else label.label,
        "help_text": _(info.description) if info.description else "",
        "required": info.is_required() and not optional,
    }
    if not info.is_required() and info.default is not None:
        common["initial"] = info.default
    choices = _choices(annotation)
    if choices is not None:
        choices = [(value, _(labels.get(value, text))) for value, text in choices]
        if not common["required"] and optional:
            choices = [("", "—"), *choices]
        return forms.ChoiceField(choices=choices, **common)
    many = _many_choices(annotation)
    if many is not None:
        return forms.MultipleChoiceField(
            choices=[(value, _(labels.get(value, text))) for value, text in many],
            widget=forms.CheckboxSelectMultiple,
            **{**common, "required": False},
        )
    if annotation is bool:
        return forms.BooleanField(**{**common, "required": False})
    attrs = {**_bounds(info), "inputmode": "decimal"}
    if annotation is int:
        return forms.IntegerField(widget=forms.NumberInput(attrs=attrs), **common)
    if annotation is float:
        return forms.FloatField(
            widget=forms.NumberInput(attrs={**attrs, "step": "any"}), **common
        )
    return forms.CharField(**common)


def _blank(value: Any) -> bool:
    return value in (None, "") or value == [] or value == ()


class CalculatorForm(forms.Form):
    calculator: Calculator
    # The list input shown as fixed rows: (field name, model of one item).
    rows: tuple[str, type[BaseModel]] | None = None

    def __init__(self, *args: Any, initial: dict[str, Any] | None = None, **kwargs):
        if initial and self.rows:
            initial = self._flatten(initial)
        super().__init__(*args, initial=initial, **kwargs)

    def _flatten(self, initial: dict[str, Any]) -> dict[str, Any]:
        """An input (e.g. a calculator's example) as the rows' initial values."""
        name, _model = self.rows  # type: ignore[misc]
        flat = {key: value for key, value in initial.items() if key != name}
        for index, item in enumerate(list(initial.get(name) or ())[: len(ROW_LABELS)]):
            for key, value in dict(item).items():
                flat[f"{row_prefix(index)}{key}"] = value
        return flat

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        inputs = self.calculator.input_model.model_fields
        data = {
            name: value
            for name, value in cleaned.items()
            # An empty optional field means "use the model's default".
            if name in inputs
            and not (value in (None, "") and not self.fields[name].required)
        }
        self._row_of: list[int] = []  # the form row of each item sent
        if self.rows:
            name, model = self.rows
            items = []
            for index in range(len(ROW_LABELS)):
                prefix = row_prefix(index)
                item = {
                    key: cleaned.get(f"{prefix}{key}")
                    for key in model.model_fields
                    if not _blank(cleaned.get(f"{prefix}{key}"))
                }
                if any(key != "label" for key in item):  # a blank row is ignored
                    items.append(item)
                    self._row_of.append(index)
            data[name] = items
        try:
            self.calc_input: CalcInput = self.calculator.input_model.model_validate(
                data
            )
        except ValidationError as exc:
            errors = field_errors(exc, self.calculator.input_model)
            for key, messages in errors.items():
                for message in messages:
                    field, text = self._form_error(key, message)
                    self.add_error(field, text)
        return cleaned

    def _form_error(self, key: str, message: str) -> tuple[str | None, str]:
        """The form field an error belongs to (None: the form), and its text."""
        if key in self.fields:
            return key, message
        if self.rows and key.startswith(f"{self.rows[0]}."):
            parts = key.split(".")
            if parts[1].isdigit() and int(parts[1]) < len(self._row_of):
                index = self._row_of[int(parts[1])]
                if len(parts) > 2 and f"{row_prefix(index)}{parts[2]}" in self.fields:
                    return f"{row_prefix(index)}{parts[2]}", message
                return None, f"{ROW_LABELS[index]}: {message}"
        return None, message


def calculator_form_class(calculator: Calculator) -> type[CalculatorForm]:
    return _form_class(calculator.name)


@functools.cache
def _form_class(name: str) -> type[CalculatorForm]:
    calculator = CALCULATORS[name]
    labels = dict(calculator.choice_labels)
    fields: dict[str, forms.Field] = {}
    rows = None
    for field_name, info in calculator.input_model.model_fields.items():
        model, many = nested_model(info.annotation)
        if model is None or not many:
            fields[field_name] = form_field(field_name, info, labels)
            continue
        rows = (field_name, model)
        for index, row_label in enumerate(ROW_LABELS):
            for key, item_info in model.model_fields.items():
                field = form_field(key, item_info, labels)
                field.required = False
                field.label = format_lazy("{}: {}", row_label, field.label)
                fields[f"{row_prefix(index)}{key}"] = field
    return type(
        f"{calculator.input_model.__name__}Form",
        (CalculatorForm,),
        {**fields, "calculator": calculator, "rows": rows},
    )


__all__ = ["NON_FIELD", "CalculatorForm", "calculator_form_class"]
