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
        r"\{\{.*?\}\}",
        r"<script.*?</script>",
        r"<style.*?</style>",
        r"<!--.*?-->",
    ):
        source = re.sub(pattern, " ", source, flags=re.S)
    shown = [m.group(1) for m in re.finditer(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', source)]
    shown.append(re.sub(r"<[^>]+>", " ", source))
    return [w for text in shown for w in re.findall(r"[^\W\d_]+", text)]


def test_no_template_shows_text_outside_a_translation():
    leaks = []
    for path in sorted((BASE_DIR / "templates").rglob("*.html")):
        words = [
            w
            for w in _visible_template_text(path.read_text(encoding="utf-8"))
            if w not in UNTRANSLATED_OK and not (len(w) == 1 and w.isupper())
        ]  # key caps: G, F, O…
        if words:
            leaks.append(f"{path.relative_to(BASE_DIR)}: {' '.join(words[:8])}")
    assert not leaks, "\n".join(leaks)
