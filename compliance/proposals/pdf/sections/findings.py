"""The compliance findings, fails first. A function from the ``Kit`` to the
flowables the section adds after its heading."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Spacer,
)

from compliance.documents import theme
from compliance.documents.flowables import Para, markup
from compliance.documents.theme import BOLD, REGULAR
from compliance.proposals.pdf.data import (
    FindingRow,
)
from compliance.proposals.pdf.kit import Kit


def findings(p: Kit) -> list[Flowable]:
    findings = p.data.findings
    if not findings:
        return [p.para(_("No findings: nothing was checked for this cell."))]
    counts = {key: 0 for key in p.statuses}
    for finding in findings:
        counts[finding.status] += 1
    summary = _(
        "%(total)s findings: %(pass)s pass, %(fail)s fail, %(warning)s with a "
        "warning, %(needs)s need evidence."
    ) % {
        "total": len(findings),
        "pass": counts["pass"],
        "fail": counts["fail"],
        "warning": counts["warning"],
        "needs": counts["needs_evidence"],
    }
    # In full: what is open (fails, warnings, needs evidence). The passes as
    # the SA chose: summarised a line per rule (their citations once, not
    # once a subject), in full, or only counted.
    open_findings = [f for f in findings if f.status != "pass"]
    passed = [f for f in findings if f.status == "pass"]
    passes: dict[str, list] = {}
    for f in passed:
        passes.setdefault(f.rule_id, []).append(f)
    story: list[Flowable] = [p.para(summary), Spacer(1, 4 * mm)]
    if open_findings:
        story.append(_findings_table(p, open_findings))
    shown = p.data.passes_shown
    if passed and shown == "full":
        story += [
            Spacer(1, 4 * mm),
            Para(f"<b>{markup(_('Checks passed'))}</b>", p.styles["body"]),
            _findings_table(p, passed),
        ]
    elif passed and shown == "omitted":
        story += [
            Spacer(1, 3 * mm),
            p.para(
                ngettext(
                    "%(count)s check passed; it is not listed here.",
                    "%(count)s checks passed; they are not listed here.",
                    len(passed),
                )
                % {"count": theme.number(len(passed))},
                "small",
            ),
        ]
    elif passes:
        passed_title = _("Checks passed")
        pass_widths = [59 * mm, 16 * mm, 91 * mm]
        pass_rows = [
            [
                p.rich(
                    [
                        (rule_id, BOLD, theme.INK),
                        (group[0].citation, REGULAR, theme.INK),
                    ],
                    pass_widths[0],
                ),
                theme.number(len(group)),
                ", ".join(dict.fromkeys(f.subject or "—" for f in group)),
            ]
            for rule_id, group in passes.items()
        ]
        story += [
            Spacer(1, 4 * mm),
            Para(f"<b>{markup(passed_title)}</b>", p.styles["body"]),
            p.table(
                [_("Rule and citation"), _("Passed"), _("Subjects")],
                pass_rows,
                pass_widths,
            ),
        ]
    return story


def _findings_table(p: Kit, findings: list[FindingRow]) -> Flowable:
    """Findings in full: status, rule, subject, message and figures."""
    widths = [19 * mm, 40 * mm, 16 * mm, 50 * mm, 41 * mm]
    rows = [
        [
            p.statuses[f.status],
            p.rich(
                [
                    (f.rule_id, BOLD, theme.INK),
                    (f.citation, REGULAR, theme.INK),
                    (f.certainty, REGULAR, theme.MUTED),
                ],
                widths[1],
            ),
            f.subject or "—",
            f.message,
            "\n".join(f.numbers) or "—",
        ]
        for f in findings
    ]
    return p.table(
        [
            _("Status"),
            _("Rule, citation and certainty"),
            _("Subject"),
            _("Finding"),
            _("Figures compared"),
        ],
        rows,
        widths,
        extra=p.status_style([f.status for f in findings], 0),
    )
