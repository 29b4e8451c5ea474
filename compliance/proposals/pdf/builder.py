"""The PoC proposal as a PDF: ``build_proposal_pdf(data) -> bytes``.

Pure: reads only the ``ProposalData`` it is given (no ORM; of Django only its
translation of the fixed labels, from the project's catalogue, under
``override(data.language)``).
Built with reportlab platypus: a cover (with the organisation's logo, name
and address, the author's name and role, and the contents with the page each
section starts on), then the chosen sections, each on a new page and numbered
in order; a running header with the organisation (its logo too), the proposal
number and version; "page N of M" in the footer (both page figures are forms
filled in once the pages are known, so one pass builds the document); tables whose header rows repeat on every
page they run onto. Every string is set in the bundled Nanum Gothic, so every
font is embedded. The output is byte-stable: reportlab's invariant mode, and
the proposal's own date as the PDF's creation date.

reportlab is not thread-safe: build in worker processes (STYLE.md).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import override
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    Image,
    KeepInFrame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
)
from reportlab.platypus.flowables import HRFlowable

from compliance.documents import theme
from compliance.documents.flowables import Heading, PageRef, Para, markup
from compliance.documents.fonts import register_fonts
from compliance.documents.page import a4_document, body_frame, fit_line
from compliance.documents.theme import (
    BOLD,
    CONTENT_WIDTH,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    REGULAR,
)
from compliance.proposals.pdf import sections
from compliance.proposals.pdf.data import (
    ProposalData,
    SectionKey,
)
from compliance.proposals.pdf.kit import Kit

__all__ = ["build_proposal_pdf"]

# The cover's note stands at the foot of the page under a rule; the cover's
# own frame ends above the rule, so no name, however long, reaches the note.
COVER_NOTE_TOP = 26 * mm
COVER_RULE = 30 * mm
COVER_BOTTOM = COVER_RULE + 4 * mm
COVER_HEIGHT = PAGE_HEIGHT - theme.PAGE_MARGIN_TOP - COVER_BOTTOM
HEADER_LOGO_HEIGHT = 6 * mm
COVER_LOGO_HEIGHT = 18 * mm
# The running header and footer: one line each, at this size.
RUNNING_SIZE = 7.5
RUNNING_GAP = 6 * mm


def _height(story: list[Flowable]) -> float:
    return sum(
        f.wrap(CONTENT_WIDTH, COVER_HEIGHT)[1] + f.getSpaceBefore() + f.getSpaceAfter()
        for f in story
    )


def build_proposal_pdf(data: ProposalData) -> bytes:
    """The proposal as PDF bytes; the same data always gives the same bytes."""
    register_fonts()
    with override(data.language):
        return ProposalBuilder(data).build()


class ProposalBuilder(Kit):
    """One PDF being built: a ``Kit`` that also lays out the document."""

    def __init__(self, data: ProposalData):
        super().__init__(data)
        # The page each section starts on, noted as its heading is laid out;
        # the contents show them through forms made when the canvas is saved
        # (as "page N of M"), so one pass builds the whole document.
        self.section_pages: dict[str, int] = {}
        self._logo = _logo(data.meta.logo)

    # --- the document -----------------------------------------------------------

    def build(self) -> bytes:
        data, meta = self.data, self.data.meta
        buffer = io.BytesIO()
        frame = body_frame()
        title = _("Proof-of-concept proposal")
        doc = a4_document(
            buffer,
            title=f"{title} {meta.number} v{meta.version}",
            author=meta.organisation,
            subject=meta.cell_name,
            language=data.language,
        )
        cover = Frame(
            theme.PAGE_MARGIN_X,
            COVER_BOTTOM,
            CONTENT_WIDTH,
            COVER_HEIGHT,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
            id="cover",
        )
        doc.addPageTemplates(
            [
                PageTemplate("cover", [cover], onPage=self._cover_page),
                PageTemplate(
                    "body", [frame], onPage=self._header, onPageEnd=self._page_end
                ),
            ]
        )
        story = self.story()
        found = self.section_pages

        def after(flowable: Flowable) -> None:
            if isinstance(flowable, Heading):
                found.setdefault(flowable._key, doc.page)

        doc.afterFlowable = after  # type: ignore[method-assign]
        doc.build(story, canvasmaker=self._canvas_maker())
        return buffer.getvalue()

    def story(self) -> list[Flowable]:
        """The document's flowables, cover first, a section a page onwards."""
        story: list[Flowable] = [*self._cover(), NextPageTemplate("body")]
        appendix = self.data.appendix
        for number, key in self.data.numbered_sections:
            story.append(PageBreak())
            if appendix and key == appendix[0]:
                story.append(self.para(_("Appendix for the safety engineer"), "kicker"))
            story.extend(self._section_heading(number, key))
            story.extend(sections.BUILDERS[key](self))
        return story

    def _canvas_maker(self) -> Callable[..., Canvas]:
        """A canvas that writes the proposal's date as the creation date and
        fills in "page N of M" once the page count is known: each page draws a
        form named for its number, and the forms are made at save."""
        day = self.data.meta.date
        stamp = f"D:{day:%Y%m%d}000000+00'00'"
        page_label = _("Page %(page)s of %(total)s")
        right = PAGE_WIDTH - theme.PAGE_MARGIN_X
        sections = self.section_pages

        class ProposalCanvas(Canvas):
            def __init__(self, *args: Any, **kwargs: Any):
                super().__init__(*args, **kwargs)
                self.setDateFormatter(lambda *_parts: stamp)
                self._csp_draft = False
                self._csp_draft_on_page = False

            def save(self) -> None:
                total = self.getPageNumber() - 1
                for page in range(1, total + 1):
                    self.beginForm(f"cspPage{page}")
                    self.setFont(REGULAR, RUNNING_SIZE)
                    self.setFillColor(theme.MUTED)
                    text = page_label % {"page": page, "total": total}
                    self.drawRightString(right, 12 * mm, text)
                    self.endForm()
                for key, page in sections.items():
                    self.beginForm(f"cspToc-{key}")
                    self.setFont(REGULAR, 9.2)
                    self.setFillColor(theme.INK)
                    self.drawRightString(PageRef.WIDTH, PageRef.BASELINE, str(page))
                    self.endForm()
                super().save()

        return ProposalCanvas

    def _cover_page(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFillColor(theme.ACCENT)
        canvas.rect(0, PAGE_HEIGHT - 9 * mm, PAGE_WIDTH, 9 * mm, stroke=0, fill=1)
        canvas.setStrokeColor(theme.RULE)
        canvas.setLineWidth(0.5)
        canvas.line(
            theme.PAGE_MARGIN_X,
            COVER_RULE,
            PAGE_WIDTH - theme.PAGE_MARGIN_X,
            COVER_RULE,
        )
        note = Para(
            _(
                "This proposal prepares the safety work for a proof of concept. It "
                "does not certify the cell as safe: the cell must be validated on "
                "site, by competent people, before it is used."
            ),
            self.styles["cover_note"],
        )
        _w, h = note.wrap(CONTENT_WIDTH, 20 * mm)
        note.drawOn(canvas, theme.PAGE_MARGIN_X, COVER_NOTE_TOP - h)
        canvas.restoreState()

    def _header(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        meta = self.data.meta
        top = PAGE_HEIGHT - 15 * mm
        canvas.saveState()
        x = theme.PAGE_MARGIN_X
        room = CONTENT_WIDTH
        if self._logo is not None:
            _data, image, (width, height) = self._logo
            h = HEADER_LOGO_HEIGHT
            w = min(h * width / height, 30 * mm)
            canvas.drawImage(
                image, x, top - 1.2 * mm, w, h, preserveAspectRatio=True, anchor="sw"
            )
            x += w + 2.5 * mm
            room -= w + 2.5 * mm
        canvas.setFont(BOLD, RUNNING_SIZE)
        canvas.setFillColor(theme.ACCENT)
        left = f"{meta.organisation} · " + _(
            "Proposal %(number)s · version %(version)s"
        ) % {"number": meta.number, "version": meta.version}
        # One line each, side by side: the right one gets what the left leaves.
        left_width = min(stringWidth(left, BOLD, RUNNING_SIZE), room * 0.6)
        left = fit_line(left, left_width, BOLD, RUNNING_SIZE)
        canvas.drawString(x, top, left)
        canvas.setFont(REGULAR, RUNNING_SIZE)
        canvas.setFillColor(theme.MUTED)
        right = fit_line(
            f"{meta.customer} · {meta.cell_name}",
            room - left_width - RUNNING_GAP,
            REGULAR,
            RUNNING_SIZE,
        )
        canvas.drawRightString(PAGE_WIDTH - theme.PAGE_MARGIN_X, top, right)
        canvas.setStrokeColor(theme.RULE)
        canvas.setLineWidth(0.5)
        canvas.line(
            theme.PAGE_MARGIN_X,
            top - 3 * mm,
            PAGE_WIDTH - theme.PAGE_MARGIN_X,
            top - 3 * mm,
        )
        canvas.restoreState()

    def _page_end(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        meta = self.data.meta
        canvas.saveState()
        if canvas._csp_draft or canvas._csp_draft_on_page:
            self._watermark(canvas)
        canvas._csp_draft_on_page = canvas._csp_draft
        canvas.setFont(REGULAR, RUNNING_SIZE)
        canvas.setFillColor(theme.MUTED)
        # "Page N of M" is drawn at the right later: leave room for the widest.
        widest = _("Page %(page)s of %(total)s") % {"page": 9999, "total": 9999}
        day = f" · {theme.long_date(meta.date, self.data.language)}"
        room = (
            CONTENT_WIDTH
            - stringWidth(widest, REGULAR, RUNNING_SIZE)
            - stringWidth(day, REGULAR, RUNNING_SIZE)
            - RUNNING_GAP
        )
        organisation = fit_line(meta.organisation, room, REGULAR, RUNNING_SIZE)
        canvas.drawString(theme.PAGE_MARGIN_X, 12 * mm, f"{organisation}{day}")
        canvas.doForm(f"cspPage{canvas.getPageNumber()}")
        canvas.restoreState()

    def _watermark(self, canvas: Canvas) -> None:
        canvas.saveState()
        canvas.setFillColor(theme.CRITICAL)
        canvas.setFillAlpha(0.09)
        canvas.setFont(BOLD, 110)
        canvas.translate(PAGE_WIDTH / 2, PAGE_HEIGHT / 2)
        canvas.rotate(52)
        canvas.drawCentredString(0, -38, _("DRAFT"))
        canvas.restoreState()

    # --- the cover --------------------------------------------------------------------

    def _cover(self) -> list[Flowable]:
        """The cover, on one page whatever the values' length: with less air
        and a smaller title when roomy does not fit, and as a last resort
        scaled down to fit (the longest names the fields allow)."""
        story = self._cover_story(roomy=True)
        if _height(story) > COVER_HEIGHT:
            story = self._cover_story(roomy=False)
        return [KeepInFrame(CONTENT_WIDTH, COVER_HEIGHT, story, mode="shrink")]

    def _cover_story(self, *, roomy: bool) -> list[Flowable]:
        meta = self.data.meta
        s = self.styles
        author = meta.prepared_by
        if author and meta.prepared_by_role:
            author = f"{author}, {meta.prepared_by_role}"
        facts = [
            (_("Customer"), meta.customer),
            (_("Site"), meta.site),
            (_("Cell"), meta.cell_name),
            (_("Proposal number"), meta.number),
            (_("Version"), str(meta.version)),
            (_("Date"), theme.long_date(meta.date, self.data.language)),
            (_("Prepared by"), author),
            (_("Organisation"), meta.organisation),
        ]
        facts = [(label, value) for label, value in facts if value]
        contents = self._contents()
        air = 1.0 if roomy else 0.25
        brand: list[Flowable] = []
        if self._logo is not None:
            data, _image, (width, height) = self._logo
            h = COVER_LOGO_HEIGHT * (1.0 if roomy else 0.7)
            w = min(h * width / height, 70 * mm)
            h = w * height / width
            logo = Image(io.BytesIO(data), width=w, height=h)
            logo.hAlign = "LEFT"
            brand += [logo, Spacer(1, 3 * mm)]
        brand.append(self.para(meta.organisation, "kicker"))
        if meta.organisation_address:
            brand.append(
                Para(
                    "<br/>".join(
                        markup(line) for line in meta.organisation_address.splitlines()
                    ),
                    s["small"],
                )
            )
        return [
            Spacer(1, 6 * mm * air),
            *brand,
            Spacer(1, 34 * mm * air),
            self.para(_("Proof-of-concept proposal"), "kicker"),
            Spacer(1, 3 * mm),
            self.para(meta.cell_name, "cover_title" if roomy else "cover_title_long"),
            self.para(_("Safety planning of a robot cell"), "cover_sub"),
            Spacer(1, 14 * mm * air),
            self.key_values(facts),
            Spacer(1, 12 * mm * air),
            *([self.para(_("Contents"), "h3"), *contents] if contents else []),
        ]

    def _contents(self) -> list[Flowable]:
        """The sections with the page each starts on, filled in at the end."""
        rows = [
            (f"{number}   {self._title(number, key)}", PageRef(f"cspToc-section-{key}"))
            for number, key in self.data.numbered_sections
        ]
        return [self.contents_table(rows)] if rows else []

    def _title(self, number: str, key: SectionKey) -> str:
        if number.isdigit():
            return self.titles[key]
        return _("Appendix: %(title)s") % {"title": self.titles[key]}

    def _section_heading(self, number: str, key: SectionKey) -> list[Flowable]:
        title = self._title(number, key)
        return [
            Heading(
                f"{number}&nbsp;&nbsp;&nbsp;{markup(title)}",
                self.styles["h1"],
                key=f"section-{key}",
                title=f"{number}  {title}",
            ),
            HRFlowable(
                width="100%",
                thickness=0.8,
                color=theme.ACCENT,
                spaceBefore=2,
                spaceAfter=10,
            ),
        ]


def _logo(encoded: str) -> tuple[bytes, ImageReader, tuple[int, int]] | None:
    """The organisation's logo (checked on upload): its bytes, a reader to
    draw it on a canvas, and its size in pixels; None when there is none."""
    if not encoded:
        return None
    data = base64.b64decode(encoded)
    reader = ImageReader(io.BytesIO(data))
    return data, reader, reader.getSize()
