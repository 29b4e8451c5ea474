from __future__ import annotations

import pytest

from compliance.assessment import services
from tests.factories import GuardSegmentFactory, OpeningFactory, OperatorStationFactory

CRUSHING = {
    "group": "mechanical",
    "origin": "moving_elements",
    "consequence": "crushing",
    "phase": "operation",
    "task": "Loading parts at the infeed",
}


@pytest.fixture
def layout(cell):
    segment = GuardSegmentFactory(cell=cell, label="F1")
    opening = OpeningFactory(segment=segment, label="Infeed")
    station = OperatorStationFactory(cell=cell, label="Loading")
    return {"segment": segment, "opening": opening, "station": station}


@pytest.fixture
def revision(cell, layout, safety_engineer):
    return services.assessment_open(cell=cell, actor=safety_engineer)


@pytest.fixture
def hazard(revision, safety_engineer):
    return services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        **CRUSHING,
    )
