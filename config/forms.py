"""Form helpers every feature's pages share."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


def add_errors(form: forms.Form, exc: ValidationError) -> None:
    """A service's ValidationError shown on the form, by field where it names one."""
    errors = exc.message_dict if hasattr(exc, "error_dict") else {None: exc.messages}
    for field, messages in errors.items():
        form.add_error(field if field in form.fields else None, messages)


def upload_within(upload, limit_bytes: int):
    """``upload`` if it is no larger than ``limit_bytes``, else a form error
    naming the limit in MB (checked from its size, before it is read)."""
    if upload.size > limit_bytes:
        raise forms.ValidationError(
            _("The file is larger than %(limit_mb)s MB.")
            % {"limit_mb": limit_bytes // (1024 * 1024)}
        )
    return upload
