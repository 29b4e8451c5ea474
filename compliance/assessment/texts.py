"""Texts the app writes into the register, shown in the reader's language.

The app stores what it writes (an accepted suggestion's task and rationale,
the space limits taken from the layout) in English, whoever clicked, so the
record is the same in both languages; ``localise`` shows such a text in the
reader's language. A text a person typed comes back unchanged.
"""

from __future__ import annotations

from collections.abc import Callable

from compliance.assessment import space_limits
from compliance.assessment.hazards import suggestions


def localise(text: str, translate: Callable[[str], str]) -> str:
    """``text`` in the reader's language if the app wrote it, else as is."""
    shown = suggestions.localise(text, translate)
    if shown != text:
        return shown
    return space_limits.localise(text, translate)
