"""The JSON Schemas of the match-log contract (officiating/schemas).

Valid examples pass; broken ones fail with a path that says where; every event type, whistle
reason and deflection of the contract (docs/MATCH-LOG.md) is in the schema.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from officiating.schemas import SchemaError, load_schema, log_errors, state_errors, validate_log, validate_state

# The contract's names, copied from docs/MATCH-LOG.md ("Events"), the repository's own copy of the
# contract; a test below reads them from it too.
CONTRACT_EVENT_TYPES = {
    "play",
    "goal",
    "foul",
    "ball_out",
    "whistle",
    "restart_violation",
    "horn",
    "clock_set",
    "card",
    "mount",
    "substitution",
    "suspend",
    "resume",
    "abandon",
    "overtime",
    "shootout_start",
    "shootout_attempt",
    "forfeit",
    "void",
}
# Added by the app (officiating/engine/CONTRACT-NOTES.md §10): an entry in progress holds the clock.
ADDED_EVENT_TYPES = {"hold", "release"}
CONTRACT_WHISTLE_REASONS = {
    "injured_player",
    "player_fall",
    "injured_horse",
    "horse_fall",
    "horse_timeout",
    "courtesy_change",
    "broken_tack",
    "lost_helmet",
    "lodged_ball",
    "damaged_ball",
    "inadvertent",
    "rule_check",
    "umpire_down",
    "other",
}
CONTRACT_DEFLECTIONS = {
    "none",
    "own_mount",
    "teammate",
    "goal_post",
    "boards",
    "opponent",
    "opponent_mallet",
    "umpire",
    "unknown",
}
CONTRACT_STATE_KEYS = {
    "status",
    "period",
    "clock",
    "score",
    "defends",
    "restart",
    "timers",
    "excused_horses",
    "unavailable_players",
    "shootout",
    "winner",
    "result",
    "last_seq",
}
CONTRACT_RESTART_KEYS = {
    "kind",
    "team",
    "penalty",
    "spot",
    "toward",
    "count_seconds",
    "hit_within_seconds",
    "tap_allowed",
    "min_clock_remaining",
    "next_period",
    "rule",
}


MATCH_LOG = Path(__file__).resolve().parents[2] / "docs" / "MATCH-LOG.md"


def _players(prefix: str) -> list[dict]:
    return [{"number": n, "name": f"{prefix} {n}", "handicap": 2} for n in range(1, 5)]


def valid_log() -> dict:
    """One example of every event type with every field it may carry."""
    pos = {"x": 150, "y": 80}
    events = [
        {"type": "play", "id": "e1"},
        {"type": "goal", "id": "e2", "team": "home", "number": 3, "clock": 30.5},
        {"type": "goal", "id": "e2b", "team": "away", "number": 1, "own_goal": True, "from_penalty": True},
        {
            "type": "foul",
            "id": "e3",
            "against": "away",
            "number": 2,
            "penalty": "2",
            "spot": pos,
            "from_spot": True,
            "card": "yellow",
            "advantage": False,
            "goal_scored": False,
            "scored_by": "home",
            "expected_seq": 3,
        },
        {"type": "foul", "id": "e3b", "against": "home", "number": 1, "penalty": "5a", "spot": pos},
        {"type": "foul", "id": "e3c", "against": "home", "number": 1, "penalty": "1", "goal_scored": True},
        {
            "type": "ball_out",
            "id": "e4",
            "line": "end",
            "at": {"x": 0, "y": 40},
            "last_hit_by": "away",
            "deflected_off": "none",
        },
        {
            "type": "whistle",
            "id": "e5",
            "reason": "injured_player",
            "ball": pos,
            "possession": "home",
            "fair_play": True,
            "team": "home",
            "number": 2,
            "horse": "Lucera",
            "unconscious": False,
            "visibly_injured": False,
            "contact": True,
            "same_injury": False,
            "first_hit": False,
        },
        {"type": "restart_violation", "id": "e6", "kind": "late", "team": "away"},
        {"type": "horn", "id": "e7", "kind": "seven"},
        {"type": "horn", "id": "e7b", "kind": "final", "ball": pos, "clock": 450},
        {"type": "clock_set", "id": "e8", "clock": 200, "reason": "clock did not stop"},
        {"type": "card", "id": "e9", "team": "away", "number": 4, "color": "red"},
        {"type": "mount", "id": "e10", "team": "away", "number": 3, "horse": "Lucera"},
        {"type": "substitution", "id": "e11", "team": "home", "out": 2, "player": {"name": "Sub", "handicap": 1}},
        {"type": "suspend", "id": "e12", "reason": "darkness"},
        {"type": "resume", "id": "e13", "reason": "next morning"},
        {"type": "abandon", "id": "e14", "reason": "no effect on the outcome"},
        {"type": "overtime", "id": "e15"},
        {
            "type": "shootout_start",
            "id": "e16",
            "format": "team",
            "first": "away",
            "order": {"home": [1, 2, 3, 4], "away": [4, 3, 2, 1]},
        },
        {"type": "shootout_attempt", "id": "e17", "team": "away", "number": 4, "scored": True},
        {"type": "forfeit", "id": "e18", "team": "away", "reason": "excused horse returned"},
        {"type": "void", "id": "e19", "target": "e2", "reason": "wrong team"},
    ]
    return {
        "format": "polo-match-log/1",
        "match": {
            "rules": "USPA-2026",
            "periods": 4,
            "period_seconds": 420,
            "extra_seconds": 30,
            "interval_seconds": 180,
            "halftime_seconds": 300,
            "upper_handicap_limit": 8,
            "courtesy_change": False,
            "tack_allowance": False,
            "field": {"length": 300, "width": 160, "boarded": False},
            "home_defends": "north",
            "home": {"name": "Blue", "color": "#1d4ed8", "handicap_goals": 0, "players": _players("Blue")},
            "away": {"name": "Red", "color": "#dc2626", "handicap_goals": 1.5, "players": _players("Red")},
        },
        "events": events,
    }


def valid_state() -> dict:
    return {
        "status": "stopped",
        "period": {"number": 4, "kind": "regulation", "final_regulation": True},
        "clock": {"elapsed": 431.0, "running": False, "phase": "extra", "anchor": None},
        "score": {"home": 5, "away": 4.5},
        "defends": {"home": "south", "away": "north"},
        "restart": {
            "kind": "free_hit",
            "team": "home",
            "penalty": None,
            "spot": {"x": 60.0, "y": 10.0},
            "toward": None,
            "count_seconds": 8,
            "hit_within_seconds": 5,
            "tap_allowed": False,
            "min_clock_remaining": 5,
            "next_period": False,
            "rule": "22.f",
            "message": "…",
        },
        "timers": [{"kind": "injured_player", "seconds": 600, "team": "home", "number": 2, "started_at": None}],
        "excused_horses": [{"team": "away", "number": 3, "horse": "Lucera"}],
        "unavailable_players": [{"team": "home", "number": 2, "reason": "unconscious"}],
        "shootout": {
            "format": "single",
            "round": 2,
            "line": 60,
            "next": {"team": "away", "number": 3},
            "points": {"home": 1, "away": 1},
        },
        "winner": None,
        "result": None,
        "last_seq": 57,
        "engine_extra": {"anything": True},
    }


# -- the schemas themselves ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["match-log", "state", "match-log.schema.json"])
def test_the_schemas_are_valid_draft_2020_12(name):
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_an_unknown_schema_name_is_an_error():
    with pytest.raises(KeyError):
        load_schema("nope")


def test_every_event_type_of_the_contract_has_a_schema():
    schema = load_schema("match-log")
    defs = schema["$defs"]
    assert set(defs["event_types"]["enum"]) == CONTRACT_EVENT_TYPES | ADDED_EVENT_TYPES
    branches = {b["if"]["properties"]["type"]["const"]: b["then"]["$ref"] for b in defs["event"]["allOf"]}
    assert set(branches) == CONTRACT_EVENT_TYPES | ADDED_EVENT_TYPES
    for event_type, ref in branches.items():
        assert ref == f"#/$defs/{event_type}"
        assert event_type in defs


def test_the_contract_names_are_those_of_docs_match_log():
    """The lists above are docs/MATCH-LOG.md's: its events table names the contract's event types,
    and marks the app's own (hold, release) "(added)"; its deflections and whistle reasons."""
    text = MATCH_LOG.read_text(encoding="utf-8")
    events_table = text.split("## Events", 1)[1].split("`deflected_off` for `ball_out`", 1)[0]
    listed, added = set(), set()
    for names, mark in re.findall(r"^\| (`[^|]+`)([^|]*)\|", events_table, flags=re.MULTILINE):
        types = set(re.findall(r"`([a-z_]+)`", names))
        listed |= types
        if "(added)" in mark:
            added |= types
    assert listed - added == CONTRACT_EVENT_TYPES
    assert added == ADDED_EVENT_TYPES
    deflections = text.split("`deflected_off` for `ball_out`:", 1)[1].split("For `line", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", deflections)) == CONTRACT_DEFLECTIONS
    reasons = text.split("`whistle.reason`:", 1)[1].split("## ", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", reasons)) == CONTRACT_WHISTLE_REASONS


def test_the_enumerations_are_the_contract_ones():
    defs = load_schema("match-log")["$defs"]
    assert set(defs["whistle"]["properties"]["reason"]["enum"]) == CONTRACT_WHISTLE_REASONS
    assert set(defs["ball_out"]["properties"]["deflected_off"]["enum"]) == CONTRACT_DEFLECTIONS
    assert defs["foul"]["properties"]["penalty"]["enum"] == ["1", "2", "3", "4", "5a", "5b", "6"]


def test_the_state_schema_requires_every_contract_key():
    schema = load_schema("state")
    assert set(schema["required"]) == CONTRACT_STATE_KEYS
    assert set(schema["$defs"]["restart"]["required"]) == CONTRACT_RESTART_KEYS


# -- valid documents pass --------------------------------------------------------------------------


def test_a_log_with_every_event_type_is_valid():
    data = valid_log()
    assert {e["type"] for e in data["events"]} == CONTRACT_EVENT_TYPES
    validate_log(data)
    assert log_errors(data) == []


def test_a_minimal_log_needs_only_the_teams():
    validate_log({"match": {"home": {}, "away": {}}, "events": []})  # names and rosters default
    validate_log(
        {
            "match": {
                "home": {"name": "Blue", "players": _players("B")},
                "away": {"name": "Red", "players": _players("R")},
            },
            "events": [],
        }
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_realistic_generated_match_is_a_valid_log(seed):
    from bench.matchgen import realistic_match

    validate_log(realistic_match(seed))


def test_notes_and_the_servers_keys_are_allowed_and_the_config_may_carry_its_own():
    data = valid_log()
    data["events"][0]["note"] = "scorer's remark"
    data["events"][0]["private_note"] = "for the officials"
    data["events"][1]["by"] = {"role": "scorer", "name": "Sam"}
    data["events"][1]["server_time"] = 1793000000.5
    data["match"]["venue"] = "Field 3"
    validate_log(data)


@pytest.mark.parametrize(
    "what,change,path",
    [
        ("a key no event has", lambda d: d["events"][1].update(comment="x"), "$.events[1]"),
        ("a key of another type", lambda d: d["events"][1].update(reason="other"), "$.events[1]"),
        ("a clock on play", lambda d: d["events"][0].update(clock=0), "$.events[0]"),
        ("a hold on a card", lambda d: d["events"][1].update(type="card", color="red", hold="h"), "$.events[1]"),
        ("a key inside a position", lambda d: d["events"][3]["spot"].update(z=1), "$.events[3].spot"),
        ("an id longer than 64", lambda d: d["events"][1].update(id="x" * 65), "$.events[1].id"),
    ],
)
def test_an_event_carries_exactly_the_keys_of_its_type(what, change, path):
    """Issue 11: unknown keys were stored and published; the engine refuses them (strict.py), and
    so does the schema."""
    data = valid_log()
    change(data)
    with pytest.raises(SchemaError) as caught:
        validate_log(data)
    assert path in [p for p, _m in caught.value.errors], (what, caught.value.errors)


def test_the_schema_and_the_engine_allow_the_same_keys():
    from officiating.engine.strict import ALLOWED, NESTED, NO_CLOCK

    defs = load_schema("match-log")["$defs"]
    common = set(defs["event"]["properties"])
    assert set(ALLOWED) == set(defs["event_types"]["enum"])
    for etype, allowed in ALLOWED.items():
        assert common | set(defs[etype].get("properties", {})) == set(allowed), etype
    assert NO_CLOCK == {"play", "void", "release"}  # notes §8 and §10: their time is not their own
    assert NESTED == {
        "at": {"x", "y"},
        "spot": {"x", "y"},
        "ball": {"x", "y"},
        "player": {"name", "handicap"},
        "order": {"home", "away"},
        "by": {"role", "name"},
    }


def test_the_engine_reads_every_type_and_value_the_schema_lists():
    """One source (issue 37): the engine's types and the values of its fields are the schema's,
    and each type has its reader."""
    from officiating.engine import events

    defs = load_schema("match-log")["$defs"]
    assert events.EVENT_TYPES == set(defs["event_types"]["enum"]) == events.READERS.keys()
    assert events.PENALTIES == tuple(defs["foul"]["properties"]["penalty"]["enum"])
    assert events.REASONS == tuple(defs["whistle"]["properties"]["reason"]["enum"])
    assert events.STOPPAGES == ("goal", "foul", "ball_out", "whistle", "restart_violation")
    assert events.TEAMS == ("home", "away")


@pytest.mark.parametrize(
    "restart",
    [
        None,
        {
            "kind": "throw_in",
            "team": None,
            "penalty": None,
            "spot": {"x": 150, "y": 80},
            "toward": None,
            "count_seconds": None,
            "hit_within_seconds": None,
            "tap_allowed": None,
            "min_clock_remaining": None,
            "next_period": True,
            "rule": "22.e(1)",
        },
        {
            "kind": "penalty",
            "team": "away",
            "penalty": "6",
            "spot": {"x": 240, "y": 31},
            "toward": None,
            "count_seconds": None,
            "hit_within_seconds": 20,
            "tap_allowed": None,
            "min_clock_remaining": 5,
            "next_period": False,
            "rule": "21.a",
        },
    ],
)
def test_a_state_with_every_contract_key_is_valid(restart):
    state = valid_state()
    state["restart"] = restart
    validate_state(state)
    assert state_errors(state) == []


def test_a_scheduled_state_may_have_no_period_shootout_or_sequence_yet():
    state = valid_state()
    state.update(
        status="scheduled",
        period=None,
        restart=None,
        shootout=None,
        last_seq=None,
        timers=[],
        excused_horses=[],
        unavailable_players=[],
    )
    validate_state(state)


# -- broken documents fail, and say where ----------------------------------------------------------


def _event_index(data: dict, event_id: str) -> int:
    return next(i for i, e in enumerate(data["events"]) if e["id"] == event_id)


BROKEN_LOGS = [
    # (what is broken, mutation, the JSON path that the error must name)
    ("unknown event type", lambda d: d["events"][0].update(type="tea_break"), "$.events[0].type"),
    ("event without id", lambda d: d["events"][0].pop("id"), "$.events[0]"),
    ("goal without team", lambda d: d["events"][1].pop("team"), "$.events[1]"),
    ("goal credited to a colour", lambda d: d["events"][1].update(team="blue"), "$.events[1].team"),
    ("player number 5", lambda d: d["events"][1].update(number=5), "$.events[1].number"),
    ("penalty 7", lambda d: d["events"][3].update(penalty="7"), "$.events[3].penalty"),
    ("penalty as a number", lambda d: d["events"][3].update(penalty=2), "$.events[3].penalty"),
    ("5a without spot", lambda d: d["events"][4].pop("spot"), "$.events[4]"),
    ("foul without penalty", lambda d: d["events"][4].pop("penalty"), "$.events[4]"),
    ("foul against nobody", lambda d: d["events"][4].pop("against"), "$.events[4]"),
    ("from_spot without spot", lambda d: d["events"][3].pop("spot"), "$.events[3]"),
    ("card colour green", lambda d: d["events"][3].update(card="green"), "$.events[3].card"),
    ("ball out over the roof", lambda d: d["events"][6].update(line="roof"), "$.events[6].line"),
    ("position without y", lambda d: d["events"][6]["at"].pop("y"), "$.events[6].at"),
    ("negative position", lambda d: d["events"][6]["at"].update(x=-1), "$.events[6].at.x"),
    ("position as text", lambda d: d["events"][6]["at"].update(x="0"), "$.events[6].at.x"),
    ("unknown deflection", lambda d: d["events"][6].update(deflected_off="seagull"), "$.events[6].deflected_off"),
    ("unknown whistle reason", lambda d: d["events"][7].update(reason="rain"), "$.events[7].reason"),
    ("fair play without the ball", lambda d: d["events"][7].pop("ball"), "$.events[7]"),
    ("fair play without possession", lambda d: d["events"][7].pop("possession"), "$.events[7]"),
    ("whistle without reason", lambda d: d["events"][7].pop("reason"), "$.events[7]"),
    ("fair_play as text", lambda d: d["events"][7].update(fair_play="yes"), "$.events[7].fair_play"),
    ("unknown restart violation", lambda d: d["events"][8].update(kind="rude"), "$.events[8].kind"),
    ("horn of a third kind", lambda d: d["events"][9].update(kind="double"), "$.events[9].kind"),
    ("negative clock", lambda d: d["events"][1].update(clock=-3), "$.events[1].clock"),
    ("clock_set without clock", lambda d: d["events"][11].pop("clock"), "$.events[11]"),
    ("expected_seq as text", lambda d: d["events"][0].update(expected_seq="3"), "$.events[0].expected_seq"),
    ("shootout of a third format", lambda d: d["events"][19].update(format="golden"), "$.events[19].format"),
    ("shootout order without away", lambda d: d["events"][19]["order"].pop("away"), "$.events[19].order"),
    ("attempt without scored", lambda d: d["events"][20].pop("scored"), "$.events[20]"),
    ("void without target", lambda d: d["events"][22].pop("target"), "$.events[22]"),
    ("substitution without player", lambda d: d["events"][14].pop("player"), "$.events[14]"),
    ("mount without horse", lambda d: d["events"][13].pop("horse"), "$.events[13]"),
    ("events not a list", lambda d: d.update(events={}), "$.events"),
    ("no match", lambda d: d.pop("match"), "$"),
    ("wrong format", lambda d: d.update(format="polo-match-log/2"), "$.format"),
    ("home defends east", lambda d: d["match"].update(home_defends="east"), "$.match.home_defends"),
    ("no away team", lambda d: d["match"].pop("away"), "$.match"),
    (
        "handicap goals of a third",
        lambda d: d["match"]["away"].update(handicap_goals=1.3),
        "$.match.away.handicap_goals",
    ),
    (
        "five players",
        lambda d: d["match"]["home"]["players"].append({"number": 1, "name": "X"}),
        "$.match.home.players",
    ),
    ("zero-length field", lambda d: d["match"]["field"].update(length=0), "$.match.field.length"),
    (
        "a field too short for two 60-yard lines",
        lambda d: d["match"]["field"].update(length=120),
        "$.match.field.length",
    ),
    ("periods as text", lambda d: d["match"].update(periods="4"), "$.match.periods"),
    ("boarded as text", lambda d: d["match"]["field"].update(boarded="yes"), "$.match.field.boarded"),
]


@pytest.mark.parametrize("what, mutate, path", BROKEN_LOGS, ids=[row[0] for row in BROKEN_LOGS])
def test_a_broken_log_fails_and_names_where(what, mutate, path):
    data = valid_log()
    mutate(data)
    with pytest.raises(SchemaError) as caught:
        validate_log(data)
    paths = [p for p, _ in caught.value.errors]
    assert path in paths, (what, caught.value.errors)
    assert caught.value.path in paths
    assert str(caught.value).startswith("$")


def test_the_event_indices_in_the_broken_table_point_at_the_intended_events():
    data = valid_log()
    assert data["events"][3]["id"] == "e3" and data["events"][4]["id"] == "e3b"
    assert data["events"][6]["type"] == "ball_out" and data["events"][7]["type"] == "whistle"
    assert data["events"][11]["type"] == "clock_set" and data["events"][13]["type"] == "mount"
    assert data["events"][14]["type"] == "substitution" and data["events"][19]["type"] == "shootout_start"
    assert data["events"][20]["type"] == "shootout_attempt" and data["events"][22]["type"] == "void"


def test_optional_fields_the_engine_does_without_may_be_left_out():
    data = valid_log()
    data["events"][5].pop("number")  # a foul without the fouling player's number
    data["events"][6].pop("last_hit_by")  # nobody saw who hit it out
    data["events"][7].pop("fair_play")
    data["events"][7].pop("ball")  # a whistle without the ball's position
    validate_log(data)


def test_the_error_for_an_event_names_the_missing_field():
    data = valid_log()
    data["events"][6].pop("line")
    with pytest.raises(SchemaError) as caught:
        validate_log(data)
    assert ("$.events[6]", "'line' is a required property") in caught.value.errors


def test_log_errors_lists_every_problem():
    data = valid_log()
    data["events"][1]["team"] = "blue"
    data["events"][6]["at"]["x"] = -1
    paths = {p for p, _ in log_errors(data)}
    assert {"$.events[1].team", "$.events[6].at.x"} <= paths


BROKEN_STATES = [
    ("unknown status", lambda s: s.update(status="paused"), "$.status"),
    ("no restart key", lambda s: s.pop("restart"), "$"),
    ("no last_seq key", lambda s: s.pop("last_seq"), "$"),
    ("restart without rule", lambda s: s["restart"].pop("rule"), "$.restart"),
    ("restart of a fifth kind", lambda s: s["restart"].update(kind="bully"), "$.restart"),
    ("spot without x", lambda s: s["restart"]["spot"].pop("x"), "$.restart"),
    ("free hit for nobody", lambda s: s["restart"].update(team=None), "$.restart"),
    ("toward north", lambda s: s["restart"].update(toward="north"), "$.restart"),
    ("score of a third", lambda s: s["score"].update(home=1.25), "$.score.home"),
    ("clock phase unknown", lambda s: s["clock"].update(phase="golden"), "$.clock.phase"),
    ("defends east", lambda s: s["defends"].update(home="east"), "$.defends.home"),
    ("winner a colour", lambda s: s.update(winner="blue"), "$.winner"),
    ("result unknown", lambda s: s.update(result="coin"), "$.result"),
    ("shootout line 50", lambda s: s["shootout"].update(line=50), "$.shootout"),
    ("timer without seconds", lambda s: s["timers"][0].pop("seconds"), "$.timers[0]"),
    ("period kind unknown", lambda s: s["period"].update(kind="bonus"), "$.period.kind"),
]


@pytest.mark.parametrize("what, mutate, path", BROKEN_STATES, ids=[row[0] for row in BROKEN_STATES])
def test_a_broken_state_fails_and_names_where(what, mutate, path):
    state = valid_state()
    mutate(state)
    with pytest.raises(SchemaError) as caught:
        validate_state(state)
    paths = [p for p, _ in caught.value.errors]
    assert path in paths, (what, caught.value.errors)


def test_validation_does_not_change_the_document():
    data = valid_log()
    before = copy.deepcopy(data)
    validate_log(data)
    assert data == before
