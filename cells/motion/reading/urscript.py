"""Reading a Universal Robots URScript program (a .script file). Pure, no
Django.

URScript is written one statement a line; ``#`` starts a comment. Poses are
``p[x, y, z, rx, ry, rz]`` in metres and radians, speeds in m/s (URScript
API Reference, "Move" functions). What is read:

- ``movel`` (linear), ``movep`` (process: constant speed, blended) and
  ``movec(pose_via, pose_to, ...)`` (circular) to a pose literal or a name
  holding one. The TCP speed is ``v`` (a keyword or the third argument; for
  movec the fourth), in m/s; when neither ``v`` nor a time ``t`` is given it
  is the signature's default, 0.25 m/s (movel(pose, a=1.2, v=0.25, t=0,
  r=0), movep(pose, a=1.2, v=0.25, r=0), movec(pose_via, pose_to, a=1.2,
  v=0.25, r=0, mode=0)); when ``t`` (a duration) is given and not 0 the
  speed follows from the distance, unknown here: None.
- ``movej`` to a pose (or ``get_inverse_kin(pose, ...)``, as Polyscope
  writes it): placed, kind "joint", speed None (its ``v`` is a joint speed
  in rad/s, not the TCP's).
- ``movej``/``movel`` to joint values (a list, or a name holding one): not
  checked ("joint_values"); to anything computed (``pose_trans(...)``, a
  parameter, ``get_actual_tcp_pose()``): not checked ("expression");
  ``speedl``, ``speedj``, ``servoj``, ``servoc``: not checked
  ("unsupported_motion").
- Assignments ``name = ...`` (also ``global``/``local``): a literal (pose,
  number, list of numbers) is remembered and consumed; anything else makes
  the name a value computed at run time, and the statement is skipped.

Structure, not listed: ``def``/``thread``/``sec`` headers and ``end``,
Polyscope's ``$ n "..."`` node markers, and the assignments consumed. Every
other statement (``if``/``while``, IO, waits, popups, calls) is skipped, a
call to a ``def`` of the file as "call".
"""

from __future__ import annotations

from cells.motion.errors import ProgramError
from cells.motion.path import MoveKind, Point, Program
from cells.motion.reading.collect import (
    JOINTS,
    RUNTIME,
    Collector,
    Value,
    positive_speed,
)
from cells.motion.reading.source import (
    MAX_STATEMENT_TOKENS,
    MAX_STATEMENTS,
    Token,
    enclosed,
    line_text,
    line_tokens,
    number,
    split_top,
    token_pattern,
)

_TOKEN = token_pattern(
    comment="#",
    name=r"[A-Za-z_]\w*+",
    string=r'"(?:[^"\\]|\\.)*+"?+|\'(?:[^\'\\]|\\.)*+\'?+',
    ops=r"==|!=|<=|>=",
)

_KINDS: dict[str, MoveKind] = {
    "movel": "linear",
    "movep": "process",
    "movec": "circular",
    "movej": "joint",
}
# Each function's parameters in order (URScript API Reference).
_PARAMETERS = {
    "movel": ("pose", "a", "v", "t", "r"),
    "movej": ("q", "a", "v", "t", "r"),
    "movep": ("pose", "a", "v", "r"),
    "movec": ("pose_via", "pose_to", "a", "v", "r", "mode"),
}
DEFAULT_SPEED_M_S = 0.25
_UNSUPPORTED = frozenset({"speedl", "speedj", "servoj", "servoc"})
_ROUTINES = frozenset({"def", "thread", "sec"})
_BLOCKS = frozenset({"if", "while", "for"})


def read(lines: list[str]) -> Program:
    collector = Collector("urscript")
    # What each open ``end`` closes: True for a routine, False for a block.
    blocks: list[bool] = []
    count = 0
    for number_, text in enumerate(lines, start=1):
        tokens, truncated = line_tokens(_TOKEN, text, number_, fold=False)
        if tokens:
            count += 1
            if count > MAX_STATEMENTS:
                raise ProgramError(
                    "too_many_statements", line=number_, limit=MAX_STATEMENTS
                )
            _statement(collector, blocks, lines, tokens, truncated)
    return collector.program()


def _statement(
    collector: Collector,
    blocks: list[bool],
    lines: list[str],
    tokens: list[Token],
    truncated: bool,
) -> None:
    line = tokens[0].line
    first = tokens[0].text
    text = line_text(lines, tokens, truncated)
    if first in _ROUTINES and len(tokens) > 1 and tokens[1].kind == "name":
        collector.begin(tokens[1].text, _parameters(tokens[2:]), line=line)
        blocks.append(True)
        return
    if first == "end" and len(tokens) == 1:
        if blocks and blocks.pop():
            collector.end()
        return
    if first == "$":
        return
    if first in _BLOCKS and tokens[-1].text == ":":
        blocks.append(False)
    if first in _KINDS or first in _UNSUPPORTED:
        if truncated:
            raise ProgramError(
                "statement_too_long", line=line, limit=MAX_STATEMENT_TOKENS
            )
        args = enclosed(tokens[1:], "(")
        if args is None:
            raise ProgramError("syntax", line=line, detail=first)
        if first in _UNSUPPORTED:
            collector.not_checked(line=line, text=text, reason="unsupported_motion")
        else:
            _motion(collector, first, args, line=line, text=text)
        return
    everywhere = first == "global"
    if first in ("global", "local"):
        tokens = tokens[1:]
    if _assignment(collector, tokens, truncated, everywhere=everywhere):
        return
    if tokens and tokens[0].kind == "name" and enclosed(tokens[1:], "(") is not None:
        collector.call(line=line, text=text, name=tokens[0].text)
        return
    collector.skip(line=line, text=text)


