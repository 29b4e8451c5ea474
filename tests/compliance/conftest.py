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


# The password of every user the factories make (tests/factories.py).
PASSWORD = "pass-for-tests-1"
REASON = "Accepted for this test: the check is not what it is about."


def declaration_for(revision, **overrides):
    """What ``services.revision_sign`` needs besides the revision and the
    signer: the password, the statement confirmed, and a reason for every
    open fail of the cell (as signing will see them)."""
    open_findings = services.revision_sign_preview(revision=revision)
    accepted = {f.key: REASON for f in open_findings if f.status == "fail"}
    return {"password": PASSWORD, "confirm": True, "accepted": accepted, **overrides}


def sign_revision(revision, engineer, **overrides):
    """Sign ``revision`` (in review or approved) as ``engineer``, declaring."""
    return services.revision_sign(
        revision=revision, actor=engineer, **declaration_for(revision, **overrides)
    )


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


# A hazard's residual risk estimated as its initial one (no measure lowers
# it): signing needs every hazard's residual risk estimated (issue 27).
ESTIMATED = {
    "severity": "S2",
    "frequency": "F2",
    "avoidance": "P1",
    "residual_severity": "S2",
    "residual_frequency": "F2",
    "residual_avoidance": "P1",
}


@pytest.fixture
def hazard(revision, safety_engineer):
    return services.hazard_add(
        revision=revision, actor=safety_engineer, **ESTIMATED, **CRUSHING
    )
