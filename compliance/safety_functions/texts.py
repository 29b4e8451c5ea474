"""Texts the app writes into a safety function (an accepted proposal's
name, trigger, reaction and subsystem labels), stored in English whoever
clicked, so the record is the same in both languages; ``localise_function``
shows such a text in the reader's language. A text a person typed comes back
unchanged. (The risk assessment's own are ``compliance.assessment.texts``.)
Pure Python, no Django.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

Translate = Callable[[str], str]
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


class Localiser:
    """Reads a stored text back as one of ``msgids`` (English, with
    ``%(name)s`` placeholders filled in) and gives it in the reader's
    language with the same values; any other text unchanged."""

    def __init__(self, msgids: Iterable[str]) -> None:
        self.plain: frozenset[str] = frozenset()
        plain, patterns = set(), []
        for msgid in dict.fromkeys(msgids):
            if not _PLACEHOLDER.search(msgid):
                plain.add(msgid)
                continue
            parts = _PLACEHOLDER.split(msgid)
            regex = "".join(
                re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)"
                for i, part in enumerate(parts)
            )
            patterns.append((re.compile(regex, re.DOTALL), msgid))
        self.plain = frozenset(plain)
        # The most specific first: more placeholders, then longer text.
        patterns.sort(key=lambda item: (-len(item[0].groupindex), -len(item[1])))
        self.patterns = tuple(patterns)

    def __call__(
        self,
        text: str,
        translate: Translate,
        allowed: Collection[str] | None = None,
    ) -> str:
        """``allowed``: the only values a placeholder may have (the labels the
        app filled in), so a typed text that merely starts like one of the
        app's is left as typed; None for any value."""
        if not text:
            return text
        if text in self.plain:
            return translate(text)
        for pattern, msgid in self.patterns:
            found = pattern.fullmatch(text)
            if not found:
                continue
            values = found.groupdict()
            if allowed is not None and not set(values.values()) <= set(allowed):
                continue
            try:
                # A value that is itself the app's word is translated too.
                return translate(msgid) % {k: translate(v) for k, v in values.items()}
            except (KeyError, ValueError, TypeError):
                return text
        return text


def noop_texts(path: Path) -> tuple[str, ...]:
    """Every ``gettext_noop("...")`` text of the module at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return tuple(
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "gettext_noop"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


@functools.cache
def _functions() -> Localiser:
    from compliance.safety_functions import proposing

    return Localiser(noop_texts(Path(proposing.__file__)))


def localise_function(
    text: str, translate: Translate, labels: Collection[str] = ()
) -> str:
    """A safety function's name, trigger, reaction or subsystem label in the
    reader's language if the app wrote it from a proposal; ``labels``: the
    labels it may name (its device's and its opening's)."""
    return _functions()(text, translate, allowed=labels)
