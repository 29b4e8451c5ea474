"""ISO 13855's formula has one home per edition (issue 26, "Typed results").

S = K × T + C (2010) is worked out in ``iso13855_common.distance`` and
S = K × T + D_DS + Z (2024) in ``iso13855_2024.distance_2024``; every other
place calls them. Outside the calculators nothing adds up T from its parts
and nothing anywhere but ``iso13855_common.rounded_up_mm`` rounds S up: the
calculators expose both (``overall_time_ms``, the results'
``minimum_distance_rounded_up_mm`` ...).

The code is read as written (its syntax tree, not its text), over every app
module. A "K × T" term is a product of a speed (``k``, ``k_mm_s``,
``tables.K_WALKING_MM_S`` ...) and a time (``t``, ``t_ms`` ...), divided by
1000 or not; the formula is such a term with something added to it. The
test also asks that the pattern finds each home: a pattern that matched
nothing would pass for the wrong reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
APP = ("cells", "compliance", "config")
CALCULATORS = "compliance/calculators/"

# (module path, function) where each edition's formula is written out.
HOMES = {
    ("compliance/calculators/iso13855_common.py", "distance"),
    ("compliance/calculators/iso13855_2024.py", "distance_2024"),
}
ROUNDING_HOME = ("compliance/calculators/iso13855_common.py", "rounded_up_mm")
TIMES_HOME = ("compliance/calculators/iso13855_common.py", "overall_time_ms")

SPEED = re.compile(r"(^|_)k(_|$)|^K_", re.IGNORECASE)
TIME = re.compile(r"(^|_)t(_|$)|time", re.IGNORECASE)
DISTANCE = re.compile(r"minimum_distance|known_minimum|(^|_)s_mm$")
TIME_PARTS = ("response_time", "controller_time", "stopping_time")


def _names(node: ast.AST) -> set[str]:
    found = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
    return found


def _is(pattern: re.Pattern[str], node: ast.AST) -> bool:
    return any(pattern.search(name) for name in _names(node))


def _k_times_t(node: ast.AST) -> bool:
    """K × T, K × T / 1000 or K × (T / 1000)."""
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Div)
        and isinstance(node.right, ast.Constant)
        and node.right.value == 1000
    ):
        node = node.left
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return False
    a, b = node.left, node.right
    return (_is(SPEED, a) and _is(TIME, b)) or (_is(TIME, a) and _is(SPEED, b))


def _functions(path: Path) -> Iterator[tuple[str, ast.AST]]:
    """Every node of a module with the function it is in ("" at module
    level; nested functions as "outer.inner")."""

    def walk(node: ast.AST, where: str) -> Iterator[tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = f"{where}.{child.name}" if where else child.name
            yield inner, child
            yield from walk(child, inner)

    yield from walk(ast.parse(path.read_text(encoding="utf-8")), "")


def _modules() -> Iterator[tuple[str, Path]]:
    for top in APP:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            yield path.relative_to(ROOT).as_posix(), path


def formula_sites() -> set[tuple[str, str]]:
    """(module, function) of every S = K × T + ... in the app."""
    return {
        (name, where)
        for name, path in _modules()
        for where, node in _functions(path)
        if isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Add)
        and (_k_times_t(node.left) or _k_times_t(node.right))
    }


def rounding_sites() -> set[tuple[str, str]]:
    """(module, function) of every S rounded up: ``ceil`` of a distance."""
    return {
        (name, where)
        for name, path in _modules()
        for where, node in _functions(path)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == "ceil")
            or (isinstance(node.func, ast.Name) and node.func.id == "ceil")
        )
        and _is(DISTANCE, node)
    }


def _added(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [*_added(node.left), *_added(node.right)]
    return [node]


def time_sum_sites() -> set[tuple[str, str]]:
    """(module, function) of every T added up from two or more of its parts
    (a device's response, a controller's, a machine's stopping time)."""
    sites = set()
    for name, path in _modules():
        for where, node in _functions(path):
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
                continue
            parts = {
                part
                for term in _added(node)
                for found in _names(term)
                for part in TIME_PARTS
                if part in found
            }
            if len(parts) >= 2:
                sites.add((name, where))
    return sites


def test_each_edition_works_out_s_in_one_place():
    # Before issue 26 the formula was also written out in reach_over._s_ro,
    # iso13855_2024.with_speed, parallel_distance and iso13855_2024_parallel.
    assert formula_sites() == HOMES


def test_s_is_rounded_up_for_the_layout_in_one_place():
    # The rule packs rounded S up themselves (sensing, sensing_2024), and so
    # did the interlock calculator: they read the result's rounded figure.
    assert rounding_sites() == {ROUNDING_HOME}


def test_nothing_outside_the_calculators_adds_up_t():
    # The sensing rules added T up themselves: they call overall_time_ms.
    outside = {site for site in time_sum_sites() if not site[0].startswith(CALCULATORS)}
    assert outside == set()
    path = ROOT / TIMES_HOME[0]
    assert TIMES_HOME[1] in {where for where, _ in _functions(path)}
