"""The safety-functions API: a cell's functions with their verdicts, their
subsystems and validation records, the proposed functions, the safety
documents and an organisation's Table K.1; who may do what; and the list
endpoints' fixed number of queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.assessment import services as assessment_services
from compliance.safety_functions import services
from compliance.safety_functions.models import LibraryDevice, SafetyFunction
from tests.compliance.conftest import sign_revision
from tests.factories import CellFactory, DeviceFactory, OrganisationFactory

pytestmark = pytest.mark.django_db

# The certified chain of the brief: a light curtain, a safety relay and the
# robot controller's safety input, each with the maker's PL and PFHd.
LIGHT_CURTAIN = {
    "role": "input",
    "label": "Light curtain",
    "route": "certified",
    "pl": "e",
    "pfhd_per_hour": 3.7e-9,
}
SAFETY_RELAY = {
    "role": "logic",
    "label": "Safety relay",
    "route": "certified",
    "pl": "e",
    "pfhd_per_hour": 2.31e-9,
}
ROBOT_INPUT = {
    "role": "output",
    "label": "Robot safety input",
    "route": "certified",
    "pl": "d",
    "pfhd_per_hour": 1.3e-7,
}
CHAIN = [LIGHT_CURTAIN, SAFETY_RELAY, ROBOT_INPUT]

FAKE_SOURCE = "FAKE TEST TABLE - not ISO data"
# Made-up round numbers in the import format: not the standard's figures.
FAKE_K1_CSV = (
    "mttfd_years,cat_B,cat_1,cat_2_low,cat_2_medium,cat_3_low,cat_3_medium,"
    "cat_4_high\n"
    "3,9e-05,,9e-05,8e-05,7e-05,6e-05,\n"
    "10,8e-05,,7e-05,6e-05,5e-05,4e-05,\n"
    "30,,5e-06,5e-06,4e-06,3e-06,2e-06,1e-07\n"
    "100,,4e-06,4e-06,3e-06,2e-06,5e-08,5e-08\n"
)


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def owner_api(owner):
    return _client(owner)


@pytest.fixture
def viewer_api(viewer):
    return _client(viewer)


@pytest.fixture
def outsider_api(outsider):
    return _client(outsider)


@pytest.fixture
def signed_hazard(hazard, safety_engineer):
    """The crushing hazard (S2, F2, P1: PLr d) of revision 1, signed."""
    submitted = assessment_services.revision_submit(
        revision=hazard.revision, actor=safety_engineer
    )
    sign_revision(submitted, safety_engineer)
    return hazard


def functions_url(cell) -> str:
    return reverse("cell-safety-functions", args=[cell.pk])


def function_url(pk: int) -> str:
    return reverse("safety-function-detail", args=[pk])


def subsystems_url(pk: int) -> str:
    return reverse("safety-function-subsystems", args=[pk])


def records_url(pk: int) -> str:
    return reverse("safety-function-validation-records", args=[pk])


def function_body(**overrides: Any) -> dict[str, Any]:
    return {
        "name": "Protective stop at the infeed",
        "safeguard": "guarded_opening",
        "trigger": "Light curtain LC1 interrupted",
        "reaction": "Robot protective stop, stop category 1",
        "stop_category": "1",
        "required_response_time_ms": 80,
        "reset_behaviour": "Reset button outside the cell, with a view inside",
        "restart_behaviour": "No restart until reset",
        **overrides,
    }


def add_function(client, cell, chain=(), **overrides) -> dict[str, Any]:
    response = client.post(functions_url(cell), function_body(**overrides), "json")
    assert response.status_code == 201, response.json()
    pk = response.json()["id"]
    for subsystem in chain:
        added = client.post(subsystems_url(pk), subsystem, "json")
        assert added.status_code == 201, added.json()
    return client.get(function_url(pk)).json()


def record(client, pk: int, test: str, outcome: str = "passed"):
    return client.post(
        records_url(pk),
        {
            "test": test,
            "performed_by": "A. Tester",
            "performed_on": "2026-11-30",
            "instrument": "Stopping-time meter ST-1",
            "measured_value": "75 ms",
            "outcome": outcome,
        },
        "json",
    )


# --- Creating, changing, deleting -------------------------------------------------


def test_editor_adds_a_function_and_reads_it_in_the_cells_list(owner_api, cell):
    response = owner_api.post(functions_url(cell), function_body(), "json")

    assert response.status_code == 201
    created = response.json()
    assert created["name"] == "Protective stop at the infeed"
    assert created["version"] == 1
    assert created["subsystems"] == []
    # No subsystems and no PLr: nothing to compute, nothing passes.
    assert created["verdict"]["status"] == "needs_evidence"
    assert created["verdict"]["pl"] is None
    assert created["verdict"]["plr"] is None
    listed = owner_api.get(functions_url(cell)).json()
    assert [f["id"] for f in listed["functions"]] == [created["id"]]
    assert listed["io_counts"] == {"inputs": 0, "outputs": 0}


def test_a_change_needs_the_version_read_and_a_stale_one_is_a_409(owner_api, cell):
    function = add_function(owner_api, cell)
    url = function_url(function["id"])

    missing = owner_api.patch(url, {"name": "Renamed"}, "json")
    assert missing.status_code == 400
    assert "version" in missing.json()

    changed = owner_api.patch(url, {"name": "Renamed", "version": 1}, "json")
    assert changed.status_code == 200
    assert changed.json()["name"] == "Renamed"
    assert changed.json()["version"] == 2

    stale = owner_api.patch(url, {"name": "Overwritten", "version": 1}, "json")
    assert stale.status_code == 409
    assert stale.json()["current"]["version"] == 2
    assert stale.json()["current"]["name"] == "Renamed"
    assert SafetyFunction.objects.get(pk=function["id"]).name == "Renamed"


def test_editor_deletes_a_function(owner_api, cell):
    function = add_function(owner_api, cell, chain=[LIGHT_CURTAIN])

    assert owner_api.delete(function_url(function["id"])).status_code == 204
    assert owner_api.get(function_url(function["id"])).status_code == 404


def test_viewer_reads_but_cannot_change_anything(owner_api, viewer_api, cell):
    function = add_function(owner_api, cell, chain=[LIGHT_CURTAIN])
    pk = function["id"]
    subsystem = function["subsystems"][0]["id"]

    assert viewer_api.get(functions_url(cell)).status_code == 200
    assert viewer_api.get(function_url(pk)).status_code == 200
    refused = [
        viewer_api.post(functions_url(cell), function_body(), "json"),
        viewer_api.patch(function_url(pk), {"name": "X", "version": 1}, "json"),
        viewer_api.delete(function_url(pk)),
        viewer_api.post(subsystems_url(pk), SAFETY_RELAY, "json"),
        viewer_api.patch(
            reverse("subsystem-detail", args=[subsystem]), {"label": "X"}, "json"
        ),
        viewer_api.delete(reverse("subsystem-detail", args=[subsystem])),
        record(viewer_api, pk, "function"),
    ]
    assert [r.status_code for r in refused] == [403] * len(refused)
    assert SafetyFunction.objects.get(pk=pk).subsystems.count() == 1


def test_outsider_finds_neither_the_cell_nor_its_functions(
    owner_api, outsider_api, cell
):
    function = add_function(owner_api, cell, chain=[LIGHT_CURTAIN])
    pk = function["id"]
    subsystem = function["subsystems"][0]["id"]

    answers = [
        outsider_api.get(functions_url(cell)),
        outsider_api.post(functions_url(cell), function_body(), "json"),
        outsider_api.get(function_url(pk)),
        outsider_api.patch(function_url(pk), {"name": "X", "version": 1}, "json"),
        outsider_api.delete(function_url(pk)),
        outsider_api.post(subsystems_url(pk), SAFETY_RELAY, "json"),
        outsider_api.delete(reverse("subsystem-detail", args=[subsystem])),
        outsider_api.get(records_url(pk)),
    ]
    assert [a.status_code for a in answers] == [404] * len(answers)
    assert all(a["Content-Type"] == "application/json" for a in answers)


def test_a_device_of_another_cell_is_refused_naming_the_field(owner_api, cell):
    other = DeviceFactory(cell=CellFactory(project=cell.project))

    response = owner_api.post(functions_url(cell), function_body(device=other.pk))

    assert response.status_code == 400
    assert "device" in response.json()


def test_strings_longer_than_the_model_allows_are_refused(owner_api, cell):
    response = owner_api.post(
        functions_url(cell), function_body(name="x" * 121), "json"
    )

    assert response.status_code == 400
    assert "name" in response.json()


# --- The verdict ------------------------------------------------------------------


def test_certified_chain_meets_its_plr_and_passes_once_every_test_passed(
    owner_api, cell, signed_hazard
):
    function = add_function(
        owner_api, cell, chain=CHAIN, hazard_keys=[str(signed_hazard.key)]
    )
    verdict = function["verdict"]

    assert verdict["pl"] == "d"
    assert verdict["plr"] == "d"
    assert verdict["meets_plr"] is True
    assert verdict["combination"] == "pfhd_sum"
    assert verdict["pfhd_per_hour"] == pytest.approx(3.7e-9 + 2.31e-9 + 1.3e-7)
    assert verdict["plr_source"] == {
        "revision": 1,
        "signed": True,
        "hazards": [{"label": "Loading parts at the infeed", "plr": "d"}],
    }
    assert verdict["clause"].startswith("ISO 13849-1:2015")
    assert verdict["problems"] == []
    assert [s["subsystem"] for s in verdict["subsystems"]] == [
        s["id"] for s in function["subsystems"]
    ]
    assert [s["pl"] for s in verdict["subsystems"]] == ["e", "e", "d"]
    assert all(isinstance(step, str) for step in verdict["steps"])
    assert any("PFHd" in step for step in verdict["steps"])
    # The calculation alone is a design figure, not evidence.
    assert verdict["status"] == "needs_evidence"
    plan = [test["test"] for test in function["validation_plan"]]
    assert plan == ["function", "stopping_time", "fault_injection", "reset_restart"]
    assert {test["status"] for test in function["validation_plan"]} == {"missing"}

    for test in plan[:-1]:
        assert record(owner_api, function["id"], test).status_code == 201
    assert (
        owner_api.get(function_url(function["id"])).json()["verdict"]["status"]
        == "needs_evidence"
    )
    assert record(owner_api, function["id"], plan[-1]).status_code == 201

    passed = owner_api.get(function_url(function["id"])).json()
    assert passed["verdict"]["status"] == "pass"
    assert passed["verdict"]["tests_missing"] == []
    assert {test["status"] for test in passed["validation_plan"]} == {"passed"}
    assert passed["validation_plan"][1]["records"][0]["measured_value"] == "75 ms"


def test_a_pl_below_the_plr_fails(owner_api, cell, signed_hazard):
    weak_output = {**ROBOT_INPUT, "pl": "c", "pfhd_per_hour": 1.5e-6}
    function = add_function(
        owner_api,
        cell,
        chain=[LIGHT_CURTAIN, SAFETY_RELAY, weak_output],
        hazard_keys=[str(signed_hazard.key)],
    )
    verdict = function["verdict"]

    assert verdict["pl"] == "c"
    assert verdict["meets_plr"] is False
    assert verdict["status"] == "fail"
    assert "below the PLr d" in verdict["reasons"][0]


def test_a_failed_validation_test_fails_the_function(owner_api, cell, signed_hazard):
    function = add_function(
        owner_api, cell, chain=CHAIN, hazard_keys=[str(signed_hazard.key)]
    )

    record(owner_api, function["id"], "fault_injection", outcome="failed")

    verdict = owner_api.get(function_url(function["id"])).json()["verdict"]
    assert verdict["status"] == "fail"
    assert verdict["tests_failed"] == ["fault_injection"]


def test_a_draft_plr_decides_nothing(owner_api, cell, hazard):
    function = add_function(owner_api, cell, chain=CHAIN, hazard_keys=[str(hazard.key)])
    verdict = function["verdict"]

    assert verdict["plr"] == "d"
    assert verdict["plr_source"]["signed"] is False
    assert verdict["pl"] == "d"
    assert verdict["meets_plr"] is None
    assert verdict["status"] == "needs_evidence"


def test_a_design_the_category_refuses_is_a_problem_of_the_verdict(owner_api, cell):
    designed = {
        "role": "logic",
        "label": "Relay pair",
        "route": "designed",
        "category": "4",
        "mttfd_years": 50,
        "dcavg_percent": 70,
        "ccf_measures": ["separation", "diversity", "emc_contamination", "fmea"],
    }
    function = add_function(owner_api, cell, chain=[designed])
    verdict = function["verdict"]

    assert verdict["pl"] is None
    assert verdict["status"] == "needs_evidence"
    [problem] = verdict["problems"]
    assert problem["subsystem"] == function["subsystems"][0]["id"]
    assert "DCavg" in problem["message"]


def test_a_chain_below_pl_a_is_a_reason_not_an_error(owner_api, cell):
    weak = {"role": "input", "route": "certified", "pl": "a", "pfhd_per_hour": 9e-5}
    function = add_function(
        owner_api,
        cell,
        chain=[{**weak, "label": "One"}, {**weak, "label": "Two"}],
    )
    verdict = function["verdict"]

    assert verdict["pl"] is None
    assert verdict["status"] == "needs_evidence"
    assert any("cannot be computed" in reason for reason in verdict["reasons"])


def test_text_for_a_figure_is_a_400_naming_the_field(owner_api, cell):
    function = add_function(owner_api, cell, chain=[LIGHT_CURTAIN])
    url = reverse("subsystem-detail", args=[function["subsystems"][0]["id"]])

    response = owner_api.patch(url, {"pfhd_per_hour": "a lot"}, "json")

    assert response.status_code == 400
    assert "pfhd_per_hour" in response.json()


def test_a_figure_out_of_bounds_or_an_unknown_measure_is_a_400(owner_api, cell):
    function = add_function(owner_api, cell)
    url = subsystems_url(function["id"])

    too_high = owner_api.post(url, {**LIGHT_CURTAIN, "pfhd_per_hour": 0.5}, "json")
    unknown = owner_api.post(url, {**LIGHT_CURTAIN, "ccf_measures": ["prayer"]}, "json")

    assert too_high.status_code == 400
    assert "pfhd_per_hour" in too_high.json()
    assert unknown.status_code == 400
    assert "ccf_measures" in unknown.json()


def test_editor_changes_and_removes_a_subsystem(owner_api, cell):
    function = add_function(owner_api, cell, chain=[LIGHT_CURTAIN, SAFETY_RELAY])
    first = reverse("subsystem-detail", args=[function["subsystems"][0]["id"]])

    changed = owner_api.patch(first, {"pfhd_per_hour": 4e-9}, "json")
    assert changed.status_code == 200
    assert changed.json()["pfhd_per_hour"] == 4e-9
    assert changed.json()["label"] == "Light curtain"
    assert owner_api.delete(first).status_code == 204

    after = owner_api.get(function_url(function["id"])).json()
    assert [s["label"] for s in after["subsystems"]] == ["Safety relay"]
    # Each change to the chain is a change of the function.
    assert after["version"] == function["version"] + 2


@pytest.fixture
def library_device(organisation):
    return LibraryDevice.objects.create(
        organisation=organisation,
        key="LC-T",
        kind="light_curtain",
        maker="Acme",
        model="Curtain 4",
        pl="e",
        category="4",
        pfhd_per_hour=3.7e-9,
        data_source="Acme data sheet (test)",
    )


def test_a_subsystem_from_the_library_takes_its_figures(
    owner_api, cell, library_device
):
    function = add_function(owner_api, cell)

    response = owner_api.post(
        subsystems_url(function["id"]),
        {"role": "input", "library_device": library_device.pk},
        "json",
    )

    assert response.status_code == 201
    subsystem = response.json()
    assert subsystem["library_device"] == library_device.pk
    assert subsystem["label"] == "Acme Curtain 4"
    assert subsystem["route"] == "certified"
    assert subsystem["pl"] == "e"
    assert subsystem["pfhd_per_hour"] == 3.7e-9
    assert subsystem["source"] == "Acme data sheet (test)"


def test_the_figures_sent_win_over_the_librarys(owner_api, cell, library_device):
    function = add_function(owner_api, cell)

    response = owner_api.post(
        subsystems_url(function["id"]),
        {
            "role": "input",
            "label": "LC1",
            "library_device": library_device.pk,
            "pfhd_per_hour": 5e-9,
        },
        "json",
    )

    assert response.status_code == 201
    assert response.json()["label"] == "LC1"
    assert response.json()["pfhd_per_hour"] == 5e-9
    assert response.json()["pl"] == "e"


def test_choosing_another_library_device_takes_its_figures(
    owner_api, cell, library_device
):
    function = add_function(owner_api, cell, chain=[SAFETY_RELAY])
    url = reverse("subsystem-detail", args=[function["subsystems"][0]["id"]])

    response = owner_api.patch(
        url, {"library_device": library_device.pk, "label": "LC1"}, "json"
    )

    assert response.status_code == 200
    assert response.json()["label"] == "LC1"
    assert response.json()["pfhd_per_hour"] == 3.7e-9
    assert response.json()["source"] == "Acme data sheet (test)"


def test_another_organisations_library_device_is_refused(owner_api, cell):
    foreign = LibraryDevice.objects.create(
        organisation=OrganisationFactory(),
        key="LC-X",
        kind="light_curtain",
        maker="Other",
        model="Curtain",
    )
    function = add_function(owner_api, cell)

    response = owner_api.post(
        subsystems_url(function["id"]),
        {"role": "input", "library_device": foreign.pk},
        "json",
    )

    assert response.status_code == 400
    assert "library_device" in response.json()


# --- Validation records -----------------------------------------------------------


def test_records_are_listed_and_deleted(owner_api, cell):
    function = add_function(owner_api, cell)
    added = record(owner_api, function["id"], "function")
    assert added.status_code == 201
    assert added.json()["recorded_by"] == "owner"

    listed = owner_api.get(records_url(function["id"])).json()
    assert [r["test"] for r in listed] == ["function"]
    url = reverse("validation-record-detail", args=[added.json()["id"]])
    assert owner_api.delete(url).status_code == 204
    assert owner_api.get(records_url(function["id"])).json() == []


def test_a_test_outside_the_plan_is_refused_naming_the_field(owner_api, cell):
    function = add_function(owner_api, cell)  # no muting: no muting test

    response = record(owner_api, function["id"], "muting")

    assert response.status_code == 400
    assert "test" in response.json()


# --- Proposals --------------------------------------------------------------------


@pytest.fixture
def devices(cell, opening):
    return {
        "curtain": DeviceFactory(cell=cell, label="LC1", opening=opening),
        "estop": DeviceFactory(cell=cell, label="ES1", kind="emergency_stop"),
    }


def suggestions_url(cell) -> str:
    return reverse("cell-safety-function-suggestions", args=[cell.pk])


def test_the_cells_devices_are_proposed_as_functions(owner_api, cell, devices):
    proposals = owner_api.get(suggestions_url(cell)).json()

    by_key = {p["key"]: p for p in proposals}
    curtain = by_key[f"device:{devices['curtain'].pk}"]
    assert curtain["safeguard"] == "guarded_opening"
    assert "LC1" in curtain["name"]
    assert curtain["stop_category"] == "1"
    assert curtain["rationale"]
    assert [s["role"] for s in curtain["subsystems"]] == ["input", "logic", "output"]
    assert curtain["subsystems"][0]["device"] == devices["curtain"].pk
    assert by_key[f"device:{devices['estop'].pk}"]["safeguard"] == "emergency_stop"


def test_accepting_a_proposal_creates_the_function_and_dismissing_hides_one(
    owner_api, cell, devices
):
    curtain = f"device:{devices['curtain'].pk}"
    estop = f"device:{devices['estop'].pk}"

    accepted = owner_api.post(
        reverse("cell-safety-function-suggestion-accept", args=[cell.pk, curtain])
    )
    dismissed = owner_api.post(
        reverse("cell-safety-function-suggestion-dismiss", args=[cell.pk, estop])
    )

    assert accepted.status_code == 201
    function = accepted.json()
    assert function["device"] == devices["curtain"].pk
    assert [s["role"] for s in function["subsystems"]] == ["input", "logic", "output"]
    assert dismissed.status_code == 204
    assert owner_api.get(suggestions_url(cell)).json() == []
    again = owner_api.post(
        reverse("cell-safety-function-suggestion-accept", args=[cell.pk, curtain])
    )
    assert again.status_code == 400


def test_viewer_cannot_accept_or_dismiss_a_proposal(viewer_api, cell, devices):
    key = f"device:{devices['curtain'].pk}"

    accept = viewer_api.post(
        reverse("cell-safety-function-suggestion-accept", args=[cell.pk, key])
    )
    dismiss = viewer_api.post(
        reverse("cell-safety-function-suggestion-dismiss", args=[cell.pk, key])
    )

    assert (accept.status_code, dismiss.status_code) == (403, 403)


# --- Documents --------------------------------------------------------------------


def test_the_documents_give_the_specification_and_the_validation_plan(
    owner_api, cell, signed_hazard
):
    complete = add_function(
        owner_api, cell, chain=CHAIN, hazard_keys=[str(signed_hazard.key)]
    )
    sketchy = add_function(
        owner_api,
        cell,
        name="Emergency stop ES1",
        safeguard="emergency_stop",
        trigger="ES1 pressed",
        stop_category="",
        reset_behaviour="",
        required_response_time_ms=None,
    )
    record(owner_api, complete["id"], "function")

    response = owner_api.get(reverse("cell-safety-documents", args=[cell.pk]))

    assert response.status_code == 200
    data = response.json()
    assert data["specification_clause"].startswith("ISO 13849-1:2023, 5.2")
    first, second = data["specification"]
    assert first["function"] == complete["id"]
    assert first["trigger"] == "Light curtain LC1 interrupted"
    assert first["plr"] == "d"
    assert first["plr_source"]["signed"] is True
    assert first["stop_category"].startswith("Stop category 1")
    assert first["required_response_time_ms"] == 80
    assert first["gaps"] == []
    assert second["function"] == sketchy["id"]
    assert second["plr"] is None
    assert any("stop category" in gap for gap in second["gaps"])
    assert any("reset" in gap for gap in second["gaps"])
    assert any("PLr" in gap for gap in second["gaps"])

    plan = data["validation_plan"][0]
    assert plan["function"] == complete["id"]
    functional = plan["tests"][0]
    assert functional["title"] == "Functional test of the safety function"
    assert functional["procedure"]
    assert functional["record"]
    assert functional["status"] == "passed"
    assert functional["records"][0]["outcome"] == "passed"
    # An emergency stop guards no distance: no stopping-time test.
    assert [t["test"] for t in data["validation_plan"][1]["tests"]] == [
        "function",
        "fault_injection",
        "reset_restart",
    ]


def test_the_documents_answer_in_the_readers_language(owner_api, cell):
    response = owner_api.get(
        reverse("cell-safety-documents", args=[cell.pk]), HTTP_ACCEPT_LANGUAGE="ko"
    )

    assert response.status_code == 200
    assert response["Content-Language"] == "ko"


# --- Table K.1 --------------------------------------------------------------------


def pfhd_url(organisation) -> str:
    return reverse("organisation-pfhd-table", args=[organisation.pk])


def test_an_organisation_imports_and_removes_its_table_k1(owner_api, organisation):
    assert owner_api.get(pfhd_url(organisation)).json() == {"imported": False}

    response = owner_api.put(
        pfhd_url(organisation), {"source": FAKE_SOURCE, "csv": FAKE_K1_CSV}, "json"
    )

    assert response.status_code == 200
    table = owner_api.get(pfhd_url(organisation)).json()
    assert table["imported"] is True
    assert table["source"] == FAKE_SOURCE
    assert [row["mttfd_years"] for row in table["rows"]] == [3, 10, 30, 100]
    assert table["imported_by"] == "owner"
    assert owner_api.delete(pfhd_url(organisation)).status_code == 204
    assert owner_api.get(pfhd_url(organisation)).json() == {"imported": False}


def test_a_table_k1_can_be_sent_as_a_file(owner_api, organisation):
    upload = SimpleUploadedFile("k1.csv", FAKE_K1_CSV.encode(), "text/csv")

    response = owner_api.put(
        pfhd_url(organisation),
        {"source": FAKE_SOURCE, "file": upload},
        format="multipart",
    )

    assert response.status_code == 200, response.json()
    assert response.json()["source"] == FAKE_SOURCE


def test_a_broken_table_k1_is_refused_row_by_row(owner_api, organisation):
    broken = (
        FAKE_K1_CSV.replace("10,8e-05", "ten,8e-05")
        .replace("4e-06,3e-06,2e-06,5e-08", "4e-06,3e-06,9e-06,5e-08")
        .strip()
    )

    response = owner_api.put(
        pfhd_url(organisation), {"source": FAKE_SOURCE, "csv": broken}, "json"
    )

    assert response.status_code == 400
    errors = response.json()["file"]
    assert any(error.startswith("Row 3:") and "ten" in error for error in errors)
    assert any(error.startswith("Row 5:") and "rises" in error for error in errors)
    assert owner_api.get(pfhd_url(organisation)).json() == {"imported": False}


def test_a_table_k1_needs_its_source_and_its_table(owner_api, organisation):
    no_source = owner_api.put(pfhd_url(organisation), {"csv": FAKE_K1_CSV}, "json")
    no_table = owner_api.put(pfhd_url(organisation), {"source": FAKE_SOURCE}, "json")

    assert no_source.status_code == 400
    assert "source" in no_source.json()
    assert no_table.status_code == 400
    assert "csv" in no_table.json()


def test_viewer_cannot_import_or_remove_the_table(viewer_api, organisation):
    put = viewer_api.put(
        pfhd_url(organisation), {"source": FAKE_SOURCE, "csv": FAKE_K1_CSV}, "json"
    )
    delete = viewer_api.delete(pfhd_url(organisation))

    assert (put.status_code, delete.status_code) == (403, 403)


def test_a_designed_subsystem_reads_its_pfhd_from_the_imported_table(
    owner_api, cell, organisation, owner
):
    services.pfhd_table_import(
        organisation=organisation, actor=owner, text=FAKE_K1_CSV, source=FAKE_SOURCE
    )
    designed = {
        "role": "logic",
        "label": "Relay pair",
        "route": "designed",
        "category": "3",
        "mttfd_years": 50,
        "dcavg_percent": 95,
        "ccf_measures": ["separation", "diversity", "emc_contamination", "fmea"],
    }

    verdict = add_function(owner_api, cell, chain=[designed])["verdict"]

    assert verdict["k1_source"] == FAKE_SOURCE
    # The fake row of 30 years, column cat_3_medium.
    assert verdict["subsystems"][0]["pfhd_per_hour"] == 2e-6
    assert verdict["subsystems"][0]["pfhd_basis"] == "table_k1"


# --- Queries ----------------------------------------------------------------------


def _count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def _fill(owner, cell, n: int, hazard) -> None:
    for index in range(n):
        function = services.function_create(
            cell=cell,
            actor=owner,
            **function_body(name=f"Function {index}", hazard_keys=[str(hazard.key)]),
        )
        for subsystem in CHAIN:
            services.subsystem_add(function=function, actor=owner, **subsystem)
        services.validation_record_add(
            function=function,
            actor=owner,
            test="function",
            performed_by="A. Tester",
            performed_on="2026-11-30",
            outcome="passed",
        )


@pytest.mark.parametrize(
    "name", ["cell-safety-functions", "cell-safety-documents"], ids=str
)
def test_the_cell_endpoints_make_a_fixed_number_of_queries(
    owner_api, owner, cell, signed_hazard, name
):
    url = reverse(name, args=[cell.pk])
    _fill(owner, cell, 1, signed_hazard)
    few = _count(owner_api, url)
    _fill(owner, cell, 5, signed_hazard)

    assert _count(owner_api, url) == few


def test_the_proposals_make_a_fixed_number_of_queries(owner_api, cell, opening):
    url = suggestions_url(cell)
    DeviceFactory(cell=cell, opening=opening)
    few = _count(owner_api, url)
    for _ in range(5):
        DeviceFactory(cell=cell, opening=opening)

    assert _count(owner_api, url) == few
