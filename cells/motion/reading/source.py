"""A program file's text, its lines and their tokens, and the small values
the readers take from them (numbers, bracketed lists). Pure, no Django.

Everything here runs in time linear in the text: lines are split once,
each line is matched token by token by one precompiled pattern whose every
alternative is possessive (no backtracking, whatever the line), and a
statement keeps at most ``MAX_STATEMENT_TOKENS`` tokens (past them a reader
only looks for where it ends).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import NamedTuple

from cells.motion.errors import ProgramError

MAX_FILE_BYTES = 5 * 1024 * 1024
# Tokens kept of one statement: a motion statement with a robtarget literal
# has some 60, an E6POS declaration some 40. Past this a motion statement
# is refused (``statement_too_long``); any other is listed as it is.
MAX_STATEMENT_TOKENS = 1_000
# Statements of one file, of any kind: a cell's programs hold thousands.
# Each is listed when skipped; past this the file is refused rather than
# listed a million times over (5 MB of "a;" would be 2.6 million).
MAX_STATEMENTS = 250_000
# Characters of one numeral: a robot program writes a dozen.
MAX_NUMBER_CHARS = 64
TEXT_MAX_CHARS = 200

# C0 control characters other than the whitespace a text file holds (tab,
# line feed, vertical tab, form feed, carriage return), and DEL: a file with
# one is not text (a .urp, a zip, UTF-16...).
_BINARY = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f]")
_BINARY_TEXT = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def file_lines(data: bytes) -> list[str]:
    """The file's lines (``lines[0]`` is line 1): UTF-8 (a BOM dropped),
    else Latin-1 (the older controllers' Windows code page reads as it for
    all but a few punctuation marks, in comments). Refused: a file over
    ``MAX_FILE_BYTES`` (``too_large``), one with a control character
    (``not_text``, with its line)."""
    if len(data) > MAX_FILE_BYTES:
        raise ProgramError(
            "too_large", size_bytes=len(data), limit_bytes=MAX_FILE_BYTES
        )
    found = _BINARY.search(data)
    if found:
        before = data[: found.start()].decode("latin-1")
        raise ProgramError("not_text", line=len(split_lines(before)))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return split_lines(text)


def text_lines(text: str, *, file: str) -> list[str]:
    """As ``file_lines`` for text given as a string (a KRL .dat's); errors
    name the ``file``."""
    if len(text) > MAX_FILE_BYTES:
        raise ProgramError(
            "too_large", size_bytes=len(text), limit_bytes=MAX_FILE_BYTES, file=file
        )
    found = _BINARY_TEXT.search(text)
    if found:
        line = len(split_lines(text[: found.start()]))
        raise ProgramError("not_text", line=line, file=file)
    return split_lines(text.removeprefix("\ufeff"))


def split_lines(text: str) -> list[str]:
    """Lines as an editor numbers them: ends of line are CR LF, LF or CR
    (``str.splitlines`` would also end one at a form feed or U+2028)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def clip(text: str) -> str:
    """A statement as shown: stripped, at most ``TEXT_MAX_CHARS``."""
    text = text.strip()
    if len(text) <= TEXT_MAX_CHARS:
        return text
    return text[: TEXT_MAX_CHARS - 1].rstrip() + "…"


def source_text(line: str, start: int, end: int) -> str:
    """``line[start:end]`` clipped, without copying more of a long line than
    is shown."""
    return clip(line[start : min(end, start + TEXT_MAX_CHARS + 1)])


class Token(NamedTuple):
    """A word of a statement: ``kind`` is num, name, str or op (one
    punctuation character or operator); a name is case-folded in the
    languages that ignore case (RAPID, KRL). ``start``/``end`` index the
    line ``line``."""

    kind: str
    text: str
    line: int
    start: int
    end: int


_NUMBER = r"(?:\d++(?:\.\d*+)?+|\.\d++)(?:[eE][+-]?+\d++)?+"


def token_pattern(*, comment: str, name: str, string: str, ops: str) -> re.Pattern:
    """A language's token pattern: the whitespace before a token, then the
    token (its group names its kind), or the line's end (group ``end``).
    Every quantifier is possessive and some alternative always matches (a
    character that starts nothing else is an op of its own), so the pattern
    never backtracks and never fails: ``finditer`` walks a line once."""
    return re.compile(
        rf"\s*+(?:(?P<comment>{comment}.*+)|(?P<num>{_NUMBER})|(?P<name>{name})"
        rf"|(?P<str>{string})|(?P<op>{ops}|.)|(?P<end>$))"
    )


def line_tokens(
    pattern: re.Pattern, text: str, line: int, *, fold: bool
) -> tuple[list[Token], bool]:
    """The tokens of one line up to its comment, at most
    ``MAX_STATEMENT_TOKENS``; True when more followed."""
    found: list[Token] = []
    for match in pattern.finditer(text):
        kind = match.lastgroup or "end"
        if kind in ("comment", "end"):
            break
        if len(found) == MAX_STATEMENT_TOKENS:
            return found, True
        word = match.group(kind)
        if fold and kind == "name":
            word = word.casefold()
        found.append(Token(kind, word, line, match.start(kind), match.end()))
    return found, False


def line_text(lines: list[str], tokens: list[Token], truncated: bool) -> str:
    """The text of a statement on one line: from its first token to its last
    (to the line's end when it was cut short)."""
    first = tokens[0]
    end = len(lines[first.line - 1]) if truncated else tokens[-1].end
    return source_text(lines[first.line - 1], first.start, end)


_OPENING = {"(": ")", "[": "]", "{": "}"}
_CLOSING = frozenset(_OPENING.values())


def split_top(tokens: list[Token], *, line: int, separator: str = ",") -> list:
    """The tokens cut at each separator outside brackets (a list of token
    lists, one more than the separators). Brackets that do not pair:
    ``ProgramError("syntax", detail="brackets")``."""
    parts: list[list[Token]] = []
    current: list[Token] = []
    expected: list[str] = []
    for token in tokens:
        if token.kind == "op":
            if token.text in _OPENING:
                expected.append(_OPENING[token.text])
            elif token.text in _CLOSING:
                if not expected or expected.pop() != token.text:
                    raise ProgramError("syntax", line=line, detail="brackets")
            elif token.text == separator and not expected:
                parts.append(current)
                current = []
                continue
        current.append(token)
    if expected:
        raise ProgramError("syntax", line=line, detail="brackets")
    parts.append(current)
    return parts


def enclosed(tokens: list[Token], opening: str) -> list[Token] | None:
    """What a bracket pair holds when the tokens are that pair and nothing
    more (``[1, 2]`` for "["), else None."""
    if len(tokens) < 2 or tokens[0].kind != "op" or tokens[0].text != opening:
        return None
    depth = 0
    for index, token in enumerate(tokens):
        if token.kind != "op":
            continue
        if token.text in _OPENING:
            depth += 1
        elif token.text in _CLOSING:
            depth -= 1
            if depth == 0:
                closing = _OPENING[opening]
                if index == len(tokens) - 1 and token.text == closing:
                    return tokens[1:-1]
                return None
    return None


def number(tokens: list[Token], *, line: int, scale: int = 0) -> float | None:
    """The number the tokens write (a numeral, signed or not) times
    10**scale, or None when they write something else. Scaled exactly (0.3 m
    is 300 mm, not 300.00000000000006). A numeral that is no finite number
    (1e999, or too long): ``ProgramError("not_a_number", text=)``."""
    sign = ""
    if len(tokens) == 2 and tokens[0].kind == "op" and tokens[0].text in "+-":
        sign, tokens = tokens[0].text, tokens[1:]
    if len(tokens) != 1 or tokens[0].kind != "num":
        return None
    value = parse_number(sign + tokens[0].text, scale=scale)
    if value is None:
        raise ProgramError("not_a_number", line=line, text=tokens[0].text[:40])
    return value


def parse_number(text: str, *, scale: int = 0) -> float | None:
    """A numeral as a finite float times 10**scale, or None (not a numeral,
    not finite, longer than ``MAX_NUMBER_CHARS``, or with digit separators)."""
    text = text.strip()
    if not text or len(text) > MAX_NUMBER_CHARS or "_" in text:
        return None
    try:
        value = float(Decimal(text).scaleb(scale))
    except (ArithmeticError, ValueError):
        return None
    return value if math.isfinite(value) else None
