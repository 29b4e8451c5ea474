"""How long a proposal PDF takes, beside a bare reportlab document with the
same tables in the same run: for a cell as large as a customer's biggest,
built in the database (``bench/large_cell.py``: 200 segments, 50 openings,
30 devices, 200 hazards, 300 measures, about 80 cost lines), and for the two
demo cells. The proposal's data is read from the database as a worker reads
it (``proposal_data``); the bare document is plain Table flowables with the
same rows as strings, no styling, no charts, no drawing, in the same embedded
Nanum Gothic (a fair baseline embeds the same font: Helvetica cannot set
Korean). Then how many large proposals one worker builds a minute, each the
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

from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle  # noqa: E402

from compliance.proposals.pdf.data import ProposalData  # noqa: E402
from compliance.proposals.pdf.fonts import REGULAR, register_fonts  # noqa: E402
from compliance.proposals.pdf.theme import number  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "7"))


def bare_tables(data: ProposalData) -> list[list[list[str]]]:
    """The proposal's tables, row for row, as plain strings."""

    def opt(value) -> str:
        return "" if value is None else number(value)

    tables = []
    if data.cell:
        tables.append([[r.label, r.value] for r in data.cell.robot])
        tables.append(
            [["device", "required", "actual", "status"]]
            + [
                [d.device, str(d.required_mm), str(d.actual_mm), d.status]
                for d in data.cell.distances
            ]
        )
    if data.rules:
        tables.append(
            [["rule", "text", "certainty", "checked"]]
            + [
                [f"{r.id} {r.citation}", r.text, r.certainty, str(r.checked_on)]
                for r in data.rules.rows
            ]
        )
    if data.risk:
        tables.append(
            [["#", "hazard", "phase", "task", "PLr", "measures", "residual"]]
            + [
                [
                    str(n),
                    h.hazard,
                    h.phase,
                    h.task,
                    h.plr or "",
                    "\n".join(h.measures),
                    h.residual_risk,
                ]
                for n, h in enumerate(data.risk.hazards, start=1)
            ]
        )
    tables.append(
        [["status", "rule", "subject", "message", "figures"]]
        + [
            [
                f.status,
                f"{f.rule_id}\n{f.citation}",
                f.subject,
                f.message,
                "\n".join(f.numbers),
            ]
            for f in data.findings
        ]
    )
    if data.costs:
        tables.append(
            [["item", "qty", "cur", "unit price", "total", "lead", "source"]]
            + [
                [
                    i.description,
                    f"{number(i.quantity)} {i.unit}",
                    i.currency or "",
                    f"{opt(i.unit_price_low)}-{opt(i.unit_price_high)}",
                    f"{opt(i.total_low)}-{opt(i.total_high)}",
                    f"{opt(i.lead_time_weeks_low)}-{opt(i.lead_time_weeks_high)}",
                    i.source,
                ]
                for i in data.costs.items
            ]
        )
    if data.schedule:
        tables.append(
            [
                [r.metric, r.physical_first, r.sim_first]
                for r in data.schedule.comparison
            ]
        )
    return tables


def build_bare(tables: list[list[list[str]]]) -> bytes:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, invariant=1, initialFontName=REGULAR)
    font = TableStyle([("FONT", (0, 0), (-1, -1), REGULAR, 8)])
    doc.build([Table(rows, repeatRows=1, style=font) for rows in tables])
    return buffer.getvalue()


def pages(pdf: bytes) -> int:
    return pdf.count(b"/Type /Page\n")


def main() -> None:
    import io as _io

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from bench.run import make_cells
    from cells.models import Cell
    from compliance.proposals.building import build_document
    from compliance.proposals.data import proposal_data
    from compliance.proposals.models import ProposalDocument
    from compliance.proposals.pdf.builder import build_proposal_pdf
    from compliance.proposals.pdf.data import SECTIONS
    from compliance.proposals.services import proposal_request

    register_fonts()  # once per worker process, not per PDF
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
        tables = bare_tables(data)
        pdf = build_proposal_pdf(data)
        app, base = paired(
            lambda data=data: build_proposal_pdf(data),
            lambda tables=tables: build_bare(tables),
            RUNS,
        )
        line(f"proposal PDF, {name} ({pages(pdf)} pages)", app, base)
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
