"""The space limits the app writes from the layout are stored in English and
shown in the reader's language (issue 15, "Korean, complete"): opening the
assessment as a Korean user no longer writes Korean into the register, so an
English proposal or report of it reads English, and a Korean one Korean. A
text the engineer typed is shown as typed."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from compliance.assessment import services, space_limits
from compliance.assessment.report_views import report_data
from compliance.calculators import written
from tests.factories import GuardSegmentFactory, OpeningFactory

KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def ko(revision) -> str:
    """The revision's space limits as a Korean reader sees them."""
    with translation.override("ko"):
        return written.field_shown(revision, "space_limits", translation.gettext)


@pytest.fixture
def engineer_client(client, safety_engineer):
    client.force_login(safety_engineer)
    return client


@pytest.fixture
def fenced(cell):
    """Two fence segments, 6 m and 4.5 m, one opening, the base at 3,000 /
    2,500 mm and the reach circle."""
    cell.robot_base_x_mm = 3000
    cell.robot_base_y_mm = 2500
    cell.save()
    first = GuardSegmentFactory(
        cell=cell, start_x_mm=0, start_y_mm=0, end_x_mm=6000, end_y_mm=0
    )
    GuardSegmentFactory(
        cell=cell, start_x_mm=6000, start_y_mm=0, end_x_mm=6000, end_y_mm=4500
    )
    OpeningFactory(segment=first)
    return cell


def opened_in_korean(client, cell):
    """The assessment started by a Korean user."""
    response = client.post(
        reverse("compliance:assessment_start", args=[cell.pk]), **KO, follow=True
    )
    assert response.status_code == 200
    return cell.assessment.revisions.get()


def test_a_korean_user_opening_the_assessment_stores_english(engineer_client, fenced):
    revision = opened_in_korean(engineer_client, fenced)
    radius = f"{fenced.hazard_zone_effective_radius_mm:,.0f}"
    assert revision.space_limits == (
        f"Robot base at x 3,000, y 2,500 mm; hazard zone a circle of radius "
        f"{radius} mm. Perimeter guard: 2 segments, 10.5 m, with 1 openings."
    )


def test_the_page_shows_the_space_limits_in_the_readers_language(
    engineer_client, fenced
):
    revision = opened_in_korean(engineer_client, fenced)
    url = reverse("compliance:assessment", args=[fenced.pk])
    korean = engineer_client.get(url, **KO).text
    english = engineer_client.get(url, **EN).text
    assert "로봇 베이스 위치 x 3,000, y 2,500 mm" in korean
    assert "구간 2개, 총 길이 10.5 m, 개구부 1개" in korean
    assert "Robot base at" not in korean
    assert revision.space_limits in english
    assert "로봇 베이스" not in english


def test_the_limits_form_shows_korean_and_keeps_the_english_when_unchanged(
    engineer_client, fenced
):
    revision = opened_in_korean(engineer_client, fenced)
    stored = revision.space_limits
    url = reverse("compliance:limits_edit", args=[revision.pk])
    form = engineer_client.get(url, **KO).text
    shown = ko(revision)
    assert shown != stored and shown in form
    post = {
        "intended_use": "Palletising",
        "space_limits": shown,
        "version": revision.version,
    }
    engineer_client.post(url, post, **KO)
    revision.refresh_from_db()
    assert revision.intended_use == "Palletising"
    assert revision.space_limits == stored  # still the English the app wrote

    edited = shown + " 남쪽은 벽."
    post = {"space_limits": edited, "version": revision.version}
    engineer_client.post(url, post, **KO)
    revision.refresh_from_db()
    assert revision.space_limits == edited  # typed: kept as typed, everywhere
    english = engineer_client.get(
        reverse("compliance:assessment", args=[fenced.pk]), **EN
    ).text
    assert "남쪽은 벽." in english


def test_the_report_prints_the_space_limits_in_its_language(engineer_client, fenced):
    revision = opened_in_korean(engineer_client, fenced)
    for language, expected in (("ko", "로봇 베이스 위치"), ("en", "Robot base at")):
        data = report_data(revision, language=language)
        (text,) = [
            limit.text for limit in data.limits if limit.text.startswith(expected)
        ]
        assert "3,000" in text


def test_a_drawn_zone_and_a_typed_text():
    source = space_limits.source(
        base_x_mm=12500,
        base_y_mm=0,
        zone_corners=5,
        zone_radius_mm=None,
        segments=0,
        perimeter_mm=0,
        openings=0,
    )
    polygon = written.render(source)
    assert "hazard zone a polygon of 5 corners." in polygon
    assert "x 12,500" in polygon
    with translation.override("ko"):
        shown = written.shown(polygon, source, translation.gettext)
        assert "위험 구역: 꼭짓점 5개의 다각형." in shown
        assert "Robot base" not in shown
        typed = "Robot base at the north wall; the rest is open floor."
        assert written.shown(typed, source, translation.gettext) == typed
        # A text that starts like the app's but was edited is the engineer's.
        edited = polygon + " Except the north wall."
        assert written.shown(edited, source, translation.gettext) == edited


def test_services_write_english_whatever_the_active_language(fenced, safety_engineer):
    with translation.override("ko"):
        revision = services.assessment_open(cell=fenced, actor=safety_engineer)
    assert revision.space_limits.startswith("Robot base at x 3,000")
