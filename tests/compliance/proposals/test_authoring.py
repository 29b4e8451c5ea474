"""The SA's texts and choices (issue 15): the executive summary and the
safety concept, generated from the cell until the SA writes them, printed as
written in the proposal's language; what to show (every rule or those that
apply; the passed checks summarised, in full or left out), kept with the
proposal and recorded with each version."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from cells import selectors as cell_selectors
from compliance.assessment import services as assessment_services
from compliance.documents import theme
from compliance.models import ProposalDocument, ProposalText
from compliance.proposals import authoring
from compliance.proposals.building import build_document
from compliance.proposals.data import proposal_data
from compliance.proposals.pdf.data import SECTIONS
from compliance.proposals.selectors import cell_status
from compliance.proposals.services import proposal_request
from tests.compliance.conftest import sign_revision
from tests.compliance.proposals.demo import text_of
from tests.factories import DeviceFactory, GuardSegmentFactory, OpeningFactory

pytestmark = pytest.mark.django_db

ALL = list(SECTIONS)
# reportlab's paragraph markup and an ampersand: printed as typed.
MARKUP = "Our <b>offer</b> & <para>terms</para>"


@pytest.fixture
def enclosed(cell):
    """A fence all round the robot (6 m × 5 m), an infeed with a light
    curtain and a door with its interlock; a zone up to 1,400 mm."""
    cell.stopping_time_ms = 300
    cell.hazard_zone_height_mm = 1400
    cell.save()
    corners = [(-1000, -1000), (5000, -1000), (5000, 4000), (-1000, 4000)]
    sides = []
    for index, (start, end) in enumerate(
        zip(corners, corners[1:] + corners[:1], strict=True)
    ):
        sides.append(
            GuardSegmentFactory(
                cell=cell,
                label=f"F{index + 1}",
                start_x_mm=start[0],
                start_y_mm=start[1],
                end_x_mm=end[0],
                end_y_mm=end[1],
            )
        )
    infeed = OpeningFactory(segment=sides[0], label="Infeed")
    door = OpeningFactory(
        segment=sides[2], label="Door", purpose="maintenance_door", upper_edge_mm=2000
    )
    DeviceFactory(
        cell=cell,
        label="LC1",
        opening=infeed,
        response_time_ms=20,
        detection_capability_mm=14,
        iec61496_type=4,
        x1_mm=0,
        y1_mm=-1000,
        x2_mm=800,
        y2_mm=-1000,
        detection_lower_mm=300,
        detection_upper_mm=2000,
    )
    DeviceFactory(cell=cell, label="DS1", kind="interlocked_door", opening=door)
    return cell


def generated(cell, user, language: str) -> authoring.GeneratedTexts:
    return authoring.generated_texts(
        cell_status(cell_selectors.cell_with_layout(user, cell.pk)), language
    )


def counts(cell, user) -> dict[str, int]:
    client = APIClient()
    client.force_authenticate(user)
    groups = client.get(f"/api/v1/cells/{cell.pk}/findings/").json()["groups"]
    statuses = [f["status"] for g in groups for f in g["findings"]]
    return {s: statuses.count(s) for s in ("pass", "fail", "needs_evidence")}


def built(cell, user, language: str, **choices) -> tuple[ProposalDocument, str]:
    document = proposal_request(
        cell=cell, actor=user, language=language, sections=ALL, notes=[], **choices
    )
    assert build_document(document.pk, claim="t") == "ready"
    document.refresh_from_db()
    return document, text_of(bytes(document.pdf))


def flat(text: str) -> str:
    """A PDF's text without the line breaks and spaces wrapping added."""
    return re.sub(r"\s+", "", text)


# --- generated from the cell ------------------------------------------------------


def test_the_generated_texts_say_how_the_cell_is_guarded_and_what_is_open(
    enclosed, owner
):
    texts = generated(enclosed, owner, "en")
    concept = texts.safety_concept
    assert "enclosed all round by guarding (fence), 22.0 m in all" in concept
    assert "1 opening is guarded by a sensing device (LC1)" in concept
    assert "1 opening is closed by an interlocked door (DS1)" in concept
    assert "No safety function is specified yet." in concept
    summary = texts.summary
    assert "No risk assessment of the cell is recorded yet." in summary
    # The open findings as the findings API counts them.
    found = counts(enclosed, owner)
    assert found["needs_evidence"], found
    assert f"{found['needs_evidence']} findings need evidence" in summary
    assert "cost lines are still to be quoted" in summary


