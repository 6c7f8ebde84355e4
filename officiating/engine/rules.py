"""The fold: ``decide(game, event)`` accepts or refuses one event and returns the next Game.

Each event type has one handler below. A handler validates its fields, checks the rules and
returns a new Game, or raises ``_Refused`` with a contract code, the rule it rests on and a
message. ``decide`` adds what is about the log rather than the rules: ids, sequence numbers and
corrections (``void``).
"""

from __future__ import annotations

import math
from typing import Any, Callable, NoReturn

from . import messages as m
from . import restarts as R
from .config import MatchConfig, Player
from .geometry import Point
from .shootout import progress
from .state import (Entry, ExcusedHorse, Game, Hold, Log, Restart, Shootout, Timer, Unavailable, evolve, flip, leader,
                    new_game as _new_game_state, next_period, other)

TEAMS = ("home", "away")
PENALTIES = ("1", "2", "3", "4", "5a", "5b", "6")
DEFLECTIONS = ("none", "own_mount", "teammate", "goal_post", "boards", "opponent", "opponent_mallet",
               "umpire", "unknown")
REASONS = ("injured_player", "player_fall", "injured_horse", "horse_fall", "horse_timeout",
           "courtesy_change", "broken_tack", "lost_helmet", "lodged_ball", "damaged_ball", "inadvertent",
           "rule_check", "umpire_down", "other")
# 22.h lists what fair-play possession follows: a perceived violation that ends in no foul, an
# inadvertent whistle, a damaged or buried ball, a fallen or injured umpire, player or horse, "or
# some other perceived emergency or unexpected event". A courtesy change (21.f(2): "when the ball
# is out of play or at a neutral play") and a lost helmet (21.h: "when the play is in a neutral
# position") are stopped when nobody is disadvantaged, so possession is not kept for them. A
# horse time-out (21.f(4)) may be called "immediately" for an injured mount — 22.h's "injured ...
# horse" — so it may keep possession when the umpires judge the team disadvantaged; broken tack and
# a lodged ball are "unexpected events" and may keep it too.
NO_FAIR_PLAY = ("courtesy_change", "lost_helmet")
VIOLATIONS = ("late", "early", "passed_ball", "encroachment", "delay")
SAFETY_DEFLECTIONS = ("none", "own_mount", "goal_post", "boards")  # 21.a

INJURY_SECONDS = 600.0       # 21.d
HORSE_TIMEOUT_SECONDS = 300.0  # 21.f(4)
COURTESY_SECONDS = 60.0      # 21.f(2)
TACK_SECONDS = 300.0         # 21.g
FORFEIT_WINDOW = 24 * 3600.0  # 21.f(5)
EPSILON = 1e-6
# Issue 9: what a live official may stamp on an event (its ``clock``, read at the entry's first
# key). CHOICE: ahead of the official clock by up to a second is clock sync error and is taken as
# the official time; further ahead, or further back than the window, is a device that cannot be
# trusted to rewrite the record (14.b(1): the umpires correct the official time with a clock set).
CLOCK_AHEAD_TOLERANCE = 1.0
CLOCK_STAMP_WINDOW = 60.0
# The events that stop play and the clock: the ones an official's first key holds the clock for.
STOPPAGES = ("goal", "foul", "ball_out", "whistle", "restart_violation")
# CHOICE: a whistle this soon after "Play" (or with the ball still on the spot) finds the restart
# not yet taken: the umpires let it be taken again (22.a "Calling Play": "resume the knock-in by
# calling 'Play'", and the re-hit allowed for the officials' procedural error).
RETAKE_RADIUS = 1.0


class Decision:
    """What ``decide`` returns: ``accepted``; ``game`` (the new Game, or the same one when
    refused); ``error`` (a Rejection, or None); ``event`` (the event as stored: ``clock`` filled
    in from the running clock, ``at`` the ``now`` it was decided at, ``expected_seq`` dropped).
    A plain record: the server may wrap or adjust it."""

    __slots__ = ("accepted", "game", "error", "event")

    def __init__(self, accepted: bool, game: Game, error: m.Rejection | None, event: dict[str, Any] | None):
        self.accepted = accepted
        self.game = game
        self.error = error
        self.event = event

    def __repr__(self) -> str:
        return f"Decision(accepted={self.accepted}, error={self.error!r}, event={self.event!r})"


class _Refused(Exception):
    def __init__(self, rejection: m.Rejection):
        super().__init__(rejection.code)
        self.rejection = rejection


def _refuse(code: str, rule: str | None, msgid: str, **params: Any) -> NoReturn:
    raise _Refused(m.Rejection(code, rule, msgid, params))


def _invalid(msgid: str, **params: Any) -> NoReturn:
    _refuse("invalid_event", None, msgid, **params)


# -- field validation ------------------------------------------------------------------------------


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _team(ev: dict, key: str, required: bool = True) -> str | None:
    v = ev.get(key)
    if v is None:
        if required:
            _invalid(m.MISSING_FIELD, field=key)
        return None
    if v not in TEAMS:
        _invalid(m.BAD_FIELD, field=key)
    return v


def _number(ev: dict, key: str = "number", required: bool = False) -> int | None:
    v = ev.get(key)
    if v is None:
        if required:
            _invalid(m.MISSING_FIELD, field=key)
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 4:
        _invalid(m.BAD_FIELD, field=key)
    return v


def _flag(ev: dict, key: str) -> bool:
    v = ev.get(key)
    if v is None:
        return False
    if not isinstance(v, bool):
        _invalid(m.BAD_FIELD, field=key)
    return v


def _choice(ev: dict, key: str, choices: tuple[str, ...], default: str | None = None,
            required: bool = True) -> str | None:
    v = ev.get(key)
    if v is None:
        if default is None and required:
            _invalid(m.MISSING_FIELD, field=key)
        return default
    if v not in choices:
        _invalid(m.BAD_FIELD, field=key)
    return v


def _text(ev: dict, key: str, required: bool = False) -> str | None:
    v = ev.get(key)
    if v is None:
        if required:
            _invalid(m.MISSING_FIELD, field=key)
        return None
    if not isinstance(v, str) or (required and not v):
        _invalid(m.BAD_FIELD, field=key)
    return v


def _position(game: Game, ev: dict, key: str, required: bool = True) -> Point | None:
    v = ev.get(key)
    if v is None:
        if required:
            _invalid(m.MISSING_FIELD, field=key)
        return None
    if type(v) is not dict:
        _invalid(m.BAD_FIELD, field=key)
    x, y = v.get("x"), v.get("y")
    if type(x) not in (int, float) or type(y) not in (int, float):
        _invalid(m.BAD_FIELD, field=key)
    field = game.config.field
    # (NaN fails both comparisons; infinities are off the field.)
    if not (0.0 <= x <= field.length and 0.0 <= y <= field.width):
        _invalid(m.OFF_FIELD, field=key)
    return (float(x), float(y))


def _player(game: Game, team: str, number: int, taking_part: bool = True) -> Player:
    """The player ``number`` of ``team``; refused when unknown, or unavailable and taking part."""
    for p in game.roster(team):
        if p.number == number:
            break
    else:
        _refuse("unknown_player", None, m.UNKNOWN_PLAYER, team=game.config.team(team).name, number=number)
    if taking_part and _unavailable(game, team, number):
        _refuse("player_unavailable", "21.d", m.PLAYER_UNAVAILABLE, team=game.config.team(team).name,
                number=number)
    return p


