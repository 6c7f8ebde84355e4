"""The ball in play: "Play", and the events that stop it — a goal, a foul, a ball out, the
whistle, a restart violation (Rules 14.b(2), 21 and 22).

Each handler takes the game and its event's record (``events.py``), checks the rules and returns
a new Game, or raises ``Refused``. Where play resumes is ``restarts.py``; how a period ends is
``periods.py``.
"""

from __future__ import annotations

import math
from typing import Any

from . import events as E, messages as m, restarts as R
from .geometry import Point, between_posts
from .periods import (
    after_stoppage,
    end_period,
    finish,
    gate,
    halt,
    min_clock,
    one_more,
    reopen_at_the_horn,
    replace_pending,
)
from .players import excusal, mounted, player, unavailable
from .refusals import invalid, missing, refuse
from .state import ExcusedHorse, Game, Restart, Timer, Unavailable, evolve, flip, leader, next_period, other

# 22.h lists what fair-play possession follows: a perceived violation that ends in no foul, an
# inadvertent whistle, a damaged or buried ball, a fallen or injured umpire, player or horse, "or
# some other perceived emergency or unexpected event". A courtesy change (21.f(2): "when the ball
# is out of play or at a neutral play") and a lost helmet (21.h: "when the play is in a neutral
# position") are stopped when nobody is disadvantaged, so possession is not kept for them. A
# horse time-out (21.f(4)) may be called "immediately" for an injured mount — 22.h's "injured ...
# horse" — so it may keep possession when the umpires judge the team disadvantaged; broken tack and
# a lodged ball are "unexpected events" and may keep it too.
NO_FAIR_PLAY = ("courtesy_change", "lost_helmet")
SAFETY_DEFLECTIONS = ("none", "own_mount", "goal_post", "boards")  # 21.a
EPSILON = 1e-6


def play(game: Game, ev: E.Play, clock: float | None, now: float | None) -> Game:
    """The umpire calls "Play" or throws the ball in: the pending restart is taken, the clock runs
    (the first play of a period starts it)."""
    gate(game, "scheduled", "stopped", "interval")
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
    return evolve(
        game,
        status="in_play",
        elapsed=elapsed,
        running=True,
        anchor=now,
        restart=None,
        taken=taken,
        taken_clock=elapsed,
        timers=(),
        holds=(),
        held_from=None,
        **changes,
    )


def goal(game: Game, ev: E.Goal, clock: float | None, now: float | None) -> Game:
    team = ev.team
    cfg = game.config
    # 14.b(1): "A goal scored after time has expired on the official clock does not count, even
    # if it is before the second horn ... and before the Umpires blow their whistles."
    if (clock is not None and clock > cfg.period_end + EPSILON) or (
        game.ended_by == "horn" and game.status in ("interval", "tied", "final")
    ):
        refuse("goal_after_time", "14.b(1)", m.GOAL_AFTER_TIME)
    gate(game, "in_play")
    if ev.number is not None:
        player(game, other(team) if ev.own_goal else team, ev.number)
    changes = halt(game, clock)
    goals = one_more(game.goals, team)
    # 22.e(1): ends change after every goal (not after handicap goals).
    changes.update(goals=goals, home_defends=flip(game.home_defends))
    restart = R.after_goal(cfg)
    if game.period_kind == "overtime":
        return finish(game, team, "overtime", now, "goal", changes)  # 14.c: the first goal decides
    if changes["elapsed"] >= cfg.period_seconds:
        if not game.final_like:
            return end_period(game, restart, now, "goal", changes)  # 14.b(2): the goal ends the period
        # 14.b(2), final regulation period: play goes on after the seven-minute horn until a
        # goal, "unless that goal ties the score".
        ahead = leader(game.config, goals)
        if ahead is not None:
            return finish(game, ahead, "regulation", now, "goal", changes)
        restart, changes["elapsed"] = min_clock(game, restart, changes["elapsed"])
    return evolve(game, status="stopped", restart=restart, **changes)


