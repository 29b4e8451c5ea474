"""Reading an ABB RAPID module (.mod, .modx, .sys, .prg). Pure, no Django.

RAPID ignores case; a statement ends with ``;`` and may run over several
lines; ``!`` starts a comment (Technical reference manual, RAPID overview,
"Basic RAPID programming"). Positions are in millimetres. What is read:

- ``MoveL``/``MoveJ``/``MoveC`` (and their DO, GO, AO, Sync and Trigg
  forms, whose leading arguments are the same): ``ToPoint`` (``MoveC``:
  ``CirPoint, ToPoint``) a robtarget literal ``[[x,y,z],[q1,q2,q3,q4],
  [cf1,cf4,cf6,cfx],[eax_a,...,eax_f]]``, a declared robtarget, or
  ``Offs(p, dx, dy, dz)``; the speed the next argument: a predefined
  speeddata v5 ... v7000 (its v_tcp is the number, mm/s), a declared one
  (``[v_tcp, v_ori, v_leax, v_reax]``), or ``\\V:=`` given with it. ``vmax``
  is the robot type's own maximum, a figure of the robot, not of RAPID:
  None; so are vrot and vlin (external axes) and ``\\T:=`` (a duration).
  A ``MoveJ``'s speed is None too: its TCP follows a curve of the axes'
  interpolation, not the line its v_tcp is given for (as URScript's movej
  and KRL's PTP). The zonedata and tool are kept in the text only.
- ``\\WObj:=`` other than ``wobj0``: the target is in a work object's frame,
  not the base's: not checked ("work_object").
- ``MoveAbsJ``, ``MoveExtJ``: joint values, not checked; Search, Arc, Spot,
  Paint and Cap moves: not checked ("unsupported_motion"); a target
  computed (``RelTool``, ``CRobT()``, a parameter, ``*``): "expression".
- Declarations ``CONST``/``PERS``/``VAR`` (also ``LOCAL``, ``TASK``):
  robtargets, speeddata and jointtargets are remembered; every declaration
  is consumed (structure). An assignment ``p := <literal>`` is remembered
  and consumed; ``p := <anything else>`` or ``p.trans.z := ...`` makes p a
  value computed at run time, and is skipped.
- A compact ``IF cond <instruction>;`` reads its instruction as if it ran.

Structure, not listed: ``MODULE``/``ENDMODULE``, ``PROC``/``FUNC``/``TRAP``
and their ends, ``RECORD``/``ENDRECORD``, the ``ERROR``/``BACKWARD``/
``UNDO`` handlers' headers, a .prg's ``%%%`` header, declarations. Every
other statement (IO, waits, ``IF``/``WHILE``/``FOR``/``TEST`` and their
ends, labels, calls) is skipped, a call to a routine of the file as "call".
"""

from __future__ import annotations

import re

from cells.motion.errors import ProgramError
from cells.motion.path import MoveKind, Point, Program
from cells.motion.reading.collect import (
    JOINTS,
    RUNTIME,
    Collector,
    Speed,
    Value,
    positive_speed,
)
from cells.motion.reading.rapid_statements import Statement, statements
from cells.motion.reading.source import (
    MAX_STATEMENT_TOKENS,
    MAX_STATEMENTS,
    Token,
    enclosed,
    number,
    split_top,
)

_PLACED: dict[str, MoveKind] = {
    **dict.fromkeys(
        ("movel", "moveldo", "movelgo", "movelao", "movelsync", "triggl"), "linear"
    ),
    **dict.fromkeys(
        ("movej", "movejdo", "movejgo", "movejao", "movejsync", "triggj"), "joint"
    ),
    **dict.fromkeys(
        ("movec", "movecdo", "movecgo", "movecao", "movecsync", "triggc"),
        "circular",
    ),
}
_JOINT_VALUES = frozenset({"moveabsj", "moveextj"})
_UNSUPPORTED = frozenset(
    {
        *("searchl", "searchc", "searchextj", "contactl", "trigglios", "triggjios"),
        *("arcl", "arcc", "arclstart", "arclend", "arccstart", "arccend"),
        *("spotl", "spotj", "spotml", "spotmj", "paintl", "paintc", "capl", "capc"),
    }
)
# Predefined speeddata: v_tcp in mm/s is the number in the name (Technical
# reference manual, RAPID Instructions, Functions and Data types,
# "speeddata", Predefined data).
PREDEFINED_SPEEDS_MM_S = {
    f"v{n}": float(n)
    for n in (
        *(5, 10, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 400, 500, 600),
        *(800, 1000, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 7000),
    )
}
_UNKNOWN_SPEED = re.compile(r"vmax|vrot\d++|vlin\d++")

