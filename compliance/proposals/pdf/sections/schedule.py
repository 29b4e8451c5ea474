"""The schedule: physical first beside simulation first. A function from the
``Kit`` to the flowables the section adds after its heading."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    Spacer,
)

from compliance.documents.theme import CONTENT_WIDTH
from compliance.proposals.pdf import charts
from compliance.proposals.pdf.kit import Kit


def schedule(p: Kit) -> list[Flowable]:
    schedule = p.data.schedule
    assert schedule is not None
    plans = (schedule.physical_first, schedule.sim_first)
    weeks_max = max(plan.total_weeks.high for plan in plans)
    story: list[Flowable] = []
    for index, plan in enumerate(plans):
        title = f"{plan.name} · " + _("%(weeks)s to PoC start") % {
            "weeks": p.weeks(plan.total_weeks)
        }
        story.append(
            KeepTogether(
                [
                    p.para(title, "h2" if index == 0 else "h3"),
                    charts.timeline_figure(plan, weeks_max, CONTENT_WIDTH),
                ]
            )
        )
    story += [
        Spacer(1, 2 * mm),
        charts.legend(
            [
                ("low", _("Shortest durations")),
                ("high", _("Longest durations")),
                ("critical", _("Critical path")),
                ("assumption", _("Assumed duration, to be confirmed with you")),
                ("milestone", _("Milestone")),
            ],
            CONTENT_WIDTH,
        ),
        p.para(
            _(
                "Each activity shows its earliest start and finish with the "
                "shortest durations (upper bar) and with the longest (lower "
                "bar); the figures at the right are the finishing weeks."
            ),
            "small",
        ),
    ]
    if schedule.comparison:
        widths = [56 * mm, 55 * mm, 55 * mm]
        story += [
            p.para(_("Comparison"), "h2"),
            p.table(
                [_("Criterion"), plans[0].name, plans[1].name],
                [
                    [row.metric, row.physical_first, row.sim_first]
                    for row in schedule.comparison
                ],
                widths,
            ),
            Spacer(1, 2 * mm),
            *p.bullets(schedule.verdict),
        ]
    currency = p.data.costs.currency if p.data.costs else None
    cost_chart = charts.cost_figure(plans, CONTENT_WIDTH, currency or "")
    cost_story: list[Flowable] = [p.para(_("Cost of each plan"), "h2")]
    if cost_chart is not None:
        cost_story.append(cost_chart)
    for plan in plans:
        if plan.unpriced_activities:
            cost_story.append(
                p.para(
                    _("%(plan)s: %(items)s, not in the bar.")
                    % {
                        "plan": plan.name,
                        "items": p.items_to_quote(plan.unpriced_activities),
                    },
                    "small",
                )
            )
        # The ranges the bar cannot hold, in their own currencies.
        apart = [p.money(cost) for cost in plan.other_costs]
        if apart:
            cost_story.append(
                p.para(
                    _("%(plan)s: guarding and devices %(cost)s, not in the bar.")
                    % {"plan": plan.name, "cost": " + ".join(apart)},
                    "small",
                )
            )
        for row in plan.not_converted:  # data stored before issue 29
            cost_story.append(
                p.para(
                    _("%(plan)s: %(activity)s, %(cost)s, not in the bar.")
                    % {"plan": plan.name, "activity": row.label, "cost": row.value},
                    "small",
                )
            )
    if schedule.rates:
        cost_story.append(p.para(p.rates_used(schedule.rates), "small"))
    story.append(KeepTogether(cost_story))
    if schedule.maturity_note:
        story += [
            p.para(_("How well the task transfers from simulation"), "h2"),
            p.para(schedule.maturity_note),
        ]
    # Empty lists are left out, heading and all.
    for title, items in (
        (_("Assumptions of the plans"), schedule.assumptions),
        (_("What simulation cannot prove"), schedule.cannot_prove),
    ):
        if items:
            story += [p.para(title, "h2"), *p.bullets(items)]
    return story
