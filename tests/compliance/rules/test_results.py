"""Findings and cost lines are computed once per change of what they are
computed from, kept in the cache under the content version of those inputs,
shared by the pages, the API and the proposal, and never stale: each input
changed in turn shows in the very next answer."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from cells.models import Device, GuardSegment, Opening, OperatorStation, Project
from cells.selectors import cell_with_layout
from compliance.assessment import services as assessment_services
from compliance.costs import services as cost_services
from compliance.proposals.checks import prebuild_notes
from compliance.rules import engine, results
from compliance.rules.findings import Status
from compliance.safety_functions import services as function_services
from tests.cells.certificates import CellCertificateFactory
from tests.compliance.conftest import CRUSHING, LIMITS, sign_revision
from tests.factories import DeviceFactory, GuardSegmentFactory, OpeningFactory
from tests.kept import forget_kept


@pytest.fixture
def fenced(cell):
    """A 1,500 mm fence with an unguarded opening, and a 1,800 mm fence whose
    opening has a light curtain drawn across it (as in ``test_pages``)."""
    cell.stopping_time_ms = 300
    cell.hazard_zone_height_mm = 1400
    cell.save()
    low = GuardSegmentFactory(
        cell=cell, label="Low", height_mm=1500, start_y_mm=-900, end_y_mm=-900
    )
    OpeningFactory(segment=low, label="Gap", upper_edge_mm=1400)
    high = GuardSegmentFactory(cell=cell, label="High", start_y_mm=4500, end_y_mm=4500)
    DeviceFactory(
        cell=cell,
        label="LC1",
        opening=OpeningFactory(segment=high, label="Infeed"),
        response_time_ms=20,
        detection_capability_mm=14,
        iec61496_type=4,
        kcs_certified=True,
        x1_mm=1000,
        y1_mm=4500,
        x2_mm=1800,
        y2_mm=4500,
        detection_lower_mm=300,
        detection_upper_mm=2000,
    )
    return cell


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


def findings(api, cell) -> dict[tuple[str, str], dict]:
    """The cell's findings over the API, by (rule, subject)."""
    data = api.get(f"/api/v1/cells/{cell.pk}/findings/").json()
    return {
        (group["rule"]["id"], finding["subject"]): finding
        for group in data["groups"]
        for finding in group["findings"]
    }


def lines(api, cell) -> dict[str, dict]:
    data = api.get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    return {item["key"]: item for item in data["items"]}


@pytest.fixture
def computed(monkeypatch):
    """How many times the rules were run (each run appended)."""
    runs = []
    evaluate = results.evaluate

    def counted(facts):
        runs.append(facts)
        return evaluate(facts)

    monkeypatch.setattr(results, "evaluate", counted)
    return runs


def test_findings_are_computed_once_for_the_pages_the_api_and_the_proposal(
    owner_client, api, owner, fenced, computed
):
    pages = [
        reverse("cells:cell_detail", args=[fenced.pk]),
        reverse("compliance:cell_compliance", args=[fenced.pk]),
        reverse("compliance:compliance_summary", args=[fenced.pk]),
        reverse("compliance:cell_costs", args=[fenced.pk]),
        reverse("compliance:cell_plan", args=[fenced.pk]),
    ]
    for url in pages:
        assert owner_client.get(url).status_code == 200
    assert api.get(f"/api/v1/cells/{fenced.pk}/findings/").status_code == 200
    assert api.get(f"/api/v1/cells/{fenced.pk}/line-items/").status_code == 200
    assert prebuild_notes(cell_with_layout(owner, fenced.pk))
    assert len(computed) == 1
    # A change: computed once more, for all of them again.
    GuardSegment.objects.filter(cell=fenced, label="Low").update(height_mm=1700)
    for url in pages:
        owner_client.get(url)
    findings(api, fenced)
    assert len(computed) == 2


def _curtain(found):
    return found[("INTL-13855-distance", "LC1")]["numbers"]


