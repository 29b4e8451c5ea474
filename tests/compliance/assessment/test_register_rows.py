"""The register's rows are written by the template's ``hazard-row`` partial
and kept in the cache under what they show (``views.register.keep_rows``):
a kept row is the row the template writes, in English and Korean, editable
or not; whatever changes what a row shows, by whatever path, shows at once
in both languages; rows of one organisation, cell or revision are never
served for another's; a kept row's form carries the asker's CSRF token."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from cells.models import GuardSegment
from compliance.assessment import services
from compliance.assessment.models import Hazard, Measure
from compliance.assessment.views import register as views
from tests.compliance.conftest import CRUSHING, sign_revision, state_limits
from tests.factories import (
    CellFactory,
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
    ProjectFactory,
)
from tests.kept import forget_kept

TOKEN = re.compile(
    r'(name="csrfmiddlewaretoken" value|name="csrf-token" content)="[^"]+"'
)
ROW_TOKEN = re.compile(
    r'<tr id="hazard-(\d+)".*?name="csrfmiddlewaretoken" value="([^"]+)"', re.S
)


def page(revision) -> str:
    return reverse("compliance:assessment", args=[revision.assessment.cell_id])


def korean(client) -> None:
    client.post(reverse("set_language"), {"language": "ko", "next": "/"})


def english(client) -> None:
    client.post(reverse("set_language"), {"language": "en", "next": "/"})


def kept_rows() -> dict[str, dict]:
    """The register's entries in the cache (local memory), by key."""
    found = {}
    for key in list(cache._cache):
        if ":csp:register-rows:" in key:
            name = key.split(":", 2)[2]
            found[name] = cache.get(name)
    return found


def kept_then_cold(client, url) -> tuple[str, str]:
    """The page as it comes, then with nothing kept (the CSRF tokens left
    out)."""
    kept = client.get(url).text
    forget_kept()
    return TOKEN.sub("", kept), TOKEN.sub("", client.get(url).text)


def cold_then_kept(client, url, monkeypatch) -> tuple[str, str]:
    """The page with every row written by the template, then with every row
    from the cache (writing one then fails the test); the CSRF tokens,
    masked afresh each time, left out."""
    forget_kept()
    cold = client.get(url).text
    with monkeypatch.context() as patched:
        patched.setattr(views, "get_template", None)
        warm = client.get(url).text
    return TOKEN.sub("", cold), TOKEN.sub("", warm)


@pytest.fixture
def varied(cell, layout, safety_engineer):
    """A draft register with every kind of row: estimated or not, a low
    probability, a body region with its contact, a place, measures linked
    to a device whose check fails, a safety function, an unacceptable rest."""
    cell.stopping_time_ms = 300
    cell.save()
    curtain = DeviceFactory(
        cell=cell, label="LC <1>", x1_mm=2000, y1_mm=1500, x2_mm=2100, y2_mm=1500
    )
    low = GuardSegmentFactory(cell=cell, label="Low & fence", height_mm=1400)
    OpeningFactory(segment=low, label="Gap")
    revision = state_limits(
        services.assessment_open(cell=cell, actor=safety_engineer), safety_engineer
    )
    rows = [
        {"severity": "S2", "frequency": "F2", "avoidance": "P1"},
        {
            "severity": "S2",
            "frequency": "F1",
            "avoidance": "P2",
            "low_probability": True,
            "residual_severity": "S1",
            "residual_frequency": "F1",
            "residual_avoidance": "P1",
        },
        {
            "severity": "S1",
            "frequency": "F2",
            "avoidance": "P1",
            "body_region": "hands_fingers",
            "contact_type": "transient",
            "contact_area_cm2": Decimal("1.5"),
        },
        {},
    ]
    for i, values in enumerate(rows):
        hazard = services.hazard_add(
            revision=revision,
            actor=safety_engineer,
            **{**CRUSHING, "task": f"Task {i} <b>\"quoted\"</b> & 'single'"},
            location_key=f"segment:{low.pk}" if i == 1 else "",
            **values,
        )
        if i == 0:
            services.measure_add(
                hazard=hazard,
                actor=safety_engineer,
                step="safeguarding",
                description="Curtain <stops> it",
                device=curtain,
            )
            services.measure_add(
                hazard=hazard,
                actor=safety_engineer,
                step="safeguarding",
                description="Fence",
                segment=low,
                is_safety_function=True,
                plr_required="d",
            )
        if i == 1:
            services.measure_add(
                hazard=hazard,
                actor=safety_engineer,
                step="information_for_use",
                description="Sign",
            )
    return revision


