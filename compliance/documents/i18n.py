"""The PDF's fixed labels in the document's language, without Django.

The builder is pure (it runs in workers and in benchmarks without settings),
so it reads the project's compiled catalogue (``locale/<lang>/LC_MESSAGES/
django.mo``, the same file Django reads) with the standard library. The
language is held in a context variable for the duration of one build, so
builds in different threads or tasks never see each other's language.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext as stdlib_gettext
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
DOMAIN = "django"  # the catalogue Django's makemessages writes

_language: contextvars.ContextVar[str] = contextvars.ContextVar(
    "pdf_language", default="en"
)


@lru_cache(maxsize=8)
def _catalogue(language: str) -> stdlib_gettext.NullTranslations:
    # English is the source language: no catalogue, the message itself.
    return stdlib_gettext.translation(
        DOMAIN, localedir=LOCALE_DIR, languages=[language], fallback=True
    )


def gettext(message: str) -> str:
    """``message`` in the language of the build under way."""
    return _catalogue(_language.get()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """``singular`` or ``plural`` for ``count``, in the language of the build."""
    return _catalogue(_language.get()).ngettext(singular, plural, count)


@contextlib.contextmanager
def override(language: str) -> Iterator[None]:
    """Build in ``language`` inside the block."""
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)
