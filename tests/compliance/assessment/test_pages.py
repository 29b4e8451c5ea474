"""The hazard register in the browser's terms: pages and htmx fragments."""

from __future__ import annotations

import pytest
from django.urls import reverse

from compliance.assessment import services
from compliance.assessment.forms import reason_field_name
from compliance.models import Hazard, Revision, RevisionStatus
from tests.compliance.assessment.api.test_queries import (
    FINDINGS_QUERIES_MAX,
    findings_queries,
)
from tests.compliance.conftest import CRUSHING, declaration_for
from tests.factories import CellFactory, DeviceFactory

HTMX = {"HTTP_HX_REQUEST": "true"}


def page(cell) -> str:
    return reverse("compliance:assessment", args=[cell.pk])


def test_viewer_sees_that_no_assessment_exists_and_cannot_start_one(
    viewer_client, cell
):
    response = viewer_client.get(page(cell))
    assert "No risk assessment has been started" in response.text
    assert "Start the risk assessment" not in response.text
    start = viewer_client.post(reverse("compliance:assessment_start", args=[cell.pk]))
    assert start.status_code == 403


def test_architect_starts_the_assessment_and_sees_suggestions(
    owner_client, cell, layout
):
    response = owner_client.post(
        reverse("compliance:assessment_start", args=[cell.pk]), follow=True
    )
    assert "Revision 1" in response.text
    assert "Access to the robot&#x27;s hazard zone through Infeed" in response.text


def test_accepting_a_suggestion_adds_it_to_the_register(owner_client, revision):
    key = "robot-reach-crushing"
    url = reverse("compliance:suggestion_accept", args=[revision.pk, key])
    response = owner_client.post(url, **HTMX)
    assert response.status_code == 200
    assert 'id="register"' in response.text and "<html" not in response.text
    hazard = revision.hazards.get()
    assert hazard.group == "mechanical" and hazard.consequence == "crushing"
    assert f'data-key="{key}"' not in response.text


def test_discarded_suggestion_is_not_proposed_again(owner_client, revision):
    key = "gripper-trapping"
    owner_client.post(
        reverse("compliance:suggestion_dismiss", args=[revision.pk, key]), **HTMX
    )
    response = owner_client.get(page(revision.assessment.cell))
    assert f'data-key="{key}"' not in response.text
    assert not revision.hazards.exists()


def new_hazard(**change):
    data = {
        f"new-{k}": v
        for k, v in {
            **CRUSHING,
            "severity": "S2",
            "frequency": "F2",
            "avoidance": "P1",
        }.items()
    }
    data.update({f"new-{k}": v for k, v in change.items()})
    return data


def test_adding_a_hazard_from_the_catalogue_shows_its_plr(owner_client, revision):
    url = reverse("compliance:hazard_add", args=[revision.pk])
    response = owner_client.post(url, new_hazard(), **HTMX)
    assert "Loading parts at the infeed" in response.text
    assert "PLr d" in response.text
    assert revision.hazards.count() == 1


def test_hazard_without_a_task_gets_a_form_error(owner_client, revision):
    url = reverse("compliance:hazard_add", args=[revision.pk])
    response = owner_client.post(url, new_hazard(task=""), **HTMX)
    assert "This field is required." in response.text
    assert not revision.hazards.exists()


def test_choosing_a_group_offers_that_groups_origins(owner_client, revision):
    url = reverse("compliance:hazard_add", args=[revision.pk])
    response = owner_client.get(url, {"new-group": "electrical"}, **HTMX)
    assert 'id="add-hazard"' in response.text
    assert 'value="live_parts"' in response.text
    assert 'value="moving_elements"' not in response.text


def test_editing_a_row_in_place(owner_client, hazard):
    url = reverse("compliance:hazard_edit", args=[hazard.pk])
    form = owner_client.get(url, **HTMX)
    assert f'id="hazard-{hazard.pk}" class="hazard-form-row"' in form.text
    prefix = f"h{hazard.pk}"
    data = {f"{prefix}-{k}": v for k, v in CRUSHING.items()}
    data.update(
        {
            f"{prefix}-severity": "S2",
            f"{prefix}-frequency": "F2",
            f"{prefix}-avoidance": "P2",
            f"{prefix}-version": hazard.version,
        }
    )
    response = owner_client.post(url, data, **HTMX)
    assert f'id="hazard-{hazard.pk}" class="hazard-row' in response.text
    assert "PLr e" in response.text
    assert Hazard.objects.get(pk=hazard.pk).avoidance == "P2"


