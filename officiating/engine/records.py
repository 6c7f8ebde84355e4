"""What the fold records of each event beyond the rules' state, for the surfaces to read rather than
work out again: every event that raises a team's goals leaves one ``Scored`` record per goal on
the Game (``Game.scored``), made from the game just before it; a knock-out (21.d) is stamped with
the event that made it (``Unavailable.event``). The box score, the official report, the USPA score
sheet, the scoreboard's goal list and the play-by-play all read the goal records, so they cannot
disagree about a goal: its kind, its hitter, its penalty, its period; the day's availability
(``matches.availability``) reads the knock-outs.

What kind of goal (``Scored.how``):

- a ``goal`` event: an own goal (``own_goal``: credited to the other team, hit by a player of
  the team that conceded it); a goal from a penalty — the scorer marked it ``from_penalty`` (which
  may name the penalty), or it ended the run of play that began with a penalty hit taken by the
  scoring team (``Game.taken``: the restart taken at the last "Play", until the next stoppage):
  then the penalty taken; ``unknown`` when neither names it; else a goal from play (``field``).
  With no hitter recorded it is ``unattributed`` (the team's, no player's);
- a Penalty 1 (``foul``): ``penalty_1``, a goal awarded (14.b(2)), no player's;
- the shootout's decision (``shootout_attempt``): ``shootout``, the one goal 14.d adds.
"""

from __future__ import annotations

from . import events as E
from .config import TEAMS
from .state import Game, Scored, evolve, other

PENALTIES = ("1", "2", "3", "4", "5a", "5b", "6")
UNKNOWN_PENALTY = "unknown"


def recorded(before: Game, after: Game, ev: E.Event) -> Game:
    """``after`` (what the rules made of ``before`` and ``ev``) with a record of each goal ``ev``
    gave a team, and ``ev``'s id on the players it rendered unavailable."""
    changes: dict[str, object] = {}
    new = [_record(before, ev, team) for i, team in enumerate(TEAMS) for _ in range(after.goals[i] - before.goals[i])]
    if new:
        changes["scored"] = (*after.scored, *new)
    if any(u.event is None for u in after.unavailable):
        changes["unavailable"] = tuple(u if u.event is not None else evolve(u, event=ev.id) for u in after.unavailable)
    return evolve(after, **changes) if changes else after


def _name(game: Game, team: str, number: int) -> str | None:
    return next((p.name for p in game.roster(team) if p.number == number), None)


def _record(before: Game, ev: E.Event, team: str) -> Scored:
    clock = ev.clock
    kind = ev.type
    if kind == "shootout_attempt":
        return Scored(ev.id, 0, "shootout", clock, team, "shootout", None, None, None, None)
    at = (ev.id, before.period, before.period_kind, clock, team)
    body = ev.body
    if kind == "foul":
        return Scored(*at, "penalty_1", None, None, None, "1")
    if kind != "goal" or not isinstance(body, E.Goal):  # (no other event scores: the team's, should one)
        return Scored(*at, "unattributed", None, None, None, None)
    number = body.number
    if body.own_goal:
        hitter = other(team)
        if number is None:  # an own goal nobody was named for
            return Scored(*at, "unattributed", None, hitter, None, None)
        return Scored(*at, "own_goal", number, hitter, _name(before, hitter, number), None)
    taken = before.taken
    off_penalty = taken is not None and taken.kind == "penalty" and taken.team == team
    fp = body.from_penalty
    penalty: str | None = None
    if fp or off_penalty:
        if isinstance(fp, str) and fp in PENALTIES:
            penalty = fp
        elif off_penalty and taken is not None and taken.penalty:
            penalty = taken.penalty
        else:
            penalty = UNKNOWN_PENALTY
    if number is None:
        return Scored(*at, "unattributed", None, team, None, penalty)
    return Scored(*at, "penalty" if penalty else "field", number, team, _name(before, team, number), penalty)
