"""The pages beside a plain table: each page of a large cell timed against the
baseline (``bench/baseline``: a plain Django template rendering the cell's
200 guard segments in the app's page frame) in the same run, and how each
page grows from 10 to 1000 rows. Run with `make bench`.

Every figure is the median of ``BENCH_RUNS`` requests (default 7), the page
and the baseline taken in turn so that a drift of the machine touches both.
Requests go through Django's test client in this process, with DEBUG off,
through the whole middleware. Uses a throwaway SQLite database unless
DATABASE_URL is set (then it adds its own organisation there).

Prints one line per measure, ``name: app X ms, baseline Y ms, ratio Z``, and
the scaling lines.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def setup_django() -> None:
    """The app as deployed (DEBUG off: no query log, cached templates), on a
    throwaway SQLite database unless DATABASE_URL is set, with the baseline's
    URL beside the app's (``bench/settings.py``)."""
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_NAME"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    for name, value in {
        "DEBUG": "0",
        "SECRET_KEY": "bench-secret-key-" + "x" * 40,
        "INTEGRITY_KEY": "bench-integrity-key-" + "x" * 40,
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL_REDIRECT": "0",
    }.items():
        os.environ.setdefault(name, value)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    import django

    django.setup()
    # As a web process sets itself up (config.wsgi): the URLconf loaded,
    # then what is loaded set aside from the cycle collector.
    from django.urls import get_resolver

    from config.process import prepare_web_process

    get_resolver().url_patterns  # noqa: B018
    prepare_web_process()


RUNS = int(os.environ.get("BENCH_RUNS", "7"))
SIZES = (10, 50, 200, 1000)
LARGE = 200


def timed(fn: Callable[[], object]) -> float:
    # Each run starts on a collected heap: a collection owed to the garbage
    # of the run before is not counted against this one.
    gc.collect()
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def paired(app: Callable[[], object], base: Callable[[], object], runs: int = RUNS):
    """Medians of ``runs`` of each, taken in turn, after one of each to warm."""
    app(), base()
    a, b = [], []
    for _ in range(runs):
        a.append(timed(app))
        b.append(timed(base))
    return statistics.median(a), statistics.median(b)


def line(name: str, app_ms: float, base_ms: float) -> None:
    print(
        f"{name}: app {app_ms:.1f} ms, baseline {base_ms:.1f} ms, "
        f"ratio {app_ms / base_ms:.2f}",
        flush=True,
    )


def getter(client, url: str, **headers) -> Callable[[], object]:
    def get():
        response = client.get(url, headers=headers)
        assert response.status_code == 200, (url, response.status_code)
        return response

    return get


def pages(cell) -> dict[str, str]:
    pk = cell.pk
    return {
        "risk register": f"/cells/{pk}/assessment/",
        "cell page": f"/cells/{pk}/",
        "compliance": f"/cells/{pk}/compliance/",
        "costs": f"/cells/{pk}/costs/",
        "plan": f"/cells/{pk}/plan/",
        "findings API": f"/api/v1/cells/{pk}/findings/",
    }


