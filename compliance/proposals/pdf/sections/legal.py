"""What the law requires, on one page at the front (issue 30): each duty of
the cell's jurisdiction once, with its citation, whether this design meets
it, what is missing and who closes it, and what closing it costs and takes.
A function from the ``Kit`` to the flowables the section adds."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from compliance.documents import theme
from compliance.documents.flowables import Para, markup
from compliance.proposals.pdf.data import LegalDuty
from compliance.proposals.pdf.kit import Kit

STATUS_COLOURS = {
    "met": theme.STATUS_COLOURS["pass"],
    "missing": theme.STATUS_COLOURS["fail"],
    "open": theme.STATUS_COLOURS["needs_evidence"],
    "later": theme.MUTED,
}


def legal(p: Kit) -> list[Flowable]:
    section = p.data.legal
    assert section is not None  # ProposalData refuses the section without it
    counts = _(
        "%(missing)s missing, %(open)s open points. Each open point names who "
        "closes it; the cost and weeks are those of the plan's activity that "
        "closes it."
    ) % {"missing": section.missing, "open": section.open}
    widths = [62 * mm, 20 * mm, 58 * mm, 34 * mm]
    rows = [_row(p, duty) for duty in section.duties]
    return [
        p.para(section.title, "h2"),
        p.para(counts, "small"),
        Spacer(1, 2 * mm),
        p.table(
            [
                _("What the law requires"),
                _("Status"),
                _("This design"),
                _("Cost and lead time"),
            ],
            rows,
            widths,
            extra=[("VALIGN", (0, 0), (-1, -1), "TOP")],
        ),
        *_cited(p, section.cited),
    ]


def _cited(p: Kit, cited: tuple[str, ...]) -> list[Flowable]:
    if not cited:
        return []
    text = _("Laws and standards cited: %(list)s.") % {"list": "; ".join(cited)}
    return [Spacer(1, 2 * mm), p.para(text, "small")]


def _row(p: Kit, duty: LegalDuty) -> list:
    small = p.styles["small"]
    body = p.styles["cell"]
    requirement = [Para(markup(duty.requirement), body)]
    if duty.citation:
        requirement.append(Para(markup(duty.citation), small))
    if duty.note:
        requirement.append(Para(markup(duty.note), small))
    design: list[Flowable] = []
    if duty.covered:
        design.append(Para(markup(_("Carried out by the lines below.")), small))
    if duty.status == "met" and not duty.met:
        design.append(Para(markup(_("Met by this design.")), small))
    if duty.met:
        text = _("Met by: %(subjects)s") % {"subjects": duty.met}
        design.append(Para(markup(text), small))
    for gap in duty.gaps:
        text = markup(gap.text)
        if gap.subject:
            text = f"<b>{markup(gap.subject)}</b>: {text}"
        if gap.closed_by:
            who = _("Closed by %(who)s.") % {"who": gap.closed_by}
            text = f"{text} {markup(who)}"
        design.append(Para(text, small, bulletText="•"))
    if duty.more:
        text = ngettext(
            "and %(n)s more of the same kind",
            "and %(n)s more of the same kind",
            duty.more,
        ) % {"n": duty.more}
        design.append(Para(markup(text), small))
    if duty.status == "later":
        text = _("Not part of the PoC: %(who)s.") % {"who": duty.closed_by}
        design.append(Para(markup(text), small))
    coloured = ParagraphStyle(
        f"duty-{duty.status}", parent=body, textColor=STATUS_COLOURS[duty.status]
    )
    status = Para(f"<b>{markup(duty.status_label)}</b>", coloured)
    return [
        requirement,
        status,
        design or "—",
        Para(markup(duty.cost), small) if duty.cost else "—",
    ]
