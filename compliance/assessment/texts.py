"""Texts the app writes into the risk assessment's records (an accepted
hazard suggestion's task and rationale, the space limits taken from the
layout), stored in English whoever clicked, so the record is the same in
both languages; ``localise`` shows one in the reader's language. A text a
person typed comes back unchanged. Pure Python, no Django."""

from __future__ import annotations

from collections.abc import Callable

from compliance.assessment import space_limits
from compliance.assessment.hazards import suggestions

Translate = Callable[[str], str]


def localise(text: str, translate: Translate) -> str:
    """A register's text (a hazard's task or description, the space limits)
    in the reader's language if the app wrote it, else as is."""
    shown = suggestions.localise(text, translate)
    if shown != text:
        return shown
    return space_limits.localise(text, translate)
