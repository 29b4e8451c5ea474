"""The engineer's editing pages (issue 15): measures edited in place and
deleted after asking once, the limits panel showing what was saved, and every
editor opened directly a whole styled page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from compliance.assessment import services
from compliance.assessment.audit import AuditEntry
from compliance.models import Measure
from tests.compliance.conftest import sign_revision
from tests.factories import DeviceFactory

HTMX = {"HTTP_HX_REQUEST": "true"}
STYLED = '<link rel="stylesheet"'


@pytest.fixture
def measure(hazard, owner):
    return services.measure_add(
        hazard=hazard,
        actor=owner,
        step="information_for_use",
        description="Warning sign at the infeed",
    )


def edit(measure) -> str:
    return reverse("compliance:measure_edit", args=[measure.pk])


def delete(measure) -> str:
    return reverse("compliance:measure_delete", args=[measure.pk])


def measure_data(measure, **change):
    data = {
        "step": measure.step,
        "description": measure.description,
        "device": "",
        "segment": "",
        "collaborative_mode": "",
        "plr_required": "",
        "pl_claimed": "",
        "version": measure.version,
        **change,
    }
    return {f"me{measure.pk}-{k}": v for k, v in data.items() if v is not False}


# Measures: edited in place -------------------------------------------------


def test_measure_edit_swaps_the_measure_for_its_form(owner_client, measure):
    response = owner_client.get(edit(measure), **HTMX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert f'id="measure-{measure.pk}"' in response.text
    assert 'value="Warning sign at the infeed"' in response.text
    assert "HX-Request" in response["Vary"]


def test_saving_a_measure_changes_it_and_answers_its_hazards_row(
    owner_client, measure, cell
):
    device = DeviceFactory(cell=cell, label="LC-1")
    response = owner_client.post(
        edit(measure),
        measure_data(
            measure,
            step="safeguarding",
            description="Light curtain at the infeed",
            device=device.pk,
        ),
        **HTMX,
    )
    assert response.status_code == 200
    assert response["HX-Retarget"] == f"#hazard-{measure.hazard_id}"
    assert "Light curtain at the infeed" in response.text
    assert "(LC-1)" in response.text
    measure.refresh_from_db()
    assert measure.description == "Light curtain at the infeed"
    assert measure.device == device and measure.step == "safeguarding"


def test_saving_a_measure_is_in_the_history(owner_client, measure, owner):
    owner_client.post(edit(measure), measure_data(measure, description="Sign B"))
    entry = AuditEntry.objects.filter(object_type="measure", action="update").get()
    assert entry.actor == owner
    assert entry.before["description"] == "Warning sign at the infeed"
    assert entry.after["description"] == "Sign B"


def test_measure_edit_without_javascript_is_a_styled_page_then_redirects(
    owner_client, measure, cell
):
    page = owner_client.get(edit(measure))
    assert page.status_code == 200
    assert STYLED in page.text and "<html" in page.text
    assert "measure-edit" in page.text
    saved = owner_client.post(edit(measure), measure_data(measure, description="B"))
    assert saved.status_code == 302
    assert saved["Location"].startswith(
        reverse("compliance:assessment", args=[cell.pk])
    )
    assert Measure.objects.get(pk=measure.pk).description == "B"


def test_bad_measure_input_is_a_form_error_naming_the_field(owner_client, measure):
    response = owner_client.post(
        edit(measure),
        measure_data(measure, description="x" * 301, step="nope"),
        **HTMX,
    )
    assert response.status_code == 200
    form = response.context["measure_edit_form"]
    assert set(form.errors) == {"description", "step"}
    assert Measure.objects.get(pk=measure.pk).description == measure.description


def test_a_stale_measure_edit_is_a_conflict_not_an_overwrite(
    owner_client, measure, owner
):
    services.measure_update(
        measure=measure, actor=owner, version=measure.version, description="Theirs"
    )
    response = owner_client.post(
        edit(measure), measure_data(measure, description="Mine"), **HTMX
    )
    assert "Someone else saved this" in response.text
    assert Measure.objects.get(pk=measure.pk).description == "Theirs"


def test_a_measure_of_a_signed_revision_cannot_be_edited(
    owner_client, measure, revision, owner, safety_engineer
):
    submitted = services.revision_submit(revision=revision, actor=owner)
    sign_revision(submitted, safety_engineer)
    for response in (
        owner_client.get(edit(measure), **HTMX),
        owner_client.post(
            edit(measure), measure_data(measure, description="B"), **HTMX
        ),
    ):
        assert response.status_code == 200
        assert response["HX-Retarget"] == "#register"
        assert "can no longer be edited" in response.text
    assert Measure.objects.get(pk=measure.pk).description == measure.description


def test_viewer_cannot_edit_or_delete_a_measure(viewer_client, measure):
    assert viewer_client.get(edit(measure)).status_code == 403
    assert viewer_client.post(edit(measure), measure_data(measure)).status_code == 403
    assert viewer_client.get(delete(measure)).status_code == 403
    assert viewer_client.post(delete(measure)).status_code == 403
    assert Measure.objects.filter(pk=measure.pk).exists()


def test_outsider_gets_404_for_a_measure(outsider_client, measure):
    assert outsider_client.get(edit(measure)).status_code == 404
    assert outsider_client.get(delete(measure)).status_code == 404


def test_the_register_offers_edit_and_delete_links_that_work_without_js(
    owner_client, measure, cell
):
    text = owner_client.get(reverse("compliance:assessment", args=[cell.pk])).text
    assert f'href="{edit(measure)}"' in text
    assert f'href="{delete(measure)}"' in text
    # Deleting is never one click from the register.
    assert f'action="{delete(measure)}"' not in text


# Measures: deleted after asking once ---------------------------------------


def test_deleting_a_measure_asks_first(owner_client, measure):
    question = owner_client.get(delete(measure), **HTMX)
    assert question.status_code == 200 and "<html" not in question.text
    assert "Delete the measure “Warning sign at the infeed”?" in question.text
    assert f'action="{delete(measure)}"' in question.text
    assert Measure.objects.filter(pk=measure.pk).exists()


def test_the_question_opened_directly_is_a_styled_page(owner_client, measure):
    page = owner_client.get(delete(measure))
    assert page.status_code == 200 and STYLED in page.text
    assert "measure-confirm" in page.text
    assert Measure.objects.filter(pk=measure.pk).exists()


def test_confirming_deletes_the_measure(owner_client, measure):
    response = owner_client.post(delete(measure), **HTMX)
    assert response.status_code == 200
    assert "Measure deleted." in response.text
    assert not Measure.objects.filter(pk=measure.pk).exists()


@pytest.mark.parametrize("measures", [1, 8])
def test_measure_pages_queries_do_not_grow(
    owner_client, hazard, owner, measures, django_assert_max_num_queries
):
    made = [
        services.measure_add(
            hazard=hazard, actor=owner, step="information_for_use", description=f"M{i}"
        )
        for i in range(measures)
    ]
    with django_assert_max_num_queries(MEASURE_PAGE_QUERIES_MAX):
        owner_client.get(edit(made[0]), **HTMX)
    with django_assert_max_num_queries(MEASURE_PAGE_QUERIES_MAX):
        owner_client.get(delete(made[0]), **HTMX)


# The checks of the cell and the register: the same whatever the number of
# measures (see test_pages for the register's own count).
MEASURE_PAGE_QUERIES_MAX = 40


# Limits: the panel shows what was saved ------------------------------------


def limits_data(revision, **change):
    data = {
        "intended_use": revision.intended_use,
        "foreseeable_misuse": revision.foreseeable_misuse,
        "space_limits": revision.space_limits,
        "time_limits": revision.time_limits,
        "exposed_persons": revision.exposed_persons,
        "low_guard_justification": "",
        "conformity_route": "",
        "version": revision.version,
        **change,
    }
    return data


def test_saved_limits_show_the_new_values_not_the_old(owner_client, revision):
    url = reverse("compliance:limits_edit", args=[revision.pk])
    response = owner_client.post(
        url, limits_data(revision, intended_use="Stacking trays of 8 kg"), **HTMX
    )
    assert "Limits of the machine saved." in response.text
    assert "Stacking trays of 8 kg" in response.text
    assert "Palletising cartons of up to 12 kg" not in response.text


def test_a_second_save_after_the_first_is_not_a_conflict(owner_client, revision):
    """The form shown after a save carries the saved version."""
    url = reverse("compliance:limits_edit", args=[revision.pk])
    owner_client.post(url, limits_data(revision, intended_use="A"), **HTMX)
    revision.refresh_from_db()
    form = owner_client.get(url, **HTMX).context["limits_form"]
    assert form.initial["version"] == revision.version
    assert form.initial["intended_use"] == "A"


# Every fragment URL, opened directly, is a whole styled page ----------------


def test_limits_edit_opened_directly_is_a_styled_page(owner_client, revision):
    url = reverse("compliance:limits_edit", args=[revision.pk])
    page = owner_client.get(url)
    assert page.status_code == 200
    assert "<html" in page.text and STYLED in page.text
    assert 'name="intended_use"' in page.text
    assert "HX-Request" in page["Vary"]
    fragment = owner_client.get(url, **HTMX)
    assert "<html" not in fragment.text and 'id="limits"' in fragment.text


def test_invalid_limits_posted_without_js_are_a_styled_page(owner_client, revision):
    url = reverse("compliance:limits_edit", args=[revision.pk])
    page = owner_client.post(url, limits_data(revision, intended_use="x" * 4001))
    assert page.status_code == 200 and STYLED in page.text
    assert "at most 4000 characters" in page.text


@pytest.mark.parametrize(
    "name, arg",
    [
        ("compliance:limits_edit", "revision"),
        ("compliance:hazard_add", "revision"),
        ("compliance:hazard_edit", "hazard"),
        ("compliance:measure_add", "hazard"),
        ("compliance:measure_edit", "measure"),
        ("compliance:measure_delete", "measure"),
    ],
)
def test_every_fragment_url_opened_directly_is_a_styled_page(
    owner_client, measure, name, arg
):
    objects = {"revision": measure.hazard.revision, "hazard": measure.hazard}
    objects["measure"] = measure
    response = owner_client.get(reverse(name, args=[objects[arg].pk]), follow=True)
    assert response.status_code == 200
    assert "<html" in response.text and STYLED in response.text


def test_the_hazard_row_opened_directly_leads_to_the_styled_page(owner_client, hazard):
    response = owner_client.get(
        reverse("compliance:hazard_row", args=[hazard.pk]), follow=True
    )
    assert response.status_code == 200 and STYLED in response.text


def test_a_stale_limits_save_shows_the_other_persons_values(
    owner_client, revision, safety_engineer
):
    services.revision_update_limits(
        revision=revision,
        actor=safety_engineer,
        version=revision.version,
        intended_use="Theirs: stacking trays",
    )
    url = reverse("compliance:limits_edit", args=[revision.pk])
    response = owner_client.post(
        url, limits_data(revision, intended_use="Mine"), **HTMX
    )
    assert "Someone else saved this" in response.text
    assert "Theirs: stacking trays" in response.text
    revision.refresh_from_db()
    assert revision.intended_use == "Theirs: stacking trays"
