"""A change names the version it read (issue 28): a stale one answers 409
with the object as stored and the fields that differ, and nothing is saved;
the current one saves and raises the version. The same on every editable
layout resource, and a walk of the API's writable endpoints fails on one
that is neither tested for it here nor elsewhere."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from tests.cells.certificates import CellCertificateFactory
from tests.factories import DeviceFactory, OperatorStationFactory

pytestmark = pytest.mark.django_db


def _objects(cell, segment, opening):
    return {
        "cell": (f"/api/v1/cells/{cell.pk}/", "task_description", "A", "B"),
        "guard-segment": (
            f"/api/v1/guard-segments/{segment.pk}/",
            "height_mm",
            2050,
            2100,
        ),
        "opening": (f"/api/v1/openings/{opening.pk}/", "label", "Infeed 2", "Infeed 3"),
        "operator-station": (
            f"/api/v1/operator-stations/{OperatorStationFactory(cell=cell).pk}/",
            "x_mm",
            1234,
            4321,
        ),
        "device": (
            f"/api/v1/devices/{DeviceFactory(cell=cell, kind='light_curtain').pk}/",
            "response_time_ms",
            12,
            15,
        ),
        "certificate": (
            f"/api/v1/certificates/{CellCertificateFactory(cell=cell).pk}/",
            "issuing_body",
            "KIRIA",
            "KOSHA",
        ),
    }


VERSIONED = (
    "cell",
    "guard-segment",
    "opening",
    "operator-station",
    "device",
    "certificate",
)


@pytest.mark.parametrize("resource", VERSIONED)
def test_a_stale_version_answers_409_and_saves_nothing(
    owner, cell, segment, opening, resource
):
    url, field, mine, theirs = _objects(cell, segment, opening)[resource]
    client = APIClient()
    client.force_authenticate(owner)
    read = client.get(url).json()
    version = read["version"]
    # Someone else saves first, with the version they read.
    first = client.patch(url, {field: theirs, "version": version}, format="json")
    assert first.status_code == 200, first.json()
    assert first.json()["version"] == version + 1
    # Mine, with the version I read before theirs: refused, nothing saved.
    second = client.patch(url, {field: mine, "version": version}, format="json")
    assert second.status_code == 409, second.json()
    body = second.json()
    assert body["differs"] == [field]
    assert body["current"][field] == theirs
    assert body["current"]["version"] == version + 1
    assert client.get(url).json()[field] == theirs
    # With the current version it saves.
    third = client.patch(url, {field: mine, "version": version + 1}, format="json")
    assert third.status_code == 200
    assert third.json()[field] == mine
    # A version out of bounds is a 400 naming it, never a 500.
    bad = client.patch(url, {field: mine, "version": "x"}, format="json")
    assert bad.status_code == 400 and "version" in bad.json()


def test_a_patch_without_a_version_writes_only_its_fields(owner, segment):
    # The regression of the lost updates, one request after the other: a
    # PATCH of the height leaves the mesh another client set meanwhile.
    client = APIClient()
    client.force_authenticate(owner)
    url = f"/api/v1/guard-segments/{segment.pk}/"
    client.patch(url, {"mesh_opening_mm": 30}, format="json")
    response = client.patch(url, {"height_mm": 2100}, format="json")
    assert response.status_code == 200
    assert (response.json()["height_mm"], response.json()["mesh_opening_mm"]) == (
        2100,
        30,
    )


def test_the_web_form_says_someone_else_saved_and_keeps_theirs(
    owner, owner_client, cell, segment
):
    from django.urls import reverse

    url = reverse("cells:element_edit", args=[cell.pk, "segment", segment.pk])
    page = owner_client.get(url).text
    assert 'name="version"' in page
    form = {
        "label": "F1",
        "kind": "fence",
        "start_x_mm": segment.start_x_mm,
        "start_y_mm": segment.start_y_mm,
        "end_x_mm": segment.end_x_mm,
        "end_y_mm": segment.end_y_mm,
        "height_mm": 1900,
        "lower_edge_mm": 0,
        "version": segment.version,
    }
    # Someone saves the height from the API meanwhile.
    client = APIClient()
    client.force_authenticate(owner)
    client.patch(
        f"/api/v1/guard-segments/{segment.pk}/", {"height_mm": 2200}, format="json"
    )
    response = owner_client.post(url, form)
    assert response.status_code == 200
    assert "Someone else saved this since you opened it" in response.text
    segment.refresh_from_db()
    assert segment.height_mm == 2200
    # Saving again, knowingly, replaces theirs.
    assert f'name="version" value="{segment.version}"' in response.text
    again = owner_client.post(url, {**form, "version": segment.version})
    assert again.status_code == 302
    segment.refresh_from_db()
    assert segment.height_mm == 1900


# --- every writable endpoint of the API ---------------------------------------------

# Tested for concurrent saves, and where.
CONCURRENCY_TESTED = {
    **{
        f"api:{name}-detail": "tests/cells/concurrency/test_versions.py"
        for name in VERSIONED
    },
    "compliance-api:hazard-detail": "tests/compliance/assessment/api/test_hazards.py",
    "compliance-api:measure-detail": "tests/compliance/assessment/api/test_measures.py",
    "compliance-api:revision-detail": "tests/compliance/assessment/api/test_revisions.py",
    "safety-function-detail": "tests/compliance/safety_functions/test_api.py",
    "organisation-library-device": "tests/cells/concurrency/test_versions.py",
    "cell-line-item": "tests/compliance/costs/test_versions.py",
    "cell-custom-line-item": "tests/compliance/costs/test_versions.py",
    "organisation-catalogue-entry": "tests/compliance/costs/test_versions.py",
    "cell-plan-assumption": "tests/compliance/plan/test_versions.py",
    # Written field by field under a lock (no version yet).
    "api:project-detail": "tests/cells/concurrency/test_lost_updates.py",
    "subsystem-detail": "tests/cells/concurrency/test_lost_updates.py",
}
# Not yet versioned (issue 28 goes on): a stale change to these is not
# refused yet.
NOT_YET = {
    "cell-proposal": "the proposal's texts",
    "organisation-pfhd-table": "the organisation's Table K.1 import",
    # A person confirms what a row prices: one choice, with who and when;
    # the last confirmation stands, shown on the quote's page (issue 29).
    "quote-row-match": "a quote row's confirmed match",
}


def _writable(patterns, namespace="", route=""):
    """The names of the API's endpoints that take PUT or PATCH."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = (
                f"{namespace}:{pattern.namespace}" if pattern.namespace else namespace
            )
            yield from _writable(
                pattern.url_patterns, inner, route + str(pattern.pattern)
            )
            continue
        if not (route + str(pattern.pattern)).startswith("api/"):
            continue
        assert isinstance(pattern, URLPattern)
        view = pattern.callback
        cls = getattr(view, "cls", None) or getattr(view, "view_class", None)
        if cls is None:
            continue
        actions = getattr(view, "actions", None)
        names = (
            actions.keys()
            if actions
            else [m for m in ("put", "patch") if hasattr(cls, m)]
        )
        if {"put", "patch"} & set(names):
            prefix = namespace.strip(":")
            yield f"{prefix}:{pattern.name}" if prefix else pattern.name


