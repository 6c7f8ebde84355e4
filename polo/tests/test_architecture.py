"""The shape of the house: the project's own modules import one another without a circle, the match
log calls its rooms only through its post-commit seam, and no module grows past 600 lines.

The import graph is read from the source (``ast``), not from a running interpreter, so an import
inside a function counts as much as one at the top of a module: a circle hidden in a function is
still a circle, it only fails later. Imports under ``if TYPE_CHECKING:`` do not count (they never
run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from polo.testing import BASE_DIR

PACKAGES = ("matches", "officiating", "polo")
MAX_LINES = 600


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(BASE_DIR).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module of the project's packages (tests and migrations included), by dotted name."""
    return {
        _module_name(path): path
        for package in PACKAGES
        for path in sorted((BASE_DIR / package).rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Every import statement of a module, at any depth, except under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)  # the ``else:`` of such a block does run
            continue
        stack.extend(ast.iter_child_nodes(node))


def _resolve(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    """The absolute name of ``from <node.module> import ...`` as seen from module ``name``."""
    if not node.level:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module → the project's modules it imports. ``from package import name`` points at the
    submodule when ``name`` is one, else at the package."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                candidates = [alias.name for alias in node.names]
            else:
                source = _resolve(node, name, is_package)
                candidates = [
                    f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source for alias in node.names
                ]
            targets |= {c for c in candidates if c in modules and c != name}
        graph[name] = targets
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle (as a path that ends where it starts) for each strongly connected group of
    modules (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return [_circle_through(group, graph) for group in groups]


def _circle_through(group: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node] & members):
            if child == start:
                return paths[node] + [start]
            if child not in paths:
                paths[child] = paths[node] + [child]
                queue.append(child)
    return group  # pragma: no cover — a strongly connected group always has a circle


def closure(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every project module ``start`` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for child in graph[todo.pop()]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(project_modules())


def test_the_project_has_no_import_circle(graph):
    circles = [" → ".join(circle) for circle in import_cycles(graph)]
    assert circles == [], "import circles:\n" + "\n".join(circles)


def test_the_check_finds_a_circle_hidden_in_a_function_but_not_under_type_checking(tmp_path):
    """The check above can fail: an import inside a function closes a circle; one under
    ``if TYPE_CHECKING:`` does not."""
    sources = {
        "a": "from pkg import b\n",
        "b": "def f():\n    from .c import x\n",
        "c": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import d\n",
        "d": "import pkg.a\n",
    }

    def graph_of(sources: dict[str, str]) -> dict[str, set[str]]:
        (tmp_path / "pkg").mkdir(exist_ok=True)
        modules = {}
        for name, source in sources.items():
            modules[f"pkg.{name}"] = tmp_path / "pkg" / f"{name}.py"
            modules[f"pkg.{name}"].write_text(source)
        return import_graph(modules)

    assert import_cycles(graph_of(sources)) == []
    sources["c"] = "def g():\n    from . import d\n"
    assert import_cycles(graph_of(sources)) == [["pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.a"]]


# The rooms around the match log (``matches/<room>/``).
ROOMS = ("matches.api", "matches.committee", "matches.live", "matches.officials", "matches.public")


def _in_rooms(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.startswith(tuple(room + "." for room in ROOMS)) or m in ROOMS)


def test_the_write_path_calls_no_room_but_through_its_seam(graph):
    """``match_event_log`` reaches the live and committee rooms only through ``log_events``, which
    the rooms subscribe to in ``MatchesConfig.ready()``."""
    assert _in_rooms(closure(graph, "matches.services") | {"matches.services"}) == []
    assert "matches.log_events" in graph["matches.services"]


def test_the_match_log_s_reads_sit_below_its_writes(graph):
    assert "matches.services" not in closure(graph, "matches.selectors")
    assert _in_rooms(closure(graph, "matches.selectors")) == []
    assert _in_rooms(closure(graph, "matches.models")) == []


def test_no_module_is_named_for_its_audience_by_a_suffix():
    """Rooms are packages (``matches/committee/views``), not ``views_committee`` beside ``views``."""
    affixed = [
        name
        for name in project_modules()
        if name.startswith("matches.")
        and ".tests." not in name
        and ".migrations." not in name
        and any(
            part.endswith(("_committee", "_officials", "_public", "_urls"))
            or part.startswith(("public_", "committee_", "officials_"))
            for part in name.split(".")
        )
    ]
    assert affixed == []


# Modules that may be longer than MAX_LINES, and why. Tests (``*/tests/*``: tables of cases and
# scenarios read best whole) and migrations (``*/migrations/*``: written by Django) are exempt as
# a kind. Any other module is named here on its own, with its reason: a literal table (data, not
# logic: an edition's numbers, a message catalogue) may be; none is over the limit today.
LONG_MODULES: dict[str, str] = {}


def _exempt_kind(path: Path) -> bool:
    parts = path.relative_to(BASE_DIR).parts
    return "tests" in parts or "migrations" in parts


def test_no_module_is_over_600_lines():
    long = []
    for path in project_modules().values():
        relative = path.relative_to(BASE_DIR).as_posix()
        if _exempt_kind(path) or relative in LONG_MODULES:
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            long.append(f"{relative}: {lines} lines")
    assert long == [], f"modules over {MAX_LINES} lines (split them by concern):\n" + "\n".join(long)