def test_an_open_fence_and_an_unguarded_opening_are_said_as_they_are(cell, owner):
    segment = GuardSegmentFactory(cell=cell, label="F1")
    OpeningFactory(segment=segment, label="Gap")
    concept = generated(cell, owner, "en").safety_concept
    assert "does not enclose the robot's hazard zone all round yet" in concept
    assert "1 opening has no safeguarding device recorded." in concept
    assert "enclosed all round" not in concept


def test_a_signed_assessment_is_named_with_its_signer_and_date_in_both_languages(
    enclosed, revision, hazard, safety_engineer, owner
):
    safety_engineer.first_name, safety_engineer.last_name = "Minji", "Kim"
    safety_engineer.save()
    submitted = assessment_services.revision_submit(
        revision=revision, actor=safety_engineer
    )
    signed = sign_revision(submitted, safety_engineer)
    day = timezone.localdate(signed.signed_at)
    english = generated(enclosed, owner, "en").summary
    assert (
        f"The risk assessment is signed: revision 1, by Minji Kim on "
        f"{theme.long_date(day, 'en')}." in english
    )
    korean = generated(enclosed, owner, "ko").summary
    assert "위험성평가는 서명되었습니다: 개정 1" in korean
    assert theme.long_date(day, "ko") in korean and "Minji Kim" in korean
    assert "The risk assessment" not in korean
    # A newer draft is said too, and the signed one still named.
    assessment_services.revision_start_next(revision=signed, actor=safety_engineer)
    english = generated(enclosed, owner, "en").summary
    assert "revision 1, by Minji Kim" in english
    assert "A newer revision (2) is in draft and not signed yet." in english


def test_a_draft_assessment_is_said_to_be_one(cell, blank_revision, owner):
    summary = generated(cell, owner, "en").summary
    assert "The risk assessment is a draft (revision 1), not signed yet." in summary


# --- written by the SA ------------------------------------------------------------


def test_the_page_shows_the_generated_texts_until_the_sa_writes_them(
    enclosed, owner, owner_client
):
    url = reverse("compliance:proposal", args=[enclosed.pk])
    page = owner_client.get(url).text
    assert "Generated from the cell" in page
    assert "1 opening is guarded by a sensing device (LC1)" in page
    # Korean too: each language has its own texts.
    assert "감지 장치(LC1)로 보호됩니다" in page


def test_the_sa_writes_the_texts_and_the_pdf_prints_them_as_written(
    enclosed, owner, owner_client
):
    edit = reverse("compliance:proposal_texts_edit", args=[enclosed.pk, "en"])
    form = owner_client.get(edit)
    # The form starts from the generated text.
    assert "1 opening is guarded by a sensing device (LC1)" in form.text
    summary = f"{MARKUP}\n\nA second paragraph, for the plant manager."
    response = owner_client.post(
        edit, {"summary": summary, "safety_concept": "Fenced; one light curtain."}
    )
    assert response.status_code == 302
    assert response["Location"].endswith("#texts-en")
    written = ProposalText.objects.get(language="en")
    assert (written.summary, written.updated_by) == (summary, owner)
    page = owner_client.get(reverse("compliance:proposal", args=[enclosed.pk])).text
    assert "As written for this proposal" in page
    assert "Our &lt;b&gt;offer&lt;/b&gt; &amp; &lt;para&gt;terms&lt;/para&gt;" in page

    _document, text = built(enclosed, owner, "en")
    assert MARKUP in text
    assert "A second paragraph, for the plant manager." in text
    assert "Safety concept" in text and "Fenced; one light curtain." in text
    assert "No risk assessment of the cell is recorded yet." not in text
    # The Korean proposal keeps its own, generated texts.
    _document, korean = built(enclosed, owner, "ko")
    assert MARKUP not in korean and "안전 개념" in korean
    assert flat("이 셀의 위험성평가는 아직 기록되지 않았습니다.") in flat(korean)


