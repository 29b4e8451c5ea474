"""List endpoints answer in a fixed number of queries, however many rows."""

from __future__ import annotations

import pytest

from tests.cells.api.support import BASENAMES, list_url
from tests.cells.certificates import CellCertificateFactory
from tests.factories import (
    CellFactory,
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
    OperatorStationFactory,
    ProjectFactory,
)

pytestmark = pytest.mark.django_db

# A page count and the page itself: authentication is forced, so no session.
MAX_QUERIES = 2


def _make(basename: str, n: int, organisation, project, cell, segment) -> None:
    if basename == "project":
        ProjectFactory.create_batch(n, organisation=organisation)
    elif basename == "cell":
        CellFactory.create_batch(n, project=project)
    elif basename == "guard-segment":
        GuardSegmentFactory.create_batch(n, cell=cell)
    elif basename == "opening":
        for index in range(n):
            OpeningFactory(segment=segment, offset_mm=index * 100, width_mm=50)
    elif basename == "device":
        opening = OpeningFactory(segment=segment)
        DeviceFactory.create_batch(n, cell=cell, opening=opening)
    elif basename == "certificate":
        CellCertificateFactory.create_batch(n, cell=cell)
    else:
        OperatorStationFactory.create_batch(n, cell=cell)


@pytest.mark.parametrize("n", [5, 30])
@pytest.mark.parametrize("basename", BASENAMES)
def test_list_query_count_does_not_grow_with_rows(
    owner_api,
    django_assert_max_num_queries,
    organisation,
    project,
    cell,
    segment,
    basename,
    n,
):
    _make(basename, n, organisation, project, cell, segment)

    with django_assert_max_num_queries(MAX_QUERIES):
        response = owner_api.get(list_url(basename))

    assert response.status_code == 200
    assert len(response.data["results"]) >= n