_STRUCTURE = frozenset(
    {"module", "endmodule", "record", "endrecord", "error", "backward", "undo"}
)
_OPERATOR_WORDS = frozenset({"and", "or", "xor", "not", "div", "mod"})


def read(lines: list[str]) -> Program:
    collector = Collector("rapid")
    for count, statement in enumerate(statements(lines), start=1):
        if count > MAX_STATEMENTS:
            raise ProgramError(
                "too_many_statements", line=statement.line, limit=MAX_STATEMENTS
            )
        _statement(collector, statement, statement.tokens)
    return collector.program()


def _statement(collector: Collector, statement: Statement, tokens: list[Token]) -> None:
    line, first = statement.line, tokens[0].text
    if first in ("local", "task") and len(tokens) > 1:
        tokens = tokens[1:]
        first = tokens[0].text
    if first in _STRUCTURE:
        return
    if first in ("proc", "trap", "func"):
        at = 2 if first == "func" else 1
        if len(tokens) <= at or tokens[at].kind != "name":
            raise ProgramError("syntax", line=line, detail=first)
        collector.begin(tokens[at].text, _parameters(tokens[at + 1 :]), line=line)
        return
    if first in ("endproc", "endfunc", "endtrap"):
        collector.end()
        return
    if first in ("const", "pers", "var"):
        _declaration(collector, statement, tokens[1:])
        return
    if first in _PLACED or first in _JOINT_VALUES or first in _UNSUPPORTED:
        _motion(collector, statement, first, tokens[1:])
        return
    if first == "if" and tokens[-1].text == ";":
        at = _instruction(tokens)
        if at is not None and tokens[at].text != "if":
            _statement(collector, statement, tokens[at:])
            return
    if _assignment(collector, statement, tokens):
        return
    if tokens[0].kind == "name":
        collector.call(line=line, text=statement.text(), name=first)
    else:
        collector.skip(line=line, text=statement.text())


def _instruction(tokens: list[Token]) -> int | None:
    """Where a compact IF's instruction starts: the first name after the
    condition, found where two operands meet (an expression puts an operator
    between its operands)."""
    for at in range(2, len(tokens)):
        token, before = tokens[at], tokens[at - 1]
        if token.kind != "name" or token.text in _OPERATOR_WORDS:
            continue
        if before.kind in ("num", "str") or before.text in (")", "]", "}"):
            return at
        if before.kind == "name" and before.text not in _OPERATOR_WORDS:
            return at
    return None


def _parameters(tokens: list[Token]) -> list[str]:
    """The names of a routine's parameters: the last word of each (``\\``,
    ``VAR``, ``PERS``, ``INOUT`` and the type before it)."""
    inner = enclosed(tokens, "(")
    if not inner:
        return []
    line = tokens[0].line
    names = []
    for part in split_top(inner, line=line):
        for alternative in split_top(part, line=line, separator="|"):
            words = [token.text for token in alternative if token.kind == "name"]
            if words:
                names.append(words[-1])
    return names


