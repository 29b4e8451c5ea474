"""The API's error handler turns Django errors into 400s instead of 500s."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from rest_framework.exceptions import NotFound

from cells.api.errors import document_error_detail, exception_handler
from cells.models import GuardSegment
from tests.cells.api.support import list_url, segment_body


def test_field_errors_keep_their_field_names():
    exc = ValidationError({"height_mm": "Too low.", "__all__": "Broken."})

    response = exception_handler(exc, {})

    assert response.status_code == 400
    assert response.data == {
        "height_mm": ["Too low."],
        "non_field_errors": ["Broken."],
    }


def test_plain_validation_errors_become_non_field_errors():
    response = exception_handler(ValidationError(["One.", "Two."]), {})

    assert response.status_code == 400
    assert response.data == {"non_field_errors": ["One.", "Two."]}


def test_integrity_errors_become_a_400():
    response = exception_handler(IntegrityError("CHECK constraint failed"), {})

    assert response.status_code == 400
    assert list(response.data) == ["non_field_errors"]
    assert "constraint" not in str(response.data)


def test_drf_errors_are_handled_as_before():
    assert exception_handler(NotFound(), {}).status_code == 404


def test_other_errors_are_left_alone():
    assert exception_handler(RuntimeError("bug"), {}) is None


def test_import_errors_are_keyed_under_the_document():
    exc = ValidationError(
        {
            "guard_segments.0.openings.12.width_mm": "Too wide.",
            "robot.payload_kg": "Too light.",
            "__all__": "Broken.",
        }
    )

    assert document_error_detail(exc) == {
        "document.guard_segments.0.openings.12.width_mm": ["Too wide."],
        "document.robot.payload_kg": ["Too light."],
        "document": ["Broken."],
    }


@pytest.mark.django_db
def test_a_write_the_database_refuses_is_a_400_and_saves_nothing(
    owner_api, cell, monkeypatch
):
    # Pretend the model forgot its rule: the database's CHECK still holds it.
    monkeypatch.setattr(GuardSegment, "clean", lambda self: None)
    body = segment_body(cell, end_x_mm=0, end_y_mm=3000)

    response = owner_api.post(list_url("guard-segment"), body, format="json")

    assert response.status_code == 400
    assert "non_field_errors" in response.data
    # The connection is still usable (the write was rolled back to a savepoint).
    assert not GuardSegment.objects.exists()
