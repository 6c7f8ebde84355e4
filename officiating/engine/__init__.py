"""The rules engine: USPA Rules 14, 21 and 22 as a pure function of a match log.

This package never touches the database, the network or the clock on the wall, and imports
nothing but the standard library (no Django): time is passed in. One entry point,
``decide(game, event, now=...)``, takes the folded state and one event of the match log
(docs/MATCH-LOG.md) and returns a Decision: the new state, or a rejection with its code,
the rule it rests on and a message in English or Spanish.

The words of the game, as the code uses them:

chukker (period)
    One of the periods of play: 7 minutes of regular time, a single horn, then up to 30 seconds
    more ended by a double horn (Rule 14.b). The last one of regulation is the *final regulation
    period*; a tie after it may go to *overtime* periods (14.c) or a *shootout* (14.d).
restart
    How play resumes after the whistle (Rule 22): a throw-in, a knock-in, a penalty (foul shot),
    a free hit after a ball over the side, or a fair-play possession play.
throw-in
    The umpire bowls the ball in between the two teams lined up: at the centre after a goal
    (22.e(1)), or where the ball was dead toward the nearer side (22.e(4)).
knock-in
    The hit from the end line by the team whose end line the attackers' ball crossed (22.a);
    the Spanish rules call it *saque de fondo*.
safety
    A player hitting the ball over his own end line (21.a): a Penalty 6 to the other team.
Penalty 1-6
    The penalties a foul can bring (standard USPA spots, MATCH-LOG.md): 1 a goal awarded
    (then a 5.b with ends changed); 2 a free hit at the goal from 30 yards (or from the spot);
    3 from 40 yards; 4 from 60 yards; 5.a from the spot of the foul; 5.b from the centre;
    6 from 60 yards out, level with where the ball crossed (the safety).
free hit
    After a ball over the side (22.f): dropped 5 yards in where it went out (tapping allowed),
    or 10 yards in on the 60-yard line for the attacking team (no tapping).
horn
    The single horn at 7:00 and the double horn at 7:30 of each period (14.b(1)).

Modules, in the order they depend on one another (no circles):

- ``editions``: every number and table of a rulebook (``Edition``), chosen by ``match.rules``;
- ``geometry``: the field and every spot; ``config``: the match config (``MatchConfig``);
- ``messages``: every msgid (gettext catalog in ``officiating/locale``); ``refusals``: how a
  rule says no;
- ``events``: the events as the rules read them, parsed once (``parse``); ``strict``: exactly the
  keys each type takes, and a ball out on its line (issue 11);
- ``state``: the frozen records of the folded game (``Game``); ``restarts``: Rule 22's restarts;
  ``shootout``: 14.d;
- the rules, one module per concern: ``periods`` (Rule 14: the clock, the periods, horns, clock
  corrections, entries in progress), ``players`` (players and horses, cards, substitutions),
  ``play`` ("Play" and the stoppages of Rules 21 and 22), ``committee`` (suspension, overtime,
  shootout, forfeiture);
- ``records``: what the fold records of each event for the surfaces to read (every goal, with
  its kind, hitter, penalty and period: ``Game.scored``; the event of a knock-out);
- ``log``: ``decide`` (ids, corrections, snapshots), ``same_event``, ``due_events``;
- ``projection``: the contract's state JSON (``to_state``); ``replay``: log files and ``fold``.
"""

from .config import ConfigError, MatchConfig
from .editions import USPA_2026, Edition, UnknownEdition, edition
from .log import Decision, decide, due_events, new_game, same_event
from .messages import Rejection
from .projection import to_state
from .replay import Fold, InvalidLog, Logged, Refusal, Step, fold, load_log, replay
from .shootout import ShootoutRound, shootout_rounds
from .state import Game

__all__ = [
    "USPA_2026",
    "ConfigError",
    "Decision",
    "Edition",
    "Fold",
    "Game",
    "InvalidLog",
    "Logged",
    "MatchConfig",
    "Refusal",
    "Rejection",
    "ShootoutRound",
    "Step",
    "UnknownEdition",
    "decide",
    "due_events",
    "edition",
    "fold",
    "load_log",
    "new_game",
    "replay",
    "same_event",
    "shootout_rounds",
    "to_state",
]
