"""The statistics' tests share one match, played through the service and counted by hand: every
kind of goal (from play, from a penalty, an own goal, a Penalty 1, in overtime), a voided goal,
handicap goals, a knock-in, a card, an injury and a horse time-out."""

from __future__ import annotations

import copy
import time
from decimal import Decimal

from officiating.tests.test_boxscore import MATCH  # the same match, counted by hand for the engine

from .committee_helpers import HOUR, Clock, Committee, log


def counted_match() -> Committee:
    """Two chukkers and overtime; away starts with one handicap goal. Blue (home) defends north.

    | goal | chukker | team | how                                   | letter |
    | 1    | 1       | home | #1 from play                          | A      |
    | 2    | 1       | home | #3 from a Penalty 2 (converted)       | B (circled) |
    | 3    | 1       | away | Penalty 1 (awarded; its 5.b missed)   | C (circled) |
    | 4    | 1       | home | own goal by away #2                   | D      |
    | 5    | 2       | away | #1 from play (another goal voided)    | E      |
    | 6    | OT      | home | #2 from play: wins 4-3                | F      |

    Home's shot wide in chukker 1 gives away a knock-in; home #1 takes a horse time-out and a yellow
    card, away #3 is injured (chukker 2)."""
    cast = Committee(periods=2, away_handicap_goals=Decimal(1))
    cast.umpire.first_name, cast.umpire.last_name = "Ulises", "Umpire"
    cast.umpire.save()
    m = cast.match
    clock = Clock(time.time() - 2 * HOUR)
    state = log(m, *copy.deepcopy(MATCH), clock=clock)
    assert state["status"] == "final" and state["score"] == {"home": 4, "away": 3}
    m.refresh_from_db()
    return cast
