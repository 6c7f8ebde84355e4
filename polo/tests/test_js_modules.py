"""The pages' JavaScript is ES modules (static/js, no build step), and the pages load it so:

- every script a template loads from static/js is a module (``<script type="module">``), and
  every module of static/js is loaded by a page or imported by a module that is;
- each page asks for every module its scripts import, at once (``<link rel="modulepreload">``:
  otherwise the browser finds the imports one level at a time, a round trip each), and for no
  other; the JavaScript catalog (/jsi18n/, a classic deferred script) comes before the modules,
  which read it;
- every import names a file that exists, the imports make no circle, and no module is over 600
  lines (the rule of polo/tests/test_architecture.py for Python).
"""

from __future__ import annotations

import re
from pathlib import Path

from polo.testing import BASE_DIR

JS = BASE_DIR / "static" / "js"
TEMPLATES = BASE_DIR / "templates"
MAX_LINES = 600

IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;"']*?\bfrom\s*["'](?P<a>[^"']+)["']\s*;|^\s*import\s*["'](?P<b>[^"']+)["']\s*;""",
    re.M | re.S,
)
INCLUDE = re.compile(r"""\{%\s*include\s+["']([^"']+)["']\s*%\}""")
MODULE = re.compile(r"""<script\s+type="module"\s+src="\{%\s*static\s+'js/([^']+)'\s*%\}"></script>""")
PRELOAD = re.compile(r"""<link\s+rel="modulepreload"\s+href="\{%\s*static\s+'js/([^']+)'\s*%\}">""")
STATIC_SCRIPT = re.compile(r"""<script\b[^>]*\{%\s*static\s+'js/""")
# (a public page names its language, which ?lang= may have chosen: polo/language.py)
CATALOG = re.compile(
    r"""<script defer src="\{%\s*url\s+'javascript-catalog'\s*%\}(?:\?lang=\{\{ LANGUAGE_CODE \}\})?"></script>"""
)


def modules() -> list[str]:
    return sorted(p.relative_to(JS).as_posix() for p in JS.rglob("*.js"))


def imports(name: str) -> list[str]:
    """The modules ``name`` imports (or re-exports from), as paths below static/js."""
    path = JS / name
    found = []
    for m in IMPORT.finditer(path.read_text(encoding="utf-8")):
        target = (path.parent / (m.group("a") or m.group("b"))).resolve()
        found.append(target.relative_to(JS.resolve()).as_posix())
    return found


def closure(name: str) -> set[str]:
    seen: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo += imports(current)
    return seen


def template_text(path: Path) -> str:
    """A template with its includes written in (recursively)."""
    return INCLUDE.sub(lambda m: template_text(TEMPLATES / m.group(1)), path.read_text(encoding="utf-8"))


def pages() -> dict[str, str]:
    return {
        p.relative_to(TEMPLATES).as_posix(): template_text(p)
        for p in sorted(TEMPLATES.rglob("*.html"))
        if not p.name.startswith("_")
    }


def test_every_import_names_a_module_that_exists():
    missing = [
        f"{name} imports {target}" for name in modules() for target in imports(name) if not (JS / target).is_file()
    ]
    assert not missing


def test_the_modules_import_each_other_without_a_circle():
    graph = {name: imports(name) for name in modules()}
    state: dict[str, str] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for target in graph[name]:
            assert state.get(target) != "open", " -> ".join([*path, name, target])
            if target not in state:
                visit(target, [*path, name])
        state[name] = "done"

    for name in graph:
        if name not in state:
            visit(name, [])


def test_no_module_is_over_600_lines():
    long = {
        name: n for name in modules() if (n := len((JS / name).read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long


def test_every_script_of_static_js_is_a_module():
    classic = [
        f"{page}: {line.strip()}"
        for page, text in pages().items()
        for line in text.splitlines()
        if STATIC_SCRIPT.search(line) and not MODULE.search(line)
    ]
    assert not classic


def test_each_page_preloads_exactly_what_its_modules_import():
    wrong = []
    for page, text in pages().items():
        entries = set(MODULE.findall(text))
        wanted = set().union(*(closure(e) for e in entries)) - entries if entries else set()
        preloaded = PRELOAD.findall(text)
        if sorted(preloaded) != sorted(wanted):
            wrong.append(
                f"{page}: missing {sorted(wanted - set(preloaded))}, not imported {sorted(set(preloaded) - wanted)}"
                + (", twice" if len(preloaded) != len(set(preloaded)) else "")
            )
    assert not wrong, "\n".join(wrong)


def test_the_catalog_comes_before_the_modules_that_read_it():
    for page, text in pages().items():
        catalog = CATALOG.search(text)
        first = MODULE.search(text)
        if catalog and first:
            assert catalog.start() < first.start(), page
        assert "javascript-catalog" not in text or catalog, f"{page}: the catalog is loaded without defer"


def test_every_module_is_used_by_a_page():
    used = set().union(*(closure(e) for text in pages().values() for e in MODULE.findall(text)))
    assert set(modules()) - used == set()
