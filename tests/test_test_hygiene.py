"""The tests and benchmarks name no absolute path of one machine: data is found
relative to the project (the reference data through tests/reference.py), so the
suite runs the same on any checkout. The rule, on every string literal (f-string
parts too) of every .py file under tests/ and bench/: one that starts with a
machine-specific root (/work/, /root/, /home/, /tmp/, ... or the folder this
checkout sits in) is reported as file:line, unless it only says what must NOT
appear (``assert "/work/shared" not in text``, or a literal of a tuple looped
over by ``for x in (...): assert x not in text``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("tests", "bench")
# Spelled without the leading "/" so that this file passes its own rule.
MACHINE_ROOTS = tuple(
    f"/{root}/"
    for root in (
        "work",
        "root",
        "home",
        "Users",
        "tmp",
        "var/tmp",
        "opt",
        "srv",
        "mnt",
        "media",
    )
)


def machine_roots() -> tuple[str, ...]:
    """The fixed roots, and the folder the checkout sits in (as in CI, where
    it may be none of them)."""
    beside = ROOT.parent
    if beside == Path(beside.anchor):
        return MACHINE_ROOTS
    return (*MACHINE_ROOTS, f"{beside.as_posix()}/")


def _is_absolute_path(text: str, roots: tuple[str, ...]) -> bool:
    text = text.strip().removeprefix("file://")
    return text.startswith(roots) or f"{text}/" in roots


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {
        child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)
    }


def _left_of_not_in(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    compare = parents.get(node)
    return (
        isinstance(compare, ast.Compare)
        and compare.left is node
        and all(isinstance(op, ast.NotIn) for op in compare.ops)
    )


def _only_absent(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """The literal is only checked to be absent: ``"/x/" not in text``, or
    one of the literals a loop runs over, each checked ``x not in text``."""
    if _left_of_not_in(node, parents):
        return True
    container = parents.get(node)
    if not isinstance(container, ast.Tuple | ast.List | ast.Set):
        return False
    loop = parents.get(container)
    if not (
        isinstance(loop, ast.For | ast.comprehension)
        and loop.iter is container
        and isinstance(loop.target, ast.Name)
    ):
        return False
    scope = parents[loop] if isinstance(loop, ast.comprehension) else loop
    uses = [
        name
        for name in ast.walk(scope)
        if isinstance(name, ast.Name)
        and name.id == loop.target.id
        and name is not loop.target
    ]
    return bool(uses) and all(_left_of_not_in(name, parents) for name in uses)


def absolute_paths(source: str, roots: tuple[str, ...] = MACHINE_ROOTS):
    """(line, literal) for each string literal in the source that names an
    absolute path of a machine and is not only checked to be absent."""
    tree = ast.parse(source)
    parents = _parents(tree)
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and _is_absolute_path(node.value, roots)
        and not _only_absent(node, parents)
    ]
    found.sort(key=lambda node: (node.lineno, node.col_offset))
    return [(node.lineno, node.value) for node in found]


def test_the_rule_catches_data_paths_and_not_absence_checks_or_urls():
    offenders = absolute_paths(
        "from pathlib import Path\n"
        'REFERENCE = Path("/work/SHARED/reference/iso13857_tables.json")\n'
        'data = open("/tmp/data.json").read()\n'
        'folder = f"/home/{user}/reference"\n'
        'assert "/work/shared" in text\n'
        'assert "/work/shared" not in text\n'
        'assert all("/work/shared" not in item.source for item in items)\n'
        'for internal in ("code-index", ".json", "/work/"):\n'
        "    assert internal not in text\n"
        'for leaked in ("/root/x",):\n'
        "    print(leaked)\n"
        'base = Path("/work") / "shared"\n'
        'client.get("/api/v1/cells/")\n'
        'client.get("/healthz")\n'
        'env = {"PATH": "/usr/bin:/bin"}\n'
    )
    # The Path(), the open(), the f-string, the assert that it IS there, the
    # loop that does not check absence and the bare root; not the absence
    # checks, the URLs nor the system PATH.
    # (Line numbers only: the literals themselves would trip the rule here.)
    assert [line for line, _ in offenders] == [2, 3, 4, 5, 10, 12]
    assert offenders[0][1].endswith("SHARED/reference/iso13857_tables.json")


def test_no_test_or_benchmark_names_an_absolute_path_of_this_machine():
    roots = machine_roots()
    found = [
        f"{path.relative_to(ROOT)}:{line}: {literal!r}"
        for folder in SCANNED
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, literal in absolute_paths(path.read_text(encoding="utf-8"), roots)
    ]
    assert found == [], (
        "absolute paths of one machine (find data relative to the project; "
        "the shared reference through tests/reference.py):\n" + "\n".join(found)
    )