def test_kept_rows_are_the_templates_for_an_editor(owner_client, varied, monkeypatch):
    cold, warm = cold_then_kept(owner_client, page(varied), monkeypatch)
    assert cold.count('class="hazard-row') == 4
    assert "Ineffective:" in cold and "measure-actions" in cold
    assert "&lt;b&gt;" in cold and "<b>" not in cold.split("<tbody>")[1]
    assert warm == cold


def test_kept_rows_are_the_templates_for_a_reader_and_in_korean(
    viewer_client, varied, monkeypatch
):
    cold, warm = cold_then_kept(viewer_client, page(varied), monkeypatch)
    assert "measure-actions" not in cold and "csrfmiddlewaretoken" not in cold
    assert warm == cold
    korean(viewer_client)
    cold, warm = cold_then_kept(viewer_client, page(varied), monkeypatch)
    assert "위험" in cold
    assert warm == cold


def test_a_reader_never_gets_an_editors_kept_rows(varied, owner, viewer):
    editor, reader = Client(), Client()
    editor.force_login(owner)
    reader.force_login(viewer)
    assert "measure-actions" in editor.get(page(varied)).text
    rows = reader.get(page(varied)).text.split("<tbody>")[1].split("</tbody>")[0]
    assert rows.count('class="hazard-row') == 4
    assert "measure-actions" not in rows and "csrfmiddlewaretoken" not in rows


def test_kept_rows_of_a_signed_revision_are_the_templates(
    owner_client, varied, safety_engineer, monkeypatch
):
    unestimated = varied.hazards.get(task__startswith="Task 3")
    services.hazard_delete(hazard=unestimated, actor=safety_engineer)
    for hazard in varied.hazards.filter(residual_severity=""):
        services.hazard_update(  # signing asks for every residual risk
            hazard=hazard,
            actor=safety_engineer,
            version=hazard.version,
            residual_severity=hazard.severity,
            residual_frequency=hazard.frequency,
            residual_avoidance=hazard.avoidance,
        )
    revision = services.revision_submit(revision=varied, actor=safety_engineer)
    sign_revision(revision, safety_engineer)
    cold, warm = cold_then_kept(owner_client, page(varied), monkeypatch)
    assert cold.count('class="hazard-row') == 3
    assert "measure-actions" not in cold
    assert warm == cold


def test_an_edit_shows_at_once_in_both_languages(owner_client, varied, safety_engineer):
    hazard = varied.hazards.get(task__startswith="Task 0")
    measure = hazard.measures.get(description="Fence")
    for language in (english, korean):
        language(owner_client)
        assert "Task 0" in owner_client.get(page(varied)).text
    services.hazard_update(
        hazard=hazard,
        actor=safety_engineer,
        version=hazard.version,
        task="Palletising the outfeed",
    )
    services.measure_update(
        measure=measure,
        actor=safety_engineer,
        version=measure.version,
        description="Fixed fence",
    )
    # Written past the services, keeping every version: the row shows it too.
    Hazard.objects.filter(task__startswith="Task 1").update(task="Raw SQL task")
    Measure.objects.filter(description="Sign").update(description="Raw sign")
    for language in (english, korean):
        language(owner_client)
        text, cold = kept_then_cold(owner_client, page(varied))
        assert text == cold
        assert "Palletising the outfeed" in text and "Task 0" not in text
        assert "Fixed fence" in text
        assert "Raw SQL task" in text and "Task 1" not in text
        assert "Raw sign" in text


