"""A Django form for each calculator, built from its pydantic input model.

The form only parses what the browser sends; the pydantic model decides what
is valid, so a page and the API refuse exactly the same input with the same
words.
"""

from __future__ import annotations

import enum
import functools
import types
from typing import Any, Literal, Union, get_args, get_origin

import annotated_types
from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from compliance.calculators.base import CalcInput, Calculator
from compliance.calculators.presentation import field_label
from compliance.calculators.registry import CALCULATORS
from compliance.calculators.validation import NON_FIELD, field_errors


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


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


class CalculatorForm(forms.Form):
    calculator: Calculator

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        data = {
            name: value
            for name, value in cleaned.items()
            # An empty optional field means "use the model's default".
            if not (value in (None, "") and not self.fields[name].required)
        }
        try:
            self.calc_input: CalcInput = self.calculator.input_model.model_validate(
                data
            )
        except ValidationError as exc:
            for field, messages in field_errors(exc).items():
                for message in messages:
                    self.add_error(field if field in self.fields else None, message)
        return cleaned


def calculator_form_class(calculator: Calculator) -> type[CalculatorForm]:
    return _form_class(calculator.name)


@functools.cache
def _form_class(name: str) -> type[CalculatorForm]:
    calculator = CALCULATORS[name]
    labels = dict(calculator.choice_labels)
    fields = {
        name: form_field(name, info, labels)
        for name, info in calculator.input_model.model_fields.items()
    }
    return type(
        f"{calculator.input_model.__name__}Form",
        (CalculatorForm,),
        {**fields, "calculator": calculator},
    )


__all__ = ["NON_FIELD", "CalculatorForm", "calculator_form_class"]
