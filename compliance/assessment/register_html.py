"""The rows of the hazard register, written by Python: what the template's
``hazard-row`` partial writes (``assessment_detail.html``), a page of 200
hazards at the cost of a plain table. The links are reversed once per kind
(``cells.links``), the words translated once per page, the risk estimates
memoised (``selectors.hazard_estimates``); every value is escaped and
localised as a template escapes and localises it.

The partial stays for a row alone (htmx swaps one row in and out) and for a
row in the middle of an edit; ``tests/compliance/assessment/
test_register_html.py`` holds the two to the same output.
"""

from __future__ import annotations

import html

from django.middleware.csrf import get_token
from django.utils.formats import localize
from django.utils.html import escape
from django.utils.translation import gettext as _

from cells.links import ID, link_for
from compliance.assessment.hazards import catalogue
from compliance.assessment.hazards.suggestions import localise


def _v(value) -> str:
    """A value as ``{{ value }}`` writes it: localised, then escaped. A plain
    string is written as Django's ``escape`` writes it (the standard
    library's ``html.escape``), without the lazy-text checks round it: a
    page of 200 hazards writes some 7,000 values."""
    if type(value) is str:
        return html.escape(value)
    return escape(localize(value))


class RowWriter:
    """Writes the register's rows for one page: ``editable`` rows carry their
    edit and delete links and forms."""

    def __init__(self, request, *, editable: bool) -> None:
        self.editable = editable
        self.links = {
            name: link_for(f"compliance:{name}", ID)
            for name in (
                "measure_edit",
                "measure_delete",
                "measure_add",
                "hazard_edit",
                "hazard_delete",
            )
        }
        self.token = escape(get_token(request)) if editable else ""
        self.words = {
            key: escape(_(text))
            for key, text in {
                "low": "low prob.",
                "lower": "ISO 13849-1 allows one level lower where the probability "
                "of the hazardous event is low; justify it in the assessment.",
                "none": "not estimated",
                "none_yet": "none yet",
                "edit": "Edit",
                "delete": "Delete",
                "measure": "measure",
                "acceptable": "Acceptable",
                "delete_hazard": "Delete this hazard and its measures?",
            }.items()
        }
        self.lowered = _("PLr %(plr)s if the low probability is justified")
        self.ineffective = _("Ineffective: its %(rule)s check fails.")
        self._translated: dict[str, str] = {}
        self._displays: dict[tuple, str] = {}

    def _gettext(self, text: str) -> str:
        """``gettext``, once per text on the page."""
        found = self._translated.get(text)
        if found is None:
            found = self._translated[text] = _(text)
        return found

    def _t(self, text: str) -> str:
        """``{% translate value %}`` of a value: translated, then escaped."""
        return escape(self._gettext(text))

    def _display(self, obj, name: str) -> str:
        """``obj.get_<name>_display()``, once per value on the page."""
        value = getattr(obj, name)
        key = (type(obj), name, value)
        found = self._displays.get(key)
        if found is None:
            field = obj._meta.get_field(name)
            found = str(dict(field.flatchoices).get(value, value))
            self._displays[key] = found
        return found

    def _catalogue(self, kind: str, *ids: str) -> str:
        """A hazard group's name, or an origin's or consequence's text,
        translated (as ``views.register.Row`` gives them)."""
        key = (kind, *ids)
        found = self._displays.get(key)
        if found is None:
            item = getattr(catalogue, kind)(*ids)
            found = self._gettext(item.name if kind == "group" else item.text)
            self._displays[key] = found
        return found

    def row(self, row) -> str:
        """The ``<tr>`` of one hazard (``views.register.Row``), as the partial writes
        it when no measure of it is being edited or deleted."""
        h = row.hazard
        w = self.words
        pk = h.pk
        out = [
            f'\n<tr id="hazard-{pk}" class="hazard-row residual-'
            f'{_v(row.residual.level) if row.residual else "none"}">\n'
            f'  <td class="num">{_v(h.order)}</td>\n'
            f"  <td><strong>{_v(self._catalogue('origin', h.group, h.origin))}"
            f"</strong> → {_v(self._catalogue('consequence', h.group, h.consequence))}"
            f'<div class="muted small">{_v(self._catalogue("group", h.group))}</div>'
            "</td>\n"
            f'  <td>{_v(localise(h.task, self._gettext))}<div class="muted small">'
            f"{_v(self._display(h, 'phase'))}"
        ]
        if h.location_label:
            out.append(f" · {_v(h.location_label)}")
        if h.body_region:
            out.append(f" · {self._t(self._display(h, 'body_region'))}")
            if h.contact_type:
                out.append(f" · {_v(self._display(h, 'contact_type'))}")
            if h.contact_area_cm2 is not None:
                out.append(f" · {_v(h.contact_area_cm2)} cm²")
        out.append('</div></td>\n  <td class="risk">')
        initial = row.initial
        if initial:
            out.append(
                f'<span class="level level-{_v(initial.level)}" title="'
                f"{_v(initial.severity)} {_v(initial.frequency)} "
                f'{_v(initial.avoidance)}">PLr {_v(initial.plr)}</span>'
                f'<div class="muted small">{_v(h.severity)} {_v(h.frequency)} '
                f"{_v(h.avoidance)}"
            )
            if h.low_probability:
                out.append(f" · {w['low']}")
            out.append("</div>")
            if initial.plr_low_probability:
                lowered = self.lowered % {"plr": _v(initial.plr_low_probability)}
                out.append(f'<div class="small" title="{w["lower"]}">{lowered}</div>')
        else:
            out.append(f'<span class="level level-none">{w["none"]}</span>')
        out.append('</td>\n  <td class="measures">\n    ')
        for m, failure in row.measure_rows:
            out.append(self._measure(m, failure) + "\n    ")
        if not row.measure_rows:
            out.append(f'<span class="muted small">{w["none_yet"]}</span>')
        out.append("\n    ")
        if self.editable:
            add = self.links["measure_add"](pk)
            out.append(
                f'<a class="small" href="{add}" hx-get="{add}" hx-target="#register" '
                f'hx-swap="outerHTML">+ {w["measure"]}</a>'
            )
        out.append('\n  </td>\n  <td class="risk">')
        residual = row.residual
        if residual:
            out.append(
                f'<span class="level level-{_v(residual.level)}">'
                f"{self._t(residual.label)} · PLr {_v(residual.plr)}</span>"
            )
        else:
            out.append(f'<span class="level level-none">{w["none"]}</span>')
        out.append('</td>\n  <td class="accept">')
        if row.acceptability.acceptable:
            out.append(f'<span class="ok" title="{w["acceptable"]}">✓</span>')
        else:
            reasons = "".join(
                f"<li>{_v(r.render(self._gettext))}</li>"
                for r in row.acceptability.reasons
            )
            out.append(
                f'<span class="not-ok">✗</span><ul class="reasons small">{reasons}</ul>'
            )
        out.append('</td>\n  <td class="row-actions">')
        if self.editable:
            edit = self.links["hazard_edit"](pk)
            delete = self.links["hazard_delete"](pk)
            out.append(
                f'\n    <a href="{edit}" hx-get="{edit}" hx-target="#hazard-{pk}" '
                f'hx-swap="outerHTML">{w["edit"]}</a>\n'
                f'    <form class="inline" method="post" action="{delete}" '
                f'hx-post="{delete}" hx-target="#register" hx-swap="outerHTML" '
                f'hx-confirm="{w["delete_hazard"]}"><input type="hidden" '
                f'name="csrfmiddlewaretoken" value="{self.token}"><button '
                f'type="submit" class="link-button danger-text">{w["delete"]}'
                "</button></form>"
            )
        out.append("</td>\n</tr>\n\n")
        return "".join(out)

    def _measure(self, m, failure) -> str:
        w = self.words
        classes = (" pl-short" if m.pl_below_plr else "") + (
            " ineffective" if failure else ""
        )
        out = [
            f'<div class="measure{classes}" id="measure-{m.pk}"><span class="step">'
            f"{_v(self._display(m, 'step')[:2])}</span> {_v(m.description)}"
        ]
        if m.linked_label:
            out.append(f' <span class="muted">({_v(m.linked_label)})</span>')
        if m.is_safety_function:
            out.append(
                f' <span class="small">PLr {_v(m.plr_required or "?")} / '
                f"PL {_v(m.pl_claimed or '?')}</span>"
            )
        out.append("\n      ")
        if failure:
            said = self.ineffective % {"rule": _v(failure.rule_id)}
            out.append(
                f'<div class="small not-ok" data-ineffective="{_v(failure.key)}">'
                f'{said} <span class="muted">{_v(failure.message)}</span></div>'
            )
        out.append("\n      ")
        if self.editable:
            edit = self.links["measure_edit"](m.pk)
            delete = self.links["measure_delete"](m.pk)
            hidden = f'<span class="visually-hidden"> {_v(m.description)}</span>'
            out.append(
                f'<span class="measure-actions small"><a href="{edit}" '
                f'hx-get="{edit}" hx-target="#measure-{m.pk}" hx-swap="outerHTML">'
                f'{w["edit"]}{hidden}</a> <a class="danger-text" href="{delete}" '
                f'hx-get="{delete}" hx-target="#measure-{m.pk}" hx-swap="outerHTML">'
                f"{w['delete']}{hidden}</a></span>"
            )
        out.append("</div>")
        return "".join(out)