def foul(game: Game, ev: E.Foul, clock: float | None, now: float | None) -> Game:
    against, pen = ev.against, ev.penalty
    fouled = other(against)
    scored_by = ev.scored_by or fouled
    cfg = game.config
    if ev.number is not None:
        player(game, against, ev.number)
    cards = (*game.cards, (against, ev.number, ev.card)) if ev.card else game.cards

    if ev.advantage:
        # 21.b: the umpire may elect not to stop play; the foul is noted and play goes on.
        gate(game, "in_play")
        return evolve(game, cards=cards) if ev.card else game
    if ev.goal_scored and scored_by != against and pen != "1":
        # 22.c(1): a foul confirmed against the defending team at the moment of a goal is either
        # a Penalty 1 (the field goal does not count) or no foul (record the goal instead).
        refuse("goal_at_whistle_needs_penalty_1", "22.c", m.GOAL_AT_WHISTLE)
    # 22.c(2): a foul by the attacking team at the moment of its goal: the goal does not count
    # (it is never recorded) and the penalty is awarded like any other.

    # CHOICE: "at or slightly after the horn" is a foul recorded next after the double horn that
    # ended a final-like period (only a whistle or a card between them).
    at_the_horn = game.fresh_horn and game.status in ("tied", "final", "interval") and game.final_like
    if not at_the_horn:
        gate(game, "in_play", "stopped", "interval", "scheduled")
    changes = halt(game, clock) if game.status == "in_play" else {}
    if ev.card:
        changes["cards"] = cards
    if pen == "1":
        goals = one_more(game.goals, fouled)
        # 14.b(2): one goal to the fouled team, then a Penalty 5.b to it and a change in direction.
        changes.update(goals=goals, home_defends=flip(game.home_defends))
        restart = R.after_penalty_1(cfg, fouled)
        if game.period_kind == "overtime":
            # 14.c: in overtime the first goal of any kind determines the game.
            return finish(game, fouled, "overtime", now, "goal", changes)
    else:
        restart = R.penalty(cfg, pen, fouled, game.defends(against), ev.spot, ev.from_spot)

    if at_the_horn:
        return reopen_at_the_horn(game, restart, changes)
    if game.status == "in_play":
        # 14.b(2): after the seven-minute horn the whistle ends an ordinary period and the
        # penalty opens the next one; a final-like period executes it with at least 5 seconds.
        return after_stoppage(game, restart, now, changes)
    # A dead-ball foul (21.b): play is already stopped, or between periods ("An unsportsmanlike
    # conduct penalty assessed between periods shall be executed at the beginning of the next
    # period"), or before the first period.
    return replace_pending(game, restart, changes)


def ball_out(game: Game, ev: E.BallOut, clock: float | None, now: float | None) -> Game:
    last, deflected = ev.last_hit_by, ev.deflected_off
    gate(game, "in_play")
    cfg = game.config
    field = cfg.field
    x, y = ev.at
    if ev.line == "end":
        end = field.nearer_end(x)
        if between_posts(field, cfg.edition, y):
            invalid(m.BALL_OUT_BETWEEN_POSTS)
        defender = game.defender_of(end)
        # 21.a: a safety when a player hits the ball over his own end line directly or off his
        # own mount, a goal post or the side boards. "A player is considered to have 'hit' the
        # ball if the ball merely touches the mallet": an attacker's ball that glances off a
        # defender's mallet over the defenders' end line has been hit over it by that defender.
        is_safety = (last == defender and deflected in SAFETY_DEFLECTIONS) or (
            last == other(defender) and deflected == "opponent_mallet"
        )
        if is_safety:
            restart = R.safety(cfg, end, y, other(defender))
        else:
            # 22.a; CHOICE: off an umpire, or hitter unknown, nobody can call a safety: knock-in.
            restart = R.knock_in(cfg, end, y, defender)
    else:
        side = field.nearer_side(y)
        if last is None or deflected in ("umpire", "unknown"):
            restart = R.side_throw_in(cfg, x, side)  # 22.f(vi)
        else:
            # 22.f(i): directly, off the hitter's horse, a teammate or the boards: to the other
            # team. 22.f(ii): off an opponent or his horse: to the team that last hit it.
            # An opponent's mallet counts as the opponent hitting it (21.a), which comes to the
            # same. CHOICE: off a goal post counts as (i).
            case = "ii" if deflected in ("opponent", "opponent_mallet") else "i"
            awarded = last if case == "ii" else other(last)
            inside = field.inside(x, cfg.edition.sixty)
            if inside is None:
                restart = R.side_free_hit(cfg, x, side, awarded, None, f"22.f({case})+(iii)")
            elif game.defender_of(inside) == awarded:
                restart = R.side_free_hit(cfg, x, side, awarded, None, f"22.f({case})+(iv)")
            else:
                restart = R.side_free_hit(cfg, x, side, awarded, inside, f"22.f({case})+(v)")
    return after_stoppage(game, restart, now, halt(game, clock))


