"""The committee's events: suspending, resuming and abandoning a game (21.k, 22.j), overtime
(14.c), the shootout (14.d), and a forfeiture found after the game (21.f(5))."""

from __future__ import annotations

from . import events as E, messages as m, restarts as R
from .periods import after_stoppage, finish, gate, gate_over, halt, one_more, tied_at_period_end
from .players import forfeited, player
from .refusals import invalid, missing, refuse
from .shootout import progress
from .state import Game, Shootout, evolve

TEAMS = ("home", "away")


def suspend(game: Game, ev: E.Suspend, clock: float | None, now: float | None) -> Game:
    gate(game, "scheduled", "in_play", "stopped", "interval", "tied", "shootout")
    g = game
    if g.status == "in_play":
        # 21.k, 22.j: resumed "at the point at which it was suspended as to score, period, and
        # position of the ball". CHOICE: with the ball in play, by a throw-in where it was (the
        # optional ``ball`` of ``suspend``), toward the nearer side; stopped, by the restart due.
        g = after_stoppage(g, R.suspended_throw_in(g.config, ev.ball), now, halt(g, clock))
    return evolve(g, status="suspended", suspended_from=g.status)


def resume(game: Game, ev: E.Resume, clock: float | None, now: float | None) -> Game:
    if game.status != "suspended":
        gate_over(game)
        refuse("not_suspended", "22.j", m.NOT_SUSPENDED)
    return evolve(game, status=game.suspended_from, suspended_from=None)


def abandon(game: Game, ev: E.Abandon, clock: float | None, now: float | None) -> Game:
    if game.status != "suspended":
        # 22.j: "If a suspended game is determined to have no conceivable effect on the outcome
        # of the event, the game may be abandoned" -- only a suspended game.
        gate_over(game)
        refuse("not_suspended", "22.j", m.NOT_SUSPENDED)
    return evolve(game, status="abandoned", suspended_from=None, restart=None, winner=None, result=None, ended_at=now)


def overtime(game: Game, ev: E.Overtime, clock: float | None, now: float | None) -> Game:
    if not tied_at_period_end(game):
        refuse("not_tied", "14.c", m.NOT_TIED_OVERTIME)
    # 14.c: overtime periods, with intervals between periods as provided in Rule 16.
    return evolve(
        game, status="interval", interval_started_at=now if game.status == "tied" else game.interval_started_at
    )


def shootout_start(game: Game, ev: E.ShootoutStart, clock: float | None, now: float | None) -> Game:
    if not tied_at_period_end(game):
        refuse("not_tied", "14.d", m.NOT_TIED_SHOOTOUT)
    if ev.order is None:
        missing("order")
    lists: dict[str, tuple[int, ...]] = {}
    for t, hitters in zip(TEAMS, ev.order, strict=True):
        if hitters is None:
            invalid(m.SHOOTOUT_ORDER)
        for n in hitters:
            player(game, t, n)
        lists[t] = hitters
    # CHOICE: both teams hit the same number of times per round (the rounds alternate teams);
    # a team short of an unavailable player names fewer, and so must the other.
    if len(lists["home"]) != len(lists["away"]) or (ev.format == "single" and len(lists["home"]) != 1):
        invalid(m.SHOOTOUT_ORDER)
    return evolve(
        game, status="shootout", restart=None, running=False, anchor=None, shootout=Shootout(ev.format, ev.first, lists)
    )


def shootout_attempt(game: Game, ev: E.ShootoutAttempt, clock: float | None, now: float | None) -> Game:
    team, number = ev.team, ev.number
    so = game.shootout
    if game.status != "shootout" or so is None:
        if game.status in ("final", "abandoned", "suspended"):
            gate(game)
        refuse("not_in_shootout", "14.d", m.NOT_IN_SHOOTOUT)
    player(game, team, number)
    cfg = game.config
    nxt = progress(so, cfg.upper_handicap_limit, cfg.edition).next
    if nxt != (team, number):
        assert nxt is not None  # a shootout still being hit always has a next hitter
        refuse("shootout_out_of_turn", "14.d", m.SHOOTOUT_OUT_OF_TURN, team=cfg.team(nxt[0]).name, number=nxt[1])
    so = evolve(so, attempts=(*so.attempts, (team, number, ev.scored)))
    winner = progress(so, cfg.upper_handicap_limit, cfg.edition).winner
    if winner is None:
        return evolve(game, shootout=so)
    # 14.d: "the team with more points will be declared the game winner by one goal": one goal is
    # added to the winner's score (and counted among its goals).
    return finish(
        game,
        winner,
        "shootout",
        now,
        "shootout",
        {"shootout": evolve(so, winner=winner), "goals": one_more(game.goals, winner)},
    )


def forfeit(game: Game, ev: E.Forfeit, clock: float | None, now: float | None) -> Game:
    if game.forfeit is not None:
        refuse("match_over", "21.f(5)", m.ALREADY_FORFEITED)
    if game.status == "abandoned":
        gate(game)
    window = game.config.edition.forfeit_window_seconds
    if game.status == "final" and game.ended_at is not None and now is not None and now - game.ended_at > window:
        refuse("forfeit_too_late", "21.f(5)", m.FORFEIT_TOO_LATE, hours=f"{window / 3600:g}")
    return forfeited(game, ev.team, ev.reason, now)
