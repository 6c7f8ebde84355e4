"""Rule 14.d, the shootout: whose turn it is, from which line, and when it is decided.

The record (``state.Shootout``) keeps only the lot, the order and the attempts; everything a
screen shows is derived here, so a void of an attempt needs no bookkeeping. The lines are the rule
edition's.
"""

from __future__ import annotations

from dataclasses import dataclass

from .editions import USPA_2026, Edition
from .state import Game, Shootout, other


@dataclass(frozen=True, slots=True)
class Progress:
    round: int
    line: int
    next: tuple[str, int] | None
    points: dict[str, int]
    winner: str | None


@dataclass(frozen=True, slots=True)
class ShootoutRound:
    """One round of a shootout: its number, the line it is hit from and the hits so far (team,
    number, scored), in order."""

    number: int
    line: int
    attempts: tuple[tuple[str, int, bool], ...]


def hitter(so: Shootout, i: int) -> tuple[int, str, int]:
    """(round, team, number) of the ``i``-th attempt (0-based). Teams alternate, the winner of the
    lot first, and hit in the same order in every round (14.d)."""
    per_team = len(so.order["home"])
    pos = i % (2 * per_team)
    team = so.first if pos % 2 == 0 else other(so.first)
    return i // (2 * per_team) + 1, team, so.order[team][pos // 2]


def line_for(round_: int, scored_in_first_two: bool, upper_limit: float, ed: Edition = USPA_2026) -> int:
    """14.d: the forty-yard line first, then back to the sixty; when no hit has scored in the
    first two rounds, up to the thirty in games of upper handicap limit 6 or less.

    CHOICE: the move back to the sixty is written in the single-player paragraph, but the next
    paragraph ("no hits ... by either team or an individual player ... hitting will continue from
    the sixty-yard line") shows both formats are on the sixty from the second round; we apply the
    same lines to both."""
    if round_ == 1:
        return ed.shootout_first_line
    if round_ >= 3 and not scored_in_first_two and upper_limit <= ed.shootout_near_line_max_handicap:
        return ed.shootout_near_line
    return ed.shootout_back_line


def progress(so: Shootout, upper_limit: float, ed: Edition = USPA_2026) -> Progress:
    per_round = 2 * len(so.order["home"])
    points = {"home": 0, "away": 0}
    scored_in_first_two = False
    winner = None
    for i, (team, _number, scored) in enumerate(so.attempts):
        if scored:
            points[team] += 1
            if i < 2 * per_round:
                scored_in_first_two = True
        winner = decided(so, i + 1, points)
        if winner:
            break
    n = len(so.attempts)
    if winner:
        round_, _, _ = hitter(so, n - 1)
        return Progress(round_, line_for(round_, scored_in_first_two, upper_limit, ed), None, points, winner)
    round_, team, number = hitter(so, n)
    return Progress(round_, line_for(round_, scored_in_first_two, upper_limit, ed), (team, number), points, None)


def decided(so: Shootout, made: int, points: dict[str, int]) -> str | None:
    """The winner once a round is complete and the points differ: "After all players have hit,
    the team with more points will be declared the game winner"; "the teams shall hit in the same
    order in each round until a winner is produced" (14.d). A round where one team can no longer
    catch up is still hit to the end, as the text says; a tie goes to another round."""
    per_round = 2 * len(so.order["home"])
    if made == 0 or made % per_round or points["home"] == points["away"]:
        return None
    return "home" if points["home"] > points["away"] else "away"


def shootout_rounds(game: Game) -> list[ShootoutRound]:
    """The shootout of ``game`` round by round, up to the round being hit (or the last one), each
    with its line (14.d) and the hits that stand (a voided attempt is not among them). Empty
    when the game has had no shootout."""
    so = game.shootout
    if so is None:
        return []
    cfg = game.config
    per_round = 2 * len(so.order["home"])
    scored_in_first_two = any(scored for _t, _n, scored in so.attempts[: 2 * per_round])
    current = progress(so, cfg.upper_handicap_limit, cfg.edition).round
    return [
        ShootoutRound(
            r,
            line_for(r, scored_in_first_two, cfg.upper_handicap_limit, cfg.edition),
            so.attempts[(r - 1) * per_round : r * per_round],
        )
        for r in range(1, current + 1)
    ]