def whistle(game: Game, ev: E.Whistle, clock: float | None, now: float | None) -> Game:
    reason, ball, team, number, horse = ev.reason, ev.ball, ev.team, ev.number, ev.horse
    cfg = game.config
    ed = cfg.edition
    if team is not None and number is not None:
        player(game, team, number, taking_part=False)
    # 21 allows some of these "during a break in play" (a horse, a courtesy change, an injury).
    gate(game, "in_play", "stopped", "interval", "scheduled")
    if reason == "courtesy_change":
        # 21.f(2): only when announced before the game, and one per period.
        if not cfg.courtesy_change:
            refuse("courtesy_change_not_allowed", "21.f(2)", m.COURTESY_NOT_ALLOWED)
        if game.courtesy_period == game.period and game.status != "interval":
            refuse("courtesy_change_used", "21.f(2)", m.COURTESY_USED)
    if ev.fair_play:
        if reason in NO_FAIR_PLAY or game.status != "in_play":
            refuse("fair_play_not_applicable", "22.h", m.FAIR_PLAY_REASON)
        if ev.possession is None:
            refuse("fair_play_not_applicable", "22.h", m.FAIR_PLAY_NO_TEAM)
        if ball is None:
            missing("ball")

    g = game
    timers = list(g.timers)

    # -- what the stoppage sets running (Rule 21) --
    if reason in ("injured_player", "player_fall"):
        # CHOICE: ``unconscious`` counts on a fall too (the player is then injured as well).
        if ev.unconscious and team is not None and number is not None and not unavailable(g, team, number):
            # 21.d: "no player who has been rendered unconscious shall be allowed to resume play
            # in any game that day". (``parse`` made sure an unconscious player is named.)
            p = player(g, team, number, taking_part=False)
            g = evolve(g, unavailable=(*g.unavailable, Unavailable(team, number, "unconscious", p.name)))
        injured = reason == "injured_player" or ev.unconscious or ev.visibly_injured
        # 21.d: ten minutes to recover; "no subsequent time-outs for a recurrence of the same
        # injury". CHOICE: a fall counts as an injury when the player is hurt or unconscious.
        if injured and not ev.same_injury:
            timers.append(Timer("injured_player", ed.injury_seconds, team, number, now, "21.d"))
    elif reason in ("injured_horse", "horse_fall", "horse_timeout"):
        provision = {"injured_horse": "21.f(1)", "horse_fall": "21.f(3)", "horse_timeout": "21.f(4)"}[reason]
        if reason == "horse_timeout":
            timers.append(Timer("horse_timeout", ed.horse_timeout_seconds, team, number, now, "21.f(4)"))
        # 21.f(1): an injured or distressed mount is excused; 21.f(3): a fallen mount only when it
        # is not sound (the player "must change mounts in accordance with 21.f(1)(i)"); 21.f(4):
        # the mount of a player's time-out "may not return to the game".
        excuse = reason != "horse_fall" or ev.visibly_injured
        if horse is None and team is not None and number is not None:
            horse = mounted(g, team, number)
        if excuse and horse is not None and team is not None and number is not None and excusal(g, team, horse) is None:
            # The excusal belongs to this stoppage (a whistle in play is about to count one).
            stoppage = g.stoppage + (g.status == "in_play")
            g = evolve(g, excused=(*g.excused, ExcusedHorse(team, number, horse, provision, stoppage)))
    elif reason == "courtesy_change":
        timers.append(Timer("courtesy_change", ed.courtesy_seconds, None, None, now, "21.f(2)"))
        g = evolve(g, courtesy_period=g.period)
    elif reason == "broken_tack" and (ev.contact or cfg.tack_allowance):
        # 21.g: five minutes when the committee announced the allowance (for games of upper limit
        # 6 or less: a config with it above 6 goals is refused, ``MatchConfig.from_dict``), or when
        # the tack was broken by contact with another horse.
        timers.append(Timer("broken_tack", ed.tack_seconds, team, number, now, "21.g"))
    if len(timers) != len(g.timers):
        g = evolve(g, timers=tuple(timers))

    if g.status != "in_play":
        # CHOICE: a stoppage recorded during a break in play (a horse, an injury, a courtesy
        # change) leaves the pending restart as it is ("Play will be restarted with a throw-in,
        # penalty, free hit or knock-in, as the case may be", 21.f(2)).
        return g

    # -- how play resumes (Rule 22) --
    taken = g.taken
    if reason == "damaged_ball" and ev.first_hit and taken is not None and taken.is_hit:
        # 22.d: broken on the first hit of a foul shot or a hit-in: the same restart again.
        restart = evolve(taken, again=m.S_AGAIN, rule="22.d", clause="22.d")
    elif (
        taken is not None
        and taken.is_hit
        and reason in ("other", "rule_check", "inadvertent")
        and _not_yet_taken(g, taken, ball, clock)
    ):
        restart = evolve(taken, again=m.S_RETAKE)
    elif ev.fair_play and ball is not None and ev.possession is not None:  # (both checked above)
        restart = _possession_play(g, ball, ev.possession)
    else:
        # 22.e(4) (21.j for an inadvertent whistle): a throw-in toward the nearer side.
        restart = R.throw_in(cfg, ball)
    return after_stoppage(g, restart, now, halt(g, clock))


