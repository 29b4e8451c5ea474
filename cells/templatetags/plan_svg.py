"""``{% layout_svg %}``: the plan of the cell in the context, as inline SVG
written by ``cells.drawing_svg`` (escaped there)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from cells.drawing_svg import render_svg

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

    cell = values["cell"]
    return mark_safe(
        render_svg(
            values["drawing"],
            name=cell.name,
            title_id=f"layout-title-{cell.pk}",
            words=views.svg_words(),
            selected_key=values["selected_key"] or "",
            image=values["underlay_image"],
        )
    )
