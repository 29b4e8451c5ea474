"""Benchmarks that print figures: how the cell page and the plan drawing scale
with the number of layout elements. Run with `make bench`.

Uses a throwaway SQLite database unless DATABASE_URL is set.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_NAME"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from cells.drawing import layout_drawing  # noqa: E402
from cells.selectors import cell_document, cell_with_layout  # noqa: E402


def timed(fn, repeat: int = 15) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def main() -> None:
    call_command("migrate", verbosity=0)
    from tests.factories import (
        CellFactory,
        GuardSegmentFactory,
        MembershipFactory,
        OpeningFactory,
        OperatorStationFactory,
        UserFactory,
    )

    user = UserFactory(username="bench")
    org = MembershipFactory(user=user).organisation
    client = Client()
    client.force_login(user)
    print(
        f"{'segments':>8} {'queries':>8} {'page ms (median / max)':>24} {'drawing ms':>11}"
    )
    for size in (5, 50, 200):
        cell = CellFactory(project__organisation=org)
        for i in range(size):
            seg = GuardSegmentFactory(
                cell=cell,
                start_x_mm=0,
                start_y_mm=i * 50,
                end_x_mm=4000,
                end_y_mm=i * 50,
            )
            OpeningFactory(segment=seg)
        for _ in range(size // 5 or 1):
            OperatorStationFactory(cell=cell)
        url = f"/cells/{cell.pk}/"
        queries: list[str] = []

        def count(execute, sql, params, many, context, queries=queries):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            client.get(url)
        page_median, page_max = timed(lambda url=url: client.get(url))
        document = cell_document(cell_with_layout(user, cell.pk))
        draw_median, _ = timed(lambda document=document: layout_drawing(document))
        print(
            f"{size:>8} {len(queries):>8} {page_median:>12.1f} / {page_max:<9.1f}"
            f" {draw_median:>11.2f}"
        )

    register_benchmark(client, user, org)


def register_benchmark(client, user, org) -> None:
    """The risk-assessment register at 20 and 200 hazards, each with a measure."""
    from cells.models import Membership
    from compliance.assessment import services
    from tests.factories import CellFactory

    Membership.objects.filter(user=user).update(role="safety_engineer")
    user._csp_roles = None
    print(f"\n{'hazards':>8} {'queries':>8} {'register ms (median / max)':>28}")
    for size in (20, 200):
        cell = CellFactory(project__organisation=org)
        revision = services.assessment_open(cell=cell, actor=user)
        for i in range(size):
            hazard = services.hazard_add(
                revision=revision,
                actor=user,
                group="mechanical",
                origin="moving_elements",
                consequence="crushing",
                phase="operation",
                task=f"Task {i}",
                severity="S2",
                frequency="F2",
                avoidance="P1",
            )
            services.measure_add(
                hazard=hazard, actor=user, step="safeguarding", description="Fence"
            )
        url = f"/cells/{cell.pk}/assessment/"
        queries: list[str] = []

        def count(execute, sql, params, many, context, queries=queries):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            client.get(url)
        median, worst = timed(lambda url=url: client.get(url), repeat=7)
        print(f"{size:>8} {len(queries):>8} {median:>14.1f} / {worst:<9.1f}")


if __name__ == "__main__":
    main()
