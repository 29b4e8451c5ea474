"""A proposal's dates and people as the customer reads them (issue 30): one
requested at 23:30 UTC for a cell in Seoul is dated the next day there, one
for a site in Los Angeles the same day; a time zone must be one of the
project's country; the signer is named by full name, never by username."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from compliance.proposals.data import proposal_data
from compliance.proposals.services import proposal_request

pytestmark = pytest.mark.django_db

LATE = datetime.datetime(2026, 12, 4, 23, 30, tzinfo=datetime.UTC)


def _dated(owner, cell) -> datetime.date:
    document = proposal_request(
        cell=cell, actor=owner, language="ko", sections=["cover"]
    )
    type(document).objects.filter(pk=document.pk).update(requested_at=LATE)
    document.refresh_from_db()
    return proposal_data(document).meta.date


def test_a_seoul_proposal_requested_at_2330_utc_is_dated_the_next_day(owner, cell):
    cell.project.country = "KR"
    cell.project.save()
    # 23:30 UTC on 4 December is 08:30 on 5 December in Seoul.
    assert _dated(owner, cell) == datetime.date(2026, 12, 5)


def test_a_site_in_another_zone_keeps_its_own_day(owner, cell):
    project = cell.project
    project.country, project.time_zone, project.currency = (
        "US",
        "America/Los_Angeles",
        "USD",
    )
    project.save()
    # 15:30 on 4 December in Los Angeles.
    assert _dated(owner, cell) == datetime.date(2026, 12, 4)


def test_a_time_zone_of_another_country_is_refused(cell):
    project = cell.project
    project.country, project.time_zone = "KR", "Europe/Berlin"
    with pytest.raises(ValidationError) as refused:
        project.full_clean()
    assert "time_zone" in refused.value.message_dict


def test_the_signer_is_named_by_full_name_never_by_username(
    owner, cell, revision, hazard, safety_engineer
):
    # Regression (issue 30): the declaration printed the username signed
    # with ("engineer"); the record keeps it, the customer reads the name.
    from compliance.assessment import services
    from tests.compliance.conftest import sign_revision

    safety_engineer.first_name, safety_engineer.last_name = "Minji", "Seo"
    safety_engineer.save()
    services.measure_add(
        hazard=hazard, actor=safety_engineer, step="safeguarding", description="Fence"
    )
    sign_revision(
        services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )
    document = proposal_request(
        cell=cell, actor=owner, language="en", sections=["risk"]
    )
    risk = proposal_data(document).risk
    assert risk.declaration.signer == "Minji Seo"
    assert risk.signed_by == "Minji Seo"
    assert risk.declaration.signer != safety_engineer.username
