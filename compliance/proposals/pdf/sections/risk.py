"""The risk assessment's summary and the signer's declaration. A function from the
``Kit`` to the flowables the section adds after its heading."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Spacer,
)

from compliance.documents import theme
from compliance.documents.flowables import DraftMark, Para, markup
from compliance.documents.theme import BOLD
from compliance.proposals.pdf.data import (
    SignatureDeclaration,
)
from compliance.proposals.pdf.kit import Kit


def risk(p: Kit) -> list[Flowable]:
    risk = p.data.risk
    assert risk is not None
    story: list[Flowable] = []
    if risk.signed:
        if risk.signed_by and risk.signed_on:
            line = _(
                "Hazard register of revision %(revision)s, signed by %(name)s on "
                "%(date)s."
            ) % {
                "revision": risk.revision,
                "name": risk.signed_by,
                "date": theme.long_date(risk.signed_on, p.data.language),
            }
        else:
            line = _("Hazard register of revision %(revision)s, signed.") % {
                "revision": risk.revision
            }
        hash_label = _("Content hash (SHA-256)")
        story += [
            p.para(line),
            Para(
                f"{markup(hash_label)}: "
                f"<font name='{BOLD}'>{markup(risk.content_hash or '')}</font>",
                p.styles["small"],
            ),
        ]
        if risk.safety_configuration:
            story.append(
                p.para(
                    _("Robot safety configuration assessed: %(config)s")
                    % {"config": risk.safety_configuration},
                    "small",
                )
            )
        if risk.declaration is not None:
            story += _declaration(p, risk.declaration)
    else:
        story += [
            DraftMark(True),
            p.panel(
                [
                    Para(
                        f"<b>{markup(_('DRAFT'))}</b> · "
                        + markup(
                            _(
                                "Revision %(revision)s has not been signed. This "
                                "register may still change; it is not a signed "
                                "risk assessment."
                            )
                            % {"revision": risk.revision}
                        ),
                        p.styles["banner"],
                    )
                ],
                border=theme.CRITICAL,
            ),
        ]
    story.append(Spacer(1, 5 * mm))
    if risk.hazards:
        widths = [7, 37, 20, 34, 9, 41, 18]
        widths = [w * mm for w in widths]
        rows = [
            [
                str(number),
                hazard.hazard,
                hazard.phase,
                hazard.task,
                (hazard.plr or "—"),
                p.measures(hazard.measures, widths[5]),
                hazard.residual_risk or "—",
            ]
            for number, hazard in enumerate(risk.hazards, start=1)
        ]
        story.append(
            p.table(
                [
                    "#",
                    _("Hazard"),
                    _("Phase"),
                    _("Task"),
                    _("PLr"),
                    _("Measures"),
                    _("Residual risk"),
                ],
                rows,
                widths,
                extra=[("ALIGN", (4, 1), (4, -1), "CENTER")],
            )
        )
    else:
        story.append(p.para(_("No hazards are recorded yet.")))
    if not risk.signed:
        story.append(DraftMark(False))
    return story


def _declaration(p: Kit, declaration: SignatureDeclaration) -> list[Flowable]:
    """The signer's declaration: the statement, who and when, and each failing
    finding accepted with the reason given."""
    story: list[Flowable] = [
        Spacer(1, 3 * mm),
        Para(f"<b>{markup(_('Signature declaration'))}</b>", p.styles["body"]),
        p.para(
            _("%(name)s declared on %(date)s at %(time)s %(zone)s:")
            % {
                "name": declaration.signer,
                "date": theme.long_date(declaration.signed_at.date(), p.data.language),
                "time": f"{declaration.signed_at:%H:%M}",
                "zone": declaration.zone,
            }
        ),
        p.panel([p.para(f"“{declaration.statement}”")]),
    ]
    if declaration.translation:
        story.append(
            p.para(
                _("In this proposal's language: “%(text)s”")
                % {"text": declaration.translation},
                "small",
            )
        )
    if declaration.accepted:
        widths = [36 * mm, 70 * mm, 60 * mm]
        story += [
            Spacer(1, 2 * mm),
            p.para(_("Failing findings accepted at signing, with the reasons given:")),
            p.table(
                [_("Subject"), _("Finding"), _("Reason accepted")],
                [[f.subject or "—", f.message, f.reason] for f in declaration.accepted],
                widths,
            ),
        ]
    else:
        story.append(p.para(_("No failing finding was open at signing.")))
    if declaration.needing_evidence:
        story.append(
            p.para(
                _(
                    "%(count)s findings needed evidence at signing; they are "
                    "listed with the findings."
                )
                % {"count": declaration.needing_evidence},
                "small",
            )
        )
    return story
