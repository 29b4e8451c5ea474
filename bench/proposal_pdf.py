"""How long the PoC proposal PDF takes to build for a large cell (200 hazards,
80 line items, 30 layout elements), beside a bare reportlab document with the
same tables in the same run: plain Table flowables with the same rows as
strings, no styling, no charts, no drawing.

The bare document sets its tables in the same embedded Nanum Gothic (one FONT
command): a fair baseline must embed the same font, and Helvetica could not
set Korean. Run with `.venv/bin/python bench/proposal_pdf.py`. No database.
Goal (issue 6): at most 2x the bare document and under 2 s.
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle  # noqa: E402

from compliance.proposals.pdf.builder import build_proposal_pdf  # noqa: E402
from compliance.proposals.pdf.data import ProposalData  # noqa: E402
from compliance.proposals.pdf.fonts import REGULAR, register_fonts  # noqa: E402
from compliance.proposals.pdf.theme import number  # noqa: E402
from tests.compliance.proposals.pdf.samples import large_proposal  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "7"))


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


def timed(fn) -> tuple[float, list[float]]:
    samples = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), samples


def main() -> None:
    register_fonts()  # once per worker process, not per PDF
    data = large_proposal()
    tables = bare_tables(data)
    build_proposal_pdf(data)  # warm up: imports, font metrics caches
    build_bare(tables)
    proposal, _ = timed(lambda: build_proposal_pdf(data))
    bare, _ = timed(lambda: build_bare(tables))
    pages = build_proposal_pdf(data).count(b"/Type /Page\n")
    print(
        f"large proposal: {len(data.risk.hazards)} hazards, "
        f"{len(data.costs.items)} line items, "
        f"{sum(1 + len(s.openings) for s in data.cell.layout.guard_segments) + len(data.cell.layout.operator_stations)} "
        f"layout elements; median of {REPEAT} builds"
    )
    print(f"{'document':34} {'median s':>9}")
    print(f"{'proposal PDF (build_proposal_pdf)':34} {proposal:>9.3f}")
    print(f"{'bare reportlab, same tables':34} {bare:>9.3f}")
    print(f"{'ratio':34} {proposal / bare:>9.2f}")
    print(f"pages in the proposal: {pages}")


if __name__ == "__main__":
    main()
