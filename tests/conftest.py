"""Shared fixtures: an organisation with an owner (solution architect), a
colleague of each other role, and an outsider from another organisation."""

from __future__ import annotations

import pytest

from cells.models import Role
from tests.factories import (
    CellFactory,
    GuardSegmentFactory,
    MembershipFactory,
    OpeningFactory,
    OperatorStationFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)
from tests.kept import forget_kept
from tests.reference import load_reference


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The real hasher is slow by design; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def default_language():
    # Each test starts in the default language: Django keeps the active one
    # per thread, and the reports translate with it (issue 26).
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    # Authentication (issue 13): the API throttles count in the cache, which
    # outlives a test; each test starts with none. Issue 16: findings too,
    # and what the process holds in front of the cache.
    forget_kept()


@pytest.fixture(scope="session")
def reference():
    """The shared reference data: ``reference("iso13855.json")`` is that
    file's JSON from ../shared/reference beside the checkout; the test fails
    when it is not there (tests/reference.py)."""
    return load_reference


@pytest.fixture
def organisation(db):
    return OrganisationFactory(name="Acme Integration")


def _member(organisation, username, role):
    user = UserFactory(username=username)
    MembershipFactory(user=user, organisation=organisation, role=role)
    return user


@pytest.fixture
def owner(organisation):
    return _member(organisation, "owner", Role.SOLUTION_ARCHITECT)


@pytest.fixture
def safety_engineer(organisation):
    return _member(organisation, "engineer", Role.SAFETY_ENGINEER)


@pytest.fixture
def viewer(organisation):
    return _member(organisation, "viewer", Role.VIEWER)


@pytest.fixture
def outsider(db):
    return _member(
        OrganisationFactory(name="Other Org"), "outsider", Role.SOLUTION_ARCHITECT
    )


@pytest.fixture
def project(organisation):
    return ProjectFactory(organisation=organisation, name="Palletising PoC")


@pytest.fixture
def cell(project):
    return CellFactory(project=project, name="Palletiser")


@pytest.fixture
def segment(cell):
    return GuardSegmentFactory(cell=cell, label="F1")


@pytest.fixture
def opening(segment):
    return OpeningFactory(segment=segment, label="Infeed")


@pytest.fixture
def station(cell):
    return OperatorStationFactory(cell=cell, label="Loading")


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def viewer_client(client, viewer):
    client.force_login(viewer)
    return client


@pytest.fixture
def outsider_client(client, outsider):
    client.force_login(outsider)
    return client


def pytest_report_header(config):
    from django.conf import settings

    database = settings.DATABASES["default"]
    return f"database: {database['ENGINE']} {database.get('HOST') or database['NAME']}"
