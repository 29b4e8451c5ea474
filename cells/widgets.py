"""Form widgets that write their HTML in Python: a select of a few hundred
options (the places of a large cell) costs a template include per option in
Django's own, tens of milliseconds a form."""

from __future__ import annotations

from django import forms
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe


def _attrs(attrs: dict) -> str:
    """As ``django/forms/widgets/attrs.html`` writes them."""
    return "".join(
        f" {conditional_escape(name)}"
        + ("" if value is True else f'="{conditional_escape(str(value))}"')
        for name, value in attrs.items()
        if value is not False
    )


class QuickSelect(forms.Select):
    """A ``Select`` written as ``django/forms/widgets/select.html`` and
    ``select_option.html`` write it, character for character."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        out = [f'<select name="{conditional_escape(widget["name"])}"']
        out.append(_attrs(widget["attrs"]) + ">")
        for group_name, group_choices, _index in widget["optgroups"]:
            if group_name:
                out.append(f'\n  <optgroup label="{conditional_escape(group_name)}">')
            for option in group_choices:
                out.append(
                    f'\n  <option value="{conditional_escape(str(option["value"]))}"'
                    f"{_attrs(option['attrs'])}>"
                    f"{conditional_escape(option['label'])}</option>\n"
                )
            if group_name:
                out.append("\n  </optgroup>")
        out.append("\n</select>")
        return mark_safe("".join(out))
