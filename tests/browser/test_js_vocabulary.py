"""The codes and words the JavaScript knows are the engine's: no side has one the other lacks.

The pages' modules are loaded as they are (ES modules in Chromium, served from static/js by a
routed fake origin: no app server needed) and their exports compared with the engine
(``officiating.engine``) and the JSON Schemas of the contract (``officiating/schemas``):

- the event types the officials' screens label, and the ones they can log (every type but the
  holds, which the screens make themselves); the stoppages whose first key holds the clock;
- whistle reasons, penalties, deflections, restart violations, cards; statuses; restart kinds;
- the timers the screens label: the engine's stoppage timers, the interval, and the restart
  timers the screens keep (each with its length in ``state.limits``);
- every choice a command offers against the enum of the field it fills, and every field a
  command writes against the fields of its event type;
- the rule-edition numbers the scripts read (``state.limits``);
- the refusal codes the pages act on (the server's), and the pages' own (none a server code).
"""

from __future__ import annotations

import ast
import mimetypes
import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from officiating.engine import events as engine_events
from officiating.schemas import load_schema
from polo.testing import BASE_DIR

# What Chromium draws from the demo's data: the same on either backend (CI runs it once, conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.backend_independent]

STATIC = BASE_DIR / "static"
ORIGIN = "http://vocabulary.test"

# The restart timers the screens keep themselves (officials/timers.js), each as long as its limit.
LOCAL_TIMERS = {
    "knock_in": "knock_in_seconds",
    "foul_shot": "foul_shot_seconds",
    "count": "count_seconds",
    "to_play": "to_play_seconds",
    "goal_return": "goal_return_seconds",
}
# The entries in progress: the screens log them themselves, nobody types one.
HOLDS = {"hold", "release"}

READ = """async () => {
  const words = await import('/static/js/officials/words.js');
  const commands = await import('/static/js/officials/commands.js');
  const codes = await import('/static/js/codes.js');
  const codesOf = (rows) => rows.map((row) => row[0]);
  const steps = {}, built = {};
  for (const [type, command] of Object.entries(commands.COMMANDS)) {
    const answers = {};
    steps[type] = command.steps.map((step) => {
      for (const flag of step.flags || []) answers[flag.field] = flag.values ? flag.values[0] : true;
      if (step.kind !== 'flags') answers[step.field] = step.options ? step.options[0][0] : 1;
      return {field: step.field, kind: step.kind, options: step.options ? codesOf(step.options) : null,
              flags: (step.flags || []).map((f) => ({field: f.field, values: f.values || null}))};
    });
    built[type] = Object.keys(commands.buildEvent(type, answers));
  }
  return {
    eventLabels: Object.keys(words.EVENT_LABELS), commands: Object.keys(commands.COMMANDS),
    stoppages: [...words.STOPPAGES], holdKinds: Object.keys(words.HOLD_KINDS),
    reasons: codesOf(words.WHISTLE_REASONS), penalties: codesOf(words.PENALTIES),
    penaltyNames: Object.keys(words.PENALTY_NAMES), deflections: codesOf(words.DEFLECTIONS),
    violations: codesOf(words.VIOLATIONS), cards: codesOf(words.CARDS), timers: [...words.TIMER_KINDS],
    statuses: Object.keys(words.STATUS_LABELS), restartKinds: Object.keys(words.RESTART_KINDS),
    codes: Object.values(codes.CODES), pageCodes: Object.values(codes.PAGE_CODES), steps, built,
  };
}"""


@pytest.fixture(scope="module")
def js(browser):
    """What the modules export, read in Chromium."""
    context = browser.new_context()
    page = context.new_page()

    def serve(route):
        path = urlparse(route.request.url).path
        if path == "/":
            route.fulfill(status=200, content_type="text/html", body="<!doctype html><title>modules</title>")
            return
        file = (STATIC / path.removeprefix("/static/")).resolve()
        if not path.startswith("/static/") or STATIC.resolve() not in file.parents or not file.is_file():
            route.fulfill(status=404, body="")
            return
        kind = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file.name)[0] or "text/plain"
        route.fulfill(status=200, content_type=kind, body=file.read_bytes())

    page.route(f"{ORIGIN}/**", serve)
    try:
        page.goto(f"{ORIGIN}/")
        yield page.evaluate(READ)
    finally:
        context.close()


def _defs() -> dict:
    return load_schema("match-log")["$defs"]


def _enum(schema: dict) -> set | None:
    """The values a field of the schema allows, following one $ref; None when it is not an enum."""
    if "$ref" in schema:
        schema = _defs()[schema["$ref"].rsplit("/", 1)[1]]
    return set(schema["enum"]) if "enum" in schema else None


