"""Every worked example of Rules 14, 21 and 22 (and the rule sentences around them), replayed.

Each file in ``scenarios/`` is a match log (it can be given to ``manage.py replay`` as it is) with
two more keys the replay ignores: ``scenario`` (a title and the paragraph it cites, quoted) and
``expect``:

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

from officiating.engine import replay

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


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
        return [m for i, (w, g) in enumerate(zip(want, got)) for m in mismatches(w, g, f"{path}[{i}]")]
    if isinstance(want, (int, float)) and not isinstance(want, bool) and isinstance(got, (int, float)) \
            and not isinstance(got, bool):
        return [] if abs(want - got) <= 1e-6 else [f"{path}: expected {want!r}, got {got!r}"]
    return [] if want == got else [f"{path}: expected {want!r}, got {got!r}"]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    expect = doc["expect"]
    cites = doc["scenario"]["cites"]
    out = replay(doc, each=True)
    problems: list[str] = []
    for result in out["results"]:
        code = expect["rejected"].get(result["id"])
        if code is None and not result["accepted"]:
            problems.append(f"{result['id']}: refused {result['error']}")
        elif code is not None and (result["accepted"] or result["error"]["code"] != code):
            problems.append(f"{result['id']}: expected refusal {code}, got {result.get('error') or 'accepted'}")
        if result["id"] in expect["after"]:
            problems += [f"after {result['id']}: {m}" for m in mismatches(expect["after"][result["id"]], result["state"])]
    ids = {r["id"] for r in out["results"]}
    problems += [f"expectation for unknown event {i}" for i in {*expect["rejected"], *expect["after"]} - ids]
    problems += mismatches(expect["state"], out["state"])
    assert not problems, f"{doc['scenario']['title']}\n{cites}\n" + "\n".join(problems)


def test_every_scenario_cites_a_rule_paragraph() -> None:
    for path in SCENARIOS:
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["scenario"]["cites"].startswith("Rule "), path.name
        assert path.stem.startswith(("r14", "r21", "r22")), path.name
