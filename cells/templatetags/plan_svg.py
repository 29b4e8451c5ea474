"""``{% layout_svg %}``: the plan of the cell in the context, as inline SVG
written by the template ``cells/partials/plan_svg.html`` (``views.plan_svg``)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def layout_svg(context, **overrides) -> SafeString:
    """The plan of ``cell`` as ``drawing`` draws it, with ``selected_key``
    highlighted and ``underlay_image`` under it (each from the context, or
    given)."""
    values = {
        name: overrides.get(name, context.get(name))
        for name in ("drawing", "cell", "selected_key", "underlay_image")
    }
    from cells import views

    return views.plan_svg(
        values["drawing"],
        values["cell"],
        selected_key=values["selected_key"] or "",
        image=values["underlay_image"],
    )