def _fence(found):
    return found.get(("KR-223-fence-height", "Low"), {}).get("status")


def _gap(found):
    return found.get(("KR-223-openings", "Low / Gap"), {}).get("status")


def _cell_field(cell):
    cell.stopping_time_ms = 500
    cell.save()


def _country(cell):
    Project.objects.filter(pk=cell.project_id).update(country="US")


def _segment(cell):
    segment = GuardSegment.objects.get(cell=cell, label="Low")
    segment.height_mm = 1800
    segment.save()


def _raw_sql(cell):
    # Another process, past the ORM: the next answer still sees it.
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE cells_guardsegment SET height_mm = 1900 WHERE cell_id = %s "
            "AND label = 'Low'",
            [cell.pk],
        )


def _opening(cell):
    Opening.objects.get(segment__cell=cell, label="Gap").delete()


def _device_moved(cell):
    Device.objects.filter(cell=cell, label="LC1").update(y1_mm=6000, y2_mm=6000)


def _device_added(cell):
    DeviceFactory(
        cell=cell,
        kind="interlocked_door",
        label="Door",
        opening=Opening.objects.get(segment__cell=cell, label="Gap"),
    )


CHANGES = {
    "cell": (_cell_field, _curtain),
    "country": (_country, _fence),
    "segment": (_segment, _fence),
    "raw SQL": (_raw_sql, _fence),
    "opening": (_opening, _gap),
    "device moved": (_device_moved, _curtain),
    "device added": (_device_added, _gap),
}


@pytest.mark.parametrize("change", CHANGES)
def test_each_change_of_the_layout_shows_in_the_next_answer(api, fenced, change):
    alter, read = CHANGES[change]
    before = read(findings(api, fenced))
    assert read(findings(api, fenced)) == before  # from the cache
    alter(fenced)
    assert read(findings(api, fenced)) != before


def _signable(cell, engineer, **limits):
    revision = assessment_services.assessment_open(cell=cell, actor=engineer)
    assessment_services.hazard_add(
        revision=revision,
        actor=engineer,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        # Signing needs the residual risk estimated too (issue 27).
        residual_severity="S2",
        residual_frequency="F2",
        residual_avoidance="P1",
        **CRUSHING,
    )
    return assessment_services.revision_update_limits(
        revision=revision,
        actor=engineer,
        version=revision.version,
        **(LIMITS | limits),
    )


def test_a_justification_counts_once_signed_and_a_draft_one_shows_pending(
    api, fenced, safety_engineer
):
    assert _fence(findings(api, fenced)) == "fail"
    revision = _signable(fenced, safety_engineer)
    found = findings(api, fenced)[("KR-223-fence-height", "Low")]
    assert found["status"] == "fail"
    assert not any("draft revision" in note for note in found["notes"])
    justified = "The robot's range of motion keeps it 2 m from the low fence."
    revision = assessment_services.revision_update_limits(
        revision=revision,
        actor=safety_engineer,
        version=revision.version,
        low_guard_justification=justified,
    )
    found = findings(api, fenced)[("KR-223-fence-height", "Low")]
    assert found["status"] == "fail"
    assert any("draft revision 1" in note for note in found["notes"])
    revision = assessment_services.revision_submit(
        revision=revision, actor=safety_engineer
    )
    sign_revision(revision, safety_engineer)
    assert _fence(findings(api, fenced)) == "warning"
    # The next revision drops the justification: pending until it is signed.
    draft = assessment_services.revision_start_next(
        revision=revision.__class__.objects.get(pk=revision.pk), actor=safety_engineer
    )
    assessment_services.revision_update_limits(
        revision=draft,
        actor=safety_engineer,
        version=draft.version,
        low_guard_justification="",
    )
    assert _fence(findings(api, fenced)) == "warning"


@pytest.fixture
def cobot(fenced):
    fenced.robot_kind, fenced.collaborative_modes = "collaborative", ["pfl"]
    fenced.save()
    return fenced


