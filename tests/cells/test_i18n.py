"""Korean and English: the UI, its messages and its formats follow the language."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from cells.models import Project

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def compiled_catalogue():
    mo = Path(settings.BASE_DIR) / "locale/ko/LC_MESSAGES/django.mo"
    assert mo.exists(), "Compile the translations first: make messages"


@pytest.fixture
def korean(owner_client):
    owner_client.post(reverse("set_language"), {"language": "ko", "next": "/"})
    return owner_client


def test_language_switcher_turns_the_cell_page_korean(korean, cell, segment):
    response = korean.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert '<html lang="ko">' in response.text
    assert "방호울 구간" in response.text  # "Guard segments"
    assert "레이아웃" in response.text  # "Layout"
    assert "Guard segments" not in response.text


def test_form_errors_come_in_korean(korean, cell):
    response = korean.post(
        reverse("cells:element_add", args=[cell.pk, "segment"]),
        {
            "kind": "fence",
            "start_x_mm": 0,
            "start_y_mm": 0,
            "end_x_mm": 0,
            "end_y_mm": 0,
            "height_mm": 1800,
        },
        **HTMX,
    )
    assert "The segment has zero length" not in response.text
    assert 'class="field has-error"' in response.text


def test_dates_follow_the_language(owner_client, korean, project):
    Project.objects.filter(pk=project.pk).update(
        updated_at=timezone.make_aware(dt.datetime(2026, 3, 7, 12, 0))
    )
    korean_page = korean.get(reverse("cells:project_list")).text
    assert "2026-3-7" in korean_page
    korean.post(reverse("set_language"), {"language": "en", "next": "/"})
    english_page = korean.get(reverse("cells:project_list")).text
    assert "03/07/2026" in english_page
