"""The awards' reads: a match's and a tournament's awards as the pages and the API show them, and
the horses a player rode in a match (as the engine's fold records them, ``Game.ridden``: a voided
mount is left out)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from matches.games import match_game
from matches.models import Match, RosterLine, Tournament

from .models import Award


@dataclass(frozen=True)
class Mount:
    """A horse a player rode in a match, by the log."""

    line: RosterLine  # the player's roster line (team and number)
    horse: str
    match_id: int

    @property
    def key(self) -> str:
        return f"{self.line.pk}:{self.horse}"


def _lines_by_side(match: Match) -> dict[tuple[str, int], RosterLine]:
    lines = {}
    for side, entry in (("home", match.home), ("away", match.away)):
        for line in RosterLine.objects.filter(entry=entry).select_related("player", "entry__team"):
            lines[(side, line.number)] = line
    return lines


def match_mounts(match: Match) -> list[Mount]:
    """The horses ridden in the match per its log, in the order first mounted, once each: the
    engine's fold says which (``Game.ridden``; a voided mount is not there)."""
    if match.last_seq == 0:
        return []
    ridden = match_game(match).ridden
    if not ridden:
        return []
    lines = _lines_by_side(match)
    mounts: dict[str, Mount] = {}
    for team, number, horse in ridden:
        line = lines.get((team, number))
        name = str(horse or "").strip()
        if line is None or not name:
            continue
        mount = Mount(line, name, match.pk)
        mounts.setdefault(mount.key, mount)
    return list(mounts.values())


def tournament_mounts(tournament: Tournament) -> list[Mount]:
    mounts: dict[str, Mount] = {}
    matches = Match.objects.filter(tournament=tournament).exclude(last_seq=0)
    for match in matches.select_related("tournament", "field", "home__team", "away__team"):
        for mount in match_mounts(match):
            mounts.setdefault(mount.key, mount)
    return list(mounts.values())


def match_lines(match: Match) -> list[RosterLine]:
    """The players of the match: both rosters, home first."""
    return [
        *RosterLine.objects.filter(entry=match.home).select_related("player", "entry__team").order_by("number"),
        *RosterLine.objects.filter(entry=match.away).select_related("player", "entry__team").order_by("number"),
    ]


def tournament_lines(tournament: Tournament) -> list[RosterLine]:
    return list(
        RosterLine.objects.filter(entry__tournament=tournament)
        .select_related("player", "entry__team")
        .order_by("entry__team__name", "number")
    )


def _awards() -> QuerySet[Award]:
    return Award.objects.select_related("player", "entry__team", "match")


def match_awards(match: Match) -> list[Award]:
    return list(_awards().filter(match=match).order_by("kind"))


def tournament_awards(tournament: Tournament) -> list[Award]:
    """The tournament's own awards (not its matches')."""
    return list(_awards().filter(tournament=tournament, match__isnull=True).order_by("kind"))


def tournament_match_awards(tournament: Tournament) -> list[Award]:
    return list(
        _awards()
        .filter(tournament=tournament, match__isnull=False)
        .select_related("match__home__team", "match__away__team")
        .order_by("match__starts_at", "match_id", "kind")
    )


def award_number(award: Award) -> int | None:
    if award.entry_id is None:
        return None
    line = RosterLine.objects.filter(entry_id=award.entry_id, player_id=award.player_id).first()
    return line.number if line else None


def award_json(award: Award) -> dict[str, Any]:
    """An award in the API's shape (``AwardsPage`` of the OpenAPI document)."""
    horse = None
    if award.kind == Award.Kind.BEST_PLAYING_PONY:
        horse = {
            "name": award.horse,
            "owner": award.owner or None,
            "breeder": award.breeder or None,
            "ridden_in_match": award.from_mount,
        }
    return {
        "kind": award.kind,
        "label": str(award.get_kind_display()),
        "player": {
            "id": award.player_id,
            "name": award.player.name,
            "team": award.entry.team.name if award.entry_id else None,
            "number": award_number(award),
        },
        "horse": horse,
        "awarded_at": award.awarded_at.timestamp(),
    }


def match_awards_json(match: Match) -> dict[str, Any]:
    return {"match_id": match.pk, "awards": [award_json(a) for a in match_awards(match)]}


def tournament_awards_json(tournament: Tournament) -> dict[str, Any]:
    by_match: dict[int, dict[str, Any]] = {}
    for award in tournament_match_awards(tournament):
        row = by_match.setdefault(
            award.match_id, {"match_id": award.match_id, "title": award.match.title, "awards": []}
        )
        row["awards"].append(award_json(award))
    return {
        "tournament_id": tournament.pk,
        "awards": [award_json(a) for a in tournament_awards(tournament)],
        "matches": list(by_match.values()),
    }
