"""Both languages ship: every string a user sees is in the Spanish catalogs, translated, and the
compiled catalogs (.mo, committed so a fresh machine needs no gettext tools) match their sources."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest

from polo.testing import BASE_DIR

CATALOGS = [
    BASE_DIR / "locale" / "es" / "LC_MESSAGES" / "django.po",
    BASE_DIR / "locale" / "es" / "LC_MESSAGES" / "djangojs.po",
    BASE_DIR / "officiating" / "locale" / "es" / "LC_MESSAGES" / "django.po",
]


def parse_po(path: Path) -> dict[tuple[str | None, str], dict]:
    """A small reader for the .po files makemessages writes: {(context, msgid): {"str", "fuzzy"}}."""
    entries: dict = {}
    current: dict = {}
    field = None

    def flush() -> None:
        if current.get("msgid"):
            strs = [v for k, v in current.items() if k.startswith("msgstr")]
            entries[(current.get("msgctxt"), current["msgid"])] = {
                "str": strs[0] if strs else "",
                "plural": current.get("msgid_plural"),
                "all": strs,
                "fuzzy": current.get("fuzzy", False),
            }

    for raw in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = raw.strip()
        if not line:
            flush()
            current, field = {}, None
        elif line.startswith("#,") and "fuzzy" in line:
            current["fuzzy"] = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            current[field] += ast.literal_eval(line)
        else:
            key, _, value = line.partition(" ")
            field = key
            current[field] = ast.literal_eval(value)
    return entries


def _existing() -> list[Path]:
    return [p for p in CATALOGS if p.exists()]


def test_the_spanish_catalogs_exist():
    missing = [str(p.relative_to(BASE_DIR)) for p in CATALOGS if not p.exists()]
    assert not missing


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(BASE_DIR)))
def test_every_message_is_translated_and_none_is_fuzzy(po):
    entries = parse_po(po)
    assert entries
    untranslated = [msgid for (_, msgid), e in entries.items() if not all(e["all"]) or not e["all"]]
    fuzzy = [msgid for (_, msgid), e in entries.items() if e["fuzzy"]]
    assert not untranslated, f"untranslated in {po.name}: {untranslated[:10]}"
    assert not fuzzy, f"fuzzy in {po.name}: {fuzzy[:10]}"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(BASE_DIR)))
def test_the_compiled_catalog_matches_its_source(po):
    with open(po.with_suffix(".mo"), "rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    for (context, msgid), entry in parse_po(po).items():
        if entry["plural"]:
            got = (
                compiled.npgettext(context, msgid, entry["plural"], 1)
                if context
                else compiled.ngettext(msgid, entry["plural"], 1)
            )
        else:
            got = compiled.pgettext(context, msgid) if context else compiled.gettext(msgid)
        assert got == entry["str"], f"{po.name}: {msgid!r} is stale in the .mo (run compilemessages)"


def _catalog_ids(domain: str) -> set[str]:
    """The msgids of one gettext domain: templates are served from the ``django`` catalogs, scripts
    only from the ``djangojs`` ones (/jsi18n/), so a script string found only in django.po is untranslated."""
    ids: set[str] = set()
    for po in _existing():
        if po.stem == domain:
            ids |= {msgid for (_, msgid) in parse_po(po)}
    return ids


TEMPLATE_STRING = re.compile(r"""\{%\s*(?:translate|trans)\s+(["'])(.+?)\1""")
JS_CALL = re.compile(r"""\b(gettext|ngettext|pgettext)\(\s*""")
JS_LITERAL = re.compile(r"""(["'])((?:\\.|(?!\1)[^\n])*)\1""", re.S)
JS_ESCAPE = re.compile(r"""\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.|\n)""")


def _unescape_js(text: str) -> str:
    """A JavaScript string literal's escapes, decoded (without mangling the non-ASCII text around them)."""

    def one(m: re.Match) -> str:
        e = m.group(1)
        if e[0] in "ux" and len(e) > 1:
            return chr(int(e.strip("u{}x"), 16))
        return {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "\n": ""}.get(e, e)

    return JS_ESCAPE.sub(one, text)


def _javascript_msgids(source: str) -> list[str]:
    """The msgid of every gettext()/ngettext() call with a literal, and of pgettext() (its second argument)."""
    found = []
    for call in JS_CALL.finditer(source):
        literal = JS_LITERAL.match(source, call.end())
        if literal and call.group(1) == "pgettext":
            comma = re.compile(r"\s*,\s*").match(source, literal.end())
            literal = JS_LITERAL.match(source, comma.end()) if comma else None
        if literal and literal.group(2):
            found.append(_unescape_js(literal.group(2)))
    return found


def test_every_template_string_is_in_a_catalog():
    ids = _catalog_ids("django")
    missing = []
    for path in sorted((BASE_DIR / "templates").rglob("*.html")):
        for _, text in TEMPLATE_STRING.findall(path.read_text(encoding="utf-8")):
            if text not in ids:
                missing.append(f"{path.relative_to(BASE_DIR)}: {text}")
    assert not missing, "\n".join(missing[:30])


def test_every_javascript_string_is_in_a_catalog():
    ids = _catalog_ids("djangojs")
    missing = []
    for path in sorted((BASE_DIR / "static" / "js").rglob("*.js")):
        for text in _javascript_msgids(path.read_text(encoding="utf-8")):
            if text not in ids:
                missing.append(f"{path.relative_to(BASE_DIR)}: {text}")
    assert not missing, "\n".join(missing[:30])


def test_spanish_is_served(client, db):
    response = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.headers["Content-Language"] == "es"
    assert "Iniciar sesión" in response.content.decode()


# Words a template may show untranslated: language names in their own language, key names on the
# keyboard, units and file formats that read the same in Spanish.
UNTRANSLATED_OK = {"English", "Español", "PDF", "CSV", "JSON", "Ctrl", "Space", "Enter", "Esc", "s", "min"}


def _visible_template_text(source: str) -> list[str]:
    """The words of a template outside any tag, translation block or variable."""
    for pattern in (
        r"\{%\s*block body_class\s*%\}.*?\{%\s*endblock\s*%\}",
        r"\{%\s*blocktranslate.*?endblocktranslate\s*%\}",
        r"\{%.*?%\}",
        r"\{#.*?#\}",  # a template comment: never shown
        r"\{\{.*?\}\}",
        r"<script.*?</script>",
        r"<style.*?</style>",
        r"<!--.*?-->",
    ):
        source = re.sub(pattern, " ", source, flags=re.S)
    shown = [m.group(1) for m in re.finditer(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', source)]
    shown.append(re.sub(r"<[^>]+>", " ", source))
    return [w for text in shown for w in re.findall(r"[^\W\d_]+", text)]


# The guides (matches/help) are prose written once per language: templates/help/<language>/.
GUIDES = BASE_DIR / "templates" / "help"


def _written_in_one_language(path: Path) -> bool:
    return path.parent.parent == GUIDES and path.parent.name in ("en", "es")


def test_every_guide_is_written_in_both_languages():
    english = sorted(p.name for p in (GUIDES / "en").glob("*.html"))
    spanish = sorted(p.name for p in (GUIDES / "es").glob("*.html"))
    assert english and english == spanish


def test_no_template_shows_text_outside_a_translation():
    leaks = []
    for path in sorted((BASE_DIR / "templates").rglob("*.html")):
        if _written_in_one_language(path):
            continue
        words = [
            w
            for w in _visible_template_text(path.read_text(encoding="utf-8"))
            if w not in UNTRANSLATED_OK and not (len(w) == 1 and w.isupper())
        ]  # key caps: G, F, O…
        if words:
            leaks.append(f"{path.relative_to(BASE_DIR)}: {' '.join(words[:8])}")
    assert not leaks, "\n".join(leaks)


# --- The scripts' own words --------------------------------------------------------------------
# What a script puts on screen must come through gettext (static/js/i18n.js) like the templates'
# words. Two nets: a literal written straight into the page (textContent, setText, the ``text``,
# ``title`` or ``aria-label`` of an element, an attribute, a text node, a dialog) that has letters;
# and any literal anywhere that reads as words (two words with a space, or a capitalised word),
# outside gettext, unless it is a class list, a comparison, a developer's message or one of the
# names below.

# Names the browser or HTTP gives (keys, headers, APIs): never shown, never translated.
JS_NOT_WORDS = {
    "Enter", "Escape", "Esc", "Backspace", "Space", "Tab", "Delete",
    "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "End",
    "Accept", "Accept-Language", "Content-Type", "X-CSRFToken", "IntersectionObserver", "PoloLive:",
}  # fmt: skip

JS_COMMENT_OR_LITERAL = re.compile(r"""//[^\n]*|/\*.*?\*/|(["'])(?:\\.|(?!\1)[^\\\n])*\1|`(?:\\.|[^\\`])*`""", re.S)
JS_ANY_LITERAL = re.compile(r"""(["'])((?:\\.|(?!\1)[^\\\n])*)\1|`((?:\\.|[^\\`])*)`""")
JS_TRANSLATED = re.compile(  # the first argument of gettext(), ngettext() or pgettext(), or the second
    r"""\b(?:gettext|ngettext|pgettext)\(\s*$"""
    r"""|\b(?:ngettext|pgettext)\(\s*(["'])(?:\\.|(?!\1)[^\\\n])*\1\s*,\s*$"""
)
JS_NOT_SHOWN_BEFORE = re.compile(
    r"""(?:===|!==|==|!=|\bcase|\bclass:|\bclassName\s*=|classList\.\w+\(|\bkey:|\bthrow\s+new\s+\w*Error\(|console\.\w+\(|\bimport|\bfrom)\s*$"""
)
JS_NOT_SHOWN_AFTER = re.compile(r"""^\s*(?:===|!==|==|!=)""")
JS_SINK = re.compile(
    r"""\.(?:textContent|innerText|innerHTML|title|placeholder|ariaLabel|alt)\s*=(?!=)\s*"""
    r"""|\bsetText\([^,()]*(?:\([^()]*\)[^,()]*)*,\s*"""
    r"""|\bsetAttribute\(\s*["'](?:aria-label|aria-valuetext|title|placeholder|alt)["']\s*,\s*"""
    r"""|(?:[{,]\s*)(?:text|title|placeholder|alt|["']aria-label["'])\s*:\s*"""
    r"""|\.(?:append|prepend|replaceChildren)\(\s*|\bcreateTextNode\(\s*|\b(?:confirm|alert|prompt)\(\s*"""
)
JS_WORD = re.compile(r"[^\W\d_]{2,}")


def _blank_comments(source: str) -> str:
    """The script with its comments blanked (lines kept), its string literals as they are."""
    return JS_COMMENT_OR_LITERAL.sub(
        lambda m: m.group(0) if m.group(0)[0] in "\"'`" else re.sub(r"[^\n]", " ", m.group(0)), source
    )


def _top_level_literals(source: str, start: int, *, commas_end: bool) -> list[re.Match]:
    """The string literals of the expression starting at ``start``, outside any bracket in it (a
    nested call has its own check: ``el(..., {text: ...})``): up to a ``;`` or a line end, a ``,``
    when ``commas_end``, or the bracket that closes the one it sits in."""
    found, depth, i = [], 0, start
    while i < len(source):
        literal = JS_ANY_LITERAL.match(source, i)
        if literal:
            if depth == 0:
                found.append(literal)
            i = literal.end()
            continue
        c = source[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (c in ";\n" or (commas_end and c == ",")):
            break
        i += 1
    return found


def _sets_a_class(source: str, at: int) -> bool:
    """Whether the literal at ``at`` is the value of a class list (``class: a ? "x y" : "z"``,
    ``node.className = ...``): the last key or assignment before it on its line says so."""
    line = source[source.rfind("\n", 0, at) + 1 : at]

    def blank(m: re.Match) -> str:  # a quoted key ({"aria-label": ...}) stays a key
        key = re.search(r"[{,]\s*$", line[: m.start()]) and re.match(r"\s*:", line[m.end() :])
        return m.group(0) if key else "0"

    blanked = JS_ANY_LITERAL.sub(blank, line)
    keys = re.findall(r"""([A-Za-z_$][\w$-]*)["']?\s*(?::|(?<![=!<>])=(?!=))""", blanked)
    return bool(keys) and keys[-1] in ("class", "className")


def _shown_text(literal: re.Match) -> str:
    if literal.group(1):
        return _unescape_js(literal.group(2))
    return re.sub(r"\$\{[^}]*\}", " ", literal.group(3) or "")


def _untranslated_javascript(source: str) -> list[tuple[int, str]]:
    """(line, literal) of each word a script shows without gettext."""
    source = _blank_comments(source)
    found: dict[int, str] = {}
    translated: set[int] = set()
    for literal in JS_ANY_LITERAL.finditer(source):
        if JS_TRANSLATED.search(source, max(0, literal.start() - 200), literal.start()):
            translated.add(literal.start())
    # 1. A literal with letters written straight into the page.
    for sink in JS_SINK.finditer(source):
        call = (
            sink.group(0).rstrip().endswith("(") and "setText" not in sink.group(0) and "setAttr" not in sink.group(0)
        )
        for literal in _top_level_literals(source, sink.end(), commas_end=not call):
            before = source[max(0, literal.start() - 60) : literal.start()]
            if (
                literal.start() in translated
                or JS_NOT_SHOWN_BEFORE.search(before)
                or JS_NOT_SHOWN_AFTER.match(source, literal.end())
                or _sets_a_class(source, literal.start())
            ):
                continue
            text = _shown_text(literal)
            if JS_WORD.search(text) and text.strip() not in JS_NOT_WORDS:
                found[literal.start()] = literal.group(0)
    # 2. A literal anywhere that reads as words.
    for literal in JS_ANY_LITERAL.finditer(source):
        text = _shown_text(literal)
        if literal.start() in translated or text.strip() in JS_NOT_WORDS:
            continue
        if not (re.search(r"[^\W\d_]{2,}\s+[^\W\d_]{2,}", text) or re.match(r"\s*[^\W\d_a-z][^\W\d_A-Z]+", text)):
            continue
        if re.search(r"[#\[\]=/<>{}]|^\.|\s\.", text):  # a selector, a path, a URL, markup
            continue
        before = source[max(0, literal.start() - 60) : literal.start()]
        if (
            JS_NOT_SHOWN_BEFORE.search(before)
            or JS_NOT_SHOWN_AFTER.match(source, literal.end())
            or _sets_a_class(source, literal.start())
        ):
            continue
        found[literal.start()] = literal.group(0)
    return sorted((source.count("\n", 0, at) + 1, text) for at, text in found.items())


def test_no_script_shows_words_outside_gettext():
    leaks = []
    for path in sorted((BASE_DIR / "static" / "js").rglob("*.js")):
        for line, text in _untranslated_javascript(path.read_text(encoding="utf-8")):
            leaks.append(f"{path.relative_to(BASE_DIR)}:{line}: {text}")
    assert not leaks, "words a script shows without gettext:\n" + "\n".join(leaks)


@pytest.mark.parametrize(
    "source",
    [
        'node.textContent = "Stopped";',
        'setText(part("status"), "live");',
        'el("span", {class: "x", text: "Final"});',
        'button.setAttribute("aria-label", "Close the dialog");',
        'box.append("Waiting for the server");',
        'const WORDS = {live: "Live now"};',
        'status.title = ok ? "Connected" : gettext("Offline");',
        'el("button", {class: "x y", "aria-label": "Close it"});',
    ],
)
def test_the_script_check_finds_words_outside_gettext(source):
    assert _untranslated_javascript(source)


@pytest.mark.parametrize(
    "source",
    [
        'node.textContent = gettext("Stopped");',
        'setText(part("status"), interpolate(gettext("%(n)s left"), {n}));',
        'el("button", {class: "primary resend", text: pgettext("event", "Play")});',
        'if (e.key === "Enter" || status === "In play") go();',
        'throw new Error("clock convention: left or played");',
        'node.textContent = String(score) + " · " + name;',
        'text.append(ngettext("%(n)s event", "%(n)s more events wait", n));',
        'mark.className = scored ? "so-hit scored" : "so-hit missed";',
    ],
)
def test_the_script_check_lets_translated_words_and_codes_pass(source):
    assert _untranslated_javascript(source) == []