def _declaration(
    collector: Collector, statement: Statement, tokens: list[Token]
) -> None:
    """``CONST robtarget p10 := [...];``, ``VAR speeddata s := [...];``..."""
    if len(tokens) < 2 or tokens[1].kind != "name":
        raise ProgramError("syntax", line=statement.line, detail="declaration")
    kind, name, rest = tokens[0].text, tokens[1].text, tokens[2:]
    if rest and rest[-1].text == ";":
        rest = rest[:-1]
    value: Value = RUNTIME
    if statement.truncated or (rest and rest[0].text == "{"):
        pass  # an array, or more than is read: known, not placed
    elif kind == "jointtarget":
        value = JOINTS
    elif rest and rest[0].text == ":=" and kind in ("robtarget", "speeddata"):
        if kind == "robtarget":
            value = _target(collector, rest[1:], line=statement.line)
        else:
            value = Speed(_speed(collector, rest[1:], line=statement.line))
    collector.declare(name, value)


def _assignment(
    collector: Collector, statement: Statement, tokens: list[Token]
) -> bool:
    """``p10 := <literal>;`` remembered and consumed (True); any other
    assignment to a name makes it a run-time value, and is skipped."""
    if tokens[0].kind != "name" or len(tokens) < 3:
        return False
    name = tokens[0].text
    if tokens[1].text == ":=" and not statement.truncated:
        value = _literal(collector, name, tokens[2:-1], line=statement.line)
        collector.declare(name, value)
        if value is not RUNTIME:
            return True
    elif any(token.text == ":=" for token in tokens):
        collector.declare(name, RUNTIME)
    return False


def _literal(
    collector: Collector, name: str, tokens: list[Token], *, line: int
) -> Value:
    """What an assignment gives: a robtarget literal (four parts, the first
    a list), a point known (a name holding one, ``Offs`` of one), a speeddata
    literal to a speeddata; else a run-time value."""
    inner = enclosed(tokens, "[")
    if not inner:
        if not tokens or tokens[0].kind != "name":
            return RUNTIME
        try:
            value = _target(collector, tokens, line=line)
        except ProgramError as error:
            if error.code != "undeclared_name":
                raise
            return RUNTIME  # a name from another module: not placed here
        return value if isinstance(value, Point) else RUNTIME
    parts = split_top(inner, line=line)
    if len(parts) == 4 and enclosed(parts[0], "[") is not None:
        return _robtarget(parts, line=line)
    if isinstance(collector.known(name), Speed):
        return Speed(_speed(collector, tokens, line=line))
    return RUNTIME


def _target(collector: Collector, tokens: list[Token], *, line: int) -> Value:
    """A robtarget literal, a declared name, or ``Offs(p, dx, dy, dz)`` (p
    moved along the base frame's axes); anything else is computed at run
    time."""
    inner = enclosed(tokens, "[")
    if inner is not None:
        return _robtarget(split_top(inner, line=line), line=line)
    if len(tokens) == 1 and tokens[0].kind == "name":
        value = collector.lookup(tokens[0].text, line=line)
        return value if isinstance(value, Point) or value is JOINTS else RUNTIME
    if tokens and tokens[0].text == "offs" and (args := enclosed(tokens[1:], "(")):
        parts = split_top(args, line=line)
        if len(parts) == 4:
            base = _target(collector, parts[0], line=line)
            dx, dy, dz = (number(part, line=line) for part in parts[1:])
            if isinstance(base, Point) and None not in (dx, dy, dz):
                return Point(base.x_mm + dx, base.y_mm + dy, base.z_mm + dz)
    return RUNTIME


# A robtarget's parts and the numbers each holds: trans, rot, robconf, extax.
_ROBTARGET = (("trans", 3), ("rot", 4), ("robconf", 4), ("extax", 6))


