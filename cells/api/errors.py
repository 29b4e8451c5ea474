"""How the API answers errors: bad input is a 400 with field errors, never a 500."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


def validation_detail(exc: DjangoValidationError) -> dict[str, list[str]]:
    """Django's messages keyed by field, ``__all__`` renamed the way DRF names it."""
    non_field = api_settings.NON_FIELD_ERRORS_KEY
    if not hasattr(exc, "error_dict"):
        return {non_field: exc.messages}
    return {
        (non_field if field == NON_FIELD_ERRORS else field): messages
        for field, messages in exc.message_dict.items()
    }


def document_error_detail(exc: DjangoValidationError) -> dict[str, list[str]]:
    """Import errors keyed by their place in the request body.

    ``cells.services.cell_import`` names places as pydantic does
    (``guard_segments.0.width_mm``); the API puts them under ``document.``, as it
    does the document's own (pydantic) errors.
    """
    detail: dict[str, list[str]] = {}
    for path, messages in exc.message_dict.items():
        key = "document" if path == NON_FIELD_ERRORS else f"document.{path}"
        detail.setdefault(key, []).extend(messages)
    return detail


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus Django validation and integrity errors as 400s."""
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(validation_detail(exc))
    elif isinstance(exc, IntegrityError):
        # A last safety net: serializers check the rules first, so reaching this
        # means a rule the API does not know about yet (or a race). The database
        # refused the write, so nothing was saved.
        logger.warning("Write refused by the database: %s", exc)
        exc = exceptions.ValidationError(
            {
                api_settings.NON_FIELD_ERRORS_KEY: [
                    _("These values break a rule of the database; nothing was saved.")
                ]
            }
        )
    return drf_exception_handler(exc, context)
