"""Rule 14: the clock and the periods — how play stops and a period or the game ends — and the
events of the clock itself: the horns, a clock correction, and the entries in progress that hold
the clock while an official types a stoppage (issue 9).

The mechanics here are shared by every handler: ``halt`` (the whistle stops play and the clock),
``after_stoppage`` (the restart due, or the end of an ordinary period after the seven-minute horn),
``end_period``, ``finish``, ``end_by_horn``. The numbers are the match config's and the rule
edition's (``cfg.period_seconds``, ``cfg.period_end``, ``edition.min_clock_remaining``).
"""

from __future__ import annotations

from typing import Any

from . import events as E, messages as m, restarts as R
from .geometry import Point
from .refusals import refuse
from .state import Game, Hold, Restart, evolve

# -- which events the status admits -------------------------------------------------------------------


def gate_over(game: Game) -> None:
    if game.status in ("final", "abandoned"):
        refuse("match_over", None, m.MATCH_OVER)


def gate(game: Game, *allowed: str) -> None:
    """Refuse events the status does not admit: the match over, the game suspended."""
    st = game.status
    if st in allowed:
        return
    if st in ("final", "abandoned"):
        refuse("match_over", None, m.MATCH_OVER)
    if st == "suspended":
        refuse("match_suspended", "22.j", m.MATCH_SUSPENDED)
    if st == "tied":
        refuse("awaiting_committee", "14.c", m.AWAITING_COMMITTEE)
    if st == "shootout":
        refuse("shootout_in_progress", "14.d", m.SHOOTOUT_IN_PROGRESS)
    if st == "in_play":
        refuse("already_in_play", None, m.ALREADY_IN_PLAY)
    refuse("not_in_play", None, m.NOT_IN_PLAY)


# -- how play stops, how a period ends --------------------------------------------------------------


def halt(game: Game, clock: float | None) -> dict[str, Any]:
    """The changes of the whistle: play and the clock stop at ``clock`` (21: "play and the clock
    are stopped"). Handlers merge them with their own and make one new Game."""
    return {
        "running": False,
        "anchor": None,
        "elapsed": game.elapsed if clock is None else float(clock),
        "stoppage": game.stoppage + 1,
        "taken": None,
        "taken_clock": None,
    }


def min_clock(game: Game, restart: Restart, elapsed: float) -> tuple[Restart, float]:
    """14.b(2), 14.c: after the seven-minute horn of a final-like period, at least 5 seconds for
    the restart: the clock goes back to 445 s if it stood later."""
    least = game.config.edition.min_clock_remaining
    latest = game.config.period_end - least
    return evolve(restart, min_clock_remaining=least), min(elapsed, latest)


def after_stoppage(game: Game, restart: Restart, now: float | None, changes: dict[str, Any]) -> Game:
    """Play has stopped (``changes`` from ``halt``, and the handler's own) and ``restart`` is
    due. After the seven-minute horn an ordinary period ends here and the restart opens the next
    one (14.b(2), 22.g); a final-like period keeps at least 5 seconds for it."""
    elapsed = changes.get("elapsed", game.elapsed)
    if elapsed >= game.config.period_seconds:
        if not game.final_like:
            return end_period(game, restart, now, "stoppage", changes)
        restart, changes["elapsed"] = min_clock(game, restart, elapsed)
    return evolve(game, status="stopped", restart=restart, **changes)


def replace_pending(game: Game, restart: Restart, changes: dict[str, Any]) -> Game:
    """A dead-ball call while play is stopped: ``restart`` replaces the pending one.
    CHOICE: the umpires' latest call decides how play resumes."""
    if game.status == "stopped" and game.final_like and game.elapsed >= game.config.period_seconds:
        restart, changes["elapsed"] = min_clock(game, restart, game.elapsed)
    elif game.status == "interval":
        restart = evolve(restart, next_period=True)
    return evolve(game, restart=restart, **changes)


def end_period(
    game: Game, restart: Restart | None, now: float | None, how: str, changes: dict[str, Any] | None = None
) -> Game:
    """An ordinary period (or an overtime period that reached the horn) ends: an interval, and
    ``restart`` is carried into the next period (22.g)."""
    if restart is not None:
        restart = evolve(restart, next_period=True, min_clock_remaining=None)
    c: dict[str, Any] = {"running": False, "anchor": None, "taken": None, "taken_clock": None}
    if changes:
        c.update(changes)
    return evolve(game, status="interval", restart=restart, ended_by=how, interval_started_at=now, **c)