def _parameters(tokens: list[Token]) -> list[str]:
    """The names of a routine's parameters: ``(a, b):`` gives a and b."""
    if tokens and tokens[-1].text == ":":
        tokens = tokens[:-1]
    inner = enclosed(tokens, "(")
    if not inner:
        return []
    line = tokens[0].line
    return [
        part[0].text
        for part in split_top(inner, line=line)
        if part and part[0].kind == "name"
    ]


def _assignment(
    collector: Collector, tokens: list[Token], truncated: bool, *, everywhere: bool
) -> bool:
    """An assignment: a literal is remembered and consumed (True); anything
    else makes the name a run-time value, and the statement is skipped."""
    if len(tokens) < 3 or tokens[0].kind != "name":
        return False
    name, line = tokens[0].text, tokens[0].line
    if tokens[1].text == "=" and tokens[1].kind == "op":
        value = RUNTIME
        if not truncated:
            value = _value(collector, tokens[2:], line=line, strict=False)
        collector.declare(name, value, everywhere=everywhere)
        return value is not RUNTIME
    if tokens[1].text in ("[", ".") and any(
        token.kind == "op" and token.text == "=" for token in tokens
    ):
        # p1[2] = 0.3 changes what p1 holds, to something not read here.
        collector.declare(name, RUNTIME, everywhere=everywhere)
    return False


def _value(
    collector: Collector, tokens: list[Token], *, line: int, strict: bool = True
) -> Value:
    """A pose literal (in millimetres), a list of numbers (joint values), a
    number, what a name holds; anything else is computed at run time. A name
    not declared is an error (``strict``: a motion's argument), or a value
    computed at run time (an assignment's: it may come from the robot's
    installation)."""
    if len(tokens) == 1 and tokens[0].kind == "name":
        if not strict:
            known = collector.known(tokens[0].text)
            return RUNTIME if known is None else known
        return collector.lookup(tokens[0].text, line=line)
    found = number(tokens, line=line)
    if found is not None:
        return found
    if tokens and tokens[0].kind == "name" and tokens[0].text == "p":
        items = enclosed(tokens[1:], "[")
        if items is not None:
            return _pose(split_top(items, line=line), line=line)
    items = enclosed(tokens, "[")
    if items is not None:
        parts = split_top(items, line=line)
        if parts and all(number(part, line=line) is not None for part in parts):
            return JOINTS
        return RUNTIME
    if (
        len(tokens) > 2
        and tokens[0].text == "get_inverse_kin"
        and (inner := enclosed(tokens[1:], "(")) is not None
    ):
        target = _value(collector, split_top(inner, line=line)[0], line=line)
        return target if isinstance(target, Point) else RUNTIME
    return RUNTIME


def _pose(parts: list[list[Token]], *, line: int) -> Value:
    """``p[x, y, z, rx, ry, rz]``: six values, of which x, y and z (metres)
    place it; the rotation may be anything."""
    if parts == [[]]:
        parts = []
    if not all(parts):
        raise ProgramError("syntax", line=line, detail="pose")
    if len(parts) != 6:
        raise ProgramError("pose_numbers", line=line, expected=6, found=len(parts))
    x, y, z = (number(part, line=line, scale=3) for part in parts[:3])
    if x is None or y is None or z is None:
        return RUNTIME
    return Point(x, y, z)


def _motion(
    collector: Collector,
    function: str,
    args: list[Token],
    *,
    line: int,
    text: str,
) -> None:
    given = _arguments(function, args, line=line)
    targets = ("pose_via", "pose_to") if function == "movec" else ("pose",)
    if function == "movej":
        targets = ("q",)
    values: list[Value] = []
    for name in targets:
        if name not in given:
            raise ProgramError("syntax", line=line, detail=name)
        values.append(_value(collector, given[name], line=line))
    speed = _speed(collector, function, given, line=line)
    if any(value is JOINTS for value in values):
        collector.not_checked(line=line, text=text, reason="joint_values")
        return
    points = [value for value in values if isinstance(value, Point)]
    if len(points) != len(values):
        collector.not_checked(line=line, text=text, reason="expression")
        return
    collector.move(
        line=line,
        kind=_KINDS[function],
        target=points[-1],
        via=points[0] if function == "movec" else None,
        speed_mm_s=speed,
        text=text,
    )


def _arguments(function: str, args: list[Token], *, line: int) -> dict:
    """The arguments by parameter name, positional or keyword."""
    names = _PARAMETERS[function]
    given: dict[str, list[Token]] = {}
    parts = split_top(args, line=line) if args else []
    for index, part in enumerate(parts):
        if len(part) > 2 and part[0].kind == "name" and part[1].text == "=":
            name, part = part[0].text, part[2:]
        elif index < len(names) and part:
            name = names[index]
        else:
            raise ProgramError("syntax", line=line, detail=function)
        if name not in names or name in given:
            raise ProgramError("syntax", line=line, detail=name)
        given[name] = part
    return given


def _speed(
    collector: Collector, function: str, given: dict, *, line: int
) -> float | None:
    """The TCP speed in mm/s: ``v`` in m/s (checked above zero, movej's
    too, though its TCP speed stays unknown); None for movej, when a time
    is given, or when ``v`` is computed."""
    speed: float | None = DEFAULT_SPEED_M_S * 1000
    if "v" in given:
        tokens = given["v"]
        speed = number(tokens, line=line, scale=3)
        if speed is None:
            value = _value(collector, tokens, line=line)
            speed = value * 1000 if isinstance(value, float) else None
        if speed is not None:
            positive_speed(speed / 1000, line=line)
    if "t" in given:
        t = _value(collector, given["t"], line=line)
        if not (isinstance(t, float) and t == 0):
            speed = None
    return None if function == "movej" else speed
