"""Calculator pages: the working updates as the user types; bad input never breaks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from compliance.calculators.registry import CALCULATORS

HTMX = {"HTTP_HX_REQUEST": "true"}


def page(name: str) -> str:
    return reverse("compliance:calculator_detail", args=[name])


def test_list_page_links_every_calculator(owner_client):
    response = owner_client.get(reverse("compliance:calculator_list"))
    for name in CALCULATORS:
        assert page(name) in response.text


@pytest.mark.parametrize("name", sorted(CALCULATORS))
def test_first_visit_shows_the_example_worked(owner_client, name):
    response = owner_client.get(page(name))
    assert response.status_code == 200
    assert 'class="steps"' in response.text
    assert CALCULATORS[name].standard in response.text


def test_typing_updates_just_the_result(owner_client):
    response = owner_client.get(
        page("plr"), {"severity": "S2", "frequency": "F2", "avoidance": "P2"}, **HTMX
    )
    assert "<html" not in response.text
    assert 'id="result"' in response.text
    assert '<span class="value">e</span>' in response.text
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize("name", sorted(CALCULATORS))
@pytest.mark.parametrize("garbage", ["-1", "abc", "1e309", ""])
def test_bad_input_gets_a_message_never_a_500(owner_client, name, garbage):
    fields = CALCULATORS[name].input_model.model_fields
    response = owner_client.get(page(name), dict.fromkeys(fields, garbage), **HTMX)
    assert response.status_code == 200
    assert "Correct the inputs" in response.text or 'class="steps"' in response.text


def test_error_names_the_field_in_the_summary(owner_client):
    response = owner_client.get(
        page("iso13855-mat"),
        {"response_time_ms": "-3", "stopping_time_ms": "100"},
        **HTMX,
    )
    assert "Correct the inputs" in response.text
    assert (
        "<strong>Response time of the device (ms)</strong>: Must be at least 0.1."
        in response.text
    )


def test_pfl_page_offers_the_body_model(owner_client):
    response = owner_client.get(page("ts15066-pfl"))
    assert 'class="table compact body-regions"' in response.text
    assert "?body_region=chest" in response.text


def test_unknown_calculator_is_not_found(owner_client):
    assert owner_client.get(page("sil-matrix")).status_code == 404


def test_calculator_page_in_korean(owner_client):
    owner_client.post(reverse("set_language"), {"language": "ko", "next": "/"})
    response = owner_client.get(page("plr"))
    assert '<html lang="ko">' in response.text
    assert "계산" in response.text
