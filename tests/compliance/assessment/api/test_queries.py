"""The risk-assessment endpoints answer in a fixed number of queries, however
many hazards, measures, revisions or audit entries there are.

The endpoints that answer hazards or measures also work out the cell's
compliance findings once (a measure on a failing device is ineffective, a
failing contact check makes a hazard unacceptable): that costs the fixed
number of queries ``findings_queries`` measures, added once to their limits.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from compliance.assessment import services
from compliance.rules import selectors as rules_selectors
from tests.compliance.assessment.api.conftest import (
    action_url,
    detail_url,
    list_url,
    sign,
)
from tests.compliance.assessment.conftest import state_limits
from tests.compliance.conftest import CRUSHING
from tests.factories import CellFactory, DeviceFactory
from tests.kept import forget_kept

pytestmark = pytest.mark.django_db


def fill(revision, actor, cell, n: int) -> None:
    """``n`` estimated hazards, each with a measure on a device."""
    device = DeviceFactory(cell=cell, claimed_pl="d")
    for index in range(n):
        hazard = services.hazard_add(
            revision=revision,
            actor=actor,
            severity="S2",
            frequency="F2",
            avoidance="P1",
            residual_severity="S1",
            residual_frequency="F1",
            residual_avoidance="P1",
            **{**CRUSHING, "task": f"Task {index}"},
        )
        services.measure_add(
            hazard=hazard,
            actor=actor,
            step="safeguarding",
            description=f"Measure {index}",
            device=device,
            is_safety_function=True,
        )


def count_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def findings_queries(cell) -> int:
    """The queries of working out the cell's compliance findings once
    (``rules.selectors.cell_checks``): its layout, certificates and the records of
    its signed revision, in a fixed number of queries. Worked out: not read
    from the cache, where the request before kept them."""
    forget_kept()
    with CaptureQueriesContext(connection) as queries:
        rules_selectors.cell_checks(cell)
    return len(queries)


# At most this many, whatever the register holds (9 or 10 at the time of
# writing, depending on whether a signed revision exists).
FINDINGS_QUERIES_MAX = 12

# The endpoints that read the findings (once per request), beside their limit.
READ_FINDINGS = {
    "assessment-detail",
    "signed-assessment-detail",
    "revision-detail",
    "hazard-list",
    "measure-list",
}

# (what is read, the most queries it may take besides the findings)
ENDPOINTS = {
    # The assessment, its revisions, the hazards and their measures.
    "assessment-detail": 4,
    # Plus the signed content read again to check its hash, and what its
    # measures link to, to check its seal.
    "signed-assessment-detail": 7,
    "revision-detail": 3,
    # A count and a page, plus the prefetched revisions / measures.
    "assessment-list": 3,
    "revision-list": 2,
    "hazard-list": 3,
    "measure-list": 2,
    # The revision, then a count and a page.
    "revision-history": 3,
}


def url_for(name: str, revision) -> str:
    if name in ("assessment-detail", "signed-assessment-detail"):
        return detail_url("assessment", revision.assessment_id)
    if name == "revision-detail":
        return detail_url("revision", revision.pk)
    if name == "revision-history":
        return action_url("history", revision.pk)
    return list_url(name.removesuffix("-list"))


@pytest.mark.parametrize("name", sorted(ENDPOINTS))
def test_query_count_does_not_grow_with_the_register(
    owner_api, owner, safety_engineer, project, name
):
    counts, findings = [], []
    for n in (5, 50):
        cell = CellFactory(project=project)
        revision = services.assessment_open(cell=cell, actor=owner)
        fill(revision, owner, cell, n)
        if name == "signed-assessment-detail":
            revision = sign(state_limits(revision, owner), safety_engineer)
        url = url_for(name, revision)
        if name.endswith("-list"):
            url += "?" if name == "assessment-list" else f"?revision={revision.pk}"
        counts.append(count_queries(owner_api, url))
        findings.append(findings_queries(cell) if name in READ_FINDINGS else 0)

    assert findings[0] == findings[1] <= FINDINGS_QUERIES_MAX, findings
    assert counts[0] == counts[1] <= ENDPOINTS[name] + findings[0], counts


def test_assessment_list_query_count_does_not_grow_with_assessments(
    owner_api, owner, project
):
    counts = []
    for n in (5, 30):
        for _ in range(n):
            services.assessment_open(cell=CellFactory(project=project), actor=owner)
        counts.append(count_queries(owner_api, list_url("assessment")))

    assert counts[0] == counts[1] <= ENDPOINTS["assessment-list"]