def test_second_editor_gets_a_conflict_message_not_an_overwrite(owner_client, hazard):
    url = reverse("compliance:hazard_edit", args=[hazard.pk])
    prefix = f"h{hazard.pk}"
    base = {f"{prefix}-{k}": v for k, v in CRUSHING.items()}
    stale = hazard.version
    owner_client.post(
        url, {**base, f"{prefix}-severity": "S1", f"{prefix}-version": stale}, **HTMX
    )
    response = owner_client.post(
        url,
        {
            **base,
            f"{prefix}-severity": "S2",
            f"{prefix}-avoidance": "P2",
            f"{prefix}-version": stale,
        },
        **HTMX,
    )
    assert "Someone else saved this" in response.text
    assert Hazard.objects.get(pk=hazard.pk).severity == "S1"


def test_adding_a_measure_linked_to_a_device(owner_client, hazard, cell):
    curtain = DeviceFactory(cell=cell, label="LC-infeed", claimed_pl="d")
    url = reverse("compliance:measure_add", args=[hazard.pk])
    prefix = f"m{hazard.pk}"
    response = owner_client.post(
        url,
        {
            f"{prefix}-step": "safeguarding",
            f"{prefix}-description": "Light curtain",
            f"{prefix}-device": curtain.pk,
            f"{prefix}-is_safety_function": "on",
        },
        **HTMX,
    )
    assert "LC-infeed" in response.text
    measure = hazard.measures.get()
    assert (measure.plr_required, measure.pl_claimed) == ("d", "d")


def test_a_measure_cannot_name_another_cells_device(owner_client, hazard, project):
    foreign = DeviceFactory(cell=CellFactory(project=project))
    prefix = f"m{hazard.pk}"
    response = owner_client.post(
        reverse("compliance:measure_add", args=[hazard.pk]),
        {
            f"{prefix}-step": "safeguarding",
            f"{prefix}-description": "x",
            f"{prefix}-device": foreign.pk,
        },
        **HTMX,
    )
    assert "Select a valid choice" in response.text
    assert not hazard.measures.exists()


def sign_form(revision, **overrides) -> dict[str, object]:
    """The signing form filled in: a reason for each open fail, the statement
    confirmed, the password."""
    declared = declaration_for(Revision.objects.get(pk=revision.pk))
    data = {
        reason_field_name(key): reason for key, reason in declared["accepted"].items()
    }
    return {**data, "confirm": "on", "password": declared["password"], **overrides}


def sign(client, revision):
    client.post(reverse("compliance:revision_action", args=[revision.pk, "submit"]))
    client.post(
        reverse("compliance:revision_action", args=[revision.pk, "sign"]),
        sign_form(revision),
    )
    return Revision.objects.get(pk=revision.pk)


def test_engineer_signs_in_the_browser_and_the_register_locks(
    client, safety_engineer, revision, hazard
):
    client.force_login(safety_engineer)
    signed = sign(client, revision)
    assert signed.status == RevisionStatus.SIGNED
    response = client.get(page(revision.assessment.cell))
    assert "content intact" in response.text
    assert reverse("compliance:hazard_edit", args=[hazard.pk]) not in response.text
    assert "Start a new revision" in response.text


def test_signing_in_the_browser_with_blank_limits_shows_which_are_blank(
    client, safety_engineer, blank_revision
):
    services.hazard_add(
        revision=blank_revision,
        actor=safety_engineer,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        **CRUSHING,
    )
    client.force_login(safety_engineer)
    services.revision_submit(revision=blank_revision, actor=safety_engineer)

    response = client.post(
        reverse("compliance:revision_action", args=[blank_revision.pk, "sign"]),
        sign_form(blank_revision),
        follow=True,
    )

    for field in (
        "intended use",
        "reasonably foreseeable misuse",
        "time limits (life cycle)",
        "persons exposed",
    ):
        assert f"Record the {field} before signing" in response.text
    assert "Record the space limits" not in response.text
    status = Revision.objects.get(pk=blank_revision.pk).status
    assert status == RevisionStatus.IN_REVIEW


def test_architect_cannot_sign(owner_client, revision, hazard):
    signed = sign(owner_client, revision)
    assert signed.status == RevisionStatus.IN_REVIEW


def test_revision_2_change_shows_in_the_diff_and_history(
    client, safety_engineer, revision, hazard
):
    client.force_login(safety_engineer)
    signed = sign(client, revision)
    client.post(reverse("compliance:revision_action", args=[signed.pk, "start-next"]))
    second = Revision.objects.get(assessment=signed.assessment, number=2)
    copied = second.hazards.get()
    services.hazard_update(
        hazard=copied, actor=safety_engineer, version=copied.version, avoidance="P2"
    )
    diff = client.get(reverse("compliance:revision_diff", args=[second.pk]))
    assert "Re-estimated" in diff.text and "Loading parts at the infeed" in diff.text
    history = client.get(
        reverse("compliance:history", args=[signed.assessment.cell_id])
    )
    assert "safety" in history.text or safety_engineer.username in history.text
    assert "possibility of avoidance (P): P1 → P2" in history.text