def make_cells(sizes=SIZES):
    """A safety engineer, a project in Korea and a cell of each size."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from bench.large_cell import PASSWORD, build_cell
    from cells.models import Membership, Organisation, Project

    call_command("migrate", verbosity=0)
    run = uuid.uuid4().hex[:8]
    user = get_user_model().objects.create_user(f"bench-{run}", password=PASSWORD)
    org = Organisation.objects.create(name=f"Bench {run}", slug=f"bench-{run}")
    Membership.objects.create(user=user, organisation=org, role="safety_engineer")
    project = Project.objects.create(
        organisation=org,
        name="Bench",
        customer_name="Bench Co.",
        site_name="Plant",
        country="KR",
    )
    start = time.perf_counter()
    cells = {size: build_cell(project, user, size) for size in sizes}
    print(
        f"built cells of {', '.join(map(str, sizes))} rows from the database "
        f"in {time.perf_counter() - start:.0f} s",
        flush=True,
    )
    return user, project, cells


def svg_lines(user, cell, baseline) -> None:
    """The plan's SVG of the large cell as its template writes it, beside the
    plain 200-row table. The cell page keeps it in the cache: it is written
    only just after a change (and for the DXF preview and the download)."""
    from cells.selectors import cell_with_layout
    from cells.views import _drawing, plan_svg

    loaded = cell_with_layout(user, cell.pk, with_underlay=True)
    drawing = _drawing(loaded)
    app, base = paired(lambda: plan_svg(drawing, loaded), baseline)
    line("plan SVG, 200 segments, by its template (after a change only)", app, base)


def compression_line(client, url: str) -> None:
    """What gzip would save on the largest page, and cost (not done: see the
    README's development section on BREACH)."""
    import gzip

    body = client.get(url).content
    squeezed = gzip.compress(body, 6)
    ms = statistics.median(timed(lambda: gzip.compress(body, 6)) for _ in range(RUNS))
    print(
        f"gzip of the risk register (not served so): {len(body) / 1024:.0f} KiB "
        f"-> {len(squeezed) / 1024:.0f} KiB in {ms:.1f} ms",
        flush=True,
    )


def concepts_line(client, user, cell) -> None:
    """Comparing the large cell's guarding concepts, after a change, beside
    computing that cell's findings after a change (goal: at most 4.5 ×)."""
    from django.core.cache import cache

    from compliance.concepts.services import concepts_generate
    from compliance.rules.results import forget_recent

    concepts_generate(cell=cell, actor=user)
    compare = getter(client, f"/api/v1/cells/{cell.pk}/concepts/compare/")
    findings = getter(client, f"/api/v1/cells/{cell.pk}/findings/")

    def cold(get):
        def run():
            cache.clear()
            forget_recent()
            get()

        return run

    print(
        "\n# Guarding concepts (the cell as drawn, fenced, speed and separation "
        "monitoring, hybrid), after a change"
    )
    line(
        "concepts compared vs one cell's findings (goal ≤ 4.5)",
        *paired(cold(compare), cold(findings)),
    )


def motion_lines(client, user, cells) -> None:
    """The Motion tab of a 10,000-line robot program beside a 1,000-line one
    (goal: at most 2 ×, the table pages rather than drawing every segment),
    each as read again (its judgement kept), in the same run."""
    from bench.motion import program
    from cells.motion.services import motion_program_import

    small, big = cells[10], cells[50]
    for cell, lines in ((small, 1_000), (big, 10_000)):
        motion_program_import(
            cell=cell, actor=user, data=program(lines), file_name=f"{lines}.script"
        )
    get_small = getter(client, f"/cells/{small.pk}/motion/")
    get_big = getter(client, f"/cells/{big.pk}/motion/")
    print("\n# Robot programs: the Motion tab, as read again")
    app, base = paired(get_big, get_small)
    size = len(get_big().content) / 1024
    print(
        f"Motion tab, 10,000 lines vs 1,000 lines (goal ≤ 2): {app:.1f} ms vs "
        f"{base:.1f} ms, ratio {app / base:.2f}; the page {size:.0f} KiB",
        flush=True,
    )


def main() -> None:
    setup_django()
    from django.core.cache import cache
    from django.test import Client

    from compliance.rules.results import forget_recent

    user, _project, cells = make_cells()
    client = Client()
    client.force_login(user)
    print(f"medians of {RUNS} requests each")
    large = cells[LARGE]
    baseline = getter(client, f"/bench/table/{large.pk}/")
    print(
        "\n# Each page of the large cell (200 segments, 50 openings, 30 devices, "
        "200 hazards, 300 measures) beside the plain 200-row table"
    )
    for name, url in pages(large).items():
        line(name, *paired(getter(client, url), baseline))
    svg_lines(user, large, baseline)
    compression_line(client, pages(large)["risk register"])
    print("\n# After a change: the findings and line items computed again")
    for name, url in pages(large).items():
        if name == "risk register":
            continue
        get = getter(client, url)

        def cold(get=get):
            # As after an edit: nothing kept, in the cache or in front of it.
            cache.clear()
            forget_recent()
            get()

        line(f"{name}, after a change", *paired(cold, baseline))

    concepts_line(client, user, large)
    motion_lines(client, user, cells)

    print(
        "\n# Scaling: each page at 10 / 50 / 200 / 1000 rows (goal: 1000 ≤ 5.5 × 200)"
    )
    by_size = {size: pages(cell) for size, cell in cells.items()}
    table = {size: f"/bench/table/{cell.pk}/" for size, cell in cells.items()}
    names = [*pages(large), "plain table (baseline)"]
    for name in names:
        medians = {}
        for size in SIZES:
            url = table[size] if name == names[-1] else by_size[size][name]
            get = getter(client, url)
            get()
            medians[size] = statistics.median(
                timed(get) for _ in range(max(3, RUNS // 2))
            )
        shown = ", ".join(f"{size} rows {ms:.1f} ms" for size, ms in medians.items())
        print(
            f"scaling {name}: {shown}; 1000/200 = {medians[1000] / medians[200]:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
