"""Form helpers every feature's pages share."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError


def add_errors(form: forms.Form, exc: ValidationError) -> None:
    """A service's ValidationError shown on the form, by field where it names one."""
    errors = exc.message_dict if hasattr(exc, "error_dict") else {None: exc.messages}
    for field, messages in errors.items():
        form.add_error(field if field in form.fields else None, messages)