def _unavailable(game: Game, team: str, number: int) -> bool:
    return any(u.team == team and u.number == number and not u.substituted for u in game.unavailable)


def _gate_over(game: Game) -> None:
    if game.status in ("final", "abandoned"):
        _refuse("match_over", None, m.MATCH_OVER)


def _gate(game: Game, *allowed: str) -> None:
    """Refuse events the status does not admit: the match over, the game suspended."""
    st = game.status
    if st in allowed:
        return
    if st in ("final", "abandoned"):
        _refuse("match_over", None, m.MATCH_OVER)
    if st == "suspended":
        _refuse("match_suspended", "22.j", m.MATCH_SUSPENDED)
    if st == "tied":
        _refuse("awaiting_committee", "14.c", m.AWAITING_COMMITTEE)
    if st == "shootout":
        _refuse("shootout_in_progress", "14.d", m.SHOOTOUT_IN_PROGRESS)
    if st == "in_play":
        _refuse("already_in_play", None, m.ALREADY_IN_PLAY)
    _refuse("not_in_play", None, m.NOT_IN_PLAY)


# -- clock and period mechanics (Rule 14) ----------------------------------------------------------


def _halt(game: Game, clock: float | None) -> dict[str, Any]:
    """The changes of the whistle: play and the clock stop at ``clock`` (21: "play and the clock
    are stopped"). Handlers merge them with their own and make one new Game."""
    return {"running": False, "anchor": None, "elapsed": game.elapsed if clock is None else float(clock),
            "stoppage": game.stoppage + 1, "taken": None, "taken_clock": None}


def _min_clock(game: Game, restart: Restart, elapsed: float) -> tuple[Restart, float]:
    """14.b(2), 14.c: after the seven-minute horn of a final-like period, at least 5 seconds for
    the restart: the clock goes back to 445 s if it stood later."""
    latest = game.config.period_end - R.MIN_CLOCK_REMAINING
    return evolve(restart, min_clock_remaining=R.MIN_CLOCK_REMAINING), min(elapsed, latest)


def _after_stoppage(game: Game, restart: Restart, now: float | None, changes: dict[str, Any]) -> Game:
    """Play has stopped (``changes`` from ``_halt``, and the handler's own) and ``restart`` is
    due. After the seven-minute horn an ordinary period ends here and the restart opens the next
    one (14.b(2), 22.g); a final-like period keeps at least 5 seconds for it."""
    elapsed = changes.get("elapsed", game.elapsed)
    if elapsed >= game.config.period_seconds:
        if not game.final_like:
            return _end_period(game, restart, now, "stoppage", changes)
        restart, changes["elapsed"] = _min_clock(game, restart, elapsed)
    return evolve(game, status="stopped", restart=restart, **changes)


def _replace_pending(game: Game, restart: Restart, changes: dict[str, Any]) -> Game:
    """A dead-ball call while play is stopped: ``restart`` replaces the pending one.
    CHOICE: the umpires' latest call decides how play resumes."""
    if game.status == "stopped" and game.final_like and game.elapsed >= game.config.period_seconds:
        restart, changes["elapsed"] = _min_clock(game, restart, game.elapsed)
    elif game.status == "interval":
        restart = evolve(restart, next_period=True)
    return evolve(game, restart=restart, **changes)


def _end_period(game: Game, restart: Restart | None, now: float | None, how: str,
                changes: dict[str, Any] | None = None) -> Game:
    """An ordinary period (or an overtime period that reached the horn) ends: an interval, and
    ``restart`` is carried into the next period (22.g)."""
    if restart is not None:
        restart = evolve(restart, next_period=True, min_clock_remaining=None)
    c = {"running": False, "anchor": None, "taken": None, "taken_clock": None}
    if changes:
        c.update(changes)
    return evolve(game, status="interval", restart=restart, ended_by=how, interval_started_at=now, **c)


def _finish(game: Game, winner: str | None, result: str | None, now: float | None, how: str,
            changes: dict[str, Any] | None = None) -> Game:
    c = {"running": False, "anchor": None, "taken": None, "taken_clock": None}
    if changes:
        c.update(changes)
    return evolve(game, status="final", winner=winner, result=result, restart=None, ended_by=how,
                  ended_at=now, **c)


def _one_more(goals: tuple[int, int], team: str) -> tuple[int, int]:
    return (goals[0] + 1, goals[1]) if team == "home" else (goals[0], goals[1] + 1)


def _end_by_horn(game: Game, ball: Point | None, now: float | None) -> Game:
    """The double horn at 7:30 ends every period wherever the ball is (14.b(1), 14.e). The next
    period opens as play would have resumed (22.g): a throw-in where the ball was."""
    cfg = game.config
    changes = {"elapsed": cfg.period_end, "stoppage": game.stoppage + 1}
    restart = R.throw_in(cfg.field, ball, rule="22.g") if ball is not None else R.centre_throw_in(cfg.field)
    if not game.final_like:
        return _end_period(game, restart, now, "horn", changes)
    changes["fresh_horn"] = True
    if game.period_kind == "regulation" and not game.tied:
        return _finish(game, game.leader, "regulation", now, "horn", changes)
    if game.period_kind == "regulation":
        # 14.c/14.d: a tie waits for the committee: overtime or a shootout.
        g = _end_period(game, restart, now, "horn", changes)
        return evolve(g, status="tied", interval_started_at=None)
    # 14.c: an overtime period without a goal: an interval, then another overtime period.
    return _end_period(game, restart, now, "horn", changes)


def _reopen_at_the_horn(game: Game, restart: Restart, changes: dict[str, Any]) -> Game:
    """Rule 21 (commentary): "When a foul occurs at or slightly after the horn ending the final
    regulation period, five seconds should be put on the clock and the penalty executed."
    CHOICE: overtime periods, run like the final one (14.c), are treated the same way."""
    restart = evolve(restart, next_period=False, min_clock_remaining=R.MIN_CLOCK_REMAINING)
    return evolve(game, status="stopped", restart=restart, elapsed=game.config.period_end - R.MIN_CLOCK_REMAINING,
                  winner=None, result=None, ended_by=None, ended_at=None, fresh_horn=False,
                  interval_started_at=None, **changes)


# -- handlers ----------------------------------------------------------------------------------------

Handler = Callable[[Game, dict, "float | None", "float | None"], Game]


