"""Reading a robot's motion program into placed moves. Pure, no Django.

``read_program(data, format=...)`` reads one file into a ``Program``
(``cells.motion.path``): the moves placed at their targets in the robot's
base frame, in millimetres, with the programmed TCP speed where the
program gives one; the motions it cannot place, listed as not checked with
their lines (never dropped); the other statements, listed as skipped with
their lines. Each format's module says what it reads and what it treats as
structure (not listed):

- ``csv``: waypoints, a header row naming the columns (``waypoints``);
- ``urscript``: Universal Robots URScript, a .script file (``urscript``);
- ``rapid``: an ABB RAPID module (``rapid``);
- ``krl``: a KUKA KRL .src, with its .dat as ``dat_text`` (``krl``).

``units`` ("mm" or "m") is the coordinates' unit of a CSV file whose header
does not state it (millimetres when not given); the other formats fix their own (URScript metres, RAPID
and KRL millimetres), and ignore it.

Bad input is a ``ProgramError`` whose ``code`` names why, ``line`` where,
``params`` the rest (see ``ERROR_CODES``); the caller words it. The reading
is linear in the file's size: each line is tokenised once by precompiled,
possessive patterns (no backtracking), statements are cut at
``MAX_STATEMENT_TOKENS`` tokens, values are built by a bounded walk over
their tokens, and nothing is concatenated in a loop.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from cells.motion.errors import ProgramError
from cells.motion.path import FORMATS, Program
from cells.motion.reading import krl, rapid, urscript, waypoints
from cells.motion.reading.collect import MAX_MOTION_LINES, MAX_NESTING
from cells.motion.reading.source import (
    MAX_FILE_BYTES,
    MAX_STATEMENT_TOKENS,
    MAX_STATEMENTS,
    file_lines,
    split_lines,
    text_lines,
)

__all__ = [
    "ERROR_CODES",
    "FORMATS",
    "MAX_FILE_BYTES",
    "MAX_MOTION_LINES",
    "MAX_NESTING",
    "MAX_STATEMENTS",
    "MAX_STATEMENT_TOKENS",
    "UNITS",
    "ProgramError",
    "guess_format",
    "read_program",
]

UNITS = waypoints.UNITS

# Every ``ProgramError.code`` and its params (``line`` aside: given where
# the error has one). An error in a KRL .dat also has ``file="dat"``.
ERROR_CODES: dict[str, tuple[str, ...]] = {
    # The request
    "unknown_format": ("format",),
    "unknown_unit": ("unit", "column"),  # column: a CSV header's
    "dat_not_krl": (),  # dat_text given for another format than KRL
    "urp_file": (),  # guess_format: a Polyscope .urp (compressed); its .script
    # The file
    "too_large": ("size_bytes", "limit_bytes"),
    "not_text": (),  # a control character: binary, UTF-16...
    "too_many_motion_lines": ("limit",),
    "too_many_statements": ("limit",),  # of any kind, MAX_STATEMENTS
    "statement_too_long": ("limit",),  # a motion statement, in tokens
    "too_deep": ("limit",),  # routines written inside routines
    # A statement
    "syntax": ("detail",),  # brackets that do not pair, a motion missing its target
    "unterminated": (),  # RAPID: a statement with no ";" before the file ends
    "not_a_number": ("text", "column"),
    "speed_not_positive": ("speed",),  # as written: m/s, mm/s
    "speed_too_high": ("speed_mm_s", "limit_mm_s"),
    "time_not_increasing": ("time",),  # a CSV row's time, in s
    "pose_numbers": ("expected", "found", "part"),  # part: a robtarget's
    "pose_components": ("missing", "unknown", "repeated"),  # KRL: one of them
    "speed_numbers": ("expected", "found"),  # RAPID speeddata
    "undeclared_name": ("name",),
    "coordinate_out_of_range": ("value_mm", "limit_mm"),
    # A CSV header
    "empty": (),
    "no_header": (),
    "unknown_column": ("column",),
    "duplicate_column": ("column",),
    "missing_column": ("column",),
    "mixed_units": (),
    "units_conflict": ("header", "given"),
    "row_fields": ("expected", "found"),
    "bad_row": (),  # the csv module's error: a field over 128 KiB...
    # The path (cells.motion.path.segments)
    "too_many_segments": ("limit",),
}


def read_program(
    data: bytes,
    *,
    format: str,
    units: str | None = None,
    dat_text: str | None = None,
) -> Program:
    """The program a file holds (see the module)."""
    if format not in FORMATS:
        raise ProgramError("unknown_format", format=str(format)[:20])
    if units is not None and units not in UNITS:
        raise ProgramError("unknown_unit", unit=str(units)[:20])
    if dat_text is not None and format != "krl":
        raise ProgramError("dat_not_krl")
    lines = file_lines(data)
    if format == "csv":
        return waypoints.read(lines, units=units)
    if format == "urscript":
        return urscript.read(lines)
    if format == "rapid":
        return rapid.read(lines)
    dat_lines = None if dat_text is None else text_lines(dat_text, file="dat")
    return krl.read(lines, dat_lines)


_EXTENSIONS = {
    ".csv": "csv",
    ".script": "urscript",
    ".mod": "rapid",
    ".modx": "rapid",
    ".prg": "rapid",
    ".src": "krl",
}
# What only one language writes, sought in a file's first 64 KiB.
_LOOKS_LIKE = (
    ("urscript", re.compile(r"\b(?:movel|movej|movep|movec)[ \t]*+\(")),
    (
        "rapid",
        re.compile(
            r"(?im)^[ \t]*+(?:module[ \t]|(?:local[ \t]++)?+proc[ \t]"
            r"|move(?:l|j|c|absj)[ \t])"
        ),
    ),
    (
        "krl",
        re.compile(
            r"(?im)^[ \t]*+(?:&access|defdat[ \t]|(?:ptp|lin|circ)[ \t]|\$vel\b"
            r"|(?:global[ \t]++)?+def[ \t]++\w++[ \t]*+\([^)\n]*+\)[ \t]*+(?:;|$))"
        ),
    ),
)
_SNIFFED_BYTES = 64 * 1024
_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f]")


def guess_format(name: str, data: bytes) -> str | None:
    """The format a file is most likely in, from its name's extension (.csv;
    .script; .mod, .modx, .prg; .src), else from its first 64 KiB: a CSV
    header naming x, y and z; a URScript move call ``movel(``; a RAPID
    ``MODULE``, ``PROC`` or ``MoveL``; a KRL ``&ACCESS``, ``DEF name()``,
    ``PTP``/``LIN`` or ``$VEL``. None when nothing tells (a binary file too).

    A Polyscope .urp is refused (``ProgramError("urp_file")``): it is a
    compressed program tree, not text; Polyscope saves the program as a
    .script beside it. A KRL .dat gives None: it is read with its .src
    (``dat_text``)."""
    suffix = PurePosixPath(name.replace("\\", "/")).suffix.casefold()
    if suffix == ".urp":
        raise ProgramError("urp_file")
    if suffix in _EXTENSIONS:
        return _EXTENSIONS[suffix]
    head = data[:_SNIFFED_BYTES]
    if suffix == ".dat" or _CONTROL.search(head):
        return None
    text = head.decode("utf-8", errors="replace").removeprefix("\ufeff")
    if _is_waypoints(text):
        return "csv"
    for format, pattern in _LOOKS_LIKE:
        if pattern.search(text):
            return format
    return None


def _is_waypoints(text: str) -> bool:
    first = next((line for line in split_lines(text) if line.strip()), "")
    delimiter = waypoints.delimiter_of(first)
    try:
        quantities = {
            waypoints.column(cell, line=1)[0] for cell in first.split(delimiter)
        }
    except ProgramError:
        return False
    return {"x", "y", "z"} <= quantities