def test_a_check_that_changes_shows_on_a_kept_row(owner_client, varied):
    """The layout is no column of the register: the fence's check is."""
    failing = 'data-ineffective="KR-223-fence-height'
    for language in (english, korean):
        language(owner_client)
        assert failing in owner_client.get(page(varied)).text
    GuardSegment.objects.filter(label="Low & fence").update(height_mm=1800)
    for language in (english, korean):
        language(owner_client)
        text, cold = kept_then_cold(owner_client, page(varied))
        assert text == cold
        assert failing not in text


def test_rows_are_kept_apart_by_organisation_cell_revision_and_language(
    owner, outsider, varied
):
    """The same register in another organisation: each page shows its own
    hazards only, each kept under its own ids."""
    theirs = CellFactory(
        project=ProjectFactory(organisation=outsider.memberships.get().organisation)
    )
    revision = state_limits(
        services.assessment_open(cell=theirs, actor=outsider), outsider
    )
    for hazard in varied.hazards.order_by("order"):
        services.hazard_add(
            revision=revision,
            actor=outsider,
            group=hazard.group,
            origin=hazard.origin,
            consequence=hazard.consequence,
            phase=hazard.phase,
            task=hazard.task,
        )
    owner_client, outsider_client = Client(), Client()
    owner_client.force_login(owner)
    outsider_client.force_login(outsider)
    ours = owner_client.get(page(varied)).text
    korean(owner_client)
    owner_client.get(page(varied))
    other = outsider_client.get(page(revision)).text
    our_rows = frozenset(map(int, re.findall(r'<tr id="hazard-(\d+)"', ours)))
    their_rows = frozenset(map(int, re.findall(r'<tr id="hazard-(\d+)"', other)))
    assert our_rows == set(varied.hazards.values_list("pk", flat=True))
    assert their_rows == set(revision.hazards.values_list("pk", flat=True))
    assert not our_rows & their_rows
    ids = (varied.assessment.cell.project.organisation_id, varied.assessment.cell_id)
    their_ids = (theirs.project.organisation_id, theirs.pk)
    assert ids != their_ids
    found = set()
    for key, rows in kept_rows().items():
        _csp, _name, org, cell, rev, language, _editable, _code = key.split(":")
        found.add((int(org), int(cell), int(rev), language, frozenset(rows)))
    assert found == {
        (*ids, varied.pk, "en", our_rows),
        (*ids, varied.pk, "ko", our_rows),
        (*their_ids, revision.pk, "en", their_rows),
    }


def test_a_kept_row_carries_the_askers_csrf_token(varied, owner, safety_engineer):
    """Rows kept for one editor, then served to another: the other's delete
    form passes Django's CSRF check."""
    first = Client()
    first.force_login(safety_engineer)
    first.get(page(varied))
    second = Client(enforce_csrf_checks=True)
    second.force_login(owner)
    text = second.get(page(varied)).text
    pk, token = ROW_TOKEN.search(text).groups()
    url = reverse("compliance:hazard_delete", args=[pk])
    assert second.post(url).status_code == 403
    response = second.post(url, {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert not Hazard.objects.filter(pk=pk).exists()


def test_a_deleted_hazard_leaves_the_kept_rows(owner_client, varied, safety_engineer):
    owner_client.get(page(varied))
    gone = varied.hazards.get(task__startswith="Task 3")
    services.hazard_delete(hazard=gone, actor=safety_engineer)
    owner_client.get(page(varied))
    (rows,) = kept_rows().values()
    assert set(rows) == set(varied.hazards.values_list("pk", flat=True))


def test_a_row_being_edited_is_the_templates_and_the_others_kept(owner_client, varied):
    owner_client.get(page(varied))
    hazard = varied.hazards.get(task__startswith="Task 1")
    measure = hazard.measures.get()
    response = owner_client.get(reverse("compliance:measure_edit", args=[measure.pk]))
    assert response.status_code == 200
    assert 'class="measure measure-edit"' in response.text
    assert response.text.count('class="hazard-row') == 4
