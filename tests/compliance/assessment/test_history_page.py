"""The History page reads as a story (issue 15): who did what, in words, in
local time, values before → after formatted, filtered and paginated."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import translation

from compliance.assessment import services
from compliance.assessment.audit import AuditEntry
from compliance.assessment.models import Revision
from tests.compliance.conftest import CRUSHING, sign_revision
from tests.factories import DeviceFactory

# The session, the user, the cell, the assessment, the people to filter by,
# the count, the page, and one query per kind of name (people, devices,
# hazards, measures), and the texts the app wrote (hazards', revisions'), to
# show them in the reader's language: the same at 5 entries as at 120.
HISTORY_QUERIES_MAX = 13


def history(cell) -> str:
    return reverse("compliance:history", args=[cell.pk])


@pytest.fixture
def named(owner, safety_engineer):
    owner.first_name, owner.last_name = "Lee", "SA"
    owner.save()
    safety_engineer.first_name, safety_engineer.last_name = "Kim", "Safety"
    safety_engineer.save()
    return owner, safety_engineer


@pytest.fixture
def story(named, revision, cell, layout):
    """A hazard added by Lee, its severity changed, a measure on a device,
    the revision submitted and signed by Kim."""
    owner, engineer = named
    hazard = services.hazard_add(
        revision=revision,
        actor=owner,
        severity="S1",
        frequency="F2",
        avoidance="P1",
        residual_severity="S1",
        residual_frequency="F1",
        residual_avoidance="P1",
        **CRUSHING,
    )
    hazard = services.hazard_update(
        hazard=hazard, actor=owner, version=hazard.version, severity="S2"
    )
    device = DeviceFactory(cell=cell, label="LC-Infeed")
    services.measure_add(
        hazard=hazard,
        actor=owner,
        step="safeguarding",
        description="Light curtain at the infeed",
        device=device,
    )
    submitted = services.revision_submit(revision=revision, actor=owner)
    signed = sign_revision(submitted, engineer)
    return {"hazard": hazard, "device": device, "revision": signed}


def test_history_tells_each_change_as_a_sentence_with_full_names(
    owner_client, story, cell
):
    text = owner_client.get(history(cell)).text
    assert "Kim Safety signed revision 1" in text
    assert "Lee SA changed hazard H1’s severity (S): S1 → S2" in text
    assert "Lee SA added a measure to hazard H1" in text
    assert "Lee SA submitted revision 1 for review" in text


def test_history_resolves_ids_and_hides_raw_keys(owner_client, story, cell, named):
    text = owner_client.get(history(cell)).text
    _owner, engineer = named
    # The device by its label, the signer by name: never their ids or keys.
    assert "LC-Infeed" in text
    assert f"signed by: {engineer.pk}" not in text
    for raw in ("signed_by", "submitted_by", "exposed_persons", "content_hash", "['"):
        assert raw not in text
    # Choices by label, lists joined.
    assert "2. Safeguarding and complementary measures" in text
    assert "Operators" in text or "operators" in text.lower()


def test_history_shows_local_time_with_its_zone_never_utc_iso(
    owner_client, story, cell, settings
):
    entry = AuditEntry.objects.filter(action="sign").get()
    local = entry.at.astimezone(ZoneInfo(settings.TIME_ZONE))
    text = owner_client.get(history(cell)).text
    assert f"{local:%Y-%m-%d %H:%M} KST" in text
    signed_at = Revision.objects.get(pk=story["revision"].pk).signed_at
    assert signed_at.isoformat()[:19] not in text
    assert "+00:00" not in text


def test_history_in_korean_has_no_raw_keys(owner_client, story, cell, named):
    _owner, engineer = named
    with translation.override("ko"):
        response = owner_client.get(history(cell), HTTP_ACCEPT_LANGUAGE="ko")
    text = response.text
    for raw in ("signed_by", "severity:", "residual_", "exposed_persons", "['"):
        assert raw not in text
    # Neither an id for a person nor an English field name.
    assert f": {engineer.pk}<" not in text and f": {engineer.pk};" not in text
    for english in ("signed by", "submitted by", "severity (S)", "intended use"):
        assert english not in text
    assert "상해의 심각도 (S)" in text


def test_long_texts_are_shortened_with_the_full_text_kept(
    owner_client, revision, cell, owner
):
    long = "Palletising cartons " * 20
    services.revision_update_limits(
        revision=revision, actor=owner, version=revision.version, intended_use=long
    )
    text = owner_client.get(history(cell)).text
    assert "<details" in text and long.strip() in text
    assert "…</summary>" in text


def test_booleans_read_yes_or_no(owner_client, hazard, cell, owner):
    services.hazard_update(
        hazard=hazard, actor=owner, version=hazard.version, low_probability=True
    )
    text = owner_client.get(history(cell)).text
    assert "low probability of occurrence: no → yes" in text
    assert "False" not in text and "True" not in text


def test_history_filters_by_person_kind_and_days(owner_client, story, cell, named):
    _owner, engineer = named
    by_kim = owner_client.get(history(cell), {"person": engineer.pk})
    assert "Kim Safety signed revision 1" in by_kim.text
    assert {s.actor for s in by_kim.context["stories"]} == {"Kim Safety"}
    measures = owner_client.get(history(cell), {"kind": "measure"}).text
    assert "added a measure" in measures and "submitted revision" not in measures
    today = dt.datetime.now(ZoneInfo("Asia/Seoul")).date()
    tomorrow = today + dt.timedelta(days=1)
    none = owner_client.get(history(cell), {"date_from": tomorrow}).text
    assert "No change matches these filters." in none
    some = owner_client.get(history(cell), {"date_from": today, "date_to": today}).text
    assert "Kim Safety signed revision 1" in some


@pytest.mark.parametrize(
    "query, field",
    [
        ({"date_from": "not a day"}, "date_from"),
        ({"date_to": "9999-12-31"}, "date_to"),
        ({"date_from": "2026-12-02", "date_to": "2026-12-01"}, "date_to"),
        ({"person": "x"}, "person"),
        ({"kind": "everything"}, "kind"),
    ],
)
def test_bad_filters_are_form_errors_not_500(owner_client, story, cell, query, field):
    response = owner_client.get(history(cell), {**query, "page": "9" * 50})
    assert response.status_code == 200
    assert response.context["form"].errors.keys() == {field}


def _entries(revision, owner, n):
    hazard = services.hazard_add(revision=revision, actor=owner, **CRUSHING)
    for i in range(n):
        hazard = services.hazard_update(
            hazard=hazard, actor=owner, version=hazard.version, task=f"Task {i}"
        )


def test_history_is_paginated_50_at_a_time(owner_client, revision, cell, owner):
    _entries(revision, owner, 60)
    first = owner_client.get(history(cell))
    assert len(first.context["stories"]) == 50
    assert "page=2" in first.text
    second = owner_client.get(history(cell), {"page": 2})
    assert len(second.context["stories"]) == AuditEntry.objects.count() - 50


@pytest.mark.parametrize("n", [5, 120])
def test_history_queries_do_not_grow_with_entries(
    owner_client, revision, cell, owner, layout, n, django_assert_max_num_queries
):
    _entries(revision, owner, n)
    device = DeviceFactory(cell=cell)
    hazard = revision.hazards.get()
    for i in range(min(n, 10)):
        services.measure_add(
            hazard=hazard,
            actor=owner,
            step="safeguarding",
            description=f"M{i}",
            device=device,
            segment=None,
        )
    with django_assert_max_num_queries(HISTORY_QUERIES_MAX):
        response = owner_client.get(history(cell))
    assert response.status_code == 200


def test_outsider_gets_404_for_the_history(outsider_client, revision, cell):
    assert outsider_client.get(history(cell)).status_code == 404


@pytest.mark.parametrize(
    "kind, shown, hidden",
    [
        ("hazard", "changed hazard H1", "added a measure"),
        ("measure", "added a measure", "changed hazard H1"),
        ("limits", "changed the limits of the machine", "signed revision"),
        ("workflow", "Kim Safety signed revision 1", "added a measure"),
    ],
)
def test_each_kind_of_change_keeps_only_its_own(
    owner_client, story, cell, kind, shown, hidden
):
    response = owner_client.get(history(cell), {"kind": kind})
    assert response.status_code == 200
    assert shown in response.text and hidden not in response.text


def test_discarded_suggestions_are_a_kind_of_their_own(
    owner_client, revision, cell, owner
):
    services.suggestion_dismiss(revision=revision, actor=owner, key="gripper-trapping")
    text = owner_client.get(history(cell), {"kind": "suggestions"}).text
    assert "discarded a suggested hazard in revision 1" in text
    assert "gripper-trapping" not in text
    assert "started the risk assessment" not in text


def test_a_changed_measure_reads_as_its_description_before_and_after(
    owner_client, hazard, cell, owner
):
    measure = services.measure_add(
        hazard=hazard, actor=owner, step="information_for_use", description="Sign"
    )
    services.measure_update(
        measure=measure, actor=owner, version=measure.version, description="Sign B"
    )
    text = owner_client.get(history(cell)).text
    assert "changed the description of a measure of hazard H1: Sign → Sign B" in text
