"""The standards and law that apply, rule by rule. A function from the ``Kit`` to
the flowables the section adds after its heading."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Spacer,
)

from compliance.documents import theme
from compliance.documents.theme import BOLD, REGULAR
from compliance.proposals.pdf.data import (
    RuleRow,
)
from compliance.proposals.pdf.kit import Kit


def rules(p: Kit) -> list[Flowable]:
    rules = p.data.rules
    assert rules is not None
    widths = [44 * mm, 76 * mm, 26 * mm, 20 * mm]
    rows = [_rule_cells(p, rule, widths) for rule in rules.rows]
    header = [_("Rule and citation"), _("Requirement"), _("Certainty"), _("Checked")]
    story: list[Flowable] = [p.panel([p.para(rules.note)]), Spacer(1, 3 * mm)]
    story += [p.para(line, "small") for line in rules.computed_under]
    story.append(Spacer(1, 3 * mm))
    if rows:
        story.append(p.table(header, rows, widths))
    if rules.others:
        # Every rule shown, as the SA chose: those with nothing to check here
        # apart, after the ones that apply.
        story += [
            p.para(_("Rules with nothing in this cell to check"), "h2"),
            p.table(
                header, [_rule_cells(p, rule, widths) for rule in rules.others], widths
            ),
        ]
    if rules.left_out:
        story += [
            Spacer(1, 3 * mm),
            p.para(
                _(
                    "Not applicable to this cell, so not listed: %(rules)s "
                    "(nothing in the cell for them to check)."
                )
                % {"rules": ", ".join(rules.left_out)},
                "small",
            ),
        ]
    return story


def _rule_cells(p: Kit, rule: RuleRow, widths: list[float]) -> list:
    return [
        p.rich(
            [(rule.id, BOLD, theme.INK), (rule.citation, REGULAR, theme.INK)],
            widths[0],
        ),
        rule.text,
        rule.certainty,
        f"{rule.checked_on:%Y-%m-%d}",
    ]