def test_the_edit_is_made_in_place_with_htmx(enclosed, owner_client):
    edit = reverse("compliance:proposal_texts_edit", args=[enclosed.pk, "en"])
    form = owner_client.get(edit, HTTP_HX_REQUEST="true")
    assert form.status_code == 200 and "<html" not in form.text
    assert 'id="texts-en"' in form.text and "<textarea" in form.text
    assert "HX-Request" in form["Vary"]
    # Cancel: the texts again, in place, the language still open.
    cancelled = owner_client.get(edit, {"cancel": ""}, HTTP_HX_REQUEST="true")
    assert (
        "<textarea" not in cancelled.text
        and "Generated from the cell" in cancelled.text
    )
    assert 'id="texts-en" class="proposal-texts" open' in cancelled.text
    # The texts are marked as English, the page's own words are not.
    assert '<div class="authored" lang="en">' in cancelled.text
    saved = owner_client.post(
        edit,
        {"summary": "Short and to the point.", "safety_concept": ""},
        HTTP_HX_REQUEST="true",
    )
    assert saved.status_code == 200 and "<textarea" not in saved.text
    assert "Short and to the point." in saved.text
    assert "As written for this proposal" in saved.text
    # The emptied concept is the generated one.
    assert "Generated from the cell" in saved.text
    assert ProposalText.objects.get().safety_concept == ""


def test_a_text_left_as_generated_keeps_following_the_cell(
    enclosed, owner, owner_client
):
    edit = reverse("compliance:proposal_texts_edit", args=[enclosed.pk, "en"])
    texts = generated(enclosed, owner, "en")
    owner_client.post(
        edit,
        {
            # As the browser sends a textarea's line breaks.
            "summary": texts.summary + "\r\n",
            "safety_concept": "Our own concept.",
        },
    )
    written = ProposalText.objects.get()
    assert (written.summary, written.safety_concept) == ("", "Our own concept.")
    DeviceFactory(cell=enclosed, label="SC1", kind="laser_scanner")
    data = proposal_data(
        proposal_request(
            cell=enclosed, actor=owner, language="en", sections=["summary"], notes=[]
        )
    )
    assert "Further sensing devices" not in data.summary.text
    assert data.summary.safety_concept == "Our own concept."
    # The summary is the generated one, as the cell is now.
    assert data.summary.text == generated(enclosed, owner, "en").summary


