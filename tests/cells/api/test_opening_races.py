"""Two overlapping openings sent at the same moment: one is stored, the other
refused, every time. Real concurrent transactions need PostgreSQL (CI runs
with DATABASE_URL pointing at it); SQLite serialises every write transaction
(``transaction_mode`` IMMEDIATE), so it cannot race in the first place."""

from __future__ import annotations

import threading

import pytest
from django.db import (
    DatabaseError,
    connection,
    connections,
    transaction,
)
from rest_framework.test import APIClient

from cells.models import Opening
from tests.cells.api.support import list_url, opening_body
from tests.factories import GuardSegmentFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="concurrent transactions need PostgreSQL",
    ),
]

TRIALS = 30


def _at_once(*calls):
    """Run the calls in threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # reported to the test, not lost in the thread
            results[index] = exc
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_overlapping_openings_posted_at_once_store_one(owner, cell):
    clients = [APIClient(), APIClient()]
    for client in clients:
        client.force_authenticate(owner)
    doubles = 0
    for trial in range(TRIALS):
        segment = GuardSegmentFactory(cell=cell, label=f"T{trial}")

        def post(client, offset, segment=segment):
            return client.post(
                list_url("opening"),
                opening_body(segment, offset_mm=offset, width_mm=900),
                format="json",
            )

        first, second = _at_once(
            lambda: post(clients[0], 1000), lambda: post(clients[1], 1400)
        )

        codes = sorted([first.status_code, second.status_code])
        stored = Opening.objects.filter(segment=segment).count()
        doubles += stored > 1
        assert codes == [201, 400], (first.data, second.data)
        refused = first if first.status_code == 400 else second
        assert "offset_mm" in refused.data
    assert doubles == 0


def test_the_database_refuses_overlapping_openings_written_at_once(cell):
    # Past the app's own checks (a shell, a bulk write): the exclusion
    # constraint still keeps one.
    segment = GuardSegmentFactory(cell=cell)

    def create(offset):
        with transaction.atomic():
            return Opening.objects.create(
                segment=segment, offset_mm=offset, width_mm=900, upper_edge_mm=1000
            )

    results = _at_once(lambda: create(1000), lambda: create(1400))

    # One kept; the other refused by the database (the exclusion constraint's
    # IntegrityError, or a serialisation error when the two collide first).
    assert Opening.objects.filter(segment=segment).count() == 1, results
    assert sum(isinstance(r, DatabaseError) for r in results) == 1, results


def test_touching_openings_are_both_kept_by_the_database(cell):
    segment = GuardSegmentFactory(cell=cell)

    Opening.objects.create(
        segment=segment, offset_mm=0, width_mm=900, upper_edge_mm=1000
    )
    Opening.objects.create(
        segment=segment, offset_mm=900, width_mm=900, upper_edge_mm=1000
    )

    assert Opening.objects.filter(segment=segment).count() == 2
