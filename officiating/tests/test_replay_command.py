"""``python manage.py replay FILE [--each] [--lang es]`` (MATCH-LOG.md, last section).

One JSON object on stdout; exit 0 when the file was read (rejected events are results), 2 with a
one-line message on stderr when it is not a valid match log. No database: these tests have no
``django_db`` mark, so any query would fail them.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = (
    ROOT
    / "officiating"
    / "tests"
    / "scenarios"
    / "USPA-2026"
    / "r14b-example-goal-after-the-intended-horn-does-not-count.json"
)


def manage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "polo.settings_test", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "manage.py", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_it_prints_the_results_and_the_state():
    proc = manage(str(SCENARIO))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert [r["accepted"] for r in out["results"]] == [True, False, True, True]
    assert out["results"][1]["error"]["code"] == "goal_after_time"
    assert out["state"]["status"] == "in_play" and "state" not in out["results"][0]


def test_it_reads_standard_input_and_adds_each_state_and_speaks_spanish():
    proc = manage("-", "--each", "--lang", "es", stdin=SCENARIO.read_text(encoding="utf-8"))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert all("state" in r for r in out["results"])
    assert out["results"][1]["error"]["message"].startswith("Un gol marcado después")


@pytest.mark.parametrize(
    "content", ["not json", "[]", '{"match": {}}', '{"match": {"home": {}, "away": {}}, "events": 3}']
)
def test_it_exits_2_with_one_line_when_the_file_is_not_a_match_log(content):
    proc = manage("-", stdin=content)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "match log" in proc.stderr


def test_it_exits_2_with_one_line_for_a_rule_edition_it_does_not_know():
    log = json.loads(SCENARIO.read_text(encoding="utf-8"))
    log["match"]["rules"] = "USPA-1999"
    proc = manage("-", stdin=json.dumps(log))
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.strip().endswith(
        "not a valid match log: match.rules: unknown rule edition 'USPA-1999' (known: USPA-2026)"
    )


def test_it_exits_2_when_the_file_cannot_be_read(tmp_path):
    proc = manage(str(tmp_path / "missing.json"))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_it_runs_in_process_without_the_database():
    """pytest-django blocks the database for tests without the ``django_db`` mark."""
    from django.conf import settings

    if not settings.configured:
        pytest.skip("Django settings are not configured (run with pytest-django)")
    from django.core.management import call_command

    out = io.StringIO()
    call_command("replay", str(SCENARIO), stdout=out)
    assert json.loads(out.getvalue())["state"]["period"]["number"] == 2