def test_reset_goes_back_to_the_generated_text(enclosed, owner, owner_client):
    edit = reverse("compliance:proposal_texts_edit", args=[enclosed.pk, "ko"])
    owner_client.post(
        edit, {"summary": "직접 쓴 요약.", "safety_concept": "직접 쓴 개념."}
    )
    form = owner_client.get(edit).text
    assert "Reset the summary to the generated text" in form
    response = owner_client.post(edit, {"reset": "summary"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    written = ProposalText.objects.get(language="ko")
    assert (written.summary, written.safety_concept) == ("", "직접 쓴 개념.")
    assert generated(enclosed, owner, "ko").summary.split(" ")[0] in response.text


def test_too_long_a_text_is_a_form_error_and_nothing_saved_is_lost(
    enclosed, owner_client
):
    edit = reverse("compliance:proposal_texts_edit", args=[enclosed.pk, "en"])
    owner_client.post(edit, {"summary": "Kept.", "safety_concept": "Kept too."})
    response = owner_client.post(
        edit, {"summary": "x" * 1501, "safety_concept": "Changed."}
    )
    assert response.status_code == 400
    assert "Ensure this value has at most 1500 characters" in response.text
    written = ProposalText.objects.get()
    assert (written.summary, written.safety_concept) == ("Kept.", "Kept too.")


def test_a_viewer_reads_the_texts_but_cannot_edit_them(enclosed, viewer_client):
    page = viewer_client.get(reverse("compliance:proposal", args=[enclosed.pk]))
    assert page.status_code == 200 and "Generated from the cell" in page.text
    assert "Edit the English texts" not in page.text
    edit = reverse("compliance:proposal_texts_edit", args=[enclosed.pk, "en"])
    assert viewer_client.get(edit).status_code == 403
    assert viewer_client.post(edit, {"summary": "No."}).status_code == 403
    assert not ProposalText.objects.exists()


def test_another_organisations_texts_are_not_found(enclosed, client, outsider):
    client.force_login(outsider)
    edit = reverse("compliance:proposal_texts_edit", args=[enclosed.pk, "en"])
    assert client.get(edit).status_code == 404
    assert client.post(edit, {"summary": "No."}).status_code == 404
    assert not ProposalText.objects.exists()


def test_an_unknown_language_is_not_found(enclosed, owner_client):
    edit = reverse("compliance:proposal_texts_edit", args=[enclosed.pk, "fr"])
    assert owner_client.get(edit).status_code == 404


# --- what to show ------------------------------------------------------------------


def _passing_message(document) -> str:
    """A passed finding's sentence (never in a summarised table)."""
    return next(
        f["message"] for f in document.data["findings"] if f["status"] == "pass"
    )


@pytest.mark.parametrize("language", ["en", "ko"])
def test_by_default_the_rules_that_apply_and_the_passes_summarised(
    enclosed, owner, language
):
    document, text = built(enclosed, owner, language)
    assert (document.rules_shown, document.passes_shown) == ("applicable", "summary")
    passed = "Checks passed" if language == "en" else "통과한 점검"
    assert passed in text
    assert flat(_passing_message(document)) not in flat(text)
    assert document.data["rules"]["left_out"] and not document.data["rules"]["others"]
    heading = (
        "Rules with nothing in this cell to check"
        if language == "en"
        else "이 셀에서 점검할 대상이 없는 규칙"
    )
    assert heading not in text


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_rule_and_the_passes_in_full_when_chosen(enclosed, owner, language):
    document, text = built(enclosed, owner, language, rules="all", passes="full")
    assert (document.rules_shown, document.passes_shown) == ("all", "full")
    rules = document.data["rules"]
    assert rules["others"] and not rules["left_out"]
    heading = (
        "Rules with nothing in this cell to check"
        if language == "en"
        else "이 셀에서 점검할 대상이 없는 규칙"
    )
    assert heading in text
    other = rules["others"][0]
    assert flat(other["text"]) in flat(text)
    # The passes in full: their sentences are printed.
    assert flat(_passing_message(document)) in flat(text)
    # The choices are kept with the proposal for the next version.
    again = proposal_request(
        cell=enclosed, actor=owner, language=language, sections=ALL, notes=[]
    )
    assert (again.rules_shown, again.passes_shown) == ("all", "full")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_passes_left_out_when_chosen(enclosed, owner, language):
    document, text = built(enclosed, owner, language, passes="omitted")
    found = counts(enclosed, owner)["pass"]
    assert found
    if language == "en":
        assert f"{found} checks passed; they are not listed here." in text
        assert "Checks passed" not in text
    else:
        assert f"통과한 점검 {found}건은 여기에 나열하지 않습니다." in text
    assert flat(_passing_message(document)) not in flat(text)


def test_a_version_is_built_again_with_the_choices_it_was_asked_with(enclosed, owner):
    document = proposal_request(
        cell=enclosed, actor=owner, language="en", sections=ALL, notes=[], passes="full"
    )
    # The SA changes their mind before the worker builds it.
    proposal_request(
        cell=enclosed,
        actor=owner,
        language="en",
        sections=ALL,
        notes=[],
        passes="omitted",
    )
    assert build_document(document.pk, claim="t") == "ready"
    document.refresh_from_db()
    assert document.data["passes_shown"] == "full"
    assert flat(_passing_message(document)) in flat(text_of(bytes(document.pdf)))


def test_the_choices_are_made_on_the_page(
    enclosed, owner_client, django_capture_on_commit_callbacks
):
    url = reverse("compliance:proposal", args=[enclosed.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(
            url,
            {
                "language": "en",
                "sections": ALL,
                "rules_shown": "all",
                "passes_shown": "omitted",
                "acknowledge": "on",
            },
        )
    assert response.status_code == 302
    document = ProposalDocument.objects.get()
    assert (document.rules_shown, document.passes_shown) == ("all", "omitted")
    page = owner_client.get(url).text
    assert re.search(r'value="all"[^>]*checked', page)
    bad = owner_client.post(
        url,
        {"language": "en", "sections": ALL, "rules_shown": "some", "acknowledge": "on"},
    )
    assert bad.status_code == 400 and "rules_shown" in bad.text


def test_the_proposal_data_of_old_versions_still_builds(enclosed, owner):
    """Data stored before the texts and choices (no ``text``, no choices)
    rebuilds, printing what it printed then."""
    from compliance.proposals.pdf.builder import build_proposal_pdf
    from compliance.proposals.pdf.data import ProposalData

    document, _text = built(enclosed, owner, "en")
    old = dict(document.data)
    old.pop("rules_shown"), old.pop("passes_shown")
    old["summary"] = {
        k: v for k, v in old["summary"].items() if k not in ("text", "safety_concept")
    }
    old["rules"] = {k: v for k, v in old["rules"].items() if k != "others"}
    text = text_of(build_proposal_pdf(ProposalData.model_validate(old)))
    assert "What is proposed" in text and "Safety concept" not in text


def test_the_texts_cost_the_page_no_query_per_language_or_text(
    enclosed, owner, owner_client
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from compliance.proposals.services import proposal_texts_save

    url = reverse("compliance:proposal", args=[enclosed.pk])
    owner_client.get(url)  # the proposal's first request fills the caches
    with CaptureQueriesContext(connection) as none_written:
        owner_client.get(url)
    for language in ("en", "ko"):
        proposal_texts_save(
            cell=enclosed,
            actor=owner,
            language=language,
            summary="Written.",
            safety_concept="Written too.",
        )
    with CaptureQueriesContext(connection) as both_written:
        page = owner_client.get(url)
    assert page.text.count("As written for this proposal") == 4
    assert len(both_written) == len(none_written) <= 25


# --- over the API ---------------------------------------------------------------------


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_api_gives_and_takes_the_texts_and_the_choices(enclosed, owner):
    url = f"/api/v1/cells/{enclosed.pk}/proposal/"
    start = api(owner).get(url).json()
    assert start["number"] is None
    assert (start["rules_shown"], start["passes_shown"]) == ("applicable", "summary")
    by_language = {t["language"]: t for t in start["texts"]}
    assert set(by_language) == {"ko", "en"}
    assert by_language["en"]["summary"] == generated(enclosed, owner, "en").summary
    assert not by_language["en"]["summary_written"]
    changed = api(owner).patch(
        url,
        {
            "rules_shown": "all",
            "texts": [{"language": "en", "summary": MARKUP}],
        },
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    body = changed.json()
    assert body["rules_shown"] == "all" and body["number"]
    english = next(t for t in body["texts"] if t["language"] == "en")
    assert (english["summary"], english["summary_written"]) == (MARKUP, True)
    assert not english["safety_concept_written"]  # left out: left as it was
    requested = api(owner).post(
        f"/api/v1/cells/{enclosed.pk}/proposals/",
        {"language": "en", "sections": ["summary"], "passes_shown": "omitted"},
        format="json",
    )
    assert requested.status_code == 202
    assert requested.json()["rules_shown"] == "all"
    assert requested.json()["passes_shown"] == "omitted"
    # Back to the generated text with "".
    api(owner).patch(url, {"texts": [{"language": "en", "summary": ""}]}, format="json")
    assert ProposalText.objects.get().summary == ""


@pytest.mark.parametrize(
    "body, field",
    [
        ({"rules_shown": "some"}, "rules_shown"),
        ({"passes_shown": True}, "passes_shown"),
        ({"texts": [{"language": "fr", "summary": "x"}]}, "texts"),
        ({"texts": [{"language": "en", "summary": "x" * 1501}]}, "texts"),
        ({"texts": [{"language": "en"}, {"language": "en"}]}, "texts"),
        ({"texts": "en"}, "texts"),
    ],
)
def test_bad_input_to_the_api_names_the_field_and_saves_nothing(
    enclosed, owner, body, field
):
    url = f"/api/v1/cells/{enclosed.pk}/proposal/"
    api(owner).patch(
        url, {"texts": [{"language": "en", "summary": "Kept."}]}, format="json"
    )
    response = api(owner).patch(url, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert ProposalText.objects.get().summary == "Kept."
    assert enclosed.proposal.rules_shown == "applicable"


def test_a_viewer_reads_the_texts_over_the_api_but_cannot_change_them(enclosed, viewer):
    url = f"/api/v1/cells/{enclosed.pk}/proposal/"
    assert api(viewer).get(url).status_code == 200
    refused = api(viewer).patch(url, {"rules_shown": "all"}, format="json")
    assert refused.status_code == 403
    assert not ProposalText.objects.exists()