def _route(found):
    ((_key, route),) = [(k, f) for k, f in found.items() if k[0] == "KR-cobot-route"]
    return route["status"], route["message"]


def test_a_certificate_recorded_or_expiring_shows_in_the_next_answer(
    api, cobot, safety_engineer, monkeypatch
):
    revision = _signable(cobot, safety_engineer, conformity_route="KS B ISO 10218-2")
    sign_revision(
        assessment_services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )
    assert _route(findings(api, cobot))[0] == "needs_evidence"
    today = timezone.localdate()
    CellCertificateFactory(
        cell=cobot,
        number="KIRIA-CW-2026-777",
        issued_on=today - timedelta(days=30),
        valid_until=today,
    )
    status, message = _route(findings(api, cobot))
    assert status == "pass" and "KIRIA-CW-2026-777" in message
    # The next day the certificate has expired: the day is an input too.
    tomorrow = today + timedelta(days=1)
    monkeypatch.setattr(timezone, "localdate", lambda *args: tomorrow)
    assert _route(findings(api, cobot))[0] == "needs_evidence"


def test_a_safety_function_and_its_subsystems_show_in_the_next_answer(
    api, fenced, safety_engineer
):
    def function_findings():
        return {k: f for k, f in findings(api, fenced).items() if "LC1" in k[1]}

    before = function_findings()
    curtain = Device.objects.get(cell=fenced, label="LC1")
    function = function_services.function_suggestion_accept(
        cell=fenced, actor=safety_engineer, key=f"device:{curtain.pk}"
    )
    with_function = function_findings()
    assert with_function != before
    for subsystem in function.subsystems.all():
        function_services.subsystem_update(
            subsystem=subsystem, actor=safety_engineer, route="pl_only", pl="e"
        )
    reaching_e = function_findings()
    assert reaching_e != with_function
    # Past the services (which count the function's versions): the row alone.
    function.subsystems.filter(role="logic").update(pl="a")
    assert function_findings() != reaching_e


def test_each_cost_input_shows_in_the_next_lines(api, fenced, owner, organisation):
    before = lines(api, fenced)
    fence = next(key for key in before if key.startswith("fence"))
    assert lines(api, fenced) == before  # from the cache
    # The organisation's catalogue.
    cost_services.catalogue_entry_edit(
        organisation=organisation,
        actor=owner,
        key=before[fence]["catalogue_key"],
        price_low=Decimal("70"),
        price_high=Decimal("71"),
        currency="USD",
        price_date=None,
        lead_time_weeks_low=None,
        lead_time_weeks_high=None,
        source="Quote 1",
    )
    priced = lines(api, fenced)
    assert priced[fence]["price_low"] != before[fence]["price_low"]
    # An operator station: one more emergency stop.
    stops = [k for k in priced if "emergency" in k]
    OperatorStation.objects.create(cell=fenced, label="HMI", x_mm=0, y_mm=-900)
    OperatorStation.objects.create(cell=fenced, label="HMI 2", x_mm=0, y_mm=-1900)
    stations = lines(api, fenced)
    assert [stations[k]["quantity"] for k in stops] != [
        priced[k]["quantity"] for k in stops
    ]
    # The cell's own line.
    cost_services.custom_line_save(
        cell=fenced,
        actor=owner,
        description="Commissioning support",
        category="service",
        quantity=Decimal("1"),
        unit="job",
        price_low=Decimal("500"),
        price_high=Decimal("800"),
        currency="USD",
    )
    assert any(
        item["description"] == "Commissioning support"
        for item in lines(api, fenced).values()
    )

    # A change of the layout reaches the lines too.
    def metres(items):
        return sum(Decimal(i["quantity"]) for k, i in items.items() if "fence" in k)

    GuardSegment.objects.filter(cell=fenced).update(end_x_mm=8000)
    assert metres(lines(api, fenced)) > metres(stations)


