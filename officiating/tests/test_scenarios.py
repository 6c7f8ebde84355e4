"""Every worked example of Rules 14, 21 and 22 (and the rule sentences around them), replayed.

The scenarios of each rule edition are in a folder of its name: ``scenarios/USPA-2026/`` (the
rulebook the app runs), ``scenarios/TEST-SHORT/`` (the tests' own edition, ``editions.py``: USPA
2026 scenarios with its numbers changed, which proves the engine reads them from the edition).
Each file is a match log (it can be given to ``manage.py replay`` as it is) whose ``match.rules``
is its folder's edition, with two more keys the replay ignores: ``scenario`` (a title and the
paragraph it cites, quoted) and ``expect``:

- ``rejected``: ``{event id: code}`` -- these events must be refused with that code; every other
  event must be accepted;
- ``after``: ``{event id: state fragment}`` -- the state right after that event;
- ``state``: a fragment of the state after the last event.

A fragment matches when every key it names matches (recursively; lists element by element;
numbers compared to 1e-6).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from officiating.engine import edition, replay

SCENARIO_DIR = Path(__file__).parent / "scenarios"
SCENARIOS = sorted(SCENARIO_DIR.glob("*/*.json"))


def mismatches(want: Any, got: Any, path: str = "state") -> list[str]:
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{path}: expected an object, got {got!r}"]
        out: list[str] = []
        for key, value in want.items():
            if key not in got:
                out.append(f"{path}.{key}: missing")
            else:
                out += mismatches(value, got[key], f"{path}.{key}")
        return out
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f"{path}: expected {len(want)} items, got {got!r}"]
        return [m for i, (w, g) in enumerate(zip(want, got, strict=True)) for m in mismatches(w, g, f"{path}[{i}]")]
    if (
        isinstance(want, (int, float))
        and not isinstance(want, bool)
        and isinstance(got, (int, float))
        and not isinstance(got, bool)
    ):
        return [] if abs(want - got) <= 1e-6 else [f"{path}: expected {want!r}, got {got!r}"]
    return [] if want == got else [f"{path}: expected {want!r}, got {got!r}"]


def problems_of(doc: dict[str, Any]) -> list[str]:
    """What the replay of a scenario gets wrong, against its ``expect``."""
    expect = doc["expect"]
    out = replay(doc, each=True)
    problems: list[str] = []
    for result in out["results"]:
        code = expect["rejected"].get(result["id"])
        if code is None and not result["accepted"]:
            problems.append(f"{result['id']}: refused {result['error']}")
        elif code is not None and (result["accepted"] or result["error"]["code"] != code):
            problems.append(f"{result['id']}: expected refusal {code}, got {result.get('error') or 'accepted'}")
        if result["id"] in expect["after"]:
            problems += [
                f"after {result['id']}: {m}" for m in mismatches(expect["after"][result["id"]], result["state"])
            ]
    ids = {r["id"] for r in out["results"]}
    problems += [f"expectation for unknown event {i}" for i in {*expect["rejected"], *expect["after"]} - ids]
    problems += mismatches(expect["state"], out["state"])
    return problems


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["match"].get("rules", "USPA-2026") == path.parent.name, "a scenario's edition is its folder's"
    problems = problems_of(doc)
    assert not problems, f"{doc['scenario']['title']}\n{doc['scenario']['cites']}\n" + "\n".join(problems)


def test_every_scenario_cites_a_rule_paragraph() -> None:
    for path in SCENARIOS:
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["scenario"]["cites"].startswith("Rule "), path.name
        assert path.stem.startswith(("r14", "r21", "r22")), path.name


def test_every_scenario_folder_is_a_known_edition_and_uspa_2026_has_them_all() -> None:
    folders = sorted(p.name for p in SCENARIO_DIR.iterdir() if p.is_dir())
    assert folders == ["TEST-SHORT", "USPA-2026"]
    for name in folders:
        assert edition(name).name == name
    assert len(list((SCENARIO_DIR / "USPA-2026").glob("*.json"))) >= 68


@pytest.mark.parametrize("path", sorted((SCENARIO_DIR / "TEST-SHORT").glob("*.json")), ids=lambda p: p.stem)
def test_a_test_edition_scenario_differs_from_its_uspa_2026_original_only_in_the_edition_s_numbers(path: Path) -> None:
    """The same log under USPA-2026 does not give the TEST-SHORT results (the numbers come from the
    edition), and the USPA-2026 original the scenario was made from still holds there."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert problems_of({**doc, "match": {**doc["match"], "rules": "USPA-2026"}}), "the edition's numbers change nothing"
    original = json.loads((SCENARIO_DIR / "USPA-2026" / path.name).read_text(encoding="utf-8"))
    assert [e["type"] for e in original["events"]] == [e["type"] for e in doc["events"]]
    assert original["expect"]["rejected"] == doc["expect"]["rejected"]
