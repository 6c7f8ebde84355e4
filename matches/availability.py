"""Who may not play again today (Rule 21.d), across every match of the day.

Rule 21.d: "no player who has been rendered unconscious shall be allowed to resume play in any game
that day". The rules engine sees one match and enforces it there; this module enforces the rest of
the day. Vocabulary:

- a *knock-out* is a player the engine's fold of a match rendered unavailable as unconscious
  (``Game.unavailable``, reason ``unconscious``: an accepted ``whistle`` with ``unconscious: true``
  that no void took back), with the name the player had then and the event that did it;
- a player's *identity* is the ``Player`` row (or, for a substitute that has none, the name): the
  same person can wear another number, in another team, in another match;
- the *day* is the local date (``TIME_ZONE``) on which the event was received;
- the *line-up* of a match is who holds numbers 1–4 of each team: the engine's roster of the match
  (``Game.rosters``: the entry's, changed by the substitutions that stand).

Nothing here reads a void or a substitution from the rows: the engine's fold (``matches.games``)
has done it once.

``event_refusal`` is the hook ``matches.services.match_event_log`` calls before the engine decides:
an event that puts a knocked-out player into another match that day is refused with
``player_unavailable`` (Rule 21.d), in the engine's own words and translation.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from officiating.engine import Game, Rejection
from officiating.engine.messages import PLAYER_UNAVAILABLE, SUBSTITUTE_UNAVAILABLE

from .games import match_game
from .models import Entry, Match, MatchEvent, Player, RosterLine

RULE = "21.d"
TEAMS = ("home", "away")


@dataclass(frozen=True)
class Identity:
    """A person: by ``Player`` row when there is one, else by name (a substitute typed in)."""

    player_id: int | None
    name: str

    def same_person(self, other: Identity) -> bool:
        if self.player_id is not None and other.player_id is not None:
            return self.player_id == other.player_id
        return bool(self.name) and self.name.casefold() == other.name.casefold()


@dataclass(frozen=True)
class KnockOut:
    """A player rendered unconscious: who, in which match, when."""

    identity: Identity
    match: Match
    team: str
    number: int
    seq: int
    at: datetime

    @property
    def team_name(self) -> str:
        return (self.match.home if self.team == "home" else self.match.away).team.name


def _other(team: str) -> str:
    return "away" if team == "home" else "home"


def _identity_by_name(name: str) -> Identity:
    player = Player.objects.filter(name__iexact=name.strip()).first()
    return Identity(player.pk if player else None, player.name if player else name.strip())


def _roster_lines(match: Match) -> dict[tuple[str, int], RosterLine]:
    return {
        (team, line.number): line
        for team, entry in (("home", match.home), ("away", match.away))
        for line in entry.roster.select_related("player")
    }


def _identity(lines: dict[tuple[str, int], RosterLine], team: str, number: int, name: str | None) -> Identity:
    """The person the engine names at ``team``/``number``: the entry's player while the number is
    still theirs, else (a substitute) by name."""
    line = lines.get((team, number))
    if line is not None and (name is None or line.player.name == name):
        return Identity(line.player_id, line.player.name)
    return _identity_by_name(name or "")


def line_up(match: Match, *, game: Game | None = None) -> dict[tuple[str, int], Identity]:
    """Who holds each number in ``match`` now: the engine's roster (``game``: the match's folded
    game, when the caller has it)."""
    game = game if game is not None else match_game(match)
    lines = _roster_lines(match)
    return {(team, p.number): _identity(lines, team, p.number, p.name) for team in TEAMS for p in game.roster(team)}


def knock_outs_on(day: date, *, exclude_match_id: int | None = None) -> list[KnockOut]:
    """Every player rendered unconscious on ``day`` (local date), in the order it happened."""
    # The local day as a range of instants (a plain comparison; ``__date`` would convert every row).
    start = timezone.make_aware(datetime.combine(day, time.min))
    end = timezone.make_aware(datetime.combine(day + timedelta(days=1), time.min))
    whistles = MatchEvent.objects.filter(
        type="whistle", received_at__gte=start, received_at__lt=end, payload__unconscious=True
    )
    if exclude_match_id is not None:
        whistles = whistles.exclude(match_id=exclude_match_id)
    # This runs on the event path: a lean query first, the matches only when someone was knocked out.
    rows = list(whistles.values_list("match_id", "client_id", "received_at"))
    if not rows:
        return []
    received = {(match_id, client_id): at for match_id, client_id, at in rows}
    matches = Match.objects.filter(pk__in={r[0] for r in rows}).select_related(
        "tournament", "field", "home__team", "away__team"
    )
    found: list[KnockOut] = []
    for match in matches:
        game = match_game(match)
        lines: dict[tuple[str, int], RosterLine] | None = None
        for u in game.unavailable:
            at = received.get((match.pk, u.event or ""))
            if u.reason != "unconscious" or at is None:
                continue
            lines = lines if lines is not None else _roster_lines(match)
            seq = game.seq_of(u.event or "") or 0
            found.append(KnockOut(_identity(lines, u.team, u.number, u.name), match, u.team, u.number, seq, at))
    return sorted(found, key=lambda k: (k.at, k.seq))


def knock_out_of(identity: Identity, knock_outs: list[KnockOut]) -> KnockOut | None:
    return next((k for k in knock_outs if k.identity.same_person(identity)), None)


def _named_players(event: dict[str, Any], match: Match) -> list[tuple[str, int]]:
    """The (team, number) pairs an event puts into play (Rule 21.d: "resume play")."""
    kind = event.get("type")
    team, number = event.get("team"), event.get("number")
    named: list[tuple[str, int]] = []
    if kind == "goal" and team in TEAMS and isinstance(number, int):
        named.append((_other(team) if event.get("own_goal") else team, number))
    elif kind == "foul" and event.get("against") in TEAMS and isinstance(number, int):
        named.append((event["against"], number))
    elif kind in ("mount", "shootout_attempt") and team in TEAMS and isinstance(number, int):
        named.append((team, number))
    elif kind == "shootout_start" and isinstance(event.get("order"), dict):
        for side in TEAMS:
            named += [(side, n) for n in event["order"].get(side) or [] if isinstance(n, int)]
    elif kind == "resume" or (kind == "play" and match.last_seq == 0):
        # The line-up takes the field: at the first throw-in and when a suspended game resumes
        # (perhaps on another day).
        named += [(side, n) for side in TEAMS for n in range(1, 5)]
    return named


def event_refusal(*, match: Match, event: dict[str, Any], now: float, game: Game | None = None) -> Rejection | None:
    """``player_unavailable`` when ``event`` puts into ``match`` a player rendered unconscious
    earlier today in another match (``now``: the event's wall time, epoch seconds); None
    otherwise. Costs no query for events that name nobody. ``game``: the match's folded game,
    when the caller has it."""
    kind = event.get("type")
    incoming = (
        (event.get("player") or {}).get("name")
        if kind == "substitution" and isinstance(event.get("player"), dict)
        else None
    )
    named = _named_players(event, match)
    if not named and not incoming:
        return None
    day = timezone.localdate(datetime.fromtimestamp(now, tz=UTC))
    knock_outs = knock_outs_on(day, exclude_match_id=match.pk)
    if not knock_outs:
        return None
    if incoming:
        if knock_out_of(_identity_by_name(str(incoming)), knock_outs):
            return Rejection("player_unavailable", RULE, SUBSTITUTE_UNAVAILABLE, {"name": str(incoming)})
        return None
    holders = line_up(match, game=game)
    for team, number in named:
        identity = holders.get((team, number))
        if identity is not None and knock_out_of(identity, knock_outs):
            team_name = (match.home if team == "home" else match.away).team.name
            return Rejection("player_unavailable", RULE, PLAYER_UNAVAILABLE, {"team": team_name, "number": number})
    return None


@dataclass(frozen=True)
class Unavailable:
    """A row of the committee's page: who, why, and which of today's matches it touches."""

    knock_out: KnockOut
    affected: list[tuple[Match, str, int]]  # match, team, number: later line-ups that name them


def unavailable_on(day: date) -> list[Unavailable]:
    knock_outs = knock_outs_on(day)
    if not knock_outs:
        return []
    today = list(
        Match.objects.filter(starts_at__date=day)
        .exclude(status__in=[Match.Status.FINAL, Match.Status.ABANDONED])
        .select_related("home__team", "away__team", "field")
    )
    line_ups = {m.pk: line_up(m) for m in today}
    rows = []
    for k in knock_outs:
        affected = [
            (m, team, number)
            for m in today
            if m.pk != k.match.pk
            for (team, number), identity in sorted(line_ups[m.pk].items())
            if identity.same_person(k.identity)
        ]
        rows.append(Unavailable(k, affected))
    return rows


def roster_refusal(*, entry: Entry, player: Player, day: date | None = None) -> KnockOut | None:
    """The knock-out that forbids adding ``player`` to ``entry`` when the entry plays again today."""
    day = day or timezone.localdate()
    plays_today = (
        Match.objects.filter(starts_at__date=day)
        .filter(Q(home=entry) | Q(away=entry))
        .exclude(status__in=[Match.Status.FINAL, Match.Status.ABANDONED])
        .exists()
    )
    if not plays_today:
        return None
    return knock_out_of(Identity(player.pk, player.name), knock_outs_on(day))
