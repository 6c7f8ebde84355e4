"""Property tests of the rules engine over random event sequences (hypothesis).

A strategy writes plausible matches — plays, goals, balls out, fouls with every penalty, whistles
for every reason, horns, clock corrections, cards, horse changes, voids of earlier events, the odd
committee decision — mixed with garbage (unknown types, missing or bad fields, positions off the
field, repeated ids, stale sequence numbers). Whatever the sequence:

- the engine never raises;
- a rejected event changes nothing;
- replay is deterministic, and is exactly the fold of ``decide`` over the events;
- the score is the handicap goals plus the accepted, not voided, goals credited (counted here
  independently from the results: goals, and Penalty 1 goals for the fouled team);
- voiding an event (when the void is accepted) leaves the state that the log without that event
  gives;
- every state matches the state schema (officiating/schemas/state.schema.json).

Profiles: ``ci`` (the default: 150 examples, derandomized so CI is repeatable) and ``thorough``
(random, 2000 examples): ``POLO_HYPOTHESIS_PROFILE=thorough python -m pytest …``.
"""

from __future__ import annotations

import copy
import os
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from officiating.engine import MatchConfig, decide, fold as engine_fold, new_game, replay, to_state
from officiating.schemas import state_errors

settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = settings.get_profile(os.environ.get("POLO_HYPOTHESIS_PROFILE", "ci"))

LENGTH, WIDTH = 300, 160
TEAM_NAMES = ("home", "away")
TEAMS = st.sampled_from(TEAM_NAMES)
NUMBERS = st.integers(1, 4)
PENALTIES = ("1", "2", "3", "4", "5a", "5b", "6")
REASONS = (
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
)
DEFLECTIONS = (
    "none",
    "own_mount",
    "teammate",
    "goal_post",
    "boards",
    "opponent",
    "opponent_mallet",
    "umpire",
    "unknown",
)
HORSES = ("Lucera", "Pampa", "Chispa")  # few names, so that excused horses come back now and then


def other(team: str) -> str:
    return "away" if team == "home" else "home"


# -- strategies -----------------------------------------------------------------------------------


def coordinate(top: int) -> st.SearchStrategy[float]:
    return st.one_of(st.integers(0, top).map(float), st.floats(0, top, allow_nan=False, allow_infinity=False))


def position() -> st.SearchStrategy[dict[str, float]]:
    return st.fixed_dictionaries({"x": coordinate(LENGTH), "y": coordinate(WIDTH)})


@st.composite
def match_configs(draw) -> dict[str, Any]:
    def side(name: str) -> dict[str, Any]:
        return {
            "name": name,
            "handicap_goals": draw(st.sampled_from([0, 0, 0.5, 1, 2])),
            "players": [{"number": n, "name": f"{name} {n}", "handicap": 2} for n in range(1, 5)],
        }

    limit = draw(st.sampled_from([6, 8]))
    return {
        "rules": "USPA-2026",
        "periods": draw(st.sampled_from([1, 2, 4])),  # short matches reach the end, ties and overtime
        "field": {"length": LENGTH, "width": WIDTH, "boarded": draw(st.booleans())},
        "home_defends": draw(st.sampled_from(["north", "south"])),
        "upper_handicap_limit": limit,
        "courtesy_change": draw(st.booleans()),
        "tack_allowance": limit <= 6 and draw(st.booleans()),  # Rule 21.g: only up to 6 goals
        "home": side("Blue"),
        "away": side("Red"),
    }


class _Writer:
    """What the strategy remembers while writing a plausible sequence: a guess of the clock and of
    whether the ball is in play (the engine decides; the guess only makes acceptance likely)."""

    def __init__(self) -> None:
        self.clock = 0.0
        self.in_play = False
        self.period_over = False
        self.suspended = False
        self.ids: list[str] = []
        self.events: list[dict[str, Any]] = []

    def new_id(self) -> str:
        return f"00000000-0000-4000-8000-{len(self.events):012d}"


def _stoppage_clock(draw, w: _Writer) -> float:
    w.clock = round(w.clock + draw(st.sampled_from([0, 1, 3, 8, 15, 30, 60, 120, 200])), 1)
    if w.clock > 420:
        w.period_over = True
    return w.clock


