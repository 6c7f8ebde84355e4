"""Every message the engine can emit has a Spanish translation, and the catalogs agree.

The catalog is ``officiating/locale/es/LC_MESSAGES/django.po`` (compiled to ``django.mo``), read by
the engine with the standard library's ``gettext`` and by Django as the app's own catalog.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

from officiating.engine import messages as m

LC = m.LOCALE_DIR / "es" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _unquote(parts: list[str]) -> str:
    return "".join(eval(p) for p in parts)  # .po strings are C strings


def po_entries(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a .po file (single- or multi-line strings)."""
    entries: dict[str, str] = {}
    key = None
    current: dict[str, list[str]] = {}
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith(("msgid ", "msgstr ")):
            key = line.split(" ", 1)[0]
            current[key] = [line.split(" ", 1)[1]]
        elif line.startswith('"') and key:
            current[key].append(line)
        elif not line.strip() and current:
            entries[_unquote(current["msgid"])] = _unquote(current.get("msgstr", ['""']))
            current, key = {}, None
    entries.pop("", None)
    return entries


def _compiled_spanish() -> dict[str, str]:
    """The compiled Spanish catalog (the .mo file gettext reads), msgid -> msgstr: the messages a
    ``GNUTranslations`` keeps in its ``_catalog`` attribute (it has no public accessor)."""
    translations = gettext.translation("django", localedir=str(m.LOCALE_DIR), languages=["es"])
    catalog: dict[str, str] = vars(translations)["_catalog"]
    return catalog


def test_every_message_the_engine_can_emit_has_a_spanish_translation():
    catalog = _compiled_spanish()
    missing = [msgid for msgid in m.MSGIDS if not catalog.get(msgid)]
    assert not missing, missing


def test_the_compiled_catalog_is_the_po_file():
    po = po_entries(LC / "django.po")
    catalog = _compiled_spanish()
    assert {k: v for k, v in catalog.items() if k} == po


def test_translations_keep_every_placeholder():
    for msgid, msgstr in po_entries(LC / "django.po").items():
        assert set(PLACEHOLDER.findall(msgid)) == set(PLACEHOLDER.findall(msgstr)), msgid


def test_the_po_file_has_no_stale_entries():
    assert set(po_entries(LC / "django.po")) == set(m.MSGIDS)


def test_an_unknown_language_falls_back_to_english():
    assert m.render(m.NOT_IN_PLAY, lang="xx") == "The ball is not in play."
    assert m.render(m.NOT_IN_PLAY, lang="es") == "La bocha no está en juego."
