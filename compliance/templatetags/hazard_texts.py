"""``{{ hazard.task|localised }}``: a task or description the app stored in
English (an accepted suggestion's), in the reader's language; any other text
unchanged (``compliance.assessment.hazards.suggestions.localise``)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from compliance.assessment.texts import localise

register = template.Library()


@register.filter
def localised(text):
    """The text in the reader's language if the app wrote it, else as is."""
    return localise(text, gettext) if isinstance(text, str) else text
