"""The Costs tab's one place about exchange rates: which rates the totals
are missing today. A tag, so that the tab's view is left as it is: it reads
the rates the converted total already read (``project_rates`` keeps them on
the project for the day), so it adds no query."""

from __future__ import annotations

from django import template

from compliance.costs.rates import conversion_rates

register = template.Library()


@register.simple_tag
def missing_rates(project, totals) -> list[str]:
    """The currencies without a rate today that the totals (the page's
    per-currency sums) need to be converted to the project's currency."""
    codes = {t["currency"] for t in totals if t.get("currency")}
    return conversion_rates(project, codes).missing_for(codes, project.currency)
