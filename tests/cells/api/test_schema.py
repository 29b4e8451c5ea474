"""The OpenAPI schema: served, and generated without errors or warnings."""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_schema_is_served(api_client):
    response = api_client.get(reverse("api-schema"))

    assert response.status_code == 200
    assert b"/api/v1/cells/{id}/export/" in response.content
    assert b"/api/v1/cells/import/" in response.content


def test_docs_page_is_served(api_client):
    assert api_client.get(reverse("api-docs")).status_code == 200


def test_schema_validates_without_warnings():
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", os.devnull)