@st.composite
def plausible_event(draw, w: _Writer) -> dict[str, Any]:
    """One event of a match, in the contract's shape."""
    if w.in_play:
        kinds = (
            ["goal"] * 3
            + ["ball_out"] * 4
            + ["foul"] * 4
            + ["whistle"] * 3
            + ["horn"] * 2
            + ["clock_set"]
            + ["void"]
            + ["play"]
        )
    else:
        kinds = (
            ["play"] * 12
            + ["restart_violation"] * 2
            + ["shootout_attempt"] * 4
            + ["overtime"] * 2
            + ["shootout_start"] * 2
            + ["card", "mount", "substitution", "void", "foul", "horn", "clock_set"]
        )
    if w.suspended and draw(st.booleans()):
        kinds = ["resume"] * 5 + ["abandon"]
    elif draw(st.integers(0, 40)) == 0:  # the committee, now and then
        kinds = ["suspend"] * 3 + ["abandon", "resume"]
    kind = draw(st.sampled_from(kinds))
    e: dict[str, Any] = {"type": kind}
    if kind == "play":  # (no clock: "Play" resumes the clock where the stoppage left it)
        if w.period_over:
            w.clock, w.period_over = 0.0, False
        w.in_play = True
    elif kind == "goal":
        e.update(team=draw(TEAMS), clock=_stoppage_clock(draw, w))
        if draw(st.booleans()):
            e["number"] = draw(NUMBERS)
        if draw(st.integers(0, 9)) == 0:
            e["own_goal"] = True
        if draw(st.integers(0, 5)) == 0:
            e["from_penalty"] = True
        w.in_play = False
    elif kind == "ball_out":
        line = draw(st.sampled_from(["end", "side"]))
        if line == "end":
            at = {"x": float(draw(st.sampled_from([0, LENGTH]))), "y": draw(coordinate(WIDTH))}
        else:
            at = {"x": draw(coordinate(LENGTH)), "y": float(draw(st.sampled_from([0, WIDTH])))}
        e.update(
            line=line,
            at=at,
            last_hit_by=draw(TEAMS),
            deflected_off=draw(st.sampled_from(DEFLECTIONS)),
            clock=_stoppage_clock(draw, w),
        )
        w.in_play = False
    elif kind == "foul":
        penalty = draw(st.sampled_from(PENALTIES))
        e.update(against=draw(TEAMS), number=draw(NUMBERS), penalty=penalty)
        if penalty == "5a" or draw(st.booleans()):
            e["spot"] = draw(position())
        if penalty == "2" and "spot" in e and draw(st.booleans()):
            e["from_spot"] = True
        if draw(st.integers(0, 7)) == 0:
            e["card"] = draw(st.sampled_from(["yellow", "red"]))
        if penalty != "1" and draw(st.integers(0, 7)) == 0:
            e["advantage"] = True
        if draw(st.integers(0, 7)) == 0:
            e["goal_scored"] = True
            if draw(st.booleans()):
                e["scored_by"] = draw(TEAMS)
        if w.in_play:
            e["clock"] = _stoppage_clock(draw, w)
        if not e.get("advantage"):
            w.in_play = False
    elif kind == "whistle":
        reason = draw(st.sampled_from(REASONS))
        e.update(reason=reason, ball=draw(position()), clock=_stoppage_clock(draw, w))
        if draw(st.booleans()):
            e["possession"] = draw(TEAMS)
            if draw(st.booleans()):
                e["fair_play"] = True
        if draw(st.booleans()):
            e.update(team=draw(TEAMS), number=draw(NUMBERS))
        if reason in ("injured_horse", "horse_timeout", "horse_fall") and draw(st.booleans()):
            e["horse"] = draw(st.sampled_from(HORSES))
        for flag in ("unconscious", "visibly_injured", "contact", "same_injury", "first_hit"):
            if draw(st.integers(0, 9)) == 0:
                e[flag] = True
        w.in_play = False
    elif kind == "restart_violation":
        e.update(
            kind=draw(st.sampled_from(["late", "early", "passed_ball", "encroachment", "delay"])), team=draw(TEAMS)
        )
    elif kind == "horn":
        e["kind"] = draw(st.sampled_from(["seven", "final"]))
        e["clock"] = 420.0 if e["kind"] == "seven" else 450.0
        w.clock = max(w.clock, e["clock"])
        if draw(st.booleans()):
            e["ball"] = draw(position())
        if e["kind"] == "final":
            w.period_over = True
            w.in_play = False
    elif kind == "clock_set":
        w.clock = float(draw(st.integers(0, 450)))
        e.update(clock=w.clock, reason="umpires correct the official time")
    elif kind == "card":
        e.update(team=draw(TEAMS), number=draw(NUMBERS), color=draw(st.sampled_from(["yellow", "red"])))
    elif kind == "mount":
        e.update(team=draw(TEAMS), number=draw(NUMBERS), horse=draw(st.sampled_from(HORSES)))
    elif kind == "substitution":
        e.update(team=draw(TEAMS), out=draw(NUMBERS), player={"name": "Sub", "handicap": draw(st.integers(0, 3))})
    elif kind in ("suspend", "resume", "abandon"):
        e["reason"] = "weather"
        w.suspended = kind == "suspend"
    elif kind == "overtime":
        pass
    elif kind == "shootout_start":
        e.update(
            format=draw(st.sampled_from(["team", "single"])),
            first=draw(TEAMS),
            order={"home": draw(st.permutations([1, 2, 3, 4])), "away": draw(st.permutations([1, 2, 3, 4]))},
        )
    elif kind == "shootout_attempt":
        e.update(team=draw(TEAMS), number=draw(NUMBERS), scored=draw(st.booleans()))
    elif kind == "void":
        real = [i for i, ev in zip(w.ids, w.events, strict=True) if ev.get("type") != "void"]
        goals = [
            i
            for i, ev in zip(w.ids, w.events, strict=True)
            if ev.get("type") == "goal" or (ev.get("type") == "foul" and ev.get("penalty") == "1")
        ]
        if goals and draw(st.booleans()):  # most corrections are of goals
            e["target"] = draw(st.sampled_from(goals))
        elif real and draw(st.integers(0, 5)) > 0:
            e["target"] = draw(st.sampled_from(real))
        else:
            e["target"] = "no-such-event"
        e["reason"] = "correction"
    return e


