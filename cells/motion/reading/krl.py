"""Reading a KUKA KRL program (a .src file, with its .dat). Pure, no
Django.

KRL ignores case and is written one statement a line; ``;`` starts a
comment (``;FOLD`` lines included). Positions are frames ``{X, Y, Z, A, B,
C}`` in millimetres and degrees, with ``S``, ``T`` and ``E1``...``E6`` for an
E6POS; axis values ``{A1 ... A6}`` are degrees. What is read:

- ``LIN``, ``CIRC aux, target`` and ``PTP`` (and the spline motions
  ``SLIN``, ``SCIRC``, ``SPTP``) to a literal (POS, E6POS, FRAME; with or
  without its type, ``{E6POS: X ...}``) or a name declared in the .dat
  (``dat_text``) or in the .src itself (``DECL E6POS XP1={...}``). A literal
  must give X, Y and Z (``pose_components`` otherwise: an absolute move
  keeping the current value of a component is not placed). An
  approximation (``C_DIS``...) is ignored.
- Speed: ``$VEL.CP`` (m/s; also ``$VEL={CP ...}``) is a Cartesian TCP
  speed; it applies to the LIN and CIRC (SLIN, SCIRC) after it in the same
  routine. A routine starts with it unknown (it is its caller's), and so
  does the rest of a routine after ``BAS(#CP_PARAMS, ...)`` or ``BAS
  (#VEL_CP, ...)`` (KUKA's BAS package sets it from arguments whose meaning
  is not read here) or an assignment of anything but a number. A spline
  motion's ``WITH`` clause may set another: its speed is unknown.
- PTP (SPTP) is interpolated in joint space: the TCP's speed on it follows
  from the axes' (``$VEL_AXIS``, percent), never from ``$VEL.CP``. The issue
  asked for "PTP speed as unknown unless $VEL is set": read as unknown, for
  this reason, whatever $VEL holds.
- Not checked: a PTP to axis values (``{A1 0, A2 -90, ...}``, an AXIS or
  E6AXIS name, ``HOME``/``XHOME``, the start positions every KSS
  ``$config.dat`` declares as axis values) as "joint_values"; relative
  motions (``LIN_REL``...), ``SPL`` and a ``CIRC`` with a circular angle
  ``CA`` (it ends elsewhere than its target) as "unsupported_motion"; a
  target computed (``$POS_ACT``, a parameter, ``P1:P2``) as "expression".
- Frames: the targets are taken in the robot's base frame; a ``$BASE`` or
  ``BAS(#BASE, n)`` that moves it is not followed (listed as skipped).

Structure, not listed: ``&`` header lines, ``DEF``/``DEFFCT``/``END``/
``ENDFCT``, ``DEFDAT``/``ENDDAT``, declarations (``DECL``, a type first,
``EXT``, ``SIGNAL``, ``STRUC``, ``ENUM``), the ``$VEL.CP`` assignments read
and the literal assignments remembered. Every other statement is skipped,
a call to a ``DEF`` of the file as "call". In a .dat only declarations are
read (errors there carry ``file="dat"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
    comment=";", name=r"[$A-Za-z_][\w$]*+", string=r'"[^"]*+"?+', ops=r"==|<>|<=|>="
)

_KINDS: dict[str, MoveKind] = {
    "lin": "linear",
    "slin": "linear",
    "circ": "circular",
    "scirc": "circular",
    "ptp": "joint",
    "sptp": "joint",
}
_CARTESIAN = frozenset({"lin", "slin", "circ", "scirc"})
_UNSUPPORTED = frozenset(
    {"lin_rel", "circ_rel", "ptp_rel", "slin_rel", "scirc_rel", "sptp_rel", "spl"}
)
_POSES = frozenset({"e6pos", "pos", "frame"})
_AXES = frozenset({"e6axis", "axis"})
_TYPES = _POSES | _AXES | {"int", "real", "bool", "char", "fdat", "pdat", "ldat"}
_STRUCTURE = frozenset(
    {"defdat", "enddat", "ext", "extfct", "extp", "extfctp", "signal", "struc", "enum"}
)
_HOME = re.compile(r"x?+home\d?+")
_COMPONENTS = frozenset(
    {"x", "y", "z", "a", "b", "c", "s", "t", *(f"e{n}" for n in range(1, 7))}
)
_AXIS_COMPONENTS = frozenset(f"a{n}" for n in range(1, 7))


@dataclass(slots=True)
class _State:
    # $VEL.CP in mm/s, None while unknown.
    cp_mm_s: float | None = None


def read(lines: list[str], dat_lines: list[str] | None = None) -> Program:
    collector = Collector("krl")
    if dat_lines is not None:
        try:
            for number_, text in enumerate(dat_lines, start=1):
                tokens, truncated = line_tokens(_TOKEN, text, number_, fold=True)
                if tokens and _is_declaration(tokens):
                    _declaration(collector, tokens, truncated)
        except ProgramError as error:
            error.params["file"] = "dat"
            raise
    state = _State()
    count = 0
    for number_, text in enumerate(lines, start=1):
        tokens, truncated = line_tokens(_TOKEN, text, number_, fold=True)
        if not tokens:
            continue
        count += 1
        if count > MAX_STATEMENTS:
            raise ProgramError(
                "too_many_statements", line=number_, limit=MAX_STATEMENTS
            )
        if truncated and _words(tokens, {"global"})[0].text in _KINDS:
            raise ProgramError(
                "statement_too_long", line=number_, limit=MAX_STATEMENT_TOKENS
            )
        text = line_text(lines, tokens, truncated)
        _statement(collector, state, text, tokens, truncated)
    return collector.program()


def _words(tokens: list[Token], words: set[str] | frozenset[str]) -> list[Token]:
    at = 0
    while at < len(tokens) - 1 and tokens[at].text in words:
        at += 1
    return tokens[at:]


def _is_declaration(tokens: list[Token]) -> bool:
    tokens = _words(tokens, {"global", "decl", "const"})
    return tokens[0].text in _TYPES and len(tokens) > 1 and tokens[1].kind == "name"


def _statement(
    collector: Collector,
    state: _State,
    text: str,
    tokens: list[Token],
    truncated: bool,
) -> None:
    line = tokens[0].line
    if tokens[0].text == "&":
        return
    tokens = _words(tokens, {"global"})
    first = tokens[0].text
    if first in ("def", "deffct"):
        at = 2 if first == "deffct" else 1
        if len(tokens) <= at or tokens[at].kind != "name":
            raise ProgramError("syntax", line=line, detail=first)
        collector.begin(tokens[at].text, _parameters(tokens[at + 1 :]), line=line)
        state.cp_mm_s = None
        return
    if first in ("end", "endfct") and len(tokens) == 1:
        collector.end()
        state.cp_mm_s = None
        return
    if first == "decl" or _is_declaration(tokens):
        _declaration(collector, tokens, truncated)
        return
    if first in _STRUCTURE:
        return
    if first in _KINDS or first in _UNSUPPORTED:
        _motion(collector, state, first, tokens[1:], line=line, text=text)
        return
    if first == "$vel" and _speed(state, tokens):
        return
    if first == "bas" and any(t.text in ("cp_params", "vel_cp") for t in tokens):
        state.cp_mm_s = None
    if _assignment(collector, tokens):
        return
    if tokens[0].kind == "name" and enclosed(tokens[1:], "(") is not None:
        collector.call(line=line, text=text, name=first)
        return
    collector.skip(line=line, text=text)


def _parameters(tokens: list[Token]) -> list[str]:
    """``(P1:IN, P2:OUT)`` gives P1 and P2."""
    inner = enclosed(tokens, "(")
    if not inner:
        return []
    parts = split_top(inner, line=tokens[0].line)
    return [part[0].text for part in parts if part and part[0].kind == "name"]


def _declaration(collector: Collector, tokens: list[Token], truncated: bool) -> None:
    """``DECL [GLOBAL] [CONST] type name [= value] [, name [= value]]``: a
    position type's literal is placed, an axis type is joint values, any
    other is known but not placed."""
    line = tokens[0].line
    tokens = _words(tokens, {"global", "decl", "const"})
    kind = tokens[0].text
    for part in split_top(tokens[1:], line=line) if not truncated else []:
        if not part or part[0].kind != "name":
            raise ProgramError("syntax", line=line, detail="declaration")
        value: Value = RUNTIME
        if kind in _AXES:
            value = JOINTS
        elif kind in _POSES and len(part) > 2 and part[1].text == "=":
            value = _aggregate(part[2:], line=line, motion=False) or RUNTIME
        collector.declare(part[0].text, value)


def _aggregate(tokens: list[Token], *, line: int, motion: bool) -> Value | None:
    """A position literal ``{[type:] X 1, Y 2, ...}``: a point (X, Y, Z
    in mm), joint values (axis components or type), or None when the
    tokens are no aggregate. In a motion, components not of a position,
    repeated or X, Y or Z missing are ``pose_components`` errors; elsewhere
    (a declaration, an assignment: of an LDAT, a partial frame...) the value
    is simply not placed."""
    inner = enclosed(tokens, "{")
    if inner is None:
        return None
    parts = split_top(inner, line=line) if inner else []
    kind = None
    if parts and len(parts[0]) > 2 and parts[0][1].text == ":":
        kind, parts[0] = parts[0][0].text, parts[0][2:]
    components: dict[str, list[Token]] = {}
    problem: dict[str, object] = {}
    for part in parts:
        if len(part) < 2 or part[0].kind != "name":
            problem = {"detail": "aggregate"}
        elif part[0].text in components:
            problem = {"repeated": part[0].text[:20]}
        else:
            components[part[0].text] = part[1:]
    if not problem and (kind in _AXES or components.keys() & _AXIS_COMPONENTS):
        return JOINTS
    unknown = sorted(components.keys() - _COMPONENTS)
    missing = [axis for axis in ("x", "y", "z") if axis not in components]
    if unknown and not problem:
        problem = {"unknown": unknown[0][:20]}
    elif missing and not problem:
        problem = {"missing": missing}
    if problem:
        if not motion:
            return RUNTIME
        if "detail" in problem:
            raise ProgramError("syntax", line=line, **problem)
        raise ProgramError("pose_components", line=line, **problem)
    x, y, z = (number(components[axis], line=line) for axis in ("x", "y", "z"))
    if x is None or y is None or z is None:
        return RUNTIME
    return Point(x, y, z)


def _target(collector: Collector, tokens: list[Token], *, line: int) -> Value:
    found = _aggregate(tokens, line=line, motion=True)
    if found is not None:
        return found
    if len(tokens) != 1 or tokens[0].kind != "name":
        return RUNTIME
    name = tokens[0].text
    if name.startswith("$"):
        return RUNTIME
    value = collector.known(name)
    if value is None and _HOME.fullmatch(name):
        return JOINTS
    value = collector.lookup(name, line=line)
    return value if isinstance(value, Point) or value is JOINTS else RUNTIME


def _motion(
    collector: Collector,
    state: _State,
    name: str,
    tokens: list[Token],
    *,
    line: int,
    text: str,
) -> None:
    if not tokens:
        raise ProgramError("syntax", line=line, detail=name)
    if name in _UNSUPPORTED:
        collector.not_checked(line=line, text=text, reason="unsupported_motion")
        return
    tokens, clause = _tail(tokens)
    parts = split_top(tokens, line=line)
    count = 2 if _KINDS[name] == "circular" else 1
    if len(parts) < count or not all(parts[:count]):
        raise ProgramError("syntax", line=line, detail=name)
    if len(parts) > count:
        if count == 2 and parts[2] and parts[2][0].text == "ca":
            collector.not_checked(line=line, text=text, reason="unsupported_motion")
            return
        raise ProgramError("syntax", line=line, detail=name)
    targets = [_target(collector, part, line=line) for part in parts]
    speed = state.cp_mm_s if name in _CARTESIAN and not clause else None
    if any(target is JOINTS for target in targets):
        collector.not_checked(line=line, text=text, reason="joint_values")
    elif not all(isinstance(target, Point) for target in targets):
        collector.not_checked(line=line, text=text, reason="expression")
    else:
        collector.move(
            line=line,
            kind=_KINDS[name],
            target=targets[-1],
            via=targets[0] if count == 2 else None,
            speed_mm_s=speed,
            text=text,
        )


def _tail(tokens: list[Token]) -> tuple[list[Token], bool]:
    """The motion's points, without its approximation (``C_DIS``...) or
    ``WITH`` clause; True when a WITH clause followed."""
    depth = 0
    for at, token in enumerate(tokens):
        if token.kind == "op" and token.text in ("(", "[", "{"):
            depth += 1
        elif token.kind == "op" and token.text in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and token.kind == "name":
            if token.text == "with":
                return tokens[:at], True
            if token.text.startswith("c_"):
                return tokens[:at], False
    return tokens, False


def _speed(state: _State, tokens: list[Token]) -> bool:
    """``$VEL.CP = v`` or ``$VEL = {CP v, ...}`` (v in m/s): read, and
    consumed (True). Any other $VEL assignment is not."""
    line = tokens[0].line
    words = [token.text for token in tokens[:4]]
    if words[:4] == ["$vel", ".", "cp", "="]:
        value: list[Token] | None = tokens[4:]
    elif words[:2] == ["$vel", "="] and (inner := enclosed(tokens[2:], "{")):
        parts = split_top(inner, line=line)
        value = next((part[1:] for part in parts if part[0].text == "cp"), None)
        if value is None:
            return False
    else:
        return False
    speed = number(value, line=line, scale=3)
    if speed is not None:
        positive_speed(speed / 1000, line=line)
    state.cp_mm_s = speed
    return True


def _assignment(collector: Collector, tokens: list[Token]) -> bool:
    """``XP1 = {X ...}`` remembered and consumed (True); any other
    assignment to a name makes it a run-time value, and is skipped."""
    if len(tokens) < 3 or tokens[0].kind != "name":
        return False
    name, line = tokens[0].text, tokens[0].line
    if tokens[1].text == "=":
        value = _aggregate(tokens[2:], line=line, motion=False)
        found = number(tokens[2:], line=line)
        if value is None:
            value = RUNTIME if found is None else found
        collector.declare(name, value)
        return value is not RUNTIME
    if any(token.kind == "op" and token.text == "=" for token in tokens):
        collector.declare(name, RUNTIME)
    return False