def test_viewer_reads_the_register_but_cannot_change_it(viewer_client, hazard):
    response = viewer_client.get(page(hazard.revision.assessment.cell))
    assert "Loading parts at the infeed" in response.text
    assert "Add a hazard" not in response.text
    edit = viewer_client.get(reverse("compliance:hazard_edit", args=[hazard.pk]))
    assert edit.status_code == 403


def test_filter_by_residual_level(owner_client, hazard, revision, safety_engineer):
    services.hazard_update(
        hazard=hazard,
        actor=safety_engineer,
        version=hazard.version,
        residual_severity="S1",
        residual_frequency="F1",
        residual_avoidance="P1",
    )
    cell = revision.assessment.cell
    low = owner_client.get(page(cell), {"level": "low"}, **HTMX)
    high = owner_client.get(page(cell), {"level": "high"}, **HTMX)
    assert "Loading parts at the infeed" in low.text
    assert "Loading parts at the infeed" not in high.text


def test_register_says_why_a_reduction_does_not_count(
    owner_client, revision, safety_engineer
):
    # S2 F2 P2 (PLr e) re-estimated S2 F1 P1 (PLr c, medium) both times.
    estimates = {
        "severity": "S2",
        "frequency": "F2",
        "avoidance": "P2",
        "residual_severity": "S2",
        "residual_frequency": "F1",
        "residual_avoidance": "P1",
    }
    informed = services.hazard_add(
        revision=revision, actor=safety_engineer, **CRUSHING, **estimates
    )
    services.measure_add(
        hazard=informed,
        actor=safety_engineer,
        step="information_for_use",
        description="Warning sign",
    )
    services.hazard_add(  # no measure at all
        revision=revision,
        actor=safety_engineer,
        **{**CRUSHING, "task": "Cleaning"},
        **estimates,
    )

    response = owner_client.get(page(revision.assessment.cell))

    assert "cannot be the only reduction of a serious risk" in response.text
    assert "The residual risk was lowered without a measure" in response.text
    assert "2 hazards still need estimating or more risk reduction" in response.text


@pytest.mark.parametrize("count", [5, 50])
def test_register_makes_a_fixed_number_of_queries(
    owner_client, revision, safety_engineer, count, django_assert_max_num_queries
):
    for i in range(count):
        hazard = services.hazard_add(
            revision=revision,
            actor=safety_engineer,
            **{**CRUSHING, "task": f"Task {i}"},
        )
        services.measure_add(
            hazard=hazard,
            actor=safety_engineer,
            step="safeguarding",
            description="Fence",
        )
    # The compliance findings are worked out once for the page, in a fixed
    # number of queries (see api/test_queries.py), on top of the register's.
    findings = findings_queries(revision.assessment.cell)
    assert findings <= FINDINGS_QUERIES_MAX
    with django_assert_max_num_queries(20 + findings):
        response = owner_client.get(page(revision.assessment.cell))
    assert response.text.count('class="hazard-row') == count


def test_a_stale_page_acting_on_a_signed_revision_gets_a_message(
    client, safety_engineer, revision, hazard
):
    client.force_login(safety_engineer)
    sign(client, revision)
    for url in (
        reverse("compliance:suggestion_accept", args=[revision.pk, "gripper-trapping"]),
        reverse(
            "compliance:suggestion_dismiss", args=[revision.pk, "gripper-trapping"]
        ),
        reverse("compliance:hazard_delete", args=[hazard.pk]),
    ):
        response = client.post(url, **HTMX)
        assert response.status_code == 200
        assert "Start a new revision to change it" in response.text
    response = client.post(
        reverse("compliance:hazard_add", args=[revision.pk]), new_hazard(), **HTMX
    )
    assert "Start a new revision to change it" in response.text
    assert revision.hazards.count() == 1


def test_low_probability_offers_the_reduced_plr_beside_the_graph_value(
    owner_client, hazard, safety_engineer
):
    services.hazard_update(
        hazard=hazard,
        actor=safety_engineer,
        version=hazard.version,
        low_probability=True,
    )
    response = owner_client.get(page(hazard.revision.assessment.cell))
    assert "PLr d" in response.text  # S2 F2 P1, the graph's value stays the default
    assert "PLr c if the low probability is justified" in response.text


@pytest.mark.parametrize(
    ("q", "language", "found"),
    [
        ("협착", "ko", True),  # the consequence as the Korean page names it
        ("crushing", "en", True),
        ("infeed loading", "en", True),  # every word, anywhere in the row
        ("협착", "en", False),  # the English page shows no Korean
        ("welding", "en", False),
        ("x" * 500, "en", False),  # bounded, no error
    ],
)
def test_the_register_searches_what_the_reader_sees(
    owner_client, hazard, revision, q, language, found
):
    # Issue 30: Korean search in the hazard list.
    response = owner_client.get(
        page(revision.assessment.cell),
        {"q": q},
        HTTP_ACCEPT_LANGUAGE=language,
        **HTMX,
    )
    assert response.status_code == 200
    assert ("Loading parts at the infeed" in response.text) is found