def _robtarget(parts: list[list[Token]], *, line: int) -> Value:
    """``[[x,y,z],[q1..q4],[cf1,cf4,cf6,cfx],[eax_a..eax_f]]``: each part
    holding its count of values (else ``pose_numbers``, naming the part),
    x, y and z placing it."""
    if len(parts) != 4:
        raise ProgramError(
            "pose_numbers", line=line, part="robtarget", expected=4, found=len(parts)
        )
    trans: list[list[Token]] | None = None
    for (name, expected), part in zip(_ROBTARGET, parts, strict=True):
        inner = enclosed(part, "[")
        if inner is None:
            continue  # a name or an expression of the part's type
        values = split_top(inner, line=line) if inner else []
        if len(values) != expected:
            raise ProgramError(
                "pose_numbers",
                line=line,
                part=name,
                expected=expected,
                found=len(values),
            )
        if name == "trans":
            trans = values
    if trans is None:
        return RUNTIME
    x, y, z = (number(value, line=line) for value in trans)
    if x is None or y is None or z is None:
        return RUNTIME
    return Point(x, y, z)


def _speed(collector: Collector, tokens: list[Token], *, line: int) -> float | None:
    """A speeddata's v_tcp in mm/s: a literal's first number, a declared
    one's, a predefined one's; None when not known."""
    inner = enclosed(tokens, "[")
    if inner is not None:
        parts = split_top(inner, line=line) if inner else []
        if len(parts) != 4:
            raise ProgramError("speed_numbers", line=line, expected=4, found=len(parts))
        v_tcp = number(parts[0], line=line)
        return None if v_tcp is None else positive_speed(v_tcp, line=line)
    if len(tokens) != 1 or tokens[0].kind != "name":
        return None
    name = tokens[0].text
    value = collector.known(name)
    if isinstance(value, Speed):
        return value.mm_s
    if value is not None:
        return None
    if name in PREDEFINED_SPEEDS_MM_S:
        return PREDEFINED_SPEEDS_MM_S[name]
    if _UNKNOWN_SPEED.fullmatch(name):
        return None
    raise ProgramError("undeclared_name", line=line, name=name[:60])


def _motion(
    collector: Collector, statement: Statement, name: str, args: list[Token]
) -> None:
    line, text = statement.line, statement.text()
    if statement.truncated:
        raise ProgramError("statement_too_long", line=line, limit=MAX_STATEMENT_TOKENS)
    if name in _JOINT_VALUES or name in _UNSUPPORTED:
        reason = "joint_values" if name in _JOINT_VALUES else "unsupported_motion"
        collector.not_checked(line=line, text=text, reason=reason)
        return
    if args and args[-1].text == ";":
        args = args[:-1]
    positional, options = _arguments(args, line=line)
    kind = _PLACED[name]
    count = 2 if kind == "circular" else 1
    if len(positional) <= count:
        raise ProgramError("syntax", line=line, detail=name)
    targets = [_target(collector, part, line=line) for part in positional[:count]]
    speed = _speed(collector, positional[count], line=line)
    if "v" in options:
        speed = number(options["v"], line=line)
        if speed is not None:
            positive_speed(speed, line=line)
    if "t" in options or kind == "joint":
        speed = None
    work_object = options.get("wobj")
    if work_object is not None and [t.text for t in work_object] != ["wobj0"]:
        collector.not_checked(line=line, text=text, reason="work_object")
    elif any(target is JOINTS for target in targets):
        collector.not_checked(line=line, text=text, reason="joint_values")
    elif not all(isinstance(target, Point) for target in targets):
        collector.not_checked(line=line, text=text, reason="expression")
    else:
        collector.move(
            line=line,
            kind=kind,
            target=targets[-1],
            via=targets[0] if kind == "circular" else None,
            speed_mm_s=speed,
            text=text,
        )


def _arguments(args: list[Token], *, line: int) -> tuple[list, dict]:
    """The positional arguments, and the optional ones by name: ``\\V:=1200``
    (written beside the argument it goes with), ``\\Conc``..."""
    positional: list[list[Token]] = []
    options: dict[str, list[Token]] = {}
    for part in split_top(args, line=line) if args else []:
        head, *rest = split_top(part, line=line, separator="\\")
        if head:
            positional.append(head)
        for option in rest:
            if not option or option[0].kind != "name":
                raise ProgramError("syntax", line=line, detail="option")
            has_value = len(option) > 1 and option[1].text == ":="
            options[option[0].text] = option[2:] if has_value else []
    return positional, options