def _calls(paths, names: set[str]) -> set[str]:
    """The first argument of every call to one of ``names`` with a string literal there."""
    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                continue
            func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if func in names and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return found


def _engine_files() -> list[Path]:
    return sorted((BASE_DIR / "officiating" / "engine").glob("*.py"))


def _server_codes() -> set[str]:
    """Every refusal code the engine and the app give (officiating/engine, matches/ but its tests)."""
    app = [p for p in (BASE_DIR / "matches").rglob("*.py") if not {"tests", "migrations"} & set(p.parts)]
    return _calls(_engine_files() + app, {"refuse", "Rejection", "ServiceRejection"})


def test_the_event_types_are_the_contract_s(js):
    types = set(_defs()["event_types"]["enum"])
    assert types == set(engine_events.EVENT_TYPES)
    assert set(js["eventLabels"]) == types
    assert set(js["commands"]) == types - HOLDS  # the holds are the screens' own, never typed
    assert (
        set(js["stoppages"])
        == set(engine_events.STOPPAGES)
        == set(js["holdKinds"])
        == _enum(_defs()["hold"]["properties"]["kind"])
    )


def test_the_word_lists_are_the_engine_s(js):
    defs = _defs()
    assert js["reasons"] == list(engine_events.REASONS)
    assert set(js["reasons"]) == _enum(defs["whistle"]["properties"]["reason"])
    assert (
        set(js["penalties"])
        == set(js["penaltyNames"])
        == set(engine_events.PENALTIES)
        == _enum(defs["foul"]["properties"]["penalty"])
    )
    assert (
        set(js["deflections"])
        == set(engine_events.DEFLECTIONS)
        == _enum(defs["ball_out"]["properties"]["deflected_off"])
    )
    assert (
        set(js["violations"]) == set(engine_events.VIOLATIONS) == _enum(defs["restart_violation"]["properties"]["kind"])
    )
    assert set(js["cards"]) == set(engine_events.CARDS) == _enum(defs["card"]["properties"]["color"])


def test_the_statuses_and_restart_kinds_are_the_state_s(js):
    state = load_schema("state")
    assert set(js["statuses"]) == set(state["properties"]["status"]["enum"])
    assert set(js["restartKinds"]) == set(state["$defs"]["restart"]["properties"]["kind"]["enum"])


def test_the_timers_are_the_engine_s_the_interval_and_the_restart_timers(js):
    engine = _calls(_engine_files(), {"Timer"})
    assert engine, "no Timer(kind, …) found in officiating/engine"
    limits = set(load_schema("state")["properties"]["limits"]["required"])
    assert set(LOCAL_TIMERS.values()) <= limits
    assert set(js["timers"]) == engine | {"interval", "halftime"} | set(LOCAL_TIMERS)


def test_every_choice_and_every_field_of_a_command_is_its_event_type_s(js):
    defs = _defs()
    common = set(defs["event"]["properties"])
    for event_type, steps in js["steps"].items():
        fields = defs[event_type].get("properties", {})
        for step in steps:
            if step["options"] is not None and step["field"] in fields and _enum(fields[step["field"]]) is not None:
                assert set(step["options"]) == _enum(fields[step["field"]]), (event_type, step["field"])
            for flag in step["flags"]:
                assert flag["field"] in fields, (event_type, flag["field"])
                if flag["values"] is not None:
                    assert set(flag["values"]) == _enum(fields[flag["field"]]), (event_type, flag["field"])
        extra = set(js["built"][event_type]) - set(fields) - common
        assert not extra, (event_type, extra)  # a field the contract does not have


def test_the_rule_numbers_the_scripts_read_are_in_the_state():
    limits = set(load_schema("state")["properties"]["limits"]["required"])
    read = set()
    for path in (STATIC / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        read |= set(re.findall(r"\blimits\.([a-z0-9_]+)", text))
        read |= set(re.findall(r"""["']([a-z0-9_]+_(?:yards|seconds))["']""", text))  # a key by name (field.js)
    assert read, "no script reads state.limits"
    assert read <= limits, read - limits


def test_the_refusal_codes_the_pages_act_on_are_the_server_s(js):
    server = _server_codes()
    assert {"stale_sequence", "void_would_invalidate", "invalid_event"} <= server  # the scan finds them
    assert set(js["codes"]) <= server, set(js["codes"]) - server
    assert not set(js["pageCodes"]) & server, set(js["pageCodes"]) & server  # the pages' own are not the server's
