"""``QuickSelect`` writes what Django's ``Select`` writes, character for
character, escaping what it is given."""

from __future__ import annotations

import pytest
from django import forms
from django.utils.translation import gettext_lazy

from cells.widgets import QuickSelect

CASES = [
    (
        [("", "—"), ("a", "A & <b>"), ("b", 'B "q"'), ("c", gettext_lazy("Fence"))],
        "b",
        {"id": "x", "hx-get": "/u?a=1&b=2", "required": True, "disabled": False},
    ),
    ([("G1", [("1", "one"), ("2", "two")]), ("3", "three")], "2", {}),
    ([(1, "int"), (2, "<script>")], 1, {"data-x": 5, "onload": '"x"'}),
    ([], None, {}),
]


@pytest.mark.parametrize(("choices", "value", "attrs"), CASES)
def test_quick_select_writes_what_select_writes(choices, value, attrs):
    expected = forms.Select(choices=choices, attrs=attrs).render("n&<", value)
    assert QuickSelect(choices=choices, attrs=attrs).render("n&<", value) == expected


def test_the_hazard_form_is_written_as_with_djangos_selects(cell, segment, opening):
    from compliance.assessment.forms import HazardForm

    quick = HazardForm(cell=cell, prefix="new", refresh_url="/r?x=1&y=2", target="#a")
    plain = HazardForm(cell=cell, prefix="new", refresh_url="/r?x=1&y=2", target="#a")
    for field in plain.fields.values():
        if isinstance(field.widget, QuickSelect):
            field.widget = forms.Select(
                attrs=field.widget.attrs, choices=field.widget.choices
            )
    assert "QuickSelect" in repr(quick.fields["location_key"].widget.__class__)
    assert str(quick) == str(plain)
    assert f"opening:{opening.pk}" in str(quick)