def _play(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    """The umpire calls "Play" or throws the ball in: the pending restart is taken, the clock runs
    (the first play of a period starts it)."""
    _gate(game, "scheduled", "stopped", "interval")
    restart = game.restart
    changes: dict[str, Any] = {}
    if game.status in ("scheduled", "interval"):
        if game.status == "interval":
            number, kind = next_period(game)
            changes.update(period=number, period_kind=kind)
        elapsed = 0.0
        changes.update(ended_by=None, fresh_horn=False, interval_started_at=None)
    else:
        # CHOICE: the clock does not run while play is stopped, so "Play" resumes it where the
        # stoppage left it (a ``clock`` on "Play" is not needed; corrections are ``clock_set``),
        # keeping the 5 seconds a final-like period guarantees. A period always starts at 0.
        elapsed = game.elapsed
        if restart is not None and restart.min_clock_remaining:
            elapsed = min(elapsed, game.config.period_end - restart.min_clock_remaining)
    taken = evolve(restart, next_period=False) if restart is not None and restart.next_period else restart
    return evolve(game, status="in_play", elapsed=elapsed, running=True, anchor=now, restart=None,
                  taken=taken, taken_clock=elapsed, timers=(), holds=(), held_from=None, **changes)


def _goal(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    team = _team(ev, "team")
    number = _number(ev)
    own_goal = _flag(ev, "own_goal")
    fp = ev.get("from_penalty")
    if fp is not None and not isinstance(fp, bool) and fp not in PENALTIES:
        _invalid(m.BAD_FIELD, field="from_penalty")
    cfg = game.config
    # 14.b(1): "A goal scored after time has expired on the official clock does not count, even
    # if it is before the second horn ... and before the Umpires blow their whistles."
    if (clock is not None and clock > cfg.period_end + EPSILON) or \
            (game.ended_by == "horn" and game.status in ("interval", "tied", "final")):
        _refuse("goal_after_time", "14.b(1)", m.GOAL_AFTER_TIME)
    _gate(game, "in_play")
    if number is not None:
        _player(game, other(team) if own_goal else team, number)
    changes = _halt(game, clock)
    goals = _one_more(game.goals, team)
    # 22.e(1): ends change after every goal (not after handicap goals).
    changes.update(goals=goals, home_defends=flip(game.home_defends))
    restart = R.after_goal(cfg.field)
    if game.period_kind == "overtime":
        return _finish(game, team, "overtime", now, "goal", changes)  # 14.c: the first goal decides
    if changes["elapsed"] >= cfg.period_seconds:
        if not game.final_like:
            return _end_period(game, restart, now, "goal", changes)  # 14.b(2): the goal ends the period
        # 14.b(2), final regulation period: play goes on after the seven-minute horn until a
        # goal, "unless that goal ties the score".
        ahead = leader(game.config, goals)
        if ahead is not None:
            return _finish(game, ahead, "regulation", now, "goal", changes)
        restart, changes["elapsed"] = _min_clock(game, restart, changes["elapsed"])
    return evolve(game, status="stopped", restart=restart, **changes)


def _foul(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    against = _team(ev, "against")
    number = _number(ev)
    pen = _choice(ev, "penalty", PENALTIES)
    from_spot = _flag(ev, "from_spot")
    spot = _position(game, ev, "spot", required=pen == "5a" or (pen == "2" and from_spot))
    card = _choice(ev, "card", ("yellow", "red"), required=False)
    advantage = _flag(ev, "advantage")
    goal_scored = _flag(ev, "goal_scored")
    fouled = other(against)
    scored_by = _team(ev, "scored_by", required=False) or fouled
    cfg = game.config
    if number is not None:
        _player(game, against, number)
    cards = game.cards + ((against, number, card),) if card else game.cards

    if advantage:
        # 21.b: the umpire may elect not to stop play; the foul is noted and play goes on.
        _gate(game, "in_play")
        return evolve(game, cards=cards) if card else game
    if goal_scored and scored_by != against and pen != "1":
        # 22.c(1): a foul confirmed against the defending team at the moment of a goal is either
        # a Penalty 1 (the field goal does not count) or no foul (record the goal instead).
        _refuse("goal_at_whistle_needs_penalty_1", "22.c", m.GOAL_AT_WHISTLE)
    # 22.c(2): a foul by the attacking team at the moment of its goal: the goal does not count
    # (it is never recorded) and the penalty is awarded like any other.

    # CHOICE: "at or slightly after the horn" is a foul recorded next after the double horn that
    # ended a final-like period (only a whistle or a card between them).
    at_the_horn = game.fresh_horn and game.status in ("tied", "final", "interval") and game.final_like
    if not at_the_horn:
        _gate(game, "in_play", "stopped", "interval", "scheduled")
    changes = _halt(game, clock) if game.status == "in_play" else {}
    if card:
        changes["cards"] = cards
    if pen == "1":
        goals = _one_more(game.goals, fouled)
        # 14.b(2): one goal to the fouled team, then a Penalty 5.b to it and a change in direction.
        changes.update(goals=goals, home_defends=flip(game.home_defends))
        restart = R.after_penalty_1(cfg.field, fouled)
        if game.period_kind == "overtime":
            # 14.c: in overtime the first goal of any kind determines the game.
            return _finish(game, fouled, "overtime", now, "goal", changes)
    else:
        restart = R.penalty(cfg.field, pen, fouled, game.defends(against), spot, from_spot)

    if at_the_horn:
        return _reopen_at_the_horn(game, restart, changes)
    if game.status == "in_play":
        # 14.b(2): after the seven-minute horn the whistle ends an ordinary period and the
        # penalty opens the next one; a final-like period executes it with at least 5 seconds.
        return _after_stoppage(game, restart, now, changes)
    # A dead-ball foul (21.b): play is already stopped, or between periods ("An unsportsmanlike
    # conduct penalty assessed between periods shall be executed at the beginning of the next
    # period"), or before the first period.
    return _replace_pending(game, restart, changes)


def _ball_out(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    line = _choice(ev, "line", ("end", "side"))
    at = _position(game, ev, "at")
    last = _team(ev, "last_hit_by", required=False)
    deflected = _choice(ev, "deflected_off", DEFLECTIONS, default="none")
    _gate(game, "in_play")
    field = game.config.field
    x, y = at  # type: ignore[misc]
    if line == "end":
        end = field.nearer_end(x)
        if field.between_posts(y):
            _invalid(m.BALL_OUT_BETWEEN_POSTS)
        defender = game.defender_of(end)
        # 21.a: a safety when a player hits the ball over his own end line directly or off his
        # own mount, a goal post or the side boards. "A player is considered to have 'hit' the
        # ball if the ball merely touches the mallet": an attacker's ball that glances off a
        # defender's mallet over the defenders' end line has been hit over it by that defender.
        is_safety = (last == defender and deflected in SAFETY_DEFLECTIONS) or \
                    (last == other(defender) and deflected == "opponent_mallet")
        if is_safety:
            restart = R.safety(field, end, y, other(defender))
        else:
            # 22.a; CHOICE: off an umpire, or hitter unknown, nobody can call a safety: knock-in.
            restart = R.knock_in(field, end, y, defender)
    else:
        side = field.nearer_side(y)
        if last is None or deflected in ("umpire", "unknown"):
            restart = R.side_throw_in(field, x, side)  # 22.f(vi)
        else:
            # 22.f(i): directly, off the hitter's horse, a teammate or the boards: to the other
            # team. 22.f(ii): off an opponent or his horse: to the team that last hit it.
            # An opponent's mallet counts as the opponent hitting it (21.a), which comes to the
            # same. CHOICE: off a goal post counts as (i).
            case = "ii" if deflected in ("opponent", "opponent_mallet") else "i"
            awarded = last if case == "ii" else other(last)
            inside = field.inside_sixty(x)
            if inside is None:
                restart = R.side_free_hit(field, x, side, awarded, None, f"22.f({case})+(iii)")
            elif game.defender_of(inside) == awarded:
                restart = R.side_free_hit(field, x, side, awarded, None, f"22.f({case})+(iv)")
            else:
                restart = R.side_free_hit(field, x, side, awarded, inside, f"22.f({case})+(v)")
    return _after_stoppage(game, restart, now, _halt(game, clock))


def _whistle(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    reason = _choice(ev, "reason", REASONS)
    ball = _position(game, ev, "ball", required=False)
    possession = _team(ev, "possession", required=False)
    fair_play = _flag(ev, "fair_play")
    team = _team(ev, "team", required=False)
    number = _number(ev)
    horse = _text(ev, "horse")
    unconscious = _flag(ev, "unconscious")
    visibly_injured = _flag(ev, "visibly_injured")
    contact = _flag(ev, "contact")
    same_injury = _flag(ev, "same_injury")
    first_hit = _flag(ev, "first_hit")
    cfg = game.config
    if number is not None and team is None:
        _invalid(m.MISSING_FIELD, field="team")
    if unconscious and number is None:
        _invalid(m.NEEDS_PLAYER)
    if team is not None and number is not None:
        _player(game, team, number, taking_part=False)
    # 21 allows some of these "during a break in play" (a horse, a courtesy change, an injury).
    _gate(game, "in_play", "stopped", "interval", "scheduled")
    if reason == "courtesy_change":
        # 21.f(2): only when announced before the game, and one per period.
        if not cfg.courtesy_change:
            _refuse("courtesy_change_not_allowed", "21.f(2)", m.COURTESY_NOT_ALLOWED)
        if game.courtesy_period == game.period and game.status != "interval":
            _refuse("courtesy_change_used", "21.f(2)", m.COURTESY_USED)
    if fair_play:
        if reason in NO_FAIR_PLAY or game.status != "in_play":
            _refuse("fair_play_not_applicable", "22.h", m.FAIR_PLAY_REASON)
        if possession is None:
            _refuse("fair_play_not_applicable", "22.h", m.FAIR_PLAY_NO_TEAM)
        if ball is None:
            _invalid(m.MISSING_FIELD, field="ball")

    g = game
    timers = list(g.timers)

    # -- what the stoppage sets running (Rule 21) --
    if reason in ("injured_player", "player_fall"):
        # CHOICE: ``unconscious`` counts on a fall too (the player is then injured as well).
        if unconscious and not _unavailable(g, team, number):  # type: ignore[arg-type]
            # 21.d: "no player who has been rendered unconscious shall be allowed to resume play
            # in any game that day".
            p = _player(g, team, number, taking_part=False)  # type: ignore[arg-type]
            g = evolve(g, unavailable=g.unavailable + (Unavailable(team, number, "unconscious", p.name),))  # type: ignore[arg-type]
        injured = reason == "injured_player" or unconscious or visibly_injured
        # 21.d: ten minutes to recover; "no subsequent time-outs for a recurrence of the same
        # injury". CHOICE: a fall counts as an injury when the player is hurt or unconscious.
        if injured and not same_injury:
            timers.append(Timer("injured_player", INJURY_SECONDS, team, number, now, "21.d"))
    elif reason in ("injured_horse", "horse_fall", "horse_timeout"):
        provision = {"injured_horse": "21.f(1)", "horse_fall": "21.f(3)", "horse_timeout": "21.f(4)"}[reason]
        if reason == "horse_timeout":
            timers.append(Timer("horse_timeout", HORSE_TIMEOUT_SECONDS, team, number, now, "21.f(4)"))
        # 21.f(1): an injured or distressed mount is excused; 21.f(3): a fallen mount only when it
        # is not sound (the player "must change mounts in accordance with 21.f(1)(i)"); 21.f(4):
        # the mount of a player's time-out "may not return to the game".
        excuse = reason != "horse_fall" or visibly_injured
        if horse is None and team is not None and number is not None:
            horse = _mounted(g, team, number)
        if excuse and horse is not None and team is not None and number is not None \
                and _excusal(g, team, horse) is None:
            # The excusal belongs to this stoppage (a whistle in play is about to count one).
            stoppage = g.stoppage + (g.status == "in_play")
            g = evolve(g, excused=g.excused + (ExcusedHorse(team, number, horse, provision, stoppage),))
    elif reason == "courtesy_change":
        timers.append(Timer("courtesy_change", COURTESY_SECONDS, None, None, now, "21.f(2)"))
        g = evolve(g, courtesy_period=g.period)
    elif reason == "broken_tack":
        # 21.g: five minutes when the committee announced the allowance (for games of upper limit
        # 6 or less), or when the tack was broken by contact with another horse. CHOICE: the
        # umpires grant an announced allowance without checking the game's handicap limit again.
        if contact or cfg.tack_allowance:
            timers.append(Timer("broken_tack", TACK_SECONDS, team, number, now, "21.g"))
    if len(timers) != len(g.timers):
        g = evolve(g, timers=tuple(timers))

    if g.status != "in_play":
        # CHOICE: a stoppage recorded during a break in play (a horse, an injury, a courtesy
        # change) leaves the pending restart as it is ("Play will be restarted with a throw-in,
        # penalty, free hit or knock-in, as the case may be", 21.f(2)).
        return g

    # -- how play resumes (Rule 22) --
    taken = g.taken
    if reason == "damaged_ball" and first_hit and taken is not None and taken.is_hit:
        # 22.d: broken on the first hit of a foul shot or a hit-in: the same restart again.
        restart = evolve(taken, again=m.S_AGAIN, rule="22.d", clause="22.d")
    elif taken is not None and taken.is_hit and reason in ("other", "rule_check", "inadvertent") \
            and _not_yet_taken(g, taken, ball, clock):
        restart = evolve(taken, again=m.S_RETAKE)
    elif fair_play:
        restart = _possession_play(g, ball, possession)  # type: ignore[arg-type]
    else:
        # 22.e(4) (21.j for an inadvertent whistle): a throw-in toward the nearer side.
        restart = R.throw_in(cfg.field, ball)
    return _after_stoppage(g, restart, now, _halt(g, clock))


def _not_yet_taken(game: Game, taken: Restart, ball: Point | None, clock: float | None) -> bool:
    if ball is not None:
        return taken.spot is not None and math.dist(ball, taken.spot) <= RETAKE_RADIUS
    if clock is None or game.taken_clock is None:
        return True
    return clock - game.taken_clock <= (taken.hit_within_seconds or 0)


def _possession_play(game: Game, ball: Point, team: str) -> Restart:
    """22.h(1)-(3)."""
    field = game.config.field
    inside = field.inside_sixty(ball[0])
    if inside is None:
        return R.possession_play(field, ball, team, None, "22.h(1)")
    if game.defender_of(inside) == team:
        return R.possession_play(field, ball, team, None, "22.h(3)")
    return R.possession_play(field, ball, team, inside, "22.h(2)")


def _restart_violation(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    kind = _choice(ev, "kind", VIOLATIONS)
    team = _team(ev, "team")
    _gate(game, "in_play", "stopped", "interval")
    if game.status in ("stopped", "interval") and game.restart is not None:
        r = game.restart  # before the ball is hit: early, delay, encroachment
    elif game.status == "in_play" and game.taken is not None:
        r = game.taken  # "Play" was called: late, passed, encroachment
    else:
        _refuse("restart_violation_not_applicable", "22", m.NO_VIOLATION_HERE)
    if not r.is_hit or r.team is None:
        _refuse("restart_violation_not_applicable", "22", m.NO_VIOLATION_HERE)
    taker = r.team
    field = game.config.field
    by_taker = team == taker
    if by_taker and kind == "encroachment" or not by_taker and kind not in ("encroachment", "delay"):
        _refuse("restart_violation_not_applicable", "22", m.VIOLATION_NOT_BY_TEAM, kind=kind)
    if r.kind == "knock_in":
        rule = "22.a"
        if by_taker:
            # 22.a: passed by, not hit within 10 s, or hit before "Play": Penalty 4 to the
            # opposing team. CHOICE: delay by the team knocking in is a late knock-in.
            restart = R.penalty(field, "4", other(taker), game.defends(taker), None, rule=rule)
        else:
            # 22.a: a defender closer than 30 yards, or delaying: Penalty 5.b to the team knocking in.
            restart = R.penalty(field, "5b", taker, game.defends(other(taker)), None, rule=rule)
    else:
        # 22.b for foul shots; 22.f and 22.h apply "the same procedures concerning player
        # positioning and delays ... as those that apply to a Penalty 5.a".
        rule = "22.b"
        if by_taker:
            # 22.b: "a Penalty 5.a from the spot where the penalty was being taken unless that
            # spot is within the 60-yard line in front of the goal that team is defending, in
            # which case ... a Penalty 4". "That team" is the team that took the shot: the
            # rule's own examples (a Penalty 2 kicked on the approach, a Penalty 6 kicked
            # forward, a Penalty 4 passed) all give a 5.a to the other team. See CONTRACT-NOTES.
            own_end = game.defends(taker)
            spot = r.spot or field.centre
            if field.distance_from_end(own_end, spot[0]) <= 60.0:  # type: ignore[arg-type]
                restart = R.penalty(field, "4", other(taker), own_end, None, rule=rule)
            else:
                restart = R.penalty(field, "5a", other(taker), own_end, spot, rule=rule)
        else:
            # CHOICE: defenders encroaching on or delaying a foul shot or free hit: a Penalty
            # 5.b to the team taking it, as 22.a gives for a knock-in.
            restart = R.penalty(field, "5b", taker, game.defends(other(taker)), None, rule=rule)
    if game.status == "in_play":
        return _after_stoppage(game, restart, now, _halt(game, clock))
    return _replace_pending(game, restart, {})


def _horn(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    kind = _choice(ev, "kind", ("seven", "final"))
    ball = _position(game, ev, "ball", required=False)
    cfg = game.config
    if game.status in ("interval", "tied", "final") and game.ended_by is not None:
        # CHOICE: a horn for a period that has already ended (a stoppage after the seven-minute
        # horn, a goal, or the double horn itself) is recorded and changes nothing: the
        # timekeeper still sounds it, and a server may append a due horn late.
        return game
    _gate(game, "in_play", "stopped")
    if kind == "seven":
        if game.status == "stopped" and not game.final_like:
            # 14.b example: "The 7-minute horn sounds when the ball is in the Umpire's hand for a
            # throw-in. In every regulation period but the final ... the period ends as the ball
            # is out of play." The pending restart opens the next period (22.g).
            return _end_period(game, game.restart, now, "stoppage",
                               {"elapsed": max(game.elapsed, cfg.period_seconds)})
        if game.running and game.anchor is not None and now is not None:
            return game  # a live clock is already past the horn: the horn only marks it
        g = evolve(game, elapsed=max(game.elapsed, cfg.period_seconds if clock is None else float(clock)))
        if g.status == "stopped" and g.restart is not None:
            restart, elapsed = _min_clock(g, g.restart, g.elapsed)
            g = evolve(g, restart=restart, elapsed=elapsed)
        return g
    if game.status == "stopped":
        if game.final_like:
            _refuse("not_in_play", "14.b(2)", m.HORN_WHILE_STOPPED)
        return _end_period(game, game.restart, now, "horn", {"elapsed": cfg.period_end})
    return _end_by_horn(game, ball, now)


def _clock_set(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    """14.b(1): the umpires have final authority to correct the official time."""
    if clock is None:
        _invalid(m.MISSING_FIELD, field="clock")
    _gate(game, "in_play", "stopped")
    g = evolve(game, elapsed=float(clock), anchor=now if game.running else None)  # type: ignore[arg-type]
    if g.held_from is not None:  # held by an entry in progress: released, it runs from the new time
        g = evolve(g, held_from=(float(clock), now))  # type: ignore[arg-type]
    if g.running:
        return _end_by_horn(g, None, now) if g.elapsed > g.config.period_end else g
    if g.elapsed >= g.config.period_seconds and g.restart is not None:
        # The stoppage turns out to have come after the seven-minute horn (14.b(2)).
        if not g.final_like:
            return _end_period(g, g.restart, now, "stoppage")
        restart, elapsed = _min_clock(g, g.restart, g.elapsed)
        return evolve(g, restart=restart, elapsed=elapsed)
    return g


def _card(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    team = _team(ev, "team")
    number = _number(ev, required=True)
    color = _choice(ev, "color", ("yellow", "red"))
    _player(game, team, number, taking_part=False)  # type: ignore[arg-type]
    # CHOICE: a card is shown while play is stopped (21.b, and the contract's "a card shown
    # while play is stopped"); during play the umpire blows first (a foul with ``card``).
    _gate(game, "stopped", "interval", "scheduled", "tied")
    return evolve(game, cards=game.cards + ((team, number, color),))


def _mounted(game: Game, team: str, number: int) -> str | None:
    for t, n, h in game.mounts:
        if t == team and n == number:
            return h
    return None


def _excusal(game: Game, team: str, horse: str) -> ExcusedHorse | None:
    # CHOICE: a horse is known by its team and name; an excused horse may not return under any
    # player of that team ("The excused mount may not play again in the game").
    for e in game.excused:
        if e.team == team and e.horse == horse:
            return e
    return None


def _mount(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    team = _team(ev, "team")
    number = _number(ev, required=True)
    horse = _text(ev, "horse", required=True)
    _player(game, team, number)  # type: ignore[arg-type]
    _gate(game, "in_play", "stopped", "interval", "scheduled", "tied", "shootout")
    mounts = tuple(x for x in game.mounts if not (x[0] == team and x[1] == number)) + ((team, number, horse),)
    g = evolve(game, mounts=mounts)
    excused = _excusal(game, team, horse)  # type: ignore[arg-type]
    if excused is None:
        return g
    # CHOICE: only for the player's own time-out (21.f(4)); an injured or distressed mount
    # (21.f(1)) or an unsound fallen one (21.f(3)) stays excused.
    if excused.provision == "21.f(4)" and excused.number == number and excused.stoppage == game.stoppage \
            and game.status != "in_play":
        # 21.f(4) example: "The mount trots out sound, Blue #3 remounts, and play continues."
        # Remounting it in the same time-out, before play resumes, withdraws the excusal.
        return evolve(g, excused=tuple(e for e in g.excused if e is not excused))
    # 21.f(5): returning an excused mount to play: "the penalty shall be forfeiture ... this
    # penalty must be exacted, whether during or after a game".
    return _forfeited(g, team, "excused_horse_returned", now)  # type: ignore[arg-type]


def _forfeited(game: Game, team: str, reason: str | None, now: float | None) -> Game:
    ended_at = now if game.ended_at is None else game.ended_at
    return _finish(game, other(team), "forfeit", ended_at, game.ended_by or "forfeit", {"forfeit": (team, reason)})


def _substitution(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    team = _team(ev, "team")
    out = _number(ev, "out", required=True)
    player = ev.get("player")
    if not isinstance(player, dict):
        _invalid(m.MISSING_FIELD, field="player")
    name = player.get("name")
    handicap = player.get("handicap")
    if name is not None and not isinstance(name, str) or handicap is not None and not _is_num(handicap):
        _invalid(m.BAD_FIELD, field="player")
    _player(game, team, out, taking_part=False)  # type: ignore[arg-type]
    # CHOICE: the engine does not police when substitutions happen (not in Rules 14, 21, 22).
    _gate(game, "in_play", "stopped", "interval", "scheduled", "tied", "shootout")
    if name and any(u.name == name and u.team == team for u in game.unavailable):
        # 21.d: an unconscious player may not come back in as a substitute either.
        _refuse("player_unavailable", "21.d", m.SUBSTITUTE_UNAVAILABLE, name=name)
    idx = 0 if team == "home" else 1
    roster = tuple(Player(out, name, handicap) if p.number == out else p for p in game.rosters[idx])  # type: ignore[arg-type]
    rosters = (roster, game.rosters[1]) if idx == 0 else (game.rosters[0], roster)
    unavailable = tuple(evolve(u, substituted=True) if u.team == team and u.number == out else u
                        for u in game.unavailable)
    mounts = tuple(x for x in game.mounts if not (x[0] == team and x[1] == out))
    # CHOICE: the handicap goals were fixed before the game; a substitute does not change them.
    return evolve(game, rosters=rosters, unavailable=unavailable, mounts=mounts)


def _suspend(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    ball = _position(game, ev, "ball", required=False)
    _text(ev, "reason")
    _gate(game, "scheduled", "in_play", "stopped", "interval", "tied", "shootout")
    g = game
    if g.status == "in_play":
        # 21.k, 22.j: resumed "at the point at which it was suspended as to score, period, and
        # position of the ball". CHOICE: with the ball in play, by a throw-in where it was (the
        # optional ``ball`` of ``suspend``), toward the nearer side; stopped, by the restart due.
        g = _after_stoppage(g, R.suspended_throw_in(g.config.field, ball), now, _halt(g, clock))
    return evolve(g, status="suspended", suspended_from=g.status)


def _resume(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    _text(ev, "reason")
    if game.status != "suspended":
        _gate_over(game)
        _refuse("not_suspended", "22.j", m.NOT_SUSPENDED)
    return evolve(game, status=game.suspended_from, suspended_from=None)


def _abandon(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    _text(ev, "reason")
    if game.status != "suspended":
        # 22.j: "If a suspended game is determined to have no conceivable effect on the outcome
        # of the event, the game may be abandoned" -- only a suspended game.
        _gate_over(game)
        _refuse("not_suspended", "22.j", m.NOT_SUSPENDED)
    return evolve(game, status="abandoned", suspended_from=None, restart=None, winner=None, result=None,
                  ended_at=now)


def _tied_at_period_end(game: Game) -> bool:
    """Tied at the end of the final regulation period or of an overtime period, before the next
    period has started (14.c, 14.d)."""
    if not game.tied:
        return False
    if game.status == "tied":
        return True
    return game.status == "interval" and game.final_like


def _overtime(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    if not _tied_at_period_end(game):
        _refuse("not_tied", "14.c", m.NOT_TIED_OVERTIME)
    # 14.c: overtime periods, with intervals between periods as provided in Rule 16.
    return evolve(game, status="interval", interval_started_at=now if game.status == "tied" else game.interval_started_at)


def _shootout_start(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    fmt = _choice(ev, "format", ("team", "single"))
    first = _team(ev, "first")
    order = ev.get("order")
    if not _tied_at_period_end(game):
        _refuse("not_tied", "14.d", m.NOT_TIED_SHOOTOUT)
    if not isinstance(order, dict):
        _invalid(m.MISSING_FIELD, field="order")
    lists: dict[str, tuple[int, ...]] = {}
    for t in TEAMS:
        raw = order.get(t)
        if not isinstance(raw, list) or not raw or len(set(map(repr, raw))) != len(raw) or \
                any(not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 4 for n in raw):
            _invalid(m.SHOOTOUT_ORDER)
        for n in raw:
            _player(game, t, n)
        lists[t] = tuple(raw)
    # CHOICE: both teams hit the same number of times per round (the rounds alternate teams);
    # a team short of an unavailable player names fewer, and so must the other.
    if len(lists["home"]) != len(lists["away"]) or (fmt == "single" and len(lists["home"]) != 1):
        _invalid(m.SHOOTOUT_ORDER)
    return evolve(game, status="shootout", restart=None, running=False, anchor=None,
                  shootout=Shootout(fmt, first, lists))  # type: ignore[arg-type]


def _shootout_attempt(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    team = _team(ev, "team")
    number = _number(ev, required=True)
    scored = ev.get("scored")
    if not isinstance(scored, bool):
        _invalid(m.MISSING_FIELD if scored is None else m.BAD_FIELD, field="scored")
    if game.status != "shootout":
        if game.status in ("final", "abandoned", "suspended"):
            _gate(game)
        _refuse("not_in_shootout", "14.d", m.NOT_IN_SHOOTOUT)
    _player(game, team, number)  # type: ignore[arg-type]
    so = game.shootout
    limit = game.config.upper_handicap_limit
    nxt = progress(so, limit).next  # type: ignore[arg-type]
    if nxt != (team, number):
        _refuse("shootout_out_of_turn", "14.d", m.SHOOTOUT_OUT_OF_TURN,
                team=game.config.team(nxt[0]).name, number=nxt[1])  # type: ignore[index]
    so = evolve(so, attempts=so.attempts + ((team, number, scored),))  # type: ignore[union-attr]
    winner = progress(so, limit).winner
    if winner is None:
        return evolve(game, shootout=so)
    # 14.d: "the team with more points will be declared the game winner by one goal": one goal is
    # added to the winner's score (and counted among its goals).
    goals = _one_more(game.goals, winner)
    return _finish(game, winner, "shootout", now, "shootout",
                   {"shootout": evolve(so, winner=winner), "goals": goals})


def _hold(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    """An official's first key of a stoppage: "play and the clock are stopped" (21) at that
    moment, while the entry is typed. A hold while the clock is held already joins it (the
    screens show who is logging what); the stoppage that follows is recorded at the held time."""
    kind = _choice(ev, "kind", STOPPAGES)
    by = ev.get("by")
    if by is not None and not (type(by) is dict and all(type(v) is str for v in by.values())):
        _invalid(m.BAD_FIELD, field="by")
    _gate(game, "in_play")
    hold = Hold(ev["id"], kind, game.elapsed if clock is None else float(clock), by)  # type: ignore[arg-type]
    if game.holds or not game.running:
        return evolve(game, holds=game.holds + (evolve(hold, clock=game.elapsed),))
    return evolve(game, running=False, anchor=None, elapsed=hold.clock, holds=(hold,),
                  held_from=(game.elapsed, game.anchor))


def _unhold(game: Game, hold_id: str) -> Game:
    """One entry in progress is finished or abandoned. When no other is, and the ball is still in
    play, the clock runs again as if it had never stopped."""
    holds = tuple(h for h in game.holds if h.id != hold_id)
    if not holds and game.status == "in_play" and game.held_from is not None:
        elapsed, anchor = game.held_from
        return evolve(game, holds=(), held_from=None, running=True, elapsed=elapsed, anchor=anchor)
    return evolve(game, holds=holds)


def _release(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    """The entry was abandoned (Esc): the hold goes, nothing else happened."""
    target = ev.get("target")
    if not isinstance(target, str) or not target:
        _invalid(m.MISSING_FIELD, field="target")
    if not any(h.id == target for h in game.holds):
        _refuse("not_held", None, m.NOT_HELD, target=target)
    return _unhold(game, target)  # type: ignore[arg-type]


def _forfeit(game: Game, ev: dict, clock: float | None, now: float | None) -> Game:
    team = _team(ev, "team")
    reason = _text(ev, "reason")
    if game.forfeit is not None:
        _refuse("match_over", "21.f(5)", m.ALREADY_FORFEITED)
    if game.status == "abandoned":
        _gate(game)
    if game.status == "final" and game.ended_at is not None and now is not None \
            and now - game.ended_at > FORFEIT_WINDOW:
        _refuse("forfeit_too_late", "21.f(5)", m.FORFEIT_TOO_LATE)
    return _forfeited(game, team, reason, now)  # type: ignore[arg-type]


HANDLERS: dict[str, Handler] = {
    "play": _play, "goal": _goal, "foul": _foul, "ball_out": _ball_out, "whistle": _whistle,
    "restart_violation": _restart_violation, "horn": _horn, "clock_set": _clock_set, "card": _card,
    "mount": _mount, "substitution": _substitution, "suspend": _suspend, "resume": _resume,
    "abandon": _abandon, "overtime": _overtime, "shootout_start": _shootout_start,
    "shootout_attempt": _shootout_attempt, "forfeit": _forfeit, "hold": _hold, "release": _release,
}
EVENT_TYPES = frozenset(HANDLERS) | {"void"}
# CHOICE: an event timed after 7:30 finds the period already over (14.b(1): it "ends at 7 minutes
# and 30 seconds expired on the official clock" whether or not the horn is heard). The umpire's
# whistle that stops the game "at the end of each period" (21.i) and a ball going out after time
# are then accepted and change nothing more.
_AFTER_TIME_NOOPS = ("whistle", "ball_out")


def _apply(game: Game, ev: dict, now: float | None) -> Game:
    """The rules for one event whose shape (type, id) is known good; raises ``_Refused``."""
    clock = ev.get("clock")
    if clock is not None and (type(clock) not in (int, float) or not 0 <= clock < math.inf):
        _invalid(m.BAD_FIELD, field="clock")
    etype = ev["type"]
    if game.running and clock is not None:
        if clock < game.elapsed - EPSILON and etype != "clock_set":
            _refuse("clock_before_previous_event", "14.b(1)", m.CLOCK_BACKWARDS, clock=clock, elapsed=game.elapsed)
        if clock > game.config.period_end + EPSILON and etype not in ("horn", "clock_set", "goal"):
            # 14.b(1): the period ended at 7:30 on the official clock, whether or not the horn
            # was heard; then this event is judged.
            game = _end_by_horn(game, None, now)
            if etype in _AFTER_TIME_NOOPS:
                return game
    g = HANDLERS[etype](game, ev, clock, now)
    if g.holds or g.held_from is not None:
        g = _settle_holds(g, ev)
    tick = g.running and clock is not None and g.elapsed < clock and (g.anchor is None or now is None)
    stale_horn = g.fresh_horn and etype not in ("horn", "whistle", "card")
    if tick or stale_horn:
        # An event that does not stop play still tells the official time (a replay has no wall
        # clock to run it); the foul "at the horn" of Rule 21 must follow the horn at once.
        changes: dict[str, Any] = {"elapsed": float(clock)} if tick else {}  # type: ignore[arg-type]
        if stale_horn:
            changes["fresh_horn"] = False
        if g is game:
            return evolve(g, **changes)
        g.__dict__.update(changes)  # ``g`` is new, made by the handler for this event alone
    return g


def _settle_holds(g: Game, ev: dict) -> Game:
    """After an event: the entry it completes (``hold``) is no longer in progress; a stoppage has
    stopped the clock for good; a period or game that ended leaves no entry in progress."""
    named = ev.get("hold")
    if ev["type"] not in ("hold", "release") and type(named) is str and any(h.id == named for h in g.holds):
        g = _unhold(g, named)
    if g.status not in ("in_play", "stopped"):
        return evolve(g, holds=(), held_from=None)
    if g.status == "stopped" and g.held_from is not None:
        return evolve(g, held_from=None)
    return g


def _held_clock(game: Game, ev: dict) -> dict:
    """While an entry holds the clock, a stoppage happened at the held time, whenever it is sent."""
    if game.held_from is not None and game.status == "in_play" and ev["type"] in STOPPAGES \
            and ev.get("clock") != game.elapsed:
        return {**ev, "clock": game.elapsed}
    return ev


def _stamp_refusal(game: Game, ev: dict, now: float) -> tuple[dict, m.Rejection | None]:
    """A clock stamped by the official's device (the entry's first key), checked against the
    running official clock: a skewed device cannot rewrite history (14.b(1))."""
    clock = ev.get("clock")
    if clock is None or not game.running or game.anchor is None or ev["type"] in ("clock_set", "horn") \
            or not _is_num(clock):
        return ev, None
    official = min(game.elapsed + max(0.0, now - game.anchor), game.config.period_end)
    params = {"clock": round(float(clock), 1), "official": round(official, 1), "window": int(CLOCK_STAMP_WINDOW)}
    if clock > official + CLOCK_AHEAD_TOLERANCE:
        return ev, m.Rejection("clock_ahead", "14.b(1)", m.CLOCK_AHEAD, params)
    if clock < official - CLOCK_STAMP_WINDOW:
        return ev, m.Rejection("clock_too_old", "14.b(1)", m.CLOCK_TOO_OLD, params)
    if clock > official:
        return {**ev, "clock": round(official, 3)}, None
    return ev, None


# -- the log: ids, sequence numbers, corrections ----------------------------------------------------

# ``server_time``: the wall time (epoch s) a live server decided the event at, stored with it so a
# re-fold gets the clock's anchor back. (Not ``at``: that is where a ball went out.)
WALL_TIME = "server_time"
_NOT_CONTENT = ("expected_seq", WALL_TIME)


def _same_content(new: dict, stored: dict) -> bool:
    a = {k: v for k, v in new.items() if k not in _NOT_CONTENT}
    b = {k: v for k, v in stored.items() if k not in _NOT_CONTENT}
    if "clock" not in a:
        b.pop("clock", None)  # the server filled it in the first time
    return a == b


def new_game(config: MatchConfig) -> Game:
    return _new_game_state(config, R.opening(config.field))


_EMPTY_LOG = Log()


SNAPSHOT_EVERY = 16  # a void re-folds from the nearest snapshot before its target


def _refold(game: Game, events: list[dict]) -> Game:
    g = game
    for ev in events:
        try:
            g = _apply(g, ev, _wall_time(ev))
        except _Refused as r:
            _refuse("void_would_invalidate", None, m.VOID_INVALIDATES, id=ev.get("id"),
                    reason=r.rejection.code)
    return g


def _void(game: Game, ev: dict) -> Game:
    """A correction: the target no longer counts. The log keeps both; the state is the fold of
    the log without the target (and without earlier voided events)."""
    target = ev.get("target")
    if not isinstance(target, str) or not target:
        _invalid(m.MISSING_FIELD, field="target")
    _text(ev, "reason")
    entry = game.log.find(target, game.log_len)
    if entry is None:
        _refuse("void_unknown_target", None, m.VOID_UNKNOWN, target=target)
    if entry.event["type"] == "void":
        _invalid(m.VOID_OF_VOID)
    if target in game.voided:
        _refuse("void_unknown_target", None, m.VOID_ALREADY, target=target)
    voided = game.voided | {target}
    entries = game.log.entries
    start, base = 0, new_game(game.config)
    # The nearest snapshot at or before the target that no later void has outdated (a void
    # appended after the snapshot, of an event before it, changed what precedes the snapshot).
    index = game.log.index
    voids = [(e.seq - 1, index[e.event["target"]]) for e in entries[:game.log_len] if e.event["type"] == "void"]
    for i in range(entry.seq - 1, -1, -1):
        snap = entries[i].before
        if snap is not None and not any(tp < i <= p for p, tp in voids):
            start, base = i, snap
            break
    kept = [e.event for e in entries[start:game.log_len] if e.event["type"] != "void" and e.id not in voided]
    return evolve(_refold(base, kept), voided=voided)


def decide(game: Game, event: Any, *, now: float | None = None, stamps: bool = True) -> Decision:
    """Accept or refuse ``event`` and return the Decision (the new Game when accepted, the same
    Game with a Rejection when not). ``now`` (epoch seconds) fills a missing ``clock`` from the
    running clock; replays pass none. ``stamps``: with ``now``, check a ``clock`` the event
    brings against the running clock (an official's device); False where the caller's ``now``
    is itself simulated (a demo, an import) and its clocks are the record."""
    # The common path is straight-line: the server re-derives a match from its log on every event.
    if type(event) is not dict or type(event.get("id")) is not str or type(event.get("type")) is not str \
            or not event["id"] or event["type"] not in EVENT_TYPES:
        return _bad_shape(game, event)
    eid = event["id"]
    log_len = game.log_len
    i = game.log.index.get(eid)
    if i is not None and i < log_len:
        return _repeated(game, event, game.log.entries[i])
    ev = event
    if "expected_seq" in ev or WALL_TIME in ev or now is not None:
        ev, now, refused = _admit(game, ev, now, stamps)
        if refused is not None:
            return Decision(False, game, refused, ev)
    if game.held_from is not None:
        ev = _held_clock(game, ev)
    try:
        g = _void(game, ev) if ev["type"] == "void" else _apply(game, ev, now)
    except _Refused as refusal:
        return Decision(False, game, refusal.rejection, ev)
    seq = log_len + 1
    log = game.log.appended(log_len, Entry(seq, eid, ev, _rules_only(game) if seq % SNAPSHOT_EVERY == 1 else None))
    if g is game:
        return Decision(True, evolve(g, log=log, log_len=seq), None, ev)
    # ``g`` was made by this call and nobody else holds it yet: finishing it in place saves a copy
    # per event on the server's hot path.
    g.__dict__.update(log=log, log_len=seq)
    return Decision(True, g, None, ev)


def _bad_shape(game: Game, event: Any) -> Decision:
    if type(event) is dict and type(event.get("id")) is str and event["id"] and type(event.get("type")) is str:
        return Decision(False, game, m.Rejection("invalid_event", None, m.BAD_TYPE, {"value": event["type"]}), event)
    return Decision(False, game, m.Rejection("invalid_event", None, m.BAD_SHAPE), event if type(event) is dict else None)


def _repeated(game: Game, event: dict, entry: Entry) -> Decision:
    """Posting the same id twice records it once; different content under a used id is refused.
    CHOICE: only an accepted event takes its id; a refused one may be sent again, and is judged
    afresh. Content is compared without ``expected_seq`` and ``server_time``, and without ``clock`` when
    the repeat leaves it for the server to fill."""
    if _same_content(event, entry.event):
        return Decision(True, game, None, entry.event)
    return Decision(False, game, m.Rejection("duplicate_id", None, m.DUPLICATE_ID), event)


def _admit(game: Game, ev: dict, now: float | None, stamps: bool = True) -> tuple[dict, float | None, m.Rejection | None]:
    """The live server's part: ``expected_seq`` checked and dropped, ``now`` recorded as ``at``
    (or read back from it), a missing ``clock`` filled in from the running clock."""
    if "expected_seq" in ev:
        exp = ev["expected_seq"]
        if type(exp) is not int or exp < 0:
            return ev, now, m.Rejection("invalid_event", None, m.BAD_FIELD, {"field": "expected_seq"})
        if exp < game.log_len:
            return ev, now, m.Rejection("stale_sequence", None, m.STALE_SEQUENCE,
                                        {"last": game.log_len, "expected": exp})
        if exp > game.log_len:  # CHOICE: a client ahead of the log sent a bad event, not a stale one
            return ev, now, m.Rejection("invalid_event", None, m.SEQ_AHEAD, {"last": game.log_len, "expected": exp})
        ev = {k: v for k, v in ev.items() if k != "expected_seq"}
    if now is None:
        now = _wall_time(ev)
    elif WALL_TIME not in ev:
        ev = {**ev, WALL_TIME: now}
        if stamps:
            ev, refused = _stamp_refusal(game, ev, now)
            if refused is not None:
                return ev, now, refused
    if ev.get("clock") is None and game.running and game.anchor is not None and now is not None:
        ev = {**ev, "clock": round(game.elapsed + max(0.0, now - game.anchor), 3)}
    return ev, now, None


def _wall_time(ev: dict) -> float | None:
    t = ev.get(WALL_TIME)
    return t if t is not None and _is_num(t) else None


def _rules_only(game: Game) -> Game:
    """A snapshot for re-folding: the rules state, without the log."""
    return evolve(game, log=_EMPTY_LOG, log_len=0, voided=frozenset())


def due_events(game: Game, now: float) -> list[dict[str, Any]]:
    """The horns the running clock has made due by ``now`` (14.b(1)), with deterministic ids so
    that appending one twice records it once."""
    if not game.running or game.anchor is None:
        return []
    cfg = game.config
    projected = game.elapsed + (now - game.anchor)
    due = []
    if game.elapsed < cfg.period_seconds <= projected:
        due.append({"type": "horn", "kind": "seven", "clock": float(cfg.period_seconds),
                    "id": f"auto:{game.period}:seven"})
    if projected >= cfg.period_end:
        due.append({"type": "horn", "kind": "final", "clock": float(cfg.period_end),
                    "id": f"auto:{game.period}:final"})
    return due