def finish(
    game: Game,
    winner: str | None,
    result: str | None,
    now: float | None,
    how: str,
    changes: dict[str, Any] | None = None,
) -> Game:
    c: dict[str, Any] = {"running": False, "anchor": None, "taken": None, "taken_clock": None}
    if changes:
        c.update(changes)
    return evolve(game, status="final", winner=winner, result=result, restart=None, ended_by=how, ended_at=now, **c)


def one_more(goals: tuple[int, int], team: str) -> tuple[int, int]:
    return (goals[0] + 1, goals[1]) if team == "home" else (goals[0], goals[1] + 1)


def end_by_horn(game: Game, ball: Point | None, now: float | None) -> Game:
    """The double horn at 7:30 ends every period wherever the ball is (14.b(1), 14.e). The next
    period opens as play would have resumed (22.g): a throw-in where the ball was."""
    cfg = game.config
    changes: dict[str, Any] = {"elapsed": cfg.period_end, "stoppage": game.stoppage + 1}
    restart = R.throw_in(cfg, ball, rule="22.g") if ball is not None else R.centre_throw_in(cfg)
    if not game.final_like:
        return end_period(game, restart, now, "horn", changes)
    changes["fresh_horn"] = True
    if game.period_kind == "regulation" and not game.tied:
        return finish(game, game.leader, "regulation", now, "horn", changes)
    if game.period_kind == "regulation":
        # 14.c/14.d: a tie waits for the committee: overtime or a shootout.
        g = end_period(game, restart, now, "horn", changes)
        return evolve(g, status="tied", interval_started_at=None)
    # 14.c: an overtime period without a goal: an interval, then another overtime period.
    return end_period(game, restart, now, "horn", changes)


def spot_unknown(game: Game) -> bool:
    """The double horn ended the period with the ball in play and nobody has said where the ball
    was: the next period would open with a throw-in at the centre (``end_by_horn``), and nothing
    since has replaced that restart (``replace_pending``)."""
    return (
        game.ended_by == "horn"
        and game.status in ("interval", "tied")
        and game.restart == evolve(R.centre_throw_in(game.config), next_period=True)
    )


def reopen_at_the_horn(game: Game, restart: Restart, changes: dict[str, Any]) -> Game:
    """Rule 21 (commentary): "When a foul occurs at or slightly after the horn ending the final
    regulation period, five seconds should be put on the clock and the penalty executed."
    CHOICE: overtime periods, run like the final one (14.c), are treated the same way."""
    least = game.config.edition.min_clock_remaining
    restart = evolve(restart, next_period=False, min_clock_remaining=least)
    return evolve(
        game,
        status="stopped",
        restart=restart,
        elapsed=game.config.period_end - least,
        winner=None,
        result=None,
        ended_by=None,
        ended_at=None,
        fresh_horn=False,
        interval_started_at=None,
        **changes,
    )


def tied_at_period_end(game: Game) -> bool:
    """Tied at the end of the final regulation period or of an overtime period, before the next
    period has started (14.c, 14.d)."""
    if not game.tied:
        return False
    if game.status == "tied":
        return True
    return game.status == "interval" and game.final_like


# -- the horns and the clock --------------------------------------------------------------------------


def horn(game: Game, ev: E.Horn, clock: float | None, now: float | None) -> Game:
    cfg = game.config
    if game.status in ("interval", "tied", "final") and game.ended_by is not None:
        if ev.kind == "final" and ev.ball is not None and spot_unknown(game):
            # 22.g: "the Referee or the Timekeeper shall immediately advise the Umpire where ...
            # the game should have stopped". The server appends the double horn the running clock
            # makes due (``log.due_events``), without the ball; the scorer's own horn then says
            # where it was, and the next period opens there, as if that horn had come first.
            return evolve(game, restart=evolve(R.throw_in(cfg, ev.ball, rule="22.g"), next_period=True))
        # CHOICE: a horn for a period that has already ended (a stoppage after the seven-minute
        # horn, a goal, or the double horn itself) is recorded and changes nothing: the
        # timekeeper still sounds it, and a server may append a due horn late.
        return game
    gate(game, "in_play", "stopped")
    if ev.kind == "seven":
        if game.status == "stopped" and not game.final_like:
            # 14.b example: "The 7-minute horn sounds when the ball is in the Umpire's hand for a
            # throw-in. In every regulation period but the final ... the period ends as the ball
            # is out of play." The pending restart opens the next period (22.g).
            return end_period(game, game.restart, now, "stoppage", {"elapsed": max(game.elapsed, cfg.period_seconds)})
        if game.running and game.anchor is not None and now is not None:
            return game  # a live clock is already past the horn: the horn only marks it
        g = evolve(game, elapsed=max(game.elapsed, cfg.period_seconds if clock is None else float(clock)))
        if g.status == "stopped" and g.restart is not None:
            restart, elapsed = min_clock(g, g.restart, g.elapsed)
            g = evolve(g, restart=restart, elapsed=elapsed)
        return g
    if game.status == "stopped":
        if game.final_like:
            refuse("not_in_play", "14.b(2)", m.HORN_WHILE_STOPPED)
        return end_period(game, game.restart, now, "horn", {"elapsed": cfg.period_end})
    return end_by_horn(game, ev.ball, now)


