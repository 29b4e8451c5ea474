"""The house's structure (``../shared/STYLE.md``, issue 26): its rooms stand in
one order and a room imports only rooms below it; no two modules import each
other round a circle; no app file is over 800 lines.

Imports are read from the code as written (module level and inside functions
alike), so an import hidden in a function counts. ``UPWARD`` lists, module by
module, the imports that still run up: each is a debt to pay, not a licence.
A new upward import fails; so does an entry here that the code no longer
has, so the list only shrinks.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The rooms, lowest first. A module belongs to the room of its longest
# matching prefix.
ROOMS = (
    "config",  # settings, the Celery app, request helpers
    "compliance.calculators",  # one pure module per standard and edition
    "cells",  # projects, cells, the layout; geometry, drawing, exchange
    "compliance.documents",  # the document kit below every report
    "compliance.assessment",
    "compliance.safety_functions",
    "compliance.rules",
    "compliance.costs",
    "compliance.plan",
    "compliance.motion",  # robot programs judged segment by segment: pages, API
    "compliance.concepts",  # guarding concepts of a cell, compared
    "compliance.proposals",
    "compliance",  # the app's shell: models, admin, URLs, management commands
    "config.urls",  # the entrance: every room's URLs
    "config.wsgi",
)

# Imports that still run up a floor: (importing module, imported module).
UPWARD = {
    # The cell pages show the findings and the device library's choices.
    ("cells.api.serializers", "compliance.safety_functions.library.selectors"),
    ("cells.api.serializers", "compliance.safety_functions.library.services"),
    ("cells.forms", "compliance.safety_functions.library.selectors"),
    ("cells.forms", "compliance.safety_functions.library.services"),
    ("cells.layout_dxf.api", "compliance.rules.inputs"),
    ("cells.layout_dxf.views", "compliance.rules.inputs"),
    ("cells.views", "compliance.rules.inputs"),
    ("cells.views", "compliance.rules.plan_marks"),
    ("cells.views", "compliance.rules.results"),
    # The register shows each measure's check, and signing declares the
    # open findings: the assessment's pages and sign-off read the rules.
    ("compliance.assessment.api", "compliance.rules.selectors"),
    ("compliance.assessment.checks", "compliance.rules.findings"),
    ("compliance.assessment.report_views", "compliance.rules.selectors"),
    ("compliance.assessment.serializers", "compliance.rules.selectors"),
    ("compliance.assessment.serializers", "compliance.rules.serializers"),
    ("compliance.assessment.services", "compliance.rules.cell_facts"),
    ("compliance.assessment.services", "compliance.rules.engine"),
    ("compliance.assessment.services", "compliance.rules.selectors"),
    ("compliance.assessment.views.hazards", "compliance.rules.selectors"),
    ("compliance.assessment.views.register", "compliance.rules.selectors"),
    ("compliance.assessment.views.revisions", "compliance.rules.selectors"),
    # The findings' version includes the organisation's cost edits and
    # supplier quotes (what the cost lines kept under it were priced from).
    ("compliance.rules.inputs", "compliance.costs.models"),
    ("compliance.rules.inputs", "compliance.costs.quotes.models"),
    # A library device carries a catalogue price and lead time.
    ("compliance.safety_functions.library.services", "compliance.costs.services"),
    ("compliance.safety_functions.library.views", "compliance.costs.selectors"),
    ("compliance.safety_functions.models", "compliance.costs.models"),
}

MAX_LINES = 800


def _app_files() -> list[str]:
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "*.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [
        f
        for f in files
        if (ROOT / f).is_file()
        and not f.startswith(("tests/", "bench/"))
        and "/migrations/" not in f
        and f not in ("manage.py",)
    ]


def _module(path: str) -> str:
    name = path[: -len(".py")].replace("/", ".")
    return name.removesuffix(".__init__")


def _imports(path: str, modules: set[str]) -> set[str]:
    """The project modules ``path`` imports, wherever in it the import is."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    own = _module(path).split(".")
    package = own if path.endswith("__init__.py") else own[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[: len(package) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            subs = [f"{base}.{a.name}" for a in node.names]
            modules_named = [n for n in subs if n in modules]
            # ``from package import module`` imports the module (and runs the
            # package's __init__, which is not a dependency of the importer).
            names = subs if len(modules_named) == len(subs) else [base, *subs]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
    found.discard(_module(path))
    return found


def _graph() -> dict[str, set[str]]:
    files = _app_files()
    modules = {_module(f) for f in files}
    return {_module(f): _imports(f, modules) for f in files}


def room_of(module: str) -> int:
    best = -1
    for index, room in enumerate(ROOMS):
        inside = module == room or module.startswith(room + ".")
        if inside and (best < 0 or len(room) > len(ROOMS[best])):
            best = index
    assert best >= 0, f"{module} is in no room of the map: add it to ROOMS"
    return best


def upward_imports() -> set[tuple[str, str]]:
    found = set()
    for module, imported in _graph().items():
        for target in imported:
            if room_of(target) > room_of(module):
                found.add((module, target))
    return found


def test_every_room_imports_only_rooms_below_it():
    found = upward_imports()
    new = sorted(found - UPWARD)
    assert not new, "Imports that run up the map (STYLE.md): " + ", ".join(
        f"{a} -> {b} ({ROOMS[room_of(a)]} below {ROOMS[room_of(b)]})" for a, b in new
    )


def test_the_list_of_upward_imports_only_shrinks():
    gone = sorted(UPWARD - upward_imports())
    assert not gone, f"No longer in the code, strike them from UPWARD: {gone}"


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return circles


def test_no_modules_import_each_other_round_a_circle():
    assert _circles(_graph()) == []


def test_no_app_file_is_over_800_lines():
    long = {
        f: n
        for f in _app_files()
        if (n := len((ROOT / f).read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"Split these at their seams (STYLE.md): {long}"


def test_the_checks_see_an_upward_import_and_a_circle():
    # The checks themselves: a room below importing one above is found, and
    # two modules importing each other are a circle.
    assert room_of("cells.models") < room_of("compliance.rules.engine")
    assert room_of("compliance.documents.kit") < room_of("compliance.proposals.pdf")
    assert room_of("compliance.documents.kit") < room_of("compliance.assessment")
    assert _circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
