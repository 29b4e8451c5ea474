"""The risk-assessment report as a PDF: ``build_report_pdf(data) -> bytes``.

Pure: reads only the ``ReportData`` it is given (of Django only its
translation of the fixed labels). It stands on the house's document kit
(``compliance.documents``: the bundled Nanum Gothic, the colours, the A4
page, the table and paragraph helpers of ``DocumentKit``), as the proposal
does; neither report imports the other. A cover, the limits of the machine,
the hazard register, the measures by the three steps, residual risk and
acceptance, the declaration and the integrity check; "Page N of M" in the
footer. A revision that is not signed is marked "DRAFT — not signed" on
every page.

The page view builds in the request, so builds are taken one at a time in a
process (reportlab is not thread-safe, STYLE.md).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import override
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
)
from reportlab.platypus.flowables import HRFlowable

from compliance.assessment.report.data import STEPS, HazardRow, ReportData
from compliance.calculators.base import gettext_noop
from compliance.documents import theme
from compliance.documents.flowables import markup
from compliance.documents.fonts import register_fonts
from compliance.documents.kit import DocumentKit
from compliance.documents.page import a4_document, body_frame, fit_line
from compliance.documents.theme import (
    BOLD,
    CONTENT_WIDTH,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    REGULAR,
    long_date,
)

__all__ = ["build_report_pdf", "long_date"]

RUNNING_SIZE = 7.5
_build_lock = threading.Lock()


def _f(message: str, values: dict[str, Any]) -> str:
    """``message`` translated and filled in; the English message when a
    translation names other placeholders than the message (a stale entry of
    the catalogue must not stop a report from printing)."""
    try:
        return _(message) % values
    except (KeyError, ValueError, TypeError):
        return message % values


def build_report_pdf(data: ReportData) -> bytes:
    """The report as PDF bytes; the same data always gives the same bytes."""
    register_fonts()
    with _build_lock, override(data.language):
        return ReportBuilder(data).build()


def step_labels() -> dict[str, str]:
    return {
        "inherently_safe_design": _("1. Inherently safe design"),
        "safeguarding": _("2. Safeguarding and complementary measures"),
        "information_for_use": _("3. Information for use"),
    }


class ReportBuilder(DocumentKit):
    """One report being built: the house's document kit with this report's
    data and layout."""

    def __init__(self, data: ReportData) -> None:
        super().__init__()
        self.data = data

    def build(self) -> bytes:
        meta = self.data.meta
        buffer = io.BytesIO()
        frame = body_frame()
        doc = a4_document(
            buffer,
            title=self._title_line(),
            author=meta.organisation,
            subject=meta.cell,
            language=self.data.language,
        )
        doc.addPageTemplates(
            [PageTemplate("body", [frame], onPage=self._page, onPageEnd=self._end)]
        )
        story: list[Flowable] = [
            *self._cover(),
            PageBreak(),
            *self._limits(),
            PageBreak(),
            *self._register(),
            *self._measures(),
            *self._residual(),
            *self._declaration(),
            *self._integrity(),
        ]
        doc.build(story, canvasmaker=self._canvas_maker())
        return buffer.getvalue()

    # --- running marks -----------------------------------------------------------

    def _title_line(self) -> str:
        revision = _f(
            gettext_noop("Revision %(number)s"), {"number": self.data.meta.revision}
        )
        return f"{_('Risk assessment')} · {revision}"

    def _draft_line(self) -> str:
        return _("DRAFT — not signed")

    def _canvas_maker(self) -> Callable[..., Canvas]:
        stamp = f"D:{self.data.meta.printed_on:%Y%m%d}000000+00'00'"

        def page_label(page: int, total: int) -> str:
            return _f(
                gettext_noop("Page %(page)s of %(total)s"),
                {"page": page, "total": total},
            )

        right = PAGE_WIDTH - theme.PAGE_MARGIN_X

        class ReportCanvas(Canvas):
            def __init__(self, *args: Any, **kwargs: Any):
                super().__init__(*args, **kwargs)
                self.setDateFormatter(lambda *_parts: stamp)

            def save(self) -> None:
                total = self.getPageNumber() - 1
                for page in range(1, total + 1):
                    self.beginForm(f"cspReportPage{page}")
                    self.setFont(REGULAR, RUNNING_SIZE)
                    self.setFillColor(theme.MUTED)
                    text = page_label(page, total)
                    self.drawRightString(right, 12 * mm, text)
                    self.endForm()
                super().save()

        return ReportCanvas

    def _page(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        meta = self.data.meta
        top = PAGE_HEIGHT - 15 * mm
        canvas.saveState()
        canvas.setFillColor(theme.ACCENT)
        canvas.rect(0, PAGE_HEIGHT - 6 * mm, PAGE_WIDTH, 6 * mm, stroke=0, fill=1)
        left = self._title_line()
        left_width = min(stringWidth(left, BOLD, RUNNING_SIZE), CONTENT_WIDTH * 0.5)
        canvas.setFont(BOLD, RUNNING_SIZE)
        canvas.drawString(
            theme.PAGE_MARGIN_X, top, fit_line(left, left_width, BOLD, RUNNING_SIZE)
        )
        canvas.setFont(REGULAR, RUNNING_SIZE)
        canvas.setFillColor(theme.MUTED)
        canvas.drawRightString(
            PAGE_WIDTH - theme.PAGE_MARGIN_X,
            top,
            fit_line(
                f"{meta.organisation} · {meta.cell}",
                CONTENT_WIDTH - left_width - 6 * mm,
                REGULAR,
                RUNNING_SIZE,
            ),
        )
        canvas.setStrokeColor(theme.RULE)
        canvas.setLineWidth(0.5)
        canvas.line(
            theme.PAGE_MARGIN_X,
            top - 3 * mm,
            PAGE_WIDTH - theme.PAGE_MARGIN_X,
            top - 3 * mm,
        )
        if not self.data.signed:
            # On every page, where a reader of any one page sees it.
            canvas.setFillColor(theme.CRITICAL)
            canvas.setFont(BOLD, 9)
            canvas.drawCentredString(PAGE_WIDTH / 2, top - 8 * mm, self._draft_line())
        canvas.restoreState()

    def _end(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        meta = self.data.meta
        canvas.saveState()
        if not self.data.signed:
            canvas.saveState()
            canvas.setFillColor(theme.CRITICAL)
            canvas.setFillAlpha(0.08)
            canvas.setFont(BOLD, 96)
            canvas.translate(PAGE_WIDTH / 2, PAGE_HEIGHT / 2)
            canvas.rotate(52)
            canvas.drawCentredString(0, -34, _("DRAFT"))
            canvas.restoreState()
            canvas.setFillColor(theme.CRITICAL)
            canvas.setFont(BOLD, RUNNING_SIZE)
            canvas.drawCentredString(PAGE_WIDTH / 2, 12 * mm, self._draft_line())
        canvas.setFont(REGULAR, RUNNING_SIZE)
        canvas.setFillColor(theme.MUTED)
        printed = _f(
            gettext_noop("Printed %(date)s"),
            {"date": long_date(meta.printed_on, self.data.language)},
        )
        canvas.drawString(theme.PAGE_MARGIN_X, 12 * mm, printed)
        canvas.doForm(f"cspReportPage{canvas.getPageNumber()}")
        canvas.restoreState()

    # --- helpers ------------------------------------------------------------------

    def _heading(self, text: str) -> list[Flowable]:
        return [
            self.para(text, "h1"),
            HRFlowable(
                width="100%",
                thickness=0.8,
                color=theme.ACCENT,
                spaceBefore=2,
                spaceAfter=8,
            ),
        ]

    def _draft_panel(self) -> Flowable:
        return self.panel(
            [
                Paragraph(
                    f"<b>{markup(self._draft_line())}</b> · "
                    + markup(
                        _f(
                            gettext_noop(
                                "Revision %(number)s has not been signed. This register "
                                "may still change; it is not a signed risk assessment."
                            ),
                            {"number": self.data.meta.revision},
                        )
                    ),
                    self.styles["banner"],
                )
            ],
            border=theme.CRITICAL,
        )

    # --- the sections -------------------------------------------------------------

    def _cover(self) -> list[Flowable]:
        meta, language = self.data.meta, self.data.language
        facts = [
            (_("Organisation"), meta.organisation),
            (_("Project"), meta.project),
            (_("Cell"), meta.cell),
            (_("Revision"), str(meta.revision)),
            (_("Status"), meta.status_label),
        ]
        if self.data.signed:
            facts += [
                (_("Signed by"), meta.signer_name or "—"),
                (_("Role"), meta.signer_role or "—"),
                (
                    _("Signed on"),
                    long_date(meta.signed_on, language) if meta.signed_on else "—",
                ),
            ]
        facts.append((_("Printed on"), long_date(meta.printed_on, language)))
        if self.data.signed:
            kicker = _("Signed risk assessment (ISO 12100)")
        else:
            kicker = _("Risk assessment (ISO 12100) — draft, not signed")
        story: list[Flowable] = [
            Spacer(1, 10 * mm),
            self.para(meta.organisation, "kicker"),
            Spacer(1, 26 * mm),
            self.para(kicker, "kicker"),
            Spacer(1, 3 * mm),
            self.para(meta.cell, "cover_title"),
            self.para(
                _f(
                    gettext_noop("Revision %(number)s · %(status)s"),
                    {"number": meta.revision, "status": meta.status_label},
                ),
                "cover_sub",
            ),
            Spacer(1, 12 * mm),
            self.key_values(facts),
            Spacer(1, 10 * mm),
        ]
        if not self.data.signed:
            story.append(self._draft_panel())
        story.append(Spacer(1, 8 * mm))
        story.append(
            self.para(
                _(
                    "This report records the risk assessment of the cell. It does "
                    "not certify the cell as safe: the cell must be validated on "
                    "site, by competent people, before it is used."
                ),
                "cover_note",
            )
        )
        return story

    def _limits(self) -> list[Flowable]:
        return [
            *self._heading(_("Limits of the machine (ISO 12100:2010, 5.3)")),
            self.key_values(
                [(limit.label, limit.text or "—") for limit in self.data.limits]
            ),
        ]

    def _register(self) -> list[Flowable]:
        story = self._heading(_("Hazard register"))
        hazards = self.data.hazards
        if not hazards:
            return [*story, self.para(_("No hazards are recorded."))]
        widths = [w * mm for w in (7, 22, 28, 19, 30, 20, 14, 9, 17)]
        rows = [
            [
                str(h.number),
                h.group,
                h.hazard,
                h.phase,
                h.task,
                h.place or "—",
                h.sfp,
                h.plr or "—",
                h.level or "—",
            ]
            for h in hazards
        ]
        story.append(
            self.table(
                [
                    "#",
                    _("Hazard group"),
                    _("Hazard"),
                    _("Phase"),
                    _("Task"),
                    _("Place"),
                    _("S F P"),
                    _("PLr"),
                    _("Initial risk"),
                ],
                rows,
                widths,
                extra=[("ALIGN", (7, 1), (7, -1), "CENTER")],
            )
        )
        story.append(Spacer(1, 2 * mm))
        story.append(
            self.para(
                _(
                    "S: severity, F: frequency and duration of exposure, P: "
                    "possibility of avoidance (ISO 13849-1:2023 risk graph). The PLr "
                    "is read from the risk graph; the risk level is this product's "
                    "presentation of the PLr, not a figure of a standard."
                ),
                "small",
            )
        )
        return story

    def _hazard_title(self, hazard: HazardRow) -> str:
        return _f(
            gettext_noop("Hazard %(number)s: %(task)s"),
            {"number": hazard.number, "task": hazard.task},
        )

    def _measures(self) -> list[Flowable]:
        story = [Spacer(1, 6 * mm)]
        story += self._heading(_("Risk reduction by the three-step method"))
        story.append(
            self.para(
                _(
                    "Measures grouped by the steps of ISO 12100:2010, 6.1: "
                    "inherently safe design first, then safeguarding and "
                    "complementary measures, then information for use."
                ),
                "small",
            )
        )
        labels = step_labels()
        for hazard in self.data.hazards:
            block: list[Flowable] = [self.para(self._hazard_title(hazard), "h3")]
            if hazard.description:
                block.append(self.para(hazard.description, "small"))
            if not hazard.measures:
                block.append(self.para(_("No measure is recorded."), "small"))
            for step in STEPS:
                measures = [m for m in hazard.measures if m.step == step]
                if not measures:
                    continue
                block.append(
                    Paragraph(f"<b>{markup(labels[step])}</b>", self.styles["body"])
                )
                items = []
                for m in measures:
                    text = m.description
                    if m.linked:
                        text += " — " + _f(
                            gettext_noop("Relies on %(linked)s"), {"linked": m.linked}
                        )
                    if m.safety_function:
                        text += f" ({m.safety_function})"
                    if m.ineffective:
                        text += " · " + m.ineffective
                    items.append(text)
                block.extend(self.bullets(items))
            story.append(KeepTogether(block))
        return story

    def _residual(self) -> list[Flowable]:
        story = [Spacer(1, 6 * mm)]
        story += self._heading(_("Residual risk and acceptance"))
        hazards = self.data.hazards
        if not hazards:
            return [*story, self.para(_("No hazards are recorded."))]
        accepted = sum(1 for h in hazards if h.acceptable)
        story.append(
            self.para(
                _f(
                    gettext_noop(
                        "%(accepted)s of %(total)s hazards have an acceptable residual risk."
                    ),
                    {"accepted": accepted, "total": len(hazards)},
                )
            )
        )
        widths = [w * mm for w in (7, 34, 17, 17, 18, 73)]
        rows = []
        for h in hazards:
            verdict = _("Acceptable") if h.acceptable else _("Not acceptable")
            rows.append(
                [
                    str(h.number),
                    h.task,
                    h.residual_sfp,
                    h.residual_plr or "—",
                    h.residual_level or "—",
                    self.rich(
                        [(verdict, BOLD, theme.INK if h.acceptable else theme.CRITICAL)]
                        + [(f"• {r}", REGULAR, theme.INK) for r in h.reasons],
                        widths[5],
                    ),
                ]
            )
        story.append(
            self.table(
                [
                    "#",
                    _("Task"),
                    _("Residual S F P"),
                    _("Residual PLr"),
                    _("Residual risk"),
                    _("Acceptance"),
                ],
                rows,
                widths,
                extra=[("ALIGN", (3, 1), (3, -1), "CENTER")],
            )
        )
        story.append(Spacer(1, 2 * mm))
        story.append(
            self.para(
                _(
                    "Acceptance is judged with the cell's compliance checks as they "
                    "stand on the day of printing; the signer's declaration lists "
                    "the findings open at signing."
                ),
                "small",
            )
        )
        if self.data.acceptance_basis:
            story.append(self.para(self.data.acceptance_basis, "small"))
        return story

    def _declaration(self) -> list[Flowable]:
        story = [Spacer(1, 6 * mm)]
        story += self._heading(_("The signer's declaration"))
        declaration = self.data.declaration
        if not self.data.signed:
            return [*story, self._draft_panel()]
        if declaration is None:
            return [
                *story,
                self.para(
                    _(
                        "This revision was signed before declarations were "
                        "recorded: it has none."
                    )
                ),
            ]
        moment = declaration.signed_at
        story += [
            self.para(
                _f(
                    gettext_noop("%(name)s declared on %(date)s at %(time)s %(zone)s:"),
                    {
                        "name": declaration.signer,
                        "date": long_date(moment.date(), self.data.language),
                        "time": f"{moment:%H:%M}",
                        "zone": moment.tzname() or "UTC",
                    },
                )
            ),
            self.panel([self.para(f"“{declaration.statement}”")]),
        ]
        if declaration.safety_configuration:
            story.append(
                self.para(
                    _f(
                        gettext_noop(
                            "Robot safety configuration assessed and frozen with "
                            "the signature: %(config)s"
                        ),
                        {"config": declaration.safety_configuration},
                    )
                )
            )
        story += [self.para(line, "small") for line in declaration.computed_under]
        fails = [f for f in declaration.findings if f.status == "fail"]
        evidence = [f for f in declaration.findings if f.status == "needs_evidence"]
        widths = [37 * mm, 25 * mm, 56 * mm, 48 * mm]
        if fails:
            story += [
                Spacer(1, 2 * mm),
                self.para(
                    _("Failing findings accepted at signing, with the reasons given:"),
                    "h3",
                ),
                self.table(
                    [_("Rule"), _("Subject"), _("Finding"), _("Reason accepted")],
                    [[f.rule_id, f.subject or "—", f.message, f.reason] for f in fails],
                    widths,
                ),
            ]
        else:
            story.append(self.para(_("No failing finding was open at signing.")))
        if evidence:
            story += [
                Spacer(1, 2 * mm),
                self.para(_("Findings that needed evidence at signing:"), "h3"),
                self.table(
                    [_("Rule"), _("Subject"), _("Finding"), _("Reason accepted")],
                    [
                        [f.rule_id, f.subject or "—", f.message, f.reason or "—"]
                        for f in evidence
                    ],
                    widths,
                ),
            ]
        return story

    def _integrity(self) -> list[Flowable]:
        story = [Spacer(1, 6 * mm)]
        story += self._heading(_("Integrity check"))
        check = self.data.integrity
        if check is None:
            return [
                *story,
                self.para(
                    _(
                        "Not signed: this revision has no content hash and no seal "
                        "to verify."
                    )
                ),
            ]
        if check.verifies:
            verdict = _("The seal verifies: the revision is as it was signed.")
            border = None
        else:
            verdict = _(
                "The seal does not verify: this revision has been changed since "
                "it was signed, or was sealed without the server's key. Do not "
                "rely on it."
            )
            border = theme.CRITICAL
        story += [
            self.key_values([(_("Content hash (SHA-256)"), check.content_hash)]),
            Spacer(1, 3 * mm),
            self.panel(
                [Paragraph(f"<b>{markup(verdict)}</b>", self.styles["body"])],
                border=border,
            ),
            Spacer(1, 2 * mm),
            self.para(
                _(
                    "Checked when this report was printed: the content of the "
                    "revision hashed again and its seal checked under the "
                    "server's key."
                ),
                "small",
            ),
        ]
        return story
