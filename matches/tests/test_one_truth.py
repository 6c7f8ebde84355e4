"""One truth about every goal: the engine's fold records each goal once (``Game.scored``: its kind,
hitter, penalty, own goal, period and clock), and every surface reads that record — the box score,
the official report (its data and its PDF), the USPA score sheet, the scoreboard's goal list (the
page's and ``GET /api/matches/{id}/goals``), the play-by-play, the tournament's statistics, the
standings and the overlay's score. Over generated matches (every event type, voids, penalties,
own goals, shootouts: ``officiating/tests/test_properties.py``'s writer, played through the service
as a scorer's device would post them) they agree goal for goal.

Issue 37's example is a test of its own: a safety, then a goal not marked as from a penalty, was
"Penalty 6" in the box score, "goal" in the report and ``penalty: false`` on the scoreboard.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st

from matches.committee.report_labels import how_label
from matches.committee.reports import match_report_data, match_report_pdf
from matches.committee.standings import tournament_standings
from matches.games import forget_all_cached_games, match_game
from matches.live.snapshots import match_snapshot
from matches.models import Match
from matches.public.play_by_play import match_play_by_play
from matches.public.selectors import LAST_GOALS, match_goals
from matches.services import match_event_log
from matches.stats.selectors import match_box_score, tournament_stats
from matches.stats.uspa import uspa_sheet_data
from matches.tests.pdf_text import pdf_text
from matches.tests.personas import make_match
from officiating.engine import to_state
from officiating.engine.boxscore import goal_records
from officiating.tests.test_properties import PENALTIES, _Writer, other, plausible_event

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("POLO_ONE_TRUTH_EXAMPLES", "30"))
TEAMS = ("home", "away")


# -- playing a generated match through the service --------------------------------------------------


def post(match: Match, event: dict[str, Any], now: float) -> bool:
    result = match_event_log(match_id=match.pk, event=event, now=now)
    match.refresh_from_db()
    return result.accepted


@st.composite
def match_events(draw) -> list[dict[str, Any]]:
    """A plausible match of up to 50 events (the engine property tests' writer), in which the
    scorer sometimes names the penalty a goal came from."""
    w = _Writer()
    for _ in range(draw(st.integers(15, 50))):
        event = {"id": w.new_id(), **draw(plausible_event(w))}
        if event["type"] in ("suspend", "abandon") and draw(st.integers(0, 4)):
            w.suspended = False  # (most suspensions left out: a suspended match scores no more)
            continue
        if event["type"] == "goal" and event.get("from_penalty") and draw(st.booleans()):
            event["from_penalty"] = draw(st.sampled_from(PENALTIES[1:]))
        w.events.append(event)
        w.ids.append(event["id"])
    return w.events


@st.composite
def rallies(draw) -> list[dict[str, Any]]:
    """A match told as runs of play, most ending in a score or a penalty: "Play", then a goal (from
    play, an own goal, with no hitter, marked from a penalty or not), a foul (every penalty, a
    Penalty 1 among them), a ball over an end line (a safety or a knock-in) or over the side; now
    and then a horse change, a substitution, a card, a void of an earlier goal or foul, and the
    double horn ending the chukker (the next "Play" opens the next one)."""
    events: list[dict[str, Any]] = []
    scoring: list[str] = []  # the goals and fouls, for voids to take back
    clock = 0.0

    def add(**event: Any) -> str:
        event["id"] = f"00000000-0000-4000-9000-{len(events):012d}"
        events.append(event)
        return event["id"]

    for _ in range(draw(st.integers(3, 30))):
        aside = draw(st.sampled_from([None] * 8 + ["mount", "substitution", "card", "void", "void"]))
        team, number = draw(st.sampled_from(TEAMS)), draw(st.integers(1, 4))
        if aside == "mount":
            add(type="mount", team=team, number=number, horse=draw(st.sampled_from(["Lucera", "Pampa"])))
        elif aside == "substitution":
            add(type="substitution", team=team, out=number, player={"name": "Reserve", "handicap": 1})
        elif aside == "card":
            add(type="card", team=team, number=number, color="yellow")
        elif aside == "void" and scoring:
            add(type="void", target=draw(st.sampled_from(scoring)), reason="correction")
        add(type="play")
        clock = round(clock + draw(st.sampled_from([4.0, 20.0, 45.0, 90.0])), 1)
        end = draw(st.sampled_from(["goal"] * 4 + ["foul"] * 3 + ["end_line"] * 2 + ["side_line", "horn"]))
        if end == "goal":
            goal: dict[str, Any] = {"type": "goal", "team": team, "clock": clock}
            if draw(st.integers(0, 4)):
                goal["number"] = number
            if not draw(st.integers(0, 5)):
                goal["own_goal"] = True
            marked = draw(st.sampled_from([None] * 6 + [True, "2", "6"]))
            if marked is not None:
                goal["from_penalty"] = marked
            scoring.append(add(**goal))
        elif end == "foul":
            penalty = draw(st.sampled_from(PENALTIES))
            spot = {"spot": {"x": 150.0, "y": 80.0}} if penalty == "5a" else {}
            scoring.append(add(type="foul", against=team, number=number, penalty=penalty, clock=clock, **spot))
        elif end == "end_line":
            at = {"x": draw(st.sampled_from([0.0, 300.0])), "y": 20.0}
            add(type="ball_out", line="end", at=at, last_hit_by=team, deflected_off="none", clock=clock)
        elif end == "side_line":
            at = {"x": draw(st.sampled_from([40.0, 150.0, 260.0])), "y": 0.0}
            add(type="ball_out", line="side", at=at, last_hit_by=team, deflected_off="none", clock=clock)
        if end == "horn" or clock > 400:
            add(type="horn", kind="final", clock=450.0)
            clock = 0.0
    return events


@st.composite
def level_matches(draw) -> list[dict[str, Any]]:
    """A one-chukker match the teams end level (goals of every kind, in pairs), for the play-out to
    take to a shootout."""
    events: list[dict[str, Any]] = []
    for i in range(draw(st.integers(0, 3))):
        for team in draw(st.permutations(TEAMS)):
            goal = {"type": "goal", "team": team, "number": draw(st.integers(1, 4)), "clock": 60.0 * (i + 1)}
            if not draw(st.integers(0, 3)):
                goal["own_goal"] = True
            elif not draw(st.integers(0, 2)):
                goal["from_penalty"] = draw(st.sampled_from([True, "3", "5b"]))
            events += [{"type": "play", "id": f"level-play-{i}-{team}"}, {**goal, "id": f"level-goal-{i}-{team}"}]
    return events


def play(match: Match, events: list[dict[str, Any]], draw, *, play_out: bool = False) -> None:
    """Post the events (the refused ones leave nothing), then, when ``draw`` says so, play the
    match out — "Play" and the double horn until it is over or tied — and take a tie to a
    shootout: the committee's order, and the hits in the order the engine names (Rule 14.d)
    until it is decided."""
    now = time.time() - 3 * 3600
    for event in events:
        now += 5
        post(match, event, now)
    if not (play_out or draw(st.booleans())):
        return
    for i in range(16):
        if match.status in ("final", "tied", "abandoned", "shootout", "suspended"):
            break
        now += 600
        state = to_state(match_game(match))
        if match.status != "in_play":
            post(match, {"id": f"play-{i}", "type": "play"}, now)
            continue
        behind = min(TEAMS, key=lambda t: state["score"][t])
        if state["period"]["number"] >= match.periods and state["score"][behind] + 1 <= state["score"][other(behind)]:
            # The last chukker: the team behind draws level, to take the match to a shootout.
            goal = {"type": "goal", "team": behind, "number": 1, "clock": float(state["clock"]["elapsed"]) + 1}
            if post(match, {"id": f"level-{i}", **goal}, now):
                post(match, {"id": f"level-play-{i}", "type": "play"}, now + 1)
                continue
        post(match, {"id": f"horn-{i}", "type": "horn", "kind": "final", "clock": 450.0}, now)
    order = {t: draw(st.permutations([1, 2, 3, 4])) for t in TEAMS}
    start = {"type": "shootout_start", "format": draw(st.sampled_from(["team", "single"])), "order": order}
    post(match, {"id": "shootout", **start, "first": draw(st.sampled_from(TEAMS))}, now + 60)
    for i in range(24):
        shootout = to_state(match_game(match)).get("shootout") or {}
        hitter = shootout.get("next")
        if match.status != "shootout" or not hitter:
            break
        attempt = {"type": "shootout_attempt", "team": hitter["team"], "number": hitter["number"]}
        post(match, {"id": f"hit-{i}", **attempt, "scored": draw(st.booleans())}, now + 120 + i)


# -- what each surface says about the goals ----------------------------------------------------------

Goal = tuple[Any, ...]


def engine_goals(match: Match) -> list[Goal]:
    return [
        (g.seq, g.team, g.how, g.penalty, g.number, g.name, g.period, g.period_kind, g.clock)
        for g in goal_records(match_game(match))
    ]


def box_score_goals(match: Match) -> list[Goal]:
    return [
        (g.seq, g.team, g.how, g.penalty, g.number, g.name, g.period, g.period_kind, g.clock)
        for g in match_box_score(match).goals
    ]


def report_goals(data: dict[str, Any]) -> list[Goal]:
    return [
        (
            g["seq"],
            g["team"],
            g["how"],
            g["penalty"],
            g["number"],
            g["player"],
            g["period"],
            g["period_kind"],
            g["clock"],
        )
        for p in data["periods"]
        for g in p["goals"]
    ]


def pdf_goal_labels(pdf: bytes) -> Counter[str]:
    """The "How" cells of the PDF's table of goals (between its heading and the next)."""
    lines = pdf_text(pdf).splitlines()
    table = lines[lines.index("Goals by chukker") + 1 : lines.index("Knock-ins per chukker")]
    kinds = {"field", "penalty", "own_goal", "penalty_1", "shootout", "unattributed"}
    labels = {how_label(k, p) for k in kinds for p in (None, *PENALTIES)}
    return Counter(line for line in table if line in labels)


def score_sheet_marks(match: Match) -> list[Goal]:
    """The letters of the USPA score sheet in the order of the match (A, B, …, Z, AA…): whose row
    each is on (a player's number and name, or the team's line), its kind and circle."""
    sheet = uspa_sheet_data(match)
    marks = []
    for team in TEAMS:
        side = sheet["teams"][team]
        for row in side["players"]:
            marks += [(m, team, row["number"], row["name"]) for cell in row["cells"] for m in cell]
        marks += [(m, team, None, None) for cell in side["team_cells"] for m in cell]
    marks.sort(key=lambda x: (len(x[0]["letter"]), x[0]["letter"]))
    return [(team, m["how"], m["penalty"], m["circled"], number, name) for m, team, number, name in marks]


def scoreboard_goals(goals: list[dict[str, Any]]) -> list[Goal]:
    """The list as the scoreboard gets it (newest first), oldest first."""
    return [
        (g["seq"], g["team"], g["how"], g["penalty_number"], g["number"], g["name"] or None, g["period"], g["clock"])
        for g in reversed(goals)
    ]


def play_by_play_goals(match: Match) -> list[Goal]:
    pbp = match_play_by_play(match, lang="en")
    return [
        (e["seq"], g["team"], g["how"], g["penalty"], g["number"])
        for p in pbp["periods"]
        for e in p["entries"]
        for g in e["goals"]
    ]


def assert_every_surface_agrees(match: Match) -> None:
    match.refresh_from_db()
    match = Match.objects.select_related("tournament", "field", "home__team", "away__team").get(pk=match.pk)
    game = match_game(match)
    truth = engine_goals(match)
    per_team = Counter(g[1] for g in truth)
    handicap = {"home": float(match.home_handicap_goals), "away": float(match.away_handicap_goals)}
    score = {t: handicap[t] + per_team[t] for t in TEAMS}

    # The engine itself: one record per goal of the score, in the order of the log.
    assert (per_team["home"], per_team["away"]) == game.goals
    assert [g[0] for g in truth] == sorted(g[0] for g in truth)

    # The box score counts the same records, and its lines add up to them.
    assert box_score_goals(match) == truth
    box = match_box_score(match)
    for line in box.teams:
        assert line.goals == per_team[line.team]
        players = sum(p.total_goals for p in box.players_of(line.team))
        assert players + line.penalty_1_goals + line.own_goals_for + line.unattributed + line.shootout == line.goals

    # The official report (data, then its PDF) lists them goal for goal, in the same words.
    data = match_report_data(match)
    assert report_goals(data) == truth
    assert {t: float(data["result"]["score"][t]) for t in TEAMS} == score
    labels = Counter(how_label(g[2], g[3]) for g in truth)
    assert pdf_goal_labels(match_report_pdf(data)) == labels

    # The USPA score sheet: a letter per goal, circled when from a penalty, on the hitter's row.
    expected_marks = [
        (
            g[1],
            g[2],
            g[3],
            g[3] is not None,
            g[4] if g[2] in ("field", "penalty") else None,
            g[5] if g[2] in ("field", "penalty") else None,
        )
        for g in truth
    ]
    assert score_sheet_marks(match) == expected_marks

    # The scoreboard's list (the shootout's deciding goal is shown with the shootout, not there),
    # from the page's selector and from the API.
    listed = [(*g[:6], g[6], g[8]) for g in truth if g[2] != "shootout"]
    own_goals = [r.own_goal for r in goal_records(game) if r.how != "shootout"]
    every = match_goals(match, limit=len(truth) + 1)["goals"]
    assert scoreboard_goals(every) == listed
    assert [g["own_goal"] for g in reversed(every)] == own_goals
    assert all(g["penalty"] == (g["penalty_number"] is not None) for g in every)
    response = Client().get(reverse("api-match-goals", args=[match.pk]))
    assert response.status_code == 200
    assert response.json()["goals"] == every[:LAST_GOALS]

    # The play-by-play: each goal under the event that scored it, of the same kind.
    assert play_by_play_goals(match) == [g[:5] for g in truth]

    # The tournament's statistics: the leading scorers and the teams' goals.
    stats = tournament_stats(match.tournament)
    names = {"home": match.home.team.name, "away": match.away.team.name}
    scorers: Counter[tuple[str, str, str]] = Counter()
    for g in truth:
        if g[2] in ("field", "penalty") and g[5]:
            scorers[(names[g[1]], g[5], g[2])] += 1
    assert {(s.team, s.name, "field"): s.goals for s in stats.scorers if s.goals} | {
        (s.team, s.name, "penalty"): s.penalty_goals for s in stats.scorers if s.penalty_goals
    } == dict(scorers)
    if match.last_seq:
        assert {row.team: row.goals for row in stats.teams} == {names[t]: per_team[t] for t in TEAMS}

    # The overlay's (and every live screen's) score, and the standings once the match is over.
    assert match_snapshot(match.pk)["state"]["score"] == score
    if match.status == "final" and (match.state_cache or {}).get("winner") in TEAMS:
        rows = {row.entry.pk: row for row in tournament_standings(match.tournament)}
        assert rows[match.home_id].goals_for == score["home"]
        assert rows[match.away_id].goals_for == score["away"]


# -- the properties -----------------------------------------------------------------------------------


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
@given(st.one_of(rallies(), match_events(), level_matches()), st.data())
def test_every_surface_agrees_goal_for_goal_over_generated_matches(events, data):
    level = bool(events) and events[0]["id"].startswith("level-")
    with transaction.atomic():  # each example in a savepoint of its own, rolled back after
        forget_all_cached_games()
        cache.clear()
        match = make_match(
            periods=1 if level else data.draw(st.sampled_from([1, 2])),
            home_handicap_goals=0 if level else data.draw(st.sampled_from([0, 0, 1, 0.5])),
            away_handicap_goals=0 if level else data.draw(st.sampled_from([0, 0, 1])),
        )
        play(match, events, data.draw, play_out=level)
        assert_every_surface_agrees(match)
        transaction.set_rollback(True)


def test_a_goal_after_a_safety_is_a_penalty_6_goal_on_every_surface():
    """Issue 37's example: Blue hits the ball over its own end line (a safety, Rule 21.a: a
    Penalty 6 to Red); Red takes it and scores in that run of play, the scorer not marking it as
    from a penalty. Every surface calls it a goal from the Penalty 6."""
    match = make_match(periods=2)
    now = time.time() - 3600
    post(match, {"id": "play-1", "type": "play"}, now)
    game = match_game(match)
    field = game.config.field
    end_x = next(x for x in (0.0, float(field.length)) if game.defender_of(field.nearer_end(x)) == "home")
    safety = {"type": "ball_out", "line": "end", "at": {"x": end_x, "y": 20.0}, "last_hit_by": "home"}
    assert post(match, {"id": "safety", **safety, "deflected_off": "none", "clock": 60.0}, now + 60)
    assert to_state(match_game(match))["restart"]["penalty"] == "6"
    assert post(match, {"id": "play-2", "type": "play"}, now + 90)
    assert post(match, {"id": "goal", "type": "goal", "team": "away", "number": 3, "clock": 75.0}, now + 105)

    (goal,) = goal_records(match_game(match))
    assert (goal.team, goal.how, goal.penalty, goal.number) == ("away", "penalty", "6", 3)
    assert_every_surface_agrees(match)
    # In words: the report and the play-by-play name the penalty; the scoreboard marks it.
    data = match_report_data(match)
    assert [g["how"] for p in data["periods"] for g in p["goals"]] == ["penalty"]
    assert how_label("penalty", "6") == "penalty goal (Penalty 6)"
    (listed,) = Client().get(reverse("api-match-goals", args=[match.pk])).json()["goals"]
    assert listed["penalty"] is True and listed["penalty_number"] == "6"
    texts = [e["text"] for p in match_play_by_play(match, lang="en")["periods"] for e in p["entries"]]
    assert any(t.startswith("Penalty 6 goal for ") for t in texts), texts


def test_the_live_updates_carry_the_goals_their_events_scored_as_the_list_gives_them(
    monkeypatch, django_capture_on_commit_callbacks
):
    """The scoreboard's list and the overlay's lower third follow a live match from its updates:
    each carries the goals its events scored, the engine's rows (a Penalty 1's goal, which has no
    ``goal`` event; an own goal, whose hitter is the other team's), whether the update came
    straight from the write (``receivers``) or from a hub's read of the log (``match_update``)."""
    from matches import selectors
    from matches.live import receivers

    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(receivers, "broadcast_match_update", lambda *a, **update: sent.append(update))
    match = make_match(periods=2)
    now = time.time() - 600
    events = [
        {"id": "play-1", "type": "play"},
        {"id": "goal-1", "type": "goal", "team": "home", "number": 2, "clock": 30.0},
        {"id": "play-2", "type": "play"},
        {"id": "own", "type": "goal", "team": "away", "number": 1, "own_goal": True, "clock": 60.0},
        {"id": "play-3", "type": "play"},
        {"id": "p1", "type": "foul", "against": "home", "number": 3, "penalty": "1", "clock": 90.0},
        {"id": "play-4", "type": "play"},
        {"id": "goal-2", "type": "goal", "team": "away", "number": 4, "clock": 120.0},
        {"id": "void", "type": "void", "target": "goal-2", "reason": "the flag was wrong"},
    ]
    for i, event in enumerate(events):
        with django_capture_on_commit_callbacks(execute=True):
            assert post(match, event, now + 10 * i)
    carried = [goal for update in sent for goal in update["goals"]]
    listed = match_goals(match, limit=10)["goals"][::-1]
    # Every goal that stands came with the update of its event, as the list gives it; the voided
    # goal came too (its update scored it) and the void's update, which took it back, scored none.
    assert carried[:3] == listed and carried[3]["id"] == "goal-2" and sent[-1]["goals"] == []
    assert [(g["team"], g["how"], g["penalty_number"], g["name"] == "") for g in listed] == [
        ("home", "field", None, False),
        ("away", "own_goal", None, False),
        ("away", "penalty_1", "1", True),
    ]
    # A hub that reads the log after a gap gives the same rows for the same events.
    for since in range(match.last_seq):
        update = selectors.match_update(match.pk, since, ["en"])
        assert update["goals"] == [g for g in listed if g["seq"] > since]
