"""RAPID's statements, cut where each ends. Pure, no Django.

A statement ends with ``;`` and may run over lines; ``!`` starts a comment
outside strings. Some end without one: an ``IF``/``ELSEIF`` at its
``THEN``, a ``WHILE``/``FOR`` at its ``DO``, a ``CASE``/``DEFAULT`` or a
label at its ``:``, ``ELSE`` and the ``END...`` words alone, a routine's or
module's header, a ``TEST`` and a handler's at the line's end (Technical
reference manual, RAPID kernel, "Statements"). Names are case-folded: RAPID
ignores case.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from cells.motion.errors import ProgramError
from cells.motion.reading.source import (
    MAX_STATEMENT_TOKENS,
    TEXT_MAX_CHARS,
    Token,
    clip,
    token_pattern,
)

__all__ = ["Statement", "statements"]

_TOKEN = token_pattern(
    comment="!", name=r"[A-Za-z_]\w*+", string=r'"[^"]*+"?+', ops=r":=|<>|<=|>="
)
# A string or a comment to step over, or the end of a statement.
_SCAN = re.compile(r'[;"!]')

# Statements ending without ";": with their one word, or at the line's end.
_ONE_WORD = frozenset(
    {
        *("else", "endif", "endwhile", "endfor", "endtest", "endproc"),
        *("endfunc", "endtrap", "endmodule", "endrecord", "backward", "undo"),
    }
)
_TO_LINE_END = frozenset({"module", "proc", "func", "trap", "test", "error", "record"})
# The words a statement may end at (``_ends`` decides).
_MAY_END = frozenset({";", ":", "then", "do", *_ONE_WORD})


@dataclass(eq=False, slots=True)
class Statement:
    """A statement: its first line, its tokens (at most
    ``MAX_STATEMENT_TOKENS``; ``truncated`` when more followed)."""

    line: int
    lines: list[str]
    tokens: list[Token] = field(default_factory=list)
    truncated: bool = False
    # Past the tokens kept: the stretches of lines scanned, (line, start, end).
    tail: list[tuple[int, int, int]] = field(default_factory=list)

    def text(self) -> str:
        """The statement as written, each line's stretch stripped, joined by
        spaces (at most ``TEXT_MAX_CHARS`` of it)."""
        spans: list[list[int]] = []
        stretches = [(t.line, t.start, t.end) for t in self.tokens]
        for line, start, end in [*stretches, *self.tail]:
            if spans and spans[-1][0] == line:
                spans[-1][2] = end
            else:
                spans.append([line, start, end])
        pieces: list[str] = []
        shown = 0
        for line, start, end in spans:
            if shown > TEXT_MAX_CHARS:
                break
            piece = self.lines[line - 1][start : min(end, start + TEXT_MAX_CHARS + 1)]
            pieces.append(piece.strip())
            shown += len(piece)
        return clip(" ".join(pieces))


def statements(lines: list[str]) -> Iterator[Statement]:
    """The statements in order, each cut where it ends (see ``_ends``); an
    empty one (a lone ``;``) is none. Past ``MAX_STATEMENT_TOKENS`` tokens
    the rest of a statement is only scanned for its ``;`` (stepping over
    strings and comments)."""
    current: Statement | None = None
    header = False
    for number_, text in enumerate(lines, start=1):
        if text.lstrip().startswith("%%%"):
            header = not header
            continue
        if header:
            continue
        position: int | None = 0
        while position is not None:
            if current is not None and current.truncated:
                end = _semicolon(text, position)
                current.tail.append(
                    (number_, position, len(text) if end < 0 else end + 1)
                )
                if end < 0:
                    break
                yield current
                current, position = None, end + 1
                continue
            start, position = position, None
            for match in _TOKEN.finditer(text, start):
                kind = match.lastgroup or "end"
                if kind in ("comment", "end"):
                    break
                word = match.group(kind)
                if kind == "name":
                    word = word.casefold()
                elif word == ";" and current is None:
                    continue
                if current is None:
                    current = Statement(number_, lines)
                token = Token(kind, word, number_, match.start(kind), match.end())
                current.tokens.append(token)
                if word in _MAY_END and _ends(current.tokens, token):
                    yield current
                    current = None
                elif len(current.tokens) >= MAX_STATEMENT_TOKENS:
                    current.truncated = True
                    position = match.end()
                    break
        if current is not None and not current.truncated and _ends_line(current):
            yield current
            current = None
    if current is not None:
        raise ProgramError("unterminated", line=current.line)


def _semicolon(text: str, position: int) -> int:
    """Where the next ``;`` of the line is, outside strings and before a
    comment; -1 when none is."""
    while True:
        found = _SCAN.search(text, position)
        if found is None or found.group() == "!":
            return -1
        if found.group() == ";":
            return found.start()
        closing = text.find('"', found.end())
        if closing < 0:
            return -1
        position = closing + 1


def _ends(tokens: list[Token], token: Token) -> bool:
    """A statement ends at ``;``, at ``THEN`` and ``DO``, at the ``:`` of a
    ``CASE``, ``DEFAULT`` or label, and after an ``ENDIF``-like word."""
    if token.kind == "op":
        if token.text == ";":
            return True
        if token.text == ":":
            return tokens[0].text in ("case", "default") or len(tokens) == 2
        return False
    if token.kind != "name":
        return False
    return token.text in ("then", "do") or (
        len(tokens) == 1 and token.text in _ONE_WORD
    )


def _ends_line(statement: Statement) -> bool:
    """A routine's or module's header, a ``TEST``, a handler: to the line's
    end."""
    words = [token.text for token in statement.tokens[:2]]
    if words[0] == "local" and len(words) > 1:
        return words[1] in _TO_LINE_END
    return words[0] in _TO_LINE_END
