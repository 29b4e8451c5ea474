"""Issue 17 end to end: a project's jurisdiction and editions, the German cell
planned for 2027 under the Regulation and ISO 13855:2024, the US cell under
R15.06; findings that name what they were computed under; a rule changed
marks the older proposal superseded, and it is computed again."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.urls import reverse
from pypdf import PdfReader
from rest_framework.test import APIClient

from compliance.models import ProposalDocument
from compliance.proposals.services import proposal_request
from compliance.rules import engine, history
from tests.factories import DeviceFactory, GuardSegmentFactory, OpeningFactory

ALL = ["summary", "cell", "risk", "costs", "schedule", "terms", "rules", "findings"]


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def groups_by_rule(data):
    return {g["rule"]["id"]: g for g in data["groups"]}


@pytest.fixture
def scanner_cell(cell):
    """A fenced cell whose infeed is guarded by a scanner's horizontal field
    (H = 300 mm, d = 70 mm, response 80 ms, Z = 100 mm; field 2,100 mm), the
    robot stopping in 400 ms: T = 480 ms."""
    cell.stopping_time_ms = 400
    cell.hazard_zone_height_mm = 1400
    cell.save()
    segment = GuardSegmentFactory(cell=cell, label="F1")
    opening = OpeningFactory(segment=segment, label="Infeed")
    DeviceFactory(
        cell=cell,
        kind="laser_scanner",
        label="SC1",
        opening=opening,
        response_time_ms=80,
        detection_capability_mm=70,
        field_height_mm=300,
        protective_field_mm=2100,
        supplement_z_mm=100,
        iec61496_type=3,
        x1_mm=1500,
        y1_mm=200,
    )
    return cell


def _in(project, country, **fields):
    project.country = country
    for name, value in fields.items():
        setattr(project, name, value)
    project.full_clean()
    project.save()


# --- the Done-when scenarios ------------------------------------------------------


def test_a_german_cell_planned_for_2027_cites_the_regulation_and_iso_13855_2024(
    owner, project, scanner_cell
):
    _in(project, "DE", planned_start=date(2027, 3, 1))
    data = api(owner).get(f"/api/v1/cells/{scanner_cell.pk}/findings/").json()
    rules = groups_by_rule(data)
    assert "EU-MR-risk-assessment" in rules
    assert not any(rule_id.startswith("EU-MD-") for rule_id in rules)
    assert rules["EU-MR-risk-assessment"]["rule"]["citation"].startswith(
        "Regulation (EU) 2023/1230"
    )
    # The jurisdiction's default edition: the parallel approach by 2024.
    assert data["computed_under"]["editions"]["iso13855"] == "2024"
    assert "ISO 13855:2024" in data["editions"]
    assert "INTL-13855-distance" not in rules
    (scanner,) = rules["INTL-13855-2024-distance"]["findings"]
    # S = 1600 × 0.48 + 1200 + 100 = 2068 mm; the field reaches 2,100 mm.
    assert scanner["status"] == "pass"
    assert scanner["numbers"]["required_mm"] == 2068
    assert scanner["citation"].startswith("ISO 13855:2024 (EN ISO 13855:2025), 6.3")
    # Each pack at the release that last changed one of its rules: the EU
    # pack at 2, the baseline at 3 (issue 27 changed three of its rules).
    assert data["computed_under"]["packs"] == {
        "eu_regulation": 2,
        "baseline": history.CURRENT.version,
    }


def test_the_same_cell_planned_for_2026_is_under_the_directive(
    owner, project, scanner_cell
):
    _in(project, "DE", planned_start=date(2026, 12, 31))
    rules = groups_by_rule(
        api(owner).get(f"/api/v1/cells/{scanner_cell.pk}/findings/").json()
    )
    assert "EU-MD-risk-assessment" in rules
    assert not any(rule_id.startswith("EU-MR-") for rule_id in rules)


def test_a_us_cell_gets_the_r15_06_findings(owner, project, scanner_cell):
    _in(project, "US")
    data = api(owner).get(f"/api/v1/cells/{scanner_cell.pk}/findings/").json()
    rules = groups_by_rule(data)
    for rule_id in (
        "US-R15.06-integration",
        "US-R15.06-part3-users",
        "US-OSHA-1910.212",
        "US-OSHA-1910.147",
    ):
        assert rules[rule_id]["findings"], rule_id
    assert rules["US-R15.06-integration"]["rule"]["jurisdiction"] == "US"


def test_a_korean_cell_keeps_iso_13855_2010_unless_it_chooses_2024(
    owner, project, scanner_cell
):
    rules = groups_by_rule(
        api(owner).get(f"/api/v1/cells/{scanner_cell.pk}/findings/").json()
    )
    assert "INTL-13855-distance" in rules and "KR-223-fence-height" in rules
    _in(project, "KR", standard_editions={"iso13855": "2024"})
    rules = groups_by_rule(
        api(owner).get(f"/api/v1/cells/{scanner_cell.pk}/findings/").json()
    )
    assert "INTL-13855-2024-distance" in rules


# --- choosing the edition --------------------------------------------------------


def test_the_project_form_chooses_the_edition_and_the_planned_start(
    owner_client, project
):
    url = reverse("cells:project_edit", args=[project.pk])
    page = owner_client.get(url)
    assert "Edition of ISO 13855" in page.text
    data = {
        "name": project.name,
        "customer_name": project.customer_name,
        "country": "DE",
        "proposal_language": "en",
        "currency": "EUR",
        "planned_start": "2027-04-01",
        "edition_iso13855": "2010",
    }
    assert owner_client.post(url, data).status_code == 302
    project.refresh_from_db()
    assert project.standard_editions == {"iso13855": "2010"}
    assert project.planned_start == date(2027, 4, 1)
    assert project.editions["iso13855"] == "2010"
    data["edition_iso13855"] = ""  # back to the jurisdiction's default
    owner_client.post(url, data)
    project.refresh_from_db()
    assert project.standard_editions == {}
    assert project.editions["iso13855"] == "2024"


def test_the_api_takes_an_edition_and_refuses_one_it_does_not_know(owner, project):
    client = api(owner)
    url = f"/api/v1/projects/{project.pk}/"
    ok = client.patch(url, {"standard_editions": {"iso13855": "2024"}}, format="json")
    assert ok.status_code == 200
    assert ok.json()["editions"]["iso13855"] == "2024"
    assert ok.json()["jurisdiction"] == "KR"
    for bad in ({"iso13855": "2019"}, {"iso10218": "2011"}, {"nope": "1"}):
        response = client.patch(url, {"standard_editions": bad}, format="json")
        assert response.status_code == 400
        assert "standard_editions" in response.json()


# --- computed under, and superseded ----------------------------------------------


def test_the_compliance_page_says_what_it_was_computed_under(
    owner_client, project, scanner_cell
):
    _in(project, "DE", planned_start=date(2027, 3, 1))
    page = owner_client.get(
        reverse("compliance:cell_compliance", args=[scanner_cell.pk])
    )
    assert page.status_code == 200
    assert f"Rule set release {history.CURRENT.version}" in page.text
    assert "ISO 13855:2024" in page.text
    assert "EUR-Lex" in page.text


def _changed_rule(monkeypatch):
    """A new release of the app that rewords KR-223-fence-height: the rule in
    the code and the newest release's fingerprint change together."""
    import dataclasses

    korea = engine.KOREA
    old = korea.rules[0]
    new = dataclasses.replace(old, citation=old.citation + " (reworded)")
    rules = (new, *korea.rules[1:])
    monkeypatch.setattr(
        engine, "KOREA", dataclasses.replace(korea, rules=rules), raising=True
    )
    monkeypatch.setitem(engine.NATIONAL_PACKS, "KR", engine.KOREA)
    release = history.Release(
        version=history.CURRENT.version + 1,
        released_on=date(2027, 1, 5),
        rules={**history.CURRENT.rules, old.id: history.fingerprint(new)},
    )
    monkeypatch.setattr(history, "RELEASES", (*history.RELEASES, release))
    monkeypatch.setattr(history, "CURRENT", release)
    monkeypatch.setitem(
        history.CHANGE_NOTES, (release.version, old.id), "Reworded for the test."
    )
    return release