@st.composite
def garbage_event(draw, w: _Writer) -> Any:
    """Something a buggy or hostile client might post."""
    eid = w.new_id()
    choices = [
        {"type": "tea_break", "id": eid},
        {"type": "play"},  # no id
        {"id": eid},  # no type
        {"type": "goal", "id": eid, "team": "blue"},
        {"type": "goal", "id": eid, "team": "home", "number": 9},
        {"type": "goal", "id": eid, "team": "home", "clock": 999.0},
        {"type": "foul", "id": eid, "against": "home", "number": 1, "penalty": "7"},
        {"type": "foul", "id": eid, "against": "home", "number": 1, "penalty": "5a"},  # no spot
        {"type": "foul", "id": eid, "against": "away", "number": 2, "penalty": 2},
        {"type": "ball_out", "id": eid, "line": "end", "at": {"x": -5.0, "y": 10.0}, "last_hit_by": "home"},
        {"type": "ball_out", "id": eid, "line": "side", "at": {"x": 1000.0, "y": 0.0}, "last_hit_by": "away"},
        {"type": "ball_out", "id": eid, "line": "roof", "at": {"x": 10.0, "y": 0.0}, "last_hit_by": "away"},
        {"type": "whistle", "id": eid, "reason": "rain", "ball": {"x": 1.0, "y": 1.0}},
        {"type": "whistle", "id": eid, "reason": "other"},  # no ball
        {"type": "whistle", "id": eid, "reason": "other", "ball": {"x": "a", "y": None}},
        {"type": "horn", "id": eid, "kind": "triple"},
        {"type": "clock_set", "id": eid, "clock": "soon"},
        {"type": "clock_set", "id": eid, "clock": -10},
        {"type": "void", "id": eid},
        {"type": "card", "id": eid, "team": "home", "number": 2, "color": "green"},
        {"type": "play", "id": eid, "expected_seq": -1},
        {"type": "play", "id": eid, "clock": float("nan")},
        {"type": "play", "id": eid, "clock": float("inf")},
        {"type": None, "id": None},
        {"type": "shootout_attempt", "id": eid, "team": "home", "number": 1, "scored": "yes"},
        {"type": "substitution", "id": eid, "team": "home", "out": 1, "player": "Bob"},
    ]
    if w.events:
        earlier = draw(st.sampled_from(w.events))
        choices.append(copy.deepcopy(earlier))  # the same id posted again, same content
        changed = copy.deepcopy(earlier)
        changed["clock"] = 12345.0
        changed["note"] = "edited"
        choices.append(changed)  # the same id, different content: duplicate_id
        choices.append({"type": "play", "id": eid, "expected_seq": 0})  # stale after the first event
    choices.append(
        draw(
            st.dictionaries(
                st.sampled_from(["type", "id", "team", "number", "clock", "penalty", "at", "ball", "kind", "target"]),
                st.one_of(
                    st.none(),
                    st.booleans(),
                    st.integers(-5, 500),
                    st.text(max_size=5),
                    st.lists(st.integers(), max_size=2),
                    st.sampled_from(["play", "goal", "foul", "home"]),
                ),
                max_size=6,
            )
        )
    )
    return draw(st.sampled_from(choices))


