"""Hazards through the API: written only through the services, with the
version read, never onto a signed revision, never a 500."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance.assessment import services
from compliance.models import AuditEntry, Hazard, Measure, Revision
from tests.compliance.assessment.api.conftest import (
    _client_for,
    detail_url,
    hazard_body,
    list_url,
)
from tests.compliance.conftest import CRUSHING
from tests.factories import CellFactory, OperatorStationFactory

pytestmark = pytest.mark.django_db


def stored(hazard) -> dict:
    return Hazard.objects.values().get(pk=hazard.pk)


# --- Create ---------------------------------------------------------------------


def test_editor_adds_a_hazard(owner_api, owner, revision):
    response = owner_api.post(list_url("hazard"), hazard_body(revision), format="json")

    assert response.status_code == 201
    hazard = Hazard.objects.get(pk=response.data["id"])
    assert hazard.revision == revision
    assert (hazard.group, hazard.origin, hazard.task) == (
        "mechanical",
        "moving_elements",
        CRUSHING["task"],
    )
    # S2 F1 P2 → PLr d.
    assert (response.data["plr"], response.data["risk_level"]) == ("d", "high")
    assert response.data["version"] == 1
    entry = AuditEntry.objects.get(object_type="hazard", action="create")
    assert (entry.actor, entry.object_key) == (owner, str(hazard.key))


def test_a_hazard_tied_to_a_place_of_the_layout_gets_its_label(
    owner_api, revision, layout
):
    key = f"opening:{layout['opening'].pk}"

    response = owner_api.post(
        list_url("hazard"), hazard_body(revision, location_key=key), format="json"
    )

    assert response.status_code == 201
    assert response.data["location_key"] == key
    assert response.data["location_label"] == "F1 / Infeed"


def test_a_hazard_needs_only_the_catalogue_phase_and_task(owner_api, revision):
    body = {"revision": revision.pk, **CRUSHING}

    response = owner_api.post(list_url("hazard"), body, format="json")

    assert response.status_code == 201
    assert response.data["plr"] is None
    assert response.data["acceptable"] is False


def test_viewer_cannot_add_a_hazard(viewer_api, revision):
    response = viewer_api.post(list_url("hazard"), hazard_body(revision), format="json")

    assert response.status_code == 403
    assert not Hazard.objects.exists()


def test_a_hazard_cannot_go_into_a_foreign_revision(outsider_api, revision):
    response = outsider_api.post(
        list_url("hazard"), hazard_body(revision), format="json"
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["revision"][0])
    assert not Hazard.objects.exists()


def test_a_hazard_cannot_go_into_a_revision_in_review(owner_api, revision, hazard):
    services.revision_submit(revision=revision, actor=hazard.revision.created_by)

    response = owner_api.post(list_url("hazard"), hazard_body(revision), format="json")

    assert response.status_code == 400
    assert "can no longer be edited" in str(response.data)
    assert Hazard.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"group": "supernatural"}, "group"),
        ({"origin": "dragons"}, "origin"),
        ({"consequence": "boredom"}, "consequence"),
        # An origin of another group.
        ({"origin": "live_parts"}, "origin"),
        ({"phase": "lunch"}, "phase"),
        ({"task": ""}, "task"),
        ({"task": "x" * 201}, "task"),
        ({"task": None}, "task"),
        ({"severity": "S3"}, "severity"),
        ({"frequency": "f1"}, "frequency"),
        ({"avoidance": 2}, "avoidance"),
        ({"residual_severity": "S0"}, "residual_severity"),
        ({"low_probability": "perhaps"}, "low_probability"),
        ({"location_key": "segment:999999"}, "location_key"),
        ({"location_key": "the corner"}, "location_key"),
        ({"location_key": "x" * 41}, "location_key"),
        ({"description": "nul \x00 byte"}, "description"),
        ({"revision": None}, "revision"),
        ({"revision": "first"}, "revision"),
        ({"revision": 999999}, "revision"),
        ({"group": ["mechanical"]}, "group"),
        ({"origin": {"id": "moving_elements"}}, "origin"),
    ],
)
def test_a_hazard_with_bad_input_is_refused(owner_api, revision, change, field):
    response = owner_api.post(
        list_url("hazard"), hazard_body(revision, **change), format="json"
    )

    assert response.status_code == 400
    assert field in response.data
    assert not Hazard.objects.exists()


def test_a_hazard_tied_to_another_cells_layout_is_refused(owner_api, revision, project):
    station = OperatorStationFactory(cell=CellFactory(project=project))

    response = owner_api.post(
        list_url("hazard"),
        hazard_body(revision, location_key=f"station:{station.pk}"),
        format="json",
    )

    assert response.status_code == 400
    assert "location_key" in response.data


def test_a_body_that_is_not_an_object_is_refused(owner_api, revision):
    response = owner_api.post(list_url("hazard"), [1, 2], format="json")

    assert response.status_code == 400


# Values of every JSON type, and the valid ones, for every writable field.
ANY_JSON = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=250),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
WRITABLE = {
    "group": st.sampled_from(["mechanical", "electrical", "thermal"]),
    "origin": st.sampled_from(["moving_elements", "live_parts", "flame"]),
    "consequence": st.sampled_from(["crushing", "burn", "electrocution"]),
    "phase": st.sampled_from(["operation", "cleaning"]),
    "task": st.text(max_size=10),
    "description": st.text(max_size=10),
    "location_key": st.sampled_from(["", "segment:1", "opening:0", "station:x"]),
    "severity": st.sampled_from(["", "S1", "S2"]),
    "frequency": st.sampled_from(["", "F1", "F2"]),
    "avoidance": st.sampled_from(["", "P1", "P2"]),
    "low_probability": st.booleans(),
    "residual_severity": st.sampled_from(["", "S1", "S2"]),
    "residual_frequency": st.sampled_from(["", "F1", "F2"]),
    "residual_avoidance": st.sampled_from(["", "P1", "P2"]),
    "residual_low_probability": st.booleans(),
    "version": st.integers(min_value=0, max_value=3),
}
BODIES = st.fixed_dictionaries(
    {},
    optional={name: st.one_of(valid, ANY_JSON) for name, valid in WRITABLE.items()},
)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=BODIES)
def test_any_hazard_body_is_answered_without_a_500(owner_api, revision, hazard, body):
    created = owner_api.post(
        list_url("hazard"), {"revision": revision.pk, **body}, format="json"
    )
    changed = owner_api.patch(detail_url("hazard", hazard.pk), body, format="json")

    assert created.status_code in {201, 400}, created.data
    assert changed.status_code in {200, 400, 409}, changed.data
    if changed.status_code == 400:
        assert isinstance(changed.data, dict) and changed.data


# --- Update ---------------------------------------------------------------------


def test_editor_changes_a_hazard_with_the_version_read(owner_api, hazard):
    response = owner_api.patch(
        detail_url("hazard", hazard.pk),
        {"version": hazard.version, "avoidance": "P2", "residual_severity": "S1"},
        format="json",
    )

    assert response.status_code == 200
    assert response.data["version"] == hazard.version + 1
    assert response.data["plr"] == "e"  # S2 F2 P2
    changed = Hazard.objects.get(pk=hazard.pk)
    assert (changed.avoidance, changed.residual_severity) == ("P2", "S1")


def test_an_update_without_the_version_is_refused(owner_api, hazard):
    response = owner_api.patch(
        detail_url("hazard", hazard.pk), {"avoidance": "P2"}, format="json"
    )

    assert response.status_code == 400
    assert "version" in response.data
    assert Hazard.objects.get(pk=hazard.pk).avoidance == "P1"


def test_editor_replaces_a_hazard(owner_api, hazard, revision):
    body = hazard_body(
        revision,
        version=hazard.version,
        group="electrical",
        origin="live_parts",
        consequence="electrocution",
        task="Opening the control cabinet",
    )

    response = owner_api.put(detail_url("hazard", hazard.pk), body, format="json")

    assert response.status_code == 200
    changed = Hazard.objects.get(pk=hazard.pk)
    assert (changed.group, changed.origin, changed.task) == (
        "electrical",
        "live_parts",
        "Opening the control cabinet",
    )
    assert changed.key == hazard.key


def test_changing_the_group_alone_needs_an_origin_of_that_group(owner_api, hazard):
    response = owner_api.patch(
        detail_url("hazard", hazard.pk),
        {"version": hazard.version, "group": "electrical"},
        format="json",
    )

    assert response.status_code == 400
    assert {"origin", "consequence"} <= response.data.keys()
    assert Hazard.objects.get(pk=hazard.pk).group == "mechanical"


def test_a_hazard_cannot_move_to_another_revision(owner_api, owner, hazard, project):
    other = services.assessment_open(cell=CellFactory(project=project), actor=owner)

    response = owner_api.patch(
        detail_url("hazard", hazard.pk),
        {"version": hazard.version, "revision": other.pk},
        format="json",
    )

    assert response.status_code == 400
    assert "revision" in response.data
    assert Hazard.objects.get(pk=hazard.pk).revision_id == hazard.revision_id


def test_second_writer_of_the_same_hazard_gets_a_conflict(
    owner, safety_engineer, hazard
):
    architect, engineer = _client_for(owner), _client_for(safety_engineer)
    read_by_architect = architect.get(detail_url("hazard", hazard.pk)).data
    read_by_engineer = engineer.get(detail_url("hazard", hazard.pk)).data

    first = engineer.patch(
        detail_url("hazard", hazard.pk),
        {"version": read_by_engineer["version"], "severity": "S1"},
        format="json",
    )
    second = architect.patch(
        detail_url("hazard", hazard.pk),
        {"version": read_by_architect["version"], "avoidance": "P2", "task": "Mine"},
        format="json",
    )

    assert first.status_code == 200
    assert second.status_code == 409
    assert "changed by someone else" in second.data["detail"]
    current = second.data["current"]
    assert (current["severity"], current["avoidance"], current["task"]) == (
        "S1",
        "P1",
        CRUSHING["task"],
    )
    assert current["version"] == read_by_engineer["version"] + 1
    assert current["plr"] == "b"  # S1 F2 P1
    # Nothing of the second write was saved.
    stored_now = Hazard.objects.get(pk=hazard.pk)
    assert (stored_now.severity, stored_now.avoidance, stored_now.task) == (
        "S1",
        "P1",
        CRUSHING["task"],
    )
    assert not AuditEntry.objects.filter(actor=owner, object_type="hazard").exists()


def test_a_conflict_answers_with_the_measures_too(
    owner_api, engineer_api, hazard, measure
):
    engineer_api.patch(
        detail_url("hazard", hazard.pk),
        {"version": hazard.version, "task": "First"},
        format="json",
    )

    response = owner_api.patch(
        detail_url("hazard", hazard.pk),
        {"version": hazard.version, "task": "Second"},
        format="json",
    )

    assert response.status_code == 409
    assert [m["id"] for m in response.data["current"]["measures"]] == [measure.pk]


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_viewer_cannot_change_or_delete_a_hazard(viewer_api, hazard, method):
    before = stored(hazard)

    response = getattr(viewer_api, method)(
        detail_url("hazard", hazard.pk),
        hazard_body(hazard.revision, version=hazard.version, task="Viewer's"),
        format="json",
    )

    assert response.status_code == 403
    assert stored(hazard) == before


# --- Delete ---------------------------------------------------------------------


def test_editor_deletes_a_hazard_with_its_measures(owner_api, owner, hazard, measure):
    response = owner_api.delete(detail_url("hazard", hazard.pk))

    assert response.status_code == 204
    assert not Hazard.objects.exists()
    assert not Measure.objects.exists()
    entry = AuditEntry.objects.get(object_type="hazard", action="delete")
    assert entry.actor == owner


# --- A signed revision ----------------------------------------------------------


def test_a_signed_revisions_hazards_cannot_be_changed_added_or_deleted(
    owner_api, engineer_api, signed, hazard, measure
):
    before = list(Hazard.objects.values().order_by("id"))
    revision_before = Revision.objects.values().get(pk=signed.pk)
    entries = AuditEntry.objects.count()

    patched = owner_api.patch(
        detail_url("hazard", hazard.pk),
        {"version": hazard.version, "severity": "S1"},
        format="json",
    )
    put = engineer_api.put(
        detail_url("hazard", hazard.pk),
        hazard_body(signed, version=hazard.version, task="Rewritten"),
        format="json",
    )
    posted = owner_api.post(list_url("hazard"), hazard_body(signed), format="json")
    deleted = owner_api.delete(detail_url("hazard", hazard.pk))

    for response in (patched, put, posted, deleted):
        assert response.status_code == 400
        assert "Start a new revision" in str(response.data)
    assert list(Hazard.objects.values().order_by("id")) == before
    assert Revision.objects.values().get(pk=signed.pk) == revision_before
    assert Measure.objects.get(pk=measure.pk).description == "Fence F1"
    assert AuditEntry.objects.count() == entries


# --- Lists ----------------------------------------------------------------------


def test_hazards_filter_by_revision_group_and_phase(
    owner_api, owner, revision, hazard, safety_engineer, project
):
    electrical = services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        **{
            **CRUSHING,
            "group": "electrical",
            "origin": "live_parts",
            "consequence": "electrocution",
            "phase": "maintenance",
        },
    )
    other_revision = services.assessment_open(
        cell=CellFactory(project=project), actor=owner
    )
    elsewhere = services.hazard_add(revision=other_revision, actor=owner, **CRUSHING)

    def ids(query: str) -> set[int]:
        response = owner_api.get(list_url("hazard") + query)
        assert response.status_code == 200
        return {row["id"] for row in response.data["results"]}

    assert ids(f"?revision={revision.pk}") == {hazard.pk, electrical.pk}
    assert ids(f"?revision={other_revision.pk}") == {elsewhere.pk}
    assert ids("?group=electrical") == {electrical.pk}
    assert ids("?phase=operation") == {hazard.pk, elsewhere.pk}
    assert ids(f"?assessment={revision.assessment_id}&phase=maintenance") == {
        electrical.pk
    }


@pytest.mark.parametrize(
    "query", ["?revision=abc", "?group=supernatural", "?phase=lunch"]
)
def test_a_bad_hazard_filter_is_refused(owner_api, query):
    response = owner_api.get(list_url("hazard") + query)

    assert response.status_code == 400


def test_a_hazard_deleted_while_being_changed_is_a_404(
    owner_api, hazard, safety_engineer, monkeypatch
):
    update = services.hazard_update

    def deleted_first(*, hazard, **kwargs):
        services.hazard_delete(hazard=hazard, actor=safety_engineer)
        return update(hazard=hazard, **kwargs)

    monkeypatch.setattr(services, "hazard_update", deleted_first)

    response = owner_api.patch(
        detail_url("hazard", hazard.pk),
        {"version": hazard.version, "task": "Too late"},
        format="json",
    )

    assert response.status_code == 404
    assert not Hazard.objects.exists()
