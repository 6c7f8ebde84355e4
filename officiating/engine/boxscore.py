"""The box score of a match: what each player and each team did, counted from the engine's one
fold of the log (``replay.fold``: the events that count, each with the game after it). Nothing
here folds again or re-implements a void: an event a ``void`` took back is not among the steps,
so it counts nowhere. Pure Python, like the rest of the engine (docs/STATISTICS.md says how each
figure is counted).

The words, as the figures use them:

goals
    The fold's own records (``Game.scored``, made by ``scoring`` as each goal went in): this
    module counts them and never works a goal out again. Their kinds:
goal from play (field goal)
    A ``goal`` event credited to the hitter's own team that did not come from a penalty.
goal from a penalty
    A ``goal`` the scorer marked ``from_penalty``, or the goal that ended the play of a penalty
    hit taken by the scoring team (the fold's ``taken`` restart): credited to its hitter, by the
    penalty's number ("2", "3", "4", "5a", "5b", "6"; ``from_penalty`` may name it; else the
    penalty taken; "unknown" when neither says).
own goal
    A ``goal`` with ``own_goal``: credited to the other team, charged to the hitter (a player of
    the team that conceded it).
Penalty 1
    A goal awarded (Rule 14.b(2)): the fouled team's, no player's. A Penalty 5.b follows it.
penalty awarded
    Every penalty restart a ``foul``, a safety (``ball_out``, Rule 21.a) or a restart violation
    gave (Rule 22), by number, and the Penalty 1 itself. A foul played on (``advantage``) awards none.
penalty converted
    A Penalty 1 always; any other when the first stoppage after the hit that takes it is a goal
    for the team it was awarded to. A penalty broken on the first hit (22.d) or not yet taken
    (Rule 22's "taken again") waits for its next hit. One replaced by a later call before it was
    hit, or never hit, was not taken (``converted`` None).
knock-in
    22.a: the ball over the back line off the attack gives the defenders a knock-in. A team's
    ``knock_ins`` are the knock-ins it took; its ``shots_wide`` the knock-ins its missed shots
    gave the other team (what the USPA score sheet writes against a team).
line score
    The goals scored in each chukker (the chukker the game was in when the goal went in), the
    overtime periods in one column, the shootout's deciding goal (Rule 14.d: "by one goal") in
    another, and the handicap goals apart: their sum is the score.
unattributed goal
    A ``goal`` with no hitter recorded: the team's, no player's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .config import TEAMS, MatchConfig
from .log import new_game
from .records import PENALTIES, UNKNOWN_PENALTY
from .replay import Fold, Step
from .state import Game, Scored, other

# 21.d: a fall counts as an injury when the player is hurt or unconscious (as the engine times it).
INJURY_REASONS = frozenset({"injured_player", "player_fall"})


@dataclass(frozen=True, slots=True)
class GoalRecord:
    """One goal, in the order of the match: the fold's record (``state.Scored``, whose fields
    these are) at its place in the log (``seq``). ``how``: ``field`` (from play), ``penalty``,
    ``own_goal``, ``penalty_1`` (awarded), ``shootout`` (the deciding goal) or ``unattributed``.
    ``hitter_team`` is the team of the player who hit it (the other team's for an own goal)."""

    seq: int
    period: int
    period_kind: str  # regulation | overtime | shootout
    clock: float | None
    team: str
    how: str
    number: int | None
    hitter_team: str | None
    name: str | None
    penalty: str | None
    id: str = ""  # the event that scored it

    @property
    def own_goal(self) -> bool:
        return self.hitter_team is not None and self.hitter_team != self.team


def goal_record(seq: int, goal: Scored) -> GoalRecord:
    """The fold's record of a goal at its place in the log."""
    return GoalRecord(
        seq,
        goal.period,
        goal.period_kind,
        goal.clock,
        goal.team,
        goal.how,
        goal.number,
        goal.hitter_team,
        goal.name,
        goal.penalty,
        goal.id,
    )


def goal_records(game: Game) -> tuple[GoalRecord, ...]:
    """Every goal of ``game`` (the fold's records) with its place in the log: what a surface that
    lists goals reads, with no fold of its own."""
    return tuple(goal_record(game.seq_of(g.id) or 0, g) for g in game.scored)


@dataclass(frozen=True, slots=True)
class PenaltyRecord:
    """One penalty awarded. ``cause``: ``foul``, ``safety``, ``restart_violation`` or
    ``after_penalty_1`` (the 5.b after a Penalty 1); ``number`` is the fouling player (a foul)."""

    seq: int
    period: int
    period_kind: str
    clock: float | None
    team: str  # awarded to
    penalty: str
    cause: str
    against: str
    number: int | None
    converted: bool | None  # None: not taken


@dataclass(frozen=True, slots=True)
class KnockInRecord:
    seq: int
    period: int
    period_kind: str
    clock: float | None
    team: str  # the team knocking in (the defenders)


@dataclass(frozen=True, slots=True)
class CardRecord:
    seq: int
    period: int
    period_kind: str
    clock: float | None
    team: str
    number: int | None
    color: str


@dataclass(frozen=True, slots=True)
class PlayerLine:
    team: str
    number: int
    name: str | None
    handicap: float | None
    goals: int  # from play
    penalty_goals: tuple[tuple[str, int], ...]  # (penalty, goals), in penalty order
    own_goals: int
    penalties_conceded: tuple[tuple[str, int], ...]
    yellow_cards: int
    red_cards: int
    injuries: int
    horse_timeouts: int

    @property
    def penalty_goal_total(self) -> int:
        return sum(n for _, n in self.penalty_goals)

    @property
    def total_goals(self) -> int:
        """The goals the player scored for the team (an own goal is not one of them)."""
        return self.goals + self.penalty_goal_total


@dataclass(frozen=True, slots=True)
class PenaltyTally:
    penalty: str
    awarded: int
    converted: int


@dataclass(frozen=True, slots=True)
class TeamLine:
    team: str
    name: str
    handicap_goals: float
    by_period: tuple[int, ...]  # goals in regulation chukkers 1..periods
    overtime: int
    shootout: int
    field_goals: int
    penalty_goals: int  # from penalties 2-6, by players
    penalty_1_goals: int
    own_goals_for: int  # the other team's own goals, credited to this one
    unattributed: int
    penalties: tuple[PenaltyTally, ...]  # in penalty order, only those awarded
    knock_ins: int  # taken
    shots_wide: int  # its missed shots: the other team's knock-ins
    knock_ins_by_period: tuple[int, ...]  # regulation chukkers, then overtime as one
    shots_wide_by_period: tuple[int, ...]
    yellow_cards: int
    red_cards: int

    @property
    def goals(self) -> int:
        """Every goal the team scored in the game (handicap excluded; the shootout's goal included)."""
        return sum(self.by_period) + self.overtime + self.shootout

    @property
    def score(self) -> float:
        return self.handicap_goals + self.goals

    @property
    def penalties_awarded(self) -> int:
        return sum(t.awarded for t in self.penalties)

    @property
    def penalties_converted(self) -> int:
        return sum(t.converted for t in self.penalties)


@dataclass(frozen=True, slots=True)
class BoxScore:
    periods: int  # regulation chukkers
    overtime_played: bool
    shootout_played: bool
    teams: tuple[TeamLine, TeamLine]  # home, away
    players: tuple[PlayerLine, ...]  # home then away, by number, substitutes after
    goals: tuple[GoalRecord, ...]
    penalties: tuple[PenaltyRecord, ...]
    knock_ins: tuple[KnockInRecord, ...]
    cards: tuple[CardRecord, ...]
    last_seq: int

    def team(self, team: str) -> TeamLine:
        return self.teams[0 if team == "home" else 1]

    def players_of(self, team: str) -> tuple[PlayerLine, ...]:
        return tuple(p for p in self.players if p.team == team)


# -- the count ---------------------------------------------------------------------------------------


class _Player:
    __slots__ = ("cards", "conceded", "goals", "handicap", "horse_timeouts", "injuries", "own_goals", "penalty_goals")

    def __init__(self, handicap: float | None) -> None:
        self.handicap = handicap
        self.goals = 0
        self.own_goals = 0
        self.injuries = 0
        self.horse_timeouts = 0
        self.penalty_goals: Counter[str] = Counter()
        self.conceded: Counter[str] = Counter()
        self.cards: Counter[str] = Counter()


def _by_penalty(c: Counter[str]) -> tuple[tuple[str, int], ...]:
    order = (*PENALTIES, UNKNOWN_PENALTY)
    return tuple((p, c[p]) for p in order if c[p])


def box_score(source: Fold | tuple[MatchConfig, Sequence[Step]]) -> BoxScore:
    """The box score of a folded log: a ``Fold``, or a config and the steps of one."""
    if isinstance(source, Fold):
        return _count(source.game.config, source.steps, source.game.last_seq)
    config, steps = source
    return _count(config, steps, steps[-1].seq if steps else 0)


def _count(config: MatchConfig, steps: Iterable[Step], last_seq: int) -> BoxScore:
    regulation = config.periods
    players: dict[tuple[str, int, str | None], _Player] = {}
    for team in TEAMS:
        for p in config.team(team).players:
            players[(team, p.number, p.name)] = _Player(p.handicap)

    def player(game: Game, team: str | None, number: Any) -> _Player | None:
        if team not in TEAMS or not isinstance(number, int):
            return None
        current = next((p for p in game.roster(team) if p.number == number), None)
        name = current.name if current is not None else None
        key = (team, number, name)
        if key not in players:
            players[key] = _Player(current.handicap if current is not None else None)
        return players[key]

    goals: list[GoalRecord] = []
    penalties: list[PenaltyRecord] = []
    knock_ins: list[KnockInRecord] = []
    cards: list[CardRecord] = []
    pending: int | None = None  # the penalty awarded and not yet resolved (index in ``penalties``)
    overtime_played = shootout_played = False

    before = new_game(config)
    for step in steps:
        after, ev = step.game, step.event
        kind = ev.get("type")
        period, period_kind = before.period, before.period_kind
        if period_kind == "overtime" or after.period_kind == "overtime":
            overtime_played = True
        if kind == "shootout_attempt":
            period, period_kind, shootout_played = 0, "shootout", True
        clock = ev.get("clock") if isinstance(ev.get("clock"), (int, float)) else None
        at = (step.seq, period, period_kind, clock)
        taken = before.taken

        # -- a penalty hit resolved: the first stoppage after "Play" took it ---------------------
        if pending is not None and taken is not None and taken.kind == "penalty" and after.taken is None:
            again = after.restart is not None and after.restart.again is not None and kind == "whistle"
            if kind != "play" and not again:
                hit = penalties[pending]
                scored = kind == "goal" and ev.get("team") == hit.team and after.goals != before.goals
                penalties[pending] = replace(hit, converted=scored)
                pending = None

        # -- goals: the fold's records of the goals this event scored ------------------------------
        for scored in after.scored[len(before.scored) :]:
            goals.append(goal_record(step.seq, scored))
            hitter = player(before, scored.hitter_team, scored.number)
            if hitter is None:
                continue
            if scored.how == "own_goal":
                hitter.own_goals += 1
            elif scored.how == "penalty" and scored.penalty is not None:
                hitter.penalty_goals[scored.penalty] += 1
            elif scored.how == "field":
                hitter.goals += 1

        # -- penalties awarded -----------------------------------------------------------------
        restart = after.restart
        if kind == "foul" and ev.get("penalty") == "1" and not ev.get("advantage"):
            against = str(ev.get("against"))
            penalties.append(PenaltyRecord(*at, other(against), "1", "foul", against, _num(ev), True))
        if (
            kind in ("foul", "ball_out", "restart_violation")
            and restart is not None
            and restart.kind == "penalty"
            and restart is not before.restart
            and restart.team in TEAMS
            and restart.penalty is not None
        ):
            if kind == "foul":
                cause = "after_penalty_1" if ev.get("penalty") == "1" else "foul"
                against, number = str(ev.get("against")), _num(ev) if cause == "foul" else None
            else:
                cause = "safety" if kind == "ball_out" else "restart_violation"
                against, number = other(restart.team), None
            penalties.append(PenaltyRecord(*at, restart.team, restart.penalty, cause, against, number, None))
            pending = len(penalties) - 1  # (one replaced before its hit stays "not taken")
        if kind == "foul" and not ev.get("advantage") and ev.get("penalty") in PENALTIES:
            fouler = player(before, ev.get("against"), ev.get("number"))
            if fouler is not None:
                fouler.conceded[str(ev["penalty"])] += 1

        # -- knock-ins (22.a) --------------------------------------------------------------------
        if kind == "ball_out" and restart is not None and restart.kind == "knock_in" and restart.team in TEAMS:
            knock_ins.append(KnockInRecord(*at, restart.team))

        # -- cards, injuries, horse time-outs ---------------------------------------------------
        color = ev.get("card") if kind == "foul" else ev.get("color") if kind == "card" else None
        if color in ("yellow", "red"):
            team_of = ev.get("against") if kind == "foul" else ev.get("team")
            if team_of in TEAMS:
                cards.append(CardRecord(*at, str(team_of), _num(ev), str(color)))
                carded = player(before, team_of, ev.get("number"))
                if carded is not None:
                    carded.cards[str(color)] += 1
        if kind == "whistle":
            reason = ev.get("reason")
            hurt = reason == "injured_player" or ev.get("unconscious") or ev.get("visibly_injured")
            who = player(before, ev.get("team"), ev.get("number"))
            if who is not None and reason in INJURY_REASONS and hurt:
                who.injuries += 1
            elif who is not None and reason == "horse_timeout":
                who.horse_timeouts += 1
        before = after

    return _assemble(
        config, regulation, players, goals, penalties, knock_ins, cards, overtime_played, shootout_played, last_seq
    )


def _num(ev: dict[str, Any]) -> int | None:
    n = ev.get("number")
    return n if isinstance(n, int) and not isinstance(n, bool) else None


def _assemble(
    config: MatchConfig,
    regulation: int,
    players: dict[tuple[str, int, str | None], _Player],
    goals: list[GoalRecord],
    penalties: list[PenaltyRecord],
    knock_ins: list[KnockInRecord],
    cards: list[CardRecord],
    overtime_played: bool,
    shootout_played: bool,
    last_seq: int,
) -> BoxScore:
    def column(period: int, kind: str) -> int | None:
        """The line score's column of a chukker: 0..regulation-1, then overtime."""
        if kind == "overtime" or period > regulation:
            return regulation
        if kind == "regulation" and period >= 1:
            return period - 1
        return None

    lines = []
    for team in TEAMS:
        by_period = [0] * (regulation + 1)
        shootout = 0
        how: Counter[str] = Counter()
        for g in goals:
            if g.team != team:
                continue
            how[g.how] += 1
            if g.how == "shootout":
                shootout += 1
            else:
                col = column(g.period, g.period_kind)
                by_period[col if col is not None else 0] += 1
        ki, wide = [0] * (regulation + 1), [0] * (regulation + 1)
        for k in knock_ins:
            col = column(k.period, k.period_kind)
            if col is None:
                continue
            if k.team == team:
                ki[col] += 1
            else:
                wide[col] += 1
        tallies = []
        for pen in PENALTIES:
            mine = [p for p in penalties if p.team == team and p.penalty == pen]
            if mine:
                tallies.append(PenaltyTally(pen, len(mine), sum(1 for p in mine if p.converted)))
        team_cards = Counter(c.color for c in cards if c.team == team)
        lines.append(
            TeamLine(
                team=team,
                name=config.team(team).name,
                handicap_goals=config.team(team).handicap_goals,
                by_period=tuple(by_period[:regulation]),
                overtime=by_period[regulation],
                shootout=shootout,
                field_goals=how["field"],
                penalty_goals=how["penalty"],
                penalty_1_goals=how["penalty_1"],
                own_goals_for=how["own_goal"],
                unattributed=how["unattributed"],
                penalties=tuple(tallies),
                knock_ins=sum(ki),
                shots_wide=sum(wide),
                knock_ins_by_period=tuple(ki),
                shots_wide_by_period=tuple(wide),
                yellow_cards=team_cards["yellow"],
                red_cards=team_cards["red"],
            )
        )

    player_lines = [
        PlayerLine(
            team=team,
            number=number,
            name=name,
            handicap=p.handicap,
            goals=p.goals,
            penalty_goals=_by_penalty(p.penalty_goals),
            own_goals=p.own_goals,
            penalties_conceded=_by_penalty(p.conceded),
            yellow_cards=p.cards["yellow"],
            red_cards=p.cards["red"],
            injuries=p.injuries,
            horse_timeouts=p.horse_timeouts,
        )
        for (team, number, name), p in players.items()
    ]
    # (dicts keep insertion order: the rosters first, by team, then substitutes as they came on)
    player_lines.sort(key=lambda p: TEAMS.index(p.team))
    return BoxScore(
        periods=regulation,
        overtime_played=overtime_played,
        shootout_played=shootout_played,
        teams=(lines[0], lines[1]),
        players=tuple(player_lines),
        goals=tuple(goals),
        penalties=tuple(penalties),
        knock_ins=tuple(knock_ins),
        cards=tuple(cards),
        last_seq=last_seq,
    )
