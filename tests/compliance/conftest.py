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


# Every limit of the machine signing asks for (ISO 12100:2010 5.3); the space
# limits come from the layout when the assessment is opened.
LIMITS = {
    "intended_use": "Palletising cartons of up to 12 kg",
    "foreseeable_misuse": "Reaching through the infeed to clear a jam",
    "time_limits": "20 years, two shifts a day",
    "exposed_persons": ["operators", "maintenance_staff"],
}


def state_limits(revision, actor):
    """The revision with ``LIMITS`` recorded through the service."""
    return services.revision_update_limits(
        revision=revision, actor=actor, version=revision.version, **LIMITS
    )


@pytest.fixture
def blank_revision(cell, layout, safety_engineer):
    """Revision 1 as opened: only the space limits (from the layout) stated."""
    return services.assessment_open(cell=cell, actor=safety_engineer)


@pytest.fixture
def revision(blank_revision, safety_engineer):
    """Revision 1 with the limits of the machine stated, as signing needs."""
    return state_limits(blank_revision, safety_engineer)


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
