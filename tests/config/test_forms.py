"""A service's refusal shown on the form that asked (config/forms.py)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from config.forms import add_errors


class _Form(forms.Form):
    height_mm = forms.IntegerField()


def test_a_refusal_naming_a_field_goes_to_that_field():
    form = _Form({"height_mm": "1400"})
    assert form.is_valid()
    add_errors(form, ValidationError({"height_mm": "At least 1,800 mm."}))
    assert form.errors == {"height_mm": ["At least 1,800 mm."]}


def test_a_refusal_naming_no_field_of_the_form_goes_to_the_whole_form():
    form = _Form({"height_mm": "1400"})
    assert form.is_valid()
    add_errors(form, ValidationError({"segment": "Not on this cell."}))
    add_errors(form, ValidationError("The cell is signed."))
    assert form.non_field_errors() == ["Not on this cell.", "The cell is signed."]