@st.composite
def match_logs(draw, *, garbage: bool = True, max_events: int = 60) -> dict[str, Any]:
    w = _Writer()
    n = draw(st.integers(0, max_events))
    for _ in range(n):
        if garbage and draw(st.integers(0, 9)) == 0:
            event = draw(garbage_event(w))
        else:
            event = draw(plausible_event(w))
            event = {"id": w.new_id(), **event}
        w.events.append(event)
        w.ids.append(event.get("id") if isinstance(event, dict) else None)
    return {"format": "polo-match-log/1", "match": draw(match_configs()), "events": w.events}


# -- folding by hand with the public API ------------------------------------------------------


def fold(data: dict[str, Any]):
    """Fold every event with ``decide``; check on the way that a rejected event changes nothing.
    (The schema of every state is checked on ``replay(each=True)``, below: it is the slow part.)"""
    game = new_game(MatchConfig.from_dict(data["match"]))
    states = [to_state(game)]
    decisions = []
    for event in data["events"]:
        before_state = states[-1]
        decision = decide(game, copy.deepcopy(event))
        decisions.append(decision)
        after_state = to_state(decision.game)
        if not decision.accepted:
            # a rejected event changes nothing
            assert decision.error is not None and decision.error.code, (event, decision)
            assert decision.game == game, (event, decision.error.code)
            assert after_state == before_state, (event, decision.error.code)
        else:
            game = decision.game
        states.append(after_state)
    return game, decisions, states


def counted_score(data: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, float]:
    """Handicap goals plus the goals of accepted events that no accepted void took back."""
    events = data["events"]
    score = {t: float(data["match"][t].get("handicap_goals", 0)) for t in TEAM_NAMES}
    seen: set[str] = set()
    credited: dict[str, str] = {}  # event id -> team credited with a goal
    voided: set[str] = set()
    for event, result in zip(events, results, strict=True):
        if not result["accepted"] or not isinstance(event, dict):
            continue
        eid = event.get("id")
        if eid in seen:  # the same event posted again is recorded once
            continue
        seen.add(eid)
        if event["type"] == "goal":
            credited[eid] = event["team"]
        elif event["type"] == "foul" and event["penalty"] == "1" and not event.get("advantage"):
            credited[eid] = other(event["against"])  # Penalty 1: a goal for the fouled team
        elif event["type"] == "void":
            voided.add(event["target"])
    for eid, team in credited.items():
        if eid not in voided:
            score[team] += 1
    return score


def without_last_seq(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "last_seq"}


# -- the properties ---------------------------------------------------------------------------


@settings(PROFILE)
@given(match_logs())
def test_the_engine_never_raises_and_a_rejected_event_changes_nothing(data):
    fold(data)


