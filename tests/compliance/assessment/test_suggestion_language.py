"""An accepted suggestion is stored in English and shown in the reader's
language (issue 15, "Korean, complete"): a Korean engineer's click no longer
writes Korean into the register, so an English proposal of it reads English,
and a Korean one reads Korean whoever clicked. What a user typed is shown as
typed, in every language."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from compliance.assessment import services
from compliance.assessment.models import Hazard
from compliance.assessment.register_xlsx.export import register_workbook
from compliance.assessment.report_views import report_data
from compliance.calculators import written
from compliance.proposals.data import proposal_data
from compliance.proposals.services import proposal_request

HTMX = {"HTTP_HX_REQUEST": "true"}
KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

GRIPPER_EN = "Fingers or hand drawn in or trapped at the gripper or end effector"
GRIPPER_KO = "그리퍼 또는 엔드 이펙터에 손가락이나 손이 끌려 들어가거나 끼임"


def ko(text: str) -> str:
    with translation.override("ko"):
        return translation.gettext(text)


def page(revision) -> str:
    return reverse("compliance:assessment", args=[revision.assessment.cell_id])


def accept(client, revision, key: str, **headers) -> Hazard:
    response = client.post(
        reverse("compliance:suggestion_accept", args=[revision.pk, key]),
        **HTMX,
        **headers,
    )
    assert response.status_code == 200
    return revision.hazards.get()


@pytest.fixture
def accepted(owner_client, revision):
    """The gripper suggestion, accepted by a Korean user."""
    return accept(owner_client, revision, "gripper-trapping", **KO)


def test_a_korean_click_stores_the_english_text(accepted):
    assert accepted.task == GRIPPER_EN
    assert accepted.description
    assert ko(accepted.description) != accepted.description  # a msgid, in English
    assert "로봇" not in accepted.description


def test_the_page_shows_it_in_the_readers_language(owner_client, accepted):
    korean = owner_client.get(page(accepted.revision), **KO).text
    english = owner_client.get(page(accepted.revision), **EN).text
    assert GRIPPER_KO in korean and GRIPPER_EN not in korean
    assert GRIPPER_EN in english and GRIPPER_KO not in english


def test_a_task_with_the_cells_figures_is_translated_with_them(
    owner_client, revision, cell
):
    hazard = accept(owner_client, revision, "robot-reach-crushing", **KO)
    assert hazard.task.startswith("Being crushed between the moving robot")
    korean = owner_client.get(page(revision), **KO).text
    reach = hazard.task.split("(")[-1].split(" mm")[0]
    assert f"로봇 도달 거리({reach} mm)" in korean
    assert "Being crushed" not in korean


def test_each_proposal_reads_in_its_own_language(accepted, cell, safety_engineer):
    tasks = {}
    for language in ("ko", "en"):
        document = proposal_request(
            cell=cell, actor=safety_engineer, language=language, sections=["risk"]
        )
        tasks[language] = [h.task for h in proposal_data(document).risk.hazards]
    assert tasks == {"ko": [GRIPPER_KO], "en": [GRIPPER_EN]}


def test_the_report_pdf_rows_follow_the_reports_language(accepted):
    korean = report_data(accepted.revision, language="ko").hazards[0]
    english = report_data(accepted.revision, language="en").hazards[0]
    assert (korean.task, english.task) == (GRIPPER_KO, GRIPPER_EN)
    assert korean.description == ko(accepted.description)
    assert english.description == accepted.description


def test_the_workbook_follows_the_readers_language(accepted):
    for language, expected in (("ko", GRIPPER_KO), ("en", GRIPPER_EN)):
        with translation.override(language):
            book = load_workbook(io.BytesIO(register_workbook(accepted.revision)))
        cells = {c.value for ws in book for row in ws.iter_rows() for c in row}
        assert expected in cells


def form_data(hazard: Hazard, **changes) -> dict:
    values = {
        "group": hazard.group,
        "origin": hazard.origin,
        "consequence": hazard.consequence,
        "phase": hazard.phase,
        "task": hazard.task,
        "location_key": hazard.location_key,
        "description": hazard.description,
        "version": hazard.version,
        **changes,
    }
    return {f"h{hazard.pk}-{k}": v for k, v in values.items()}


def test_the_edit_form_shows_the_korean_text_and_saving_it_keeps_the_english(
    owner_client, accepted
):
    url = reverse("compliance:hazard_edit", args=[accepted.pk])
    form = owner_client.get(url, **HTMX, **KO).text
    assert f'value="{GRIPPER_KO}"' in form
    korean_description = ko(accepted.description)
    data = form_data(accepted, task=GRIPPER_KO, description=korean_description)
    response = owner_client.post(url, data, **HTMX, **KO)
    assert response.status_code == 200
    saved = Hazard.objects.get(pk=accepted.pk)
    assert saved.version > accepted.version  # it was saved
    assert (saved.task, saved.description) == (GRIPPER_EN, accepted.description)


def test_an_edited_task_is_stored_as_typed(owner_client, accepted):
    url = reverse("compliance:hazard_edit", args=[accepted.pk])
    typed = "그리퍼 교체 중 손 끼임"
    owner_client.post(url, form_data(accepted, task=typed), **HTMX, **KO)
    saved = Hazard.objects.get(pk=accepted.pk)
    assert saved.task == typed
    assert typed in owner_client.get(page(accepted.revision), **EN).text


def test_a_typed_task_is_shown_unchanged_in_both_languages(
    owner_client, revision, safety_engineer, cell
):
    typed = "Clearing a jam at the infeed conveyor"
    services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        group="mechanical",
        origin="moving_elements",
        consequence="crushing",
        phase="operation",
        task=typed,
    )
    for headers in (KO, EN):
        assert typed in owner_client.get(page(revision), **headers).text
    assert report_data(revision, language="ko").hazards[0].task == typed


@pytest.mark.parametrize(
    "text",
    [
        "task",  # a msgid of the catalogue, but not the suggestion's text
        GRIPPER_KO,  # stored in Korean before: stays as it is
        GRIPPER_EN + " (checked)",  # the app's text, edited
    ],
)
def test_only_the_text_the_app_wrote_is_translated(accepted, text):
    """A text that is not its source's English (a person changed it, or
    typed another that happens to be one of the app's) is shown as stored:
    nothing is matched back to a message id."""
    Hazard.objects.filter(pk=accepted.pk).update(task=text)
    accepted.refresh_from_db()
    with translation.override("ko"):
        assert written.field_shown(accepted, "task", translation.gettext) == text
        assert written.field_shown(accepted, "description", translation.gettext) != (
            accepted.description
        )


def test_a_typed_text_equal_to_a_suggestions_is_the_persons(
    owner_client, revision, safety_engineer
):
    """Typed, word for word, as a suggestion's English: no source, so it is
    the engineer's own text and shown as typed (before, any text equal to
    one of the app's was translated)."""
    services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        group="mechanical",
        origin="moving_elements",
        consequence="crushing",
        phase="operation",
        task=GRIPPER_EN,
    )
    assert GRIPPER_EN in owner_client.get(page(revision), **KO).text


def test_the_safety_functions_name_the_hazard_in_the_readers_language(accepted, cell):
    """The hazards a safety function answers are named as the register names
    them: an accepted suggestion's task in the reader's language."""
    from compliance.safety_functions.selectors import assessment_hazards

    key = str(accepted.key)
    with translation.override("ko"):
        korean = assessment_hazards(cell).draft[key].label
    with translation.override("en"):
        english = assessment_hazards(cell).draft[key].label
    assert (korean, english) == (GRIPPER_KO, GRIPPER_EN)
