"""Texts the app writes into a record for later display (an accepted
proposal's function name, a suggested hazard's task, the space limits taken
from the layout). Pure Python, no Django.

The record keeps the text in English, whoever clicked, so it reads the same
in both languages and is what a signature covers; beside it, the record keeps
where the text came from: its message id (marked with ``gettext_noop``) and
the values filled in, a *source*. ``shown`` gives the text in the reader's
language from its source, rendered when read. A person who edits the text
makes it theirs: the stored text then differs from its source's English, and
it is shown as typed. No text is ever matched back to a message id.

A source is plain JSON: ``{"text": msgid, "values": {name: value}}``, where a
value is a string or a number (the user's data, shown as is) or a source
itself (the app's words, translated).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from compliance.calculators.base import Line

Translate = Callable[[str], str]
Source = dict[str, Any]


def _same(text: str) -> str:
    return text


def source(text: str, values: Mapping[str, Any] | None = None) -> Source:
    """The source of a text the app writes: ``text`` a message id, ``values``
    what fills its ``%(name)s`` placeholders."""
    return {"text": text, "values": dict(values or {})}


def from_line(line: Line) -> Source:
    """The source of a ``Line`` written into a record (its values are the
    user's data: labels, figures)."""
    return source(line.text, line.values)


def render(written: Mapping[str, Any], translate: Translate = _same) -> str:
    """The text of a source in the language of ``translate`` (English with
    the default)."""
    text = translate(written["text"])
    values = written.get("values") or {}
    if not values:
        return text
    return text % {
        name: render(value, translate) if isinstance(value, Mapping) else value
        for name, value in values.items()
    }


def shown(stored: str, written: Mapping[str, Any] | None, translate: Translate) -> str:
    """``stored`` in the reader's language if the app wrote it from
    ``written`` and nobody changed it since; else as stored."""
    if not stored or not written:
        return stored
    try:
        if render(written) != stored:
            return stored
        return render(written, translate)
    except (KeyError, ValueError, TypeError):
        # A source that does not fit its text (edited by hand in the database).
        return stored


def field_shown(record: Any, field: str, translate: Translate) -> str:
    """The record's ``field`` in the reader's language, from the sources in
    its ``texts`` (``{field: source}``)."""
    sources = getattr(record, "texts", None) or {}
    return shown(getattr(record, field), sources.get(field), translate)