@settings(PROFILE)
@given(match_logs())
def test_replay_is_deterministic_and_is_the_fold_of_decide(data):
    first = replay(copy.deepcopy(data))
    second = replay(copy.deepcopy(data))
    assert first == second
    _game, decisions, states = fold(data)
    assert [r["accepted"] for r in first["results"]] == [d.accepted for d in decisions]
    assert [r.get("error", {}).get("code") if not r["accepted"] else None for r in first["results"]] == [
        d.error.code if not d.accepted else None for d in decisions
    ]
    assert first["state"] == states[-1]


@settings(PROFILE)
@given(match_logs())
def test_every_state_of_a_replay_matches_the_state_schema(data):
    game = new_game(MatchConfig.from_dict(data["match"]))
    assert not state_errors(to_state(game)), state_errors(to_state(game))  # before the first event
    out = replay(copy.deepcopy(data), each=True)
    assert not state_errors(out["state"]), state_errors(out["state"])
    for result, event in zip(out["results"], data["events"], strict=True):
        errors = state_errors(result["state"])
        assert not errors, (event, errors)


@settings(PROFILE)
@given(match_logs())
def test_the_score_is_the_handicap_plus_the_goals_that_stand(data):
    out = replay(copy.deepcopy(data))
    expected = counted_score(data, out["results"])
    state = out["state"]
    if state.get("result") == "shootout" and state.get("winner"):
        expected[state["winner"]] += 1  # 14.d: the shootout winner takes the game by one goal
    assert state["score"] == expected


def standing_goals_and_log_length(data: dict[str, Any], results: list[dict[str, Any]]) -> tuple[int, int]:
    """(goals that change ends and still stand, events recorded in the log), counted from the results."""
    seen: list[str] = []
    changes_ends: list[str] = []
    voided: set[str] = set()
    for event, result in zip(data["events"], results, strict=True):
        if not result["accepted"] or event.get("id") in seen:
            continue
        seen.append(event["id"])
        if event["type"] == "goal" or (
            event["type"] == "foul" and event["penalty"] == "1" and not event.get("advantage")
        ):
            changes_ends.append(event["id"])
        elif event["type"] == "void":
            voided.add(event["target"])
    return len([i for i in changes_ends if i not in voided]), len(seen)


@settings(PROFILE)
@given(match_logs())
def test_ends_change_with_every_goal_that_stands_and_last_seq_counts_the_log(data):
    """MATCH-LOG.md: ends change after every goal (22.e(1)) and Penalty 1 goal (14.b(2)), never after
    handicap goals; ``last_seq`` is the sequence number of the last accepted event (a void counts;
    the same event posted twice is recorded once); ``restart`` is null while the ball is in play."""
    out = replay(copy.deepcopy(data))
    state = out["state"]
    goals, recorded = standing_goals_and_log_length(data, out["results"])
    start = data["match"]["home_defends"]
    assert state["defends"]["home"] == (start if goals % 2 == 0 else ("south" if start == "north" else "north"))
    assert state["defends"]["home"] != state["defends"]["away"]
    assert state["last_seq"] == recorded
    if state["status"] == "in_play":
        assert state["restart"] is None


@settings(PROFILE)
@given(match_logs(garbage=False, max_events=50), st.data())
def test_voiding_an_event_gives_the_state_of_the_log_without_it(data, draw):
    events = data["events"]
    first = replay(copy.deepcopy(data))
    named = {e.get("target") for e in events}  # leave out targets that another void names
    accepted = [
        k
        for k, r in enumerate(first["results"])
        if r["accepted"] and events[k]["type"] != "void" and events[k]["id"] not in named
    ]
    if not accepted:
        return
    i = draw.draw(st.sampled_from(accepted), label="target")
    # The void goes in before any other void that follows its target: a void of another event
    # in between re-folds that stretch of the log in its own way (what it let through stays in
    # the log), which the plain "log without the target" below cannot reproduce.
    next_void = next((k for k in range(i + 1, len(events)) if events[k]["type"] == "void"), len(events))
    j = draw.draw(st.integers(i + 1, next_void), label="void position")
    target_id = events[i]["id"]
    void = {"type": "void", "id": "ffffffff-0000-4000-8000-000000000000", "target": target_id, "reason": "correction"}
    # a later event that names the target would see a different history: leave those out
    later = [e for e in events[j:] if e.get("target") != target_id]
    with_void = {**data, "events": [*events[:j], void, *later]}
    out = replay(copy.deepcopy(with_void))
    # the log the void leaves: the events accepted before it, less its target, then the rest
    # (a refused event is no part of the log, so it is no part of the re-fold either)
    kept = [e for k, (e, r) in enumerate(zip(events[:j], out["results"][:j], strict=True)) if r["accepted"] and k != i]
    without = {**data, "events": kept + later}
    if not out["results"][j]["accepted"]:
        # a void may be refused when it would invalidate later events, or when the match takes no
        # events at that point (suspended; over, if the engine takes no corrections after the end)
        assert out["results"][j]["error"]["code"] in {"void_would_invalidate", "match_suspended", "match_over"}, out[
            "results"
        ][j]
        return
    # (last_seq left out: the void and its target count in it)
    assert without_last_seq(out["state"]) == without_last_seq(replay(copy.deepcopy(without))["state"]), (events[i], j)