def test_a_changed_rule_marks_the_older_proposal_superseded_and_it_is_built_again(
    owner, owner_client, scanner_cell, monkeypatch, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = proposal_request(
            cell=scanner_cell, actor=owner, language="en", sections=ALL
        )
    first.refresh_from_db()
    assert first.status == "ready"
    assert first.computed_under["ruleset"] == history.CURRENT.version
    text = "\n".join(
        p.extract_text() for p in PdfReader(io.BytesIO(bytes(first.pdf))).pages
    )
    assert f"Computed under rule set release {history.CURRENT.version}" in text
    assert "ISO 13855:2010" in text  # Korea's default edition

    proposal_url = reverse("compliance:proposal", args=[scanner_cell.pk])
    assert "Computed under superseded rules" not in owner_client.get(proposal_url).text
    data = api(owner).get(f"/api/v1/proposal-documents/{first.pk}/").json()
    assert data["superseded"] is False and data["superseded_rules"] == []

    release = _changed_rule(monkeypatch)
    page = owner_client.get(proposal_url).text
    assert "Computed under superseded rules" in page
    assert "KR-223-fence-height" in page and "Reworded for the test." in page
    data = api(owner).get(f"/api/v1/proposal-documents/{first.pk}/").json()
    assert data["superseded"] is True
    assert data["superseded_rules"] == [
        {"rule_id": "KR-223-fence-height", "change": "changed"}
    ]
    compliance = owner_client.get(
        reverse("compliance:cell_compliance", args=[scanner_cell.pk])
    ).text
    assert "Computed under superseded rules" in compliance

    rebuild = reverse("compliance:proposal_document_rebuild", args=[first.pk])
    with django_capture_on_commit_callbacks(execute=True):
        assert owner_client.post(rebuild).status_code == 302
    second = ProposalDocument.objects.exclude(pk=first.pk).get()
    assert (second.version, second.language, second.sections) == (2, "en", ALL)
    assert second.computed_under["ruleset"] == release.version
    data = api(owner).get(f"/api/v1/proposal-documents/{second.pk}/").json()
    assert data["superseded"] is False


def test_a_proposal_built_before_stamps_reads_as_release_1_and_superseded(
    owner, scanner_cell, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        document = proposal_request(
            cell=scanner_cell, actor=owner, language="ko", sections=ALL
        )
    ProposalDocument.objects.filter(pk=document.pk).update(computed_under=None)
    data = api(owner).get(f"/api/v1/proposal-documents/{document.pk}/").json()
    assert data["computed_under"] is None
    assert data["superseded"] is True  # release 2 changed and added rules
    changed = {r["rule_id"]: r["change"] for r in data["superseded_rules"]}
    assert changed["INTL-10218-1-robot-class"] == "added"


def test_a_viewer_cannot_rebuild_and_an_outsider_gets_404(
    owner, viewer, outsider, scanner_cell, django_capture_on_commit_callbacks
):
    from django.test import Client

    with django_capture_on_commit_callbacks(execute=True):
        document = proposal_request(
            cell=scanner_cell, actor=owner, language="en", sections=ALL
        )
    url = reverse("compliance:proposal_document_rebuild", args=[document.pk])
    for user, status in ((viewer, 403), (outsider, 404)):
        client = Client()
        client.force_login(user)
        assert client.post(url).status_code == status
    assert ProposalDocument.objects.count() == 1


# --- the Rules page --------------------------------------------------------------


def test_the_rules_page_lists_every_pack_and_each_rules_history(owner_client):
    page = owner_client.get(reverse("compliance:rules")).text
    for pack in engine.ALL_PACKS:
        assert f'id="pack-{pack.key}"' in page
    assert "Machinery Regulation (EU) 2023/1230" in page
    assert "ANSI/A3 R15.06-2025" in page
    assert "Release 1 (" in page and "Release 2 (" in page
    assert "Now applies to projects computing with ISO 13855:2010 only" in page
    assert "ISO 13855:2024" in page and "EN ISO 13855:2025" in page


def test_the_rules_page_makes_no_query_but_the_session(
    owner_client, django_assert_max_num_queries
):
    with django_assert_max_num_queries(3):
        owner_client.get(reverse("compliance:rules"))


def test_the_proposal_page_reads_the_rules_once_however_many_versions_are_built(
    owner, owner_client, scanner_cell, django_capture_on_commit_callbacks
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("compliance:proposal", args=[scanner_cell.pk])
    counts = []
    for total in (1, 3):
        while ProposalDocument.objects.count() < total:
            with django_capture_on_commit_callbacks(execute=True):
                proposal_request(
                    cell=scanner_cell, actor=owner, language="en", sections=ALL
                )
        with CaptureQueriesContext(connection) as queries:
            owner_client.get(url)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
