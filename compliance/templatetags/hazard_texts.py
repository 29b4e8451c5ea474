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


@register.filter
def function_text(text, function):
    """``{{ function.name|function_text:function }}``: a safety function's
    text in the reader's language where the app wrote it from a proposal."""
    from compliance.safety_functions.selectors import function_text as shown

    return shown(function, text, gettext) if isinstance(text, str) else text


@register.filter
def app_text(text):
    """``{{ entry.notes|app_text }}``: a text the app seeded into data (a
    library entry's notes) in the reader's language; a text a person typed
    comes back as typed. Unlike ``{% translate var %}``, a "%" in the text
    does not stop the look-up."""
    return gettext(text) if isinstance(text, str) and text else text