@settings(PROFILE)
@given(match_logs(garbage=False, max_events=50))
def test_the_state_is_the_fold_of_the_events_that_still_count(data):
    """Whatever voids a log holds, its state is that of the events no void has taken back, folded
    in order: a void is accepted only when every later event still stands without its target."""
    out = replay(copy.deepcopy(data))
    accepted = [e for e, r in zip(data["events"], out["results"], strict=True) if r["accepted"]]
    voided = {e["target"] for e in accepted if e["type"] == "void"}
    counting = [e for e in accepted if e["type"] != "void" and e["id"] not in voided]
    again = replay(copy.deepcopy({**data, "events": counting}))
    assert all(r["accepted"] for r in again["results"]), [r for r in again["results"] if not r["accepted"]]
    assert without_last_seq(out["state"]) == without_last_seq(again["state"])  # voids count in last_seq


@settings(PROFILE)
@given(match_logs(max_events=50))
def test_the_steps_of_a_fold_are_the_fold_of_the_events_that_still_count(data):
    """``fold``'s steps (what a report or a scoreboard reads) are the events no void has taken
    back, each with the state the log of those events alone gives after it."""
    # (Keys judged as the replay judges them: a stored log folds without, ``fold``'s default.)
    folded = engine_fold(
        MatchConfig.from_dict(data["match"]), copy.deepcopy(data["events"]), lang="en", strict_keys=True
    )
    again = replay({**data, "events": [copy.deepcopy(step.event) for step in folded.steps]}, each=True)
    assert all(r["accepted"] for r in again["results"]), [r for r in again["results"] if not r["accepted"]]
    assert [r["state"] for r in again["results"]] == [step.after for step in folded.steps]
    if folded.steps:
        assert without_last_seq(folded.steps[-1].after) == without_last_seq(to_state(folded.game))
    assert to_state(folded.game) == replay(copy.deepcopy(data))["state"]


@settings(PROFILE)
@given(match_logs(max_events=40), st.data())
def test_posting_an_accepted_event_again_changes_nothing(data, draw):
    """MATCH-LOG.md: posting the same id twice records it once."""
    game, decisions, states = fold(data)
    accepted = [k for k, d in enumerate(decisions) if d.accepted]
    if not accepted:
        return
    k = draw.draw(st.sampled_from(accepted), label="event posted again")
    again = decide(game, copy.deepcopy(data["events"][k]))
    assert to_state(again.game) == states[-1]


# -- realistic matches (bench/matchgen.py) -------------------------------------------------------


def _realistic(seed: int) -> dict[str, Any]:
    from bench.matchgen import realistic_match  # the repository root is on sys.path under pytest

    return realistic_match(seed)


@settings(PROFILE, max_examples=10)
@given(st.integers(0, 10_000))
def test_a_realistic_match_is_accepted_whole_and_its_score_counts_every_goal(seed):
    data = _realistic(seed)
    out = replay(copy.deepcopy(data))
    refused = [(e, r["error"]) for e, r in zip(data["events"], out["results"], strict=True) if not r["accepted"]]
    assert not refused, refused[:3]
    state = out["state"]
    assert state["status"] == "final" and state["result"] == "regulation"
    assert state["score"] == counted_score(data, out["results"])
    assert state["winner"] == max(state["score"], key=state["score"].get)
    assert not state_errors(state)
