"""Texts the app stored in English, shown in the reader's language
(``compliance.calculators.written``)."""

from __future__ import annotations

import re

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language, gettext

from compliance.calculators.written import field_shown

register = template.Library()


@register.filter
def shown(record, field):
    """``{{ hazard|shown:"task" }}``: a record's text in the reader's language
    where the app wrote it (an accepted suggestion's task, the space limits
    from the layout, an accepted proposal's function name), from the source
    stored beside it; a text a person typed or changed, as stored."""
    return field_shown(record, field, gettext)


@register.filter
def phrase(text, phrases):
    """``{{ value|phrase:phrases }}``: a text from the history (a value before
    or after a change) in the reader's language if it is one the app wrote
    (``phrases``: ``assessment.selectors.app_phrases``), else as it is."""
    if not isinstance(text, str) or not phrases:
        return text
    return phrases.get(text, text)


@register.filter
def app_text(text):
    """``{{ entry.notes|app_text }}``: a text the app seeded into data (a
    library entry's notes) in the reader's language; a text a person typed
    comes back as typed. Unlike ``{% translate var %}``, a "%" in the text
    does not stop the look-up."""
    return gettext(text) if isinstance(text, str) and text else text


_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_LATIN = re.compile(r"[A-Za-z]{2,}")


@register.filter
def entry_text(text):
    """``{{ d.function|entry_text }}``: a library entry's text in the
    reader's language. What the app ships is translated; what an
    organisation typed in one language only is shown as typed and marked
    with that language where the reader reads another (issue 30): "…
    (English)" on a Korean page, "… (Korean)" on an English one."""
    if not isinstance(text, str) or not text:
        return text
    translated = gettext(text)
    if translated != text:
        return translated
    korean_page = (get_language() or "").startswith("ko")
    hangul = bool(_HANGUL.search(text))
    if korean_page and not hangul and _LATIN.search(text):
        return format_html('<span lang="en">{}</span> ({})', text, gettext("English"))
    if not korean_page and hangul:
        return format_html('<span lang="ko">{}</span> ({})', text, gettext("Korean"))
    return text


@register.filter
def statement_translation(declaration):
    """``{{ declaration|statement_translation }}``: the signed statement in
    the reader's language when it was signed in another (issue 30)."""
    from compliance.assessment.signing import statement_translation as shown

    return shown(declaration)
