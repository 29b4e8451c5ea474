"""How long a proposal PDF takes, beside a bare reportlab document with the
same tables in the same run: for a cell as large as a customer's biggest,
built in the database (``bench/large_cell.py``: 200 segments, 50 openings,
30 devices, 200 hazards, 300 measures, about 80 cost lines), and for the two
demo cells. The proposal's data is read from the database as a worker reads
it (``proposal_data``); the bare document has every table of the proposal
as a plain Table of the same rows as strings and every paragraph as a plain
Paragraph (read off the builder's own story, so none is left out), no
styling, no cover, contents, charts or drawing, in the same embedded Nanum
Gothic (a fair baseline embeds the same font: Helvetica cannot set Korean). Then how many large proposals one worker builds a minute, each the
whole task: claiming the row, reading the data, building, storing the PDF.

Run with `make bench`. Uses a throwaway SQLite database unless DATABASE_URL
is set. Goals (issue 16): the large cell at most 1.6x the bare document, the
demo cells at most 2x; at least 150 large proposals a minute.
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import line, paired, setup_django

setup_django()

from xml.sax.saxutils import escape  # noqa: E402

from django.utils.translation import override  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.styles import ParagraphStyle  # noqa: E402
from reportlab.platypus import (  # noqa: E402
    Paragraph,
    SimpleDocTemplate,
    Table,
    TableStyle,
)

from compliance.documents.flowables import Lines  # noqa: E402
from compliance.documents.fonts import REGULAR  # noqa: E402
from compliance.proposals.pdf.builder import ProposalBuilder  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "7"))


def bare_content(story: list) -> list[tuple[str, object]]:
    """The proposal's tables and words without the app's making: every table
    of ``story`` (the builder's own flowables) as rows of plain strings,
    every paragraph and heading as its plain text. Walked from the story
    itself, so that no table is left out; no cover, page templates, running
    heads, contents, charts, plan, rules or spacing."""
    out: list[tuple[str, object]] = []

    def text(value) -> str:
        if isinstance(value, str):
            return value
        if isinstance(value, Lines):
            return "\n".join(line[0] for line in value.lines)
        if isinstance(value, Paragraph):
            return value.getPlainText()
        if isinstance(value, (list, tuple)):
            return "\n".join(filter(None, (text(v) for v in value)))
        if isinstance(value, Table):
            return "\n".join(text(c) for row in value._cellvalues for c in row)
        return ""

    def walk(flowable) -> None:
        if isinstance(flowable, Table):
            rows = [[text(c) for c in row] for row in flowable._cellvalues]
            out.append(("table", (rows, flowable.repeatRows)))
        elif isinstance(flowable, Paragraph):
            out.append(("text", escape(flowable.getPlainText())))
        else:
            for child in getattr(flowable, "_content", None) or ():
                walk(child)

    for flowable in story:
        walk(flowable)
    return out


def build_bare(content: list[tuple[str, object]]) -> bytes:
    """A plain reportlab document of ``content``: Tables of strings and
    Paragraphs in one font and size, no styling."""
    style = ParagraphStyle("bare", fontName=REGULAR, fontSize=8, leading=10)
    plain = TableStyle([("FONT", (0, 0), (-1, -1), REGULAR, 8)])
    story = [
        Table(value[0], repeatRows=value[1], style=plain)
        if kind == "table"
        else Paragraph(value, style)
        for kind, value in content
    ]
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, invariant=1, initialFontName=REGULAR)
    doc.build(story)
    return buffer.getvalue()


def pages(pdf: bytes) -> int:
    return pdf.count(b"/Type /Page\n")


def main() -> None:
    import io as _io

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from bench.run import make_cells
    from cells.models import Cell

    # As a Celery worker's process sets itself up when it starts (the fonts,
    # the cycle collector: ``building.prepare_worker``), once the data the
    # bench builds from is in the database.
    from compliance.proposals.building import build_document, prepare_worker
    from compliance.proposals.data import proposal_data
    from compliance.proposals.models import ProposalDocument
    from compliance.proposals.pdf.builder import build_proposal_pdf
    from compliance.proposals.pdf.data import SECTIONS
    from compliance.proposals.services import proposal_request

    user, _project, cells = make_cells((200,))
    call_command("seed_demo", stdout=_io.StringIO())
    architect = get_user_model().objects.get(username="sa")
    demo = {
        "demo palletiser": Cell.objects.get(
            project__organisation__slug="demo", name="Case palletiser A"
        ),
        "demo machine tending": Cell.objects.get(
            project__organisation__slug="demo", name="Machine tending cobot"
        ),
    }
    prepare_worker()
    cases = {
        "large cell": (cells[200], user),
        **{k: (c, architect) for k, c in demo.items()},
    }
    print(
        f"\n# The proposal PDF beside a bare reportlab document of the same tables "
        f"(medians of {RUNS} builds)"
    )
    large_document = None
    for name, (cell, actor) in cases.items():
        # Built once by the request (Celery runs in-process without a broker).
        document = proposal_request(
            cell=cell, actor=actor, language="ko", sections=list(SECTIONS)
        )
        document.refresh_from_db()
        assert document.status == ProposalDocument.Status.READY, document.error
        data = proposal_data(document)
        pdf = build_proposal_pdf(data)
        with override(data.language):
            content = bare_content(ProposalBuilder(data).story())
        app, base = paired(
            lambda data=data: build_proposal_pdf(data),
            lambda content=content: build_bare(content),
            RUNS,
        )
        line(
            f"proposal PDF, {name} ({pages(pdf)} pages; bare "
            f"{pages(build_bare(content))})",
            app,
            base,
        )
        if name == "large cell":
            large_document = document

    # One worker, one large proposal after another: the whole task each time.
    times = []
    for n in range(RUNS):
        ProposalDocument.objects.filter(pk=large_document.pk).update(
            status=ProposalDocument.Status.PENDING, attempts=0, claim=""
        )
        start = time.perf_counter()
        assert build_document(large_document.pk, claim=f"bench-{n}") == "ready"
        times.append((time.perf_counter() - start) * 1000)
    each = statistics.median(times)
    print(
        f"one worker, large proposals built whole (claim, data, PDF, stored): "
        f"{each:.0f} ms each, {60_000 / each:.0f} a minute",
        flush=True,
    )


if __name__ == "__main__":
    main()
