"""The documentation stands on its own: a clone of the repository has everything it points to.

No page links outside the repository (the rule texts and the first contract were given to the
project beside it, in a ``shared/`` folder a clone does not have: what the app needs of them is in
``docs/``). The contract as built, ``docs/MATCH-LOG.md``, names exactly the event types, whistle
reasons and deflections of the JSON Schema the API checks events against, and the files the main
pages name exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from officiating.schemas import load_schema
from polo.testing import BASE_DIR

DOCS = sorted((BASE_DIR / "docs").rglob("*.md"))


def _readmes() -> list[Path]:
    """Every README of the repository (not of the virtualenv, caches or run-time files)."""
    found = []
    for top in BASE_DIR.iterdir():
        if top.name.startswith(".") or top.name in ("var", "node_modules"):
            continue
        if top.is_file() and top.name.startswith("README"):
            found.append(top)
        elif top.is_dir() and not top.is_symlink():
            found += top.rglob("README*")
    return sorted(found)


READMES = _readmes()
NOTES = [BASE_DIR / "officiating" / "engine" / "CONTRACT-NOTES.md"]
OUTSIDE = re.compile(r"\.\./shared\b|\bshared/(?:spec|rules)\b")


@pytest.mark.parametrize("page", DOCS + READMES + NOTES, ids=lambda p: str(p.relative_to(BASE_DIR)))
def test_no_page_points_outside_the_repository(page: Path):
    found = [
        f"line {n}: {line.strip()}"
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert found == []


def _match_log() -> str:
    return (BASE_DIR / "docs" / "MATCH-LOG.md").read_text(encoding="utf-8")


def test_the_contract_lists_every_event_type_the_schema_knows():
    table = _match_log().split("## Events", 1)[1].split("`deflected_off` for `ball_out`", 1)[0]
    listed = set()
    for row in re.findall(r"^\| (`[^|]+`)[^|]*\|", table, flags=re.M):
        listed.update(re.findall(r"`([a-z_]+)`", row))
    assert listed == set(load_schema("match-log")["$defs"]["event_types"]["enum"])


def test_the_contract_lists_the_schema_s_whistle_reasons_and_deflections():
    text = _match_log()
    defs = load_schema("match-log")["$defs"]
    deflections = text.split("`deflected_off` for `ball_out`:", 1)[1].split("For `line", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", deflections)) == set(defs["ball_out"]["properties"]["deflected_off"]["enum"])
    reasons = text.split("`whistle.reason`:", 1)[1].split("## ", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", reasons)) == set(defs["whistle"]["properties"]["reason"]["enum"])


def test_the_contract_lists_the_state_keys_the_schema_requires():
    text = _match_log()
    state_block = text.split("## State", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    keys = set(re.findall(r'^  "([a-z_]+)":', state_block, flags=re.M))
    assert keys == set(load_schema("state")["required"])


PATH = re.compile(r"`((?:[\w.-]+/)+[\w.-]*)`")  # `dir/`, `dir/file.ext`: a path in the repository


@pytest.mark.parametrize("page", ["README.md", "docs/MATCH-LOG.md", "docs/LIVE-PROTOCOL.md"])
def test_the_files_a_page_names_exist(page: str):
    text = (BASE_DIR / page).read_text(encoding="utf-8")
    named = {m.group(1) for m in PATH.finditer(text)}
    # Not files: URLs (/api/...), and var/ (made at run time).
    paths = {p for p in named if not p.startswith(("/", "var/")) and (p.endswith("/") or "." in p.rsplit("/", 1)[-1])}
    assert paths, "the page names no file?"
    missing = sorted(p for p in paths if not (BASE_DIR / p).exists())
    assert missing == []