def test_every_writable_endpoint_is_tested_for_concurrent_saves_or_listed():
    found = set(_writable(get_resolver().url_patterns))
    assert found, "the walk found no writable endpoint"
    unknown = found - set(CONCURRENCY_TESTED) - set(NOT_YET)
    assert unknown == set(), "test these for concurrent saves, or list them"
    assert set(CONCURRENCY_TESTED) <= found and set(NOT_YET) <= found


def test_a_library_entry_refuses_a_stale_change_and_keeps_the_other_field(
    owner, organisation
):
    from compliance.safety_functions.models import LibraryDevice

    entry = LibraryDevice.objects.create(
        organisation=organisation,
        key="T-1",
        kind="light_curtain",
        maker="SICK",
        model="deTec4",
    )
    client = APIClient()
    client.force_authenticate(owner)
    url = f"/api/v1/organisations/{organisation.pk}/library-devices/{entry.pk}/"
    version = client.get(url).json()["version"]
    assert client.patch(url, {"notes": "theirs"}, format="json").status_code == 200
    stale = client.patch(
        url, {"model": "deTec4 Core", "version": version}, format="json"
    )
    assert stale.status_code == 409
    assert stale.json()["differs"] == ["model"]
    assert stale.json()["current"]["notes"] == "theirs"
    # Without a version, only the field sent is written: the notes stay.
    fine = client.patch(url, {"model": "deTec4 Core"}, format="json")
    assert fine.status_code == 200
    assert (fine.json()["model"], fine.json()["notes"]) == ("deTec4 Core", "theirs")
    assert fine.json()["version"] == version + 2


def test_a_change_to_an_element_deleted_meanwhile_does_not_make_it_again(segment):
    from cells import services
    from cells.models import GuardSegment

    stale = GuardSegment.objects.get(pk=segment.pk)
    GuardSegment.objects.filter(pk=segment.pk).delete()  # by someone else
    stale.height_mm = 2000
    with pytest.raises(GuardSegment.DoesNotExist):
        services.guard_segment_save(segment=stale, fields=["height_mm"])
    assert not GuardSegment.objects.filter(pk=segment.pk).exists()


def _as_shown(form) -> dict:
    """What the browser posts back of ``form`` unchanged: each field and its
    value as shown (``initial-<name>``), and the version."""
    data = {}
    for name, bound in form.fields.items():
        value = form[name].value()
        if value is None:
            value = ""
        data[name] = value
        if bound.show_hidden_initial:
            data[f"initial-{name}"] = value
    return data


def test_a_form_opened_before_anothers_save_of_other_fields_saves_on_top(
    owner, owner_client, cell, segment
):
    # Someone changes the mesh while I have the form open and change the
    # height: nothing of theirs is replaced, so mine is saved on top of
    # theirs, with no conflict (the form posts what it showed).
    from django.urls import reverse

    from cells.forms import GuardSegmentForm

    shown = _as_shown(GuardSegmentForm(instance=segment, cell=cell))
    assert "initial-height_mm" in shown and shown["version"] == segment.version
    client = APIClient()
    client.force_authenticate(owner)
    client.patch(
        f"/api/v1/guard-segments/{segment.pk}/", {"mesh_opening_mm": 30}, format="json"
    )
    url = reverse("cells:element_edit", args=[cell.pk, "segment", segment.pk])
    response = owner_client.post(url, {**shown, "height_mm": 2150})
    assert response.status_code == 302, response.content[:500]
    segment.refresh_from_db()
    assert (segment.height_mm, segment.mesh_opening_mm) == (2150, 30)
    # Both of us changing the height: refused, naming it, theirs kept.
    shown = _as_shown(GuardSegmentForm(instance=segment, cell=cell))
    client.patch(
        f"/api/v1/guard-segments/{segment.pk}/", {"height_mm": 2300}, format="json"
    )
    response = owner_client.post(url, {**shown, "height_mm": 1900})
    assert response.status_code == 200
    assert "differ from yours in: Height" in response.text
    segment.refresh_from_db()
    assert segment.height_mm == 2300