def clock_set(game: Game, ev: E.ClockSet, clock: float | None, now: float | None) -> Game:
    """14.b(1): the umpires have final authority to correct the official time."""
    gate(game, "in_play", "stopped")
    elapsed = float(ev.clock)
    g = evolve(game, elapsed=elapsed, anchor=now if game.running else None)
    if g.held_from is not None:  # held by an entry in progress: released, it runs from the new time
        g = evolve(g, held_from=(elapsed, now))
    if g.running:
        return end_by_horn(g, None, now) if g.elapsed > g.config.period_end else g
    if g.elapsed >= g.config.period_seconds and g.restart is not None:
        # The stoppage turns out to have come after the seven-minute horn (14.b(2)).
        if not g.final_like:
            return end_period(g, g.restart, now, "stoppage")
        restart, elapsed = min_clock(g, g.restart, g.elapsed)
        return evolve(g, restart=restart, elapsed=elapsed)
    return g


# -- entries in progress hold the clock (issue 9; CONTRACT-NOTES §10) ----------------------------------


def hold(game: Game, ev: E.Hold, clock: float | None, now: float | None) -> Game:
    """An official's first key of a stoppage: "play and the clock are stopped" (21) at that
    moment, while the entry is typed. A hold while the clock is held already joins it (the
    screens show who is logging what); the stoppage that follows is recorded at the held time."""
    gate(game, "in_play")
    entry = Hold(ev.id, ev.kind, game.elapsed if clock is None else float(clock), ev.by)
    if game.holds or not game.running:
        return evolve(game, holds=(*game.holds, evolve(entry, clock=game.elapsed)))
    return evolve(
        game, running=False, anchor=None, elapsed=entry.clock, holds=(entry,), held_from=(game.elapsed, game.anchor)
    )


def unhold(game: Game, hold_id: str) -> Game:
    """One entry in progress is finished or abandoned. When no other is, and the ball is still in
    play, the clock runs again as if it had never stopped."""
    holds = tuple(h for h in game.holds if h.id != hold_id)
    if not holds and game.status == "in_play" and game.held_from is not None:
        elapsed, anchor = game.held_from
        return evolve(game, holds=(), held_from=None, running=True, elapsed=elapsed, anchor=anchor)
    return evolve(game, holds=holds)


def release(game: Game, ev: E.Release, clock: float | None, now: float | None) -> Game:
    """The entry was abandoned (Esc): the hold goes, nothing else happened."""
    if not any(h.id == ev.target for h in game.holds):
        refuse("not_held", None, m.NOT_HELD, target=ev.target)
    return unhold(game, ev.target)


def settle_holds(g: Game, ev: E.Event) -> Game:
    """After an event: the entry it completes (``hold``) is no longer in progress; a stoppage has
    stopped the clock for good; a period or game that ended leaves no entry in progress."""
    named = ev.hold
    if ev.type not in ("hold", "release") and named is not None and any(h.id == named for h in g.holds):
        g = unhold(g, named)
    if g.status not in ("in_play", "stopped"):
        return evolve(g, holds=(), held_from=None)
    if g.status == "stopped" and g.held_from is not None:
        return evolve(g, held_from=None)
    return g


def held_clock(game: Game, ev: dict[str, Any]) -> dict[str, Any]:
    """While an entry holds the clock, a stoppage happened at the held time, whenever it is sent
    (the stored event's ``clock`` says so)."""
    if (
        game.held_from is not None
        and game.status == "in_play"
        and ev["type"] in E.STOPPAGES
        and ev.get("clock") != game.elapsed
    ):
        return {**ev, "clock": game.elapsed}
    return ev
