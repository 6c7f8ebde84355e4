"""Players and horses: who may take part (21.d), cards (21.b), horse changes and excused horses
(21.f), substitutions, and the forfeiture for returning an excused horse (21.f(5))."""

from __future__ import annotations

from . import events as E, messages as m
from .config import Player
from .periods import finish, gate
from .refusals import refuse
from .state import ExcusedHorse, Game, evolve, other


def player(game: Game, team: str, number: int, taking_part: bool = True) -> Player:
    """The player ``number`` of ``team``; refused when unknown, or unavailable and taking part."""
    for p in game.roster(team):
        if p.number == number:
            break
    else:
        refuse("unknown_player", None, m.UNKNOWN_PLAYER, team=game.config.team(team).name, number=number)
    if taking_part and unavailable(game, team, number):
        refuse("player_unavailable", "21.d", m.PLAYER_UNAVAILABLE, team=game.config.team(team).name, number=number)
    return p


def unavailable(game: Game, team: str, number: int) -> bool:
    return any(u.team == team and u.number == number and not u.substituted for u in game.unavailable)


def mounted(game: Game, team: str, number: int) -> str | None:
    for t, n, h in game.mounts:
        if t == team and n == number:
            return h
    return None


def excusal(game: Game, team: str, horse: str) -> ExcusedHorse | None:
    # CHOICE: a horse is known by its team and name; an excused horse may not return under any
    # player of that team ("The excused mount may not play again in the game").
    for e in game.excused:
        if e.team == team and e.horse == horse:
            return e
    return None


def forfeited(game: Game, team: str, reason: str | None, now: float | None) -> Game:
    ended_at = now if game.ended_at is None else game.ended_at
    return finish(game, other(team), "forfeit", ended_at, game.ended_by or "forfeit", {"forfeit": (team, reason)})


# -- handlers ----------------------------------------------------------------------------------------


def card(game: Game, ev: E.Card, clock: float | None, now: float | None) -> Game:
    player(game, ev.team, ev.number, taking_part=False)
    # CHOICE: a card is shown while play is stopped (21.b, and the contract's "a card shown
    # while play is stopped"); during play the umpire blows first (a foul with ``card``).
    gate(game, "stopped", "interval", "scheduled", "tied")
    return evolve(game, cards=(*game.cards, (ev.team, ev.number, ev.color)))


def mount(game: Game, ev: E.Mount, clock: float | None, now: float | None) -> Game:
    team, number, horse = ev.team, ev.number, ev.horse
    player(game, team, number)
    gate(game, "in_play", "stopped", "interval", "scheduled", "tied", "shootout")
    mounts = (*(x for x in game.mounts if not (x[0] == team and x[1] == number)), (team, number, horse))
    ridden = game.ridden if (team, number, horse) in game.ridden else (*game.ridden, (team, number, horse))
    g = evolve(game, mounts=mounts, ridden=ridden)
    excused = excusal(game, team, horse)
    if excused is None:
        return g
    # CHOICE: only for the player's own time-out (21.f(4)); an injured or distressed mount
    # (21.f(1)) or an unsound fallen one (21.f(3)) stays excused.
    if (
        excused.provision == "21.f(4)"
        and excused.number == number
        and excused.stoppage == game.stoppage
        and game.status != "in_play"
    ):
        # 21.f(4) example: "The mount trots out sound, Blue #3 remounts, and play continues."
        # Remounting it in the same time-out, before play resumes, withdraws the excusal.
        return evolve(g, excused=tuple(e for e in g.excused if e is not excused))
    # 21.f(5): returning an excused mount to play: "the penalty shall be forfeiture ... this
    # penalty must be exacted, whether during or after a game".
    return forfeited(g, team, "excused_horse_returned", now)


def substitution(game: Game, ev: E.Substitution, clock: float | None, now: float | None) -> Game:
    team, out, name = ev.team, ev.out, ev.name
    player(game, team, out, taking_part=False)
    # CHOICE: the engine does not police when substitutions happen (not in Rules 14, 21, 22).
    gate(game, "in_play", "stopped", "interval", "scheduled", "tied", "shootout")
    if name and any(u.name == name and u.team == team for u in game.unavailable):
        # 21.d: an unconscious player may not come back in as a substitute either.
        refuse("player_unavailable", "21.d", m.SUBSTITUTE_UNAVAILABLE, name=name)
    idx = 0 if team == "home" else 1
    roster = tuple(Player(out, name, ev.handicap) if p.number == out else p for p in game.rosters[idx])
    rosters = (roster, game.rosters[1]) if idx == 0 else (game.rosters[0], roster)
    unavailable_now = tuple(
        evolve(u, substituted=True) if u.team == team and u.number == out else u for u in game.unavailable
    )
    mounts = tuple(x for x in game.mounts if not (x[0] == team and x[1] == out))
    # CHOICE: the handicap goals were fixed before the game; a substitute does not change them.
    return evolve(game, rosters=rosters, unavailable=unavailable_now, mounts=mounts)