def _not_yet_taken(game: Game, taken: Restart, ball: Point | None, clock: float | None) -> bool:
    # CHOICE: a whistle with the ball still on the restart spot (within the edition's
    # ``retake_radius``), or, without ``ball``, within the restart's time after "Play", finds the
    # restart not yet taken: the umpires let it be taken again (22.a "Calling Play": "resume the
    # knock-in by calling 'Play'", and the re-hit allowed for the officials' procedural error).
    if ball is not None:
        return taken.spot is not None and math.dist(ball, taken.spot) <= game.config.edition.retake_radius
    if clock is None or game.taken_clock is None:
        return True
    return clock - game.taken_clock <= (taken.hit_within_seconds or 0)


def _possession_play(game: Game, ball: Point, team: str) -> Restart:
    """22.h(1)-(3)."""
    cfg = game.config
    inside = cfg.field.inside(ball[0], cfg.edition.sixty)
    if inside is None:
        return R.possession_play(cfg, ball, team, None, "22.h(1)")
    if game.defender_of(inside) == team:
        return R.possession_play(cfg, ball, team, None, "22.h(3)")
    return R.possession_play(cfg, ball, team, inside, "22.h(2)")


def restart_violation(game: Game, ev: E.RestartViolation, clock: float | None, now: float | None) -> Game:
    kind, team = ev.kind, ev.team
    gate(game, "in_play", "stopped", "interval")
    if game.status in ("stopped", "interval") and game.restart is not None:
        r = game.restart  # before the ball is hit: early, delay, encroachment
    elif game.status == "in_play" and game.taken is not None:
        r = game.taken  # "Play" was called: late, passed, encroachment
    else:
        refuse("restart_violation_not_applicable", "22", m.NO_VIOLATION_HERE)
    if not r.is_hit or r.team is None:
        refuse("restart_violation_not_applicable", "22", m.NO_VIOLATION_HERE)
    taker = r.team
    cfg = game.config
    by_taker = team == taker
    if (by_taker and kind == "encroachment") or (not by_taker and kind not in ("encroachment", "delay")):
        refuse("restart_violation_not_applicable", "22", m.VIOLATION_NOT_BY_TEAM, kind=kind)
    if r.kind == "knock_in":
        rule = "22.a"
        if by_taker:
            # 22.a: passed by, not hit within 10 s, or hit before "Play": Penalty 4 to the
            # opposing team. CHOICE: delay by the team knocking in is a late knock-in.
            restart = R.penalty(cfg, "4", other(taker), game.defends(taker), None, rule=rule)
        else:
            # 22.a: a defender closer than 30 yards, or delaying: Penalty 5.b to the team knocking in.
            restart = R.penalty(cfg, "5b", taker, game.defends(other(taker)), None, rule=rule)
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
            spot = r.spot or cfg.field.centre
            if cfg.field.distance_from_end(own_end, spot[0]) <= cfg.edition.sixty:
                restart = R.penalty(cfg, "4", other(taker), own_end, None, rule=rule)
            else:
                restart = R.penalty(cfg, "5a", other(taker), own_end, spot, rule=rule)
        else:
            # CHOICE: defenders encroaching on or delaying a foul shot or free hit: a Penalty
            # 5.b to the team taking it, as 22.a gives for a knock-in.
            restart = R.penalty(cfg, "5b", taker, game.defends(other(taker)), None, rule=rule)
    if game.status == "in_play":
        return after_stoppage(game, restart, now, halt(game, clock))
    return replace_pending(game, restart, {})