def test_a_new_rule_pack_version_computes_the_findings_again(api, fenced, monkeypatch):
    before = findings(api, fenced)
    first = engine.BASELINE.rules[0]

    def stricter(facts):
        return [first.finding(Status.FAIL, ("cell", "Cell"), "A stricter rule (test).")]

    changed = dataclasses.replace(first, check=stricter)
    monkeypatch.setattr(
        engine,
        "BASELINE",
        dataclasses.replace(
            engine.BASELINE, rules=(changed, *engine.BASELINE.rules[1:])
        ),
    )
    # The same version: what was computed stands.
    assert findings(api, fenced) == before
    monkeypatch.setattr(engine, "RULES_VERSION", engine.RULES_VERSION + "-next")
    (stricter_finding,) = [
        f for (rule, _), f in findings(api, fenced).items() if rule == first.id
    ]
    assert stricter_finding["message"] == "A stricter rule (test)."


def test_findings_kept_in_one_language_are_read_in_the_other(owner_client, fenced):
    url = reverse("compliance:cell_compliance", args=[fenced.pk])
    english = owner_client.get(url).text
    owner_client.post(reverse("set_language"), {"language": "ko", "next": "/"})
    korean = owner_client.get(url).text
    owner_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "Art. 223 requires" in english
    assert "Art. 223 requires" not in korean and "제223조" in korean
    assert "Art. 223 requires" in owner_client.get(url).text


def test_findings_go_through_a_shared_cache_as_plain_data(
    api, fenced, settings, computed
):
    import os

    redis = os.environ.get("REDIS_URL")
    if not redis:
        pytest.skip("REDIS_URL names no Redis to share the cache through")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis,
            "KEY_PREFIX": "test-results",
        }
    }

    forget_kept()
    first = findings(api, fenced)
    lines(api, fenced)
    # Another process (no memory of this one) reads them from Redis.
    results.forget_recent()
    assert findings(api, fenced) == first
    assert len(computed) == 1
    GuardSegment.objects.filter(cell=fenced, label="Low").update(height_mm=1800)
    assert findings(api, fenced) != first
    forget_kept()


def test_what_was_computed_while_the_cell_changed_is_not_kept(api, fenced, monkeypatch):
    from compliance.rules import inputs

    taken = inputs.versions
    calls = []

    def racing(pk):
        version = taken(pk)
        if not calls:
            # Another request changes the cell just after this one took the
            # version, before it reads the rows.
            GuardSegment.objects.filter(cell=fenced, label="Low").update(height_mm=1800)
        calls.append(version)
        return version

    monkeypatch.setattr(inputs, "versions", racing)
    assert _fence(findings(api, fenced)) == "pass"  # read after the change
    # The change undone: the rows are as the first version stood for.
    GuardSegment.objects.filter(cell=fenced, label="Low").update(height_mm=1500)
    assert _fence(findings(api, fenced)) == "fail"


def test_the_cell_is_read_into_facts_once_for_findings_costs_stamp_and_proposal(
    owner, fenced, monkeypatch
):
    # Issue 26: the findings, the cost lines, the stamp and the proposal's
    # state each worked the facts out anew (three or four times a request
    # just after a change); now one snapshot per request feeds them all.
    from compliance.costs.selectors import line_items
    from compliance.proposals.selectors import cell_status
    from compliance.rules.selectors import cell_stamp

    built = []
    real = results.cell_facts
    monkeypatch.setattr(
        results, "cell_facts", lambda *a, **k: built.append(1) or real(*a, **k)
    )
    cell = cell_with_layout(owner, fenced.pk)
    status = cell_status(cell)
    line_items(cell)
    cell_stamp(cell)
    assert len(built) == 1
    assert status.facts is results.cell_snapshot(cell)
    assert status.results and status.items

    # A change is a new version: the next request reads the cell again.
    GuardSegment.objects.filter(cell=fenced).update(height_mm=2100)
    cell_status(cell_with_layout(owner, fenced.pk))
    assert len(built) == 2
