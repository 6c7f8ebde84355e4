"""The pairing payload: everything a field server needs to keep one match, as plain JSON, and its
import on the field server. Its parts are the tournament's export's (``matches.transfer``: the
tournament, the field, the match's setup, each event of the log, written by the same functions,
and each event read back by ``transfer_import.event_read``), so a match's log has one format.

``pairing_payload(match)`` (the tournament's server) writes::

    {"format": "polo-field-pairing", "version": 2, "match_id": <id on the tournament's server>,
     "tournament": {...}, "field": {...}, "match": {...},
     "home": {"team": {...}, "roster": [...]}, "away": {...},
     "officials": [{"username", "first_name", "last_name", "password", "roles": [...]}],
     "log": [{"seq", "id", "type", "event", "received_at", "sent_by"}],   (transfer.event_data)
     "config_hash": "<sha256 of the match-log config>"}

``password`` is the official's password hash as Django stores it (never the password): at the
field, with no internet, each official signs in with their usual password, checked against it.
``pairing_import(payload)`` (the field server) creates or refreshes the rows, the officials and
the log verbatim, and checks that the match's config hashes as the tournament's server's does
(same teams, rosters, handicaps and rules: the two logs then fold to the same state).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from matches.games import _config_key, forget_cached_game, match_config, match_game
from matches.models import CommitteeAssignment, Entry, Field, Match, MatchEvent, Player, RosterLine, Team, Tournament
from matches.permissions import COMMITTEE_GROUP, SCORER_GROUP, UMPIRE_GROUP
from matches.roles import ensure_role_groups
from matches.selectors import match_with_config
from matches.transfer import ImportRefused, event_data, field_data, match_setup, tournament_data
from matches.transfer_import import event_read
from officiating.engine import to_state

from .refusals import retell, say

FORMAT = "polo-field-pairing"
VERSION = 2  # 2: the log's events as the tournament's export writes them ("event", received_at in ISO 8601)


class PairingError(ValueError):
    """A payload the field server cannot take: ``refusals.TEXTS[text]`` says why (``said``: in a
    language)."""

    def __init__(self, text: str, **params: Any) -> None:
        self.detail = {"text": text, "params": params}
        super().__init__(say(text, params, "en"))

    def said(self, lang: str | None = None) -> str:
        return retell(self.detail, str(self), lang)


# --- the tournament's server: the payload ----------------------------------------------------------


def _team(entry: Entry) -> dict[str, Any]:
    return {
        "team": {"name": entry.team.name, "color": entry.team.color},
        "roster": [
            {
                "number": line.number,
                "name": line.player.name,
                "handicap": line.handicap,
                "player_handicap": line.player.handicap,
            }
            for line in entry.roster.all()
        ],
    }


def _official(user, roles: list[str]) -> dict[str, Any]:
    return {
        "username": user.get_username(),
        "first_name": user.first_name,
        "last_name": user.last_name,
        "password": user.password,
        "roles": roles,
    }


def field_officials(match: Match) -> list[dict[str, Any]]:
    """Who may sign in at the field: the match's umpires, referee and scorer, and the members of
    the tournament's committee (the committee's decisions on this match are made at the field)."""
    roles: dict[int, tuple[Any, list[str]]] = {}

    def add(user, role: str) -> None:
        if user is not None and user.is_active:
            roles.setdefault(user.pk, (user, []))[1].append(role)

    for umpire in match.umpires.all():
        add(umpire, "umpire")
    add(match.referee, "referee")
    add(match.scorer, "scorer")
    for assignment in CommitteeAssignment.objects.active().filter(tournament=match.tournament).select_related("user"):
        if assignment.user.groups.filter(name=COMMITTEE_GROUP).exists():
            add(assignment.user, "committee")
    return [_official(user, sorted(set(r))) for user, r in roles.values()]


def log_items(match_id: int, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
    """The match's stored events after ``after`` as the protocol carries them (the pairing's log,
    a push's events): ``transfer.event_data``, as the tournament's export writes them."""
    rows = MatchEvent.objects.filter(match_id=match_id, seq__gt=after).order_by("seq")
    if limit is not None:
        rows = rows[:limit]
    return [
        event_data(*row)
        for row in rows.values_list("seq", "client_id", "type", "payload", "received_at", "sent_by__username")
    ]


def event_item(item: Any, seq: int) -> tuple[int, str, str, dict[str, Any], dt.datetime, str | None]:
    """One event of the protocol's log, expected at ``seq``: (seq, id, type, event, received_at,
    sent_by); raises ``ImportRefused`` (``transfer_import.event_read``: the export's reader)."""
    found, event_id, event_type, event, received_at = event_read(item, seq, f"event #{seq}")
    return found, event_id, event_type, event, received_at, item.get("sent_by")


def pairing_payload(match_id: int) -> dict[str, Any]:
    match = match_with_config(match_id)
    tournament, field = match.tournament, match.field
    return {
        "format": FORMAT,
        "version": VERSION,
        "match_id": match.pk,
        "tournament": tournament_data(tournament),
        "field": field_data(field),
        "match": match_setup(match),
        "home": _team(match.home),
        "away": _team(match.away),
        "officials": field_officials(match),
        "log": log_items(match.pk),
        "config_hash": _config_key(match_config(match)),
    }


# --- the field server: the import -------------------------------------------------------------------


def _get(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise PairingError("pairing_missing", key=key)
    return value


def _tournament(data: dict[str, Any]) -> Tournament:
    fields = {
        "name": _get(data, "name", str),
        "club": _get(data, "club", str),
        "starts_on": dt.date.fromisoformat(_get(data, "starts_on", str)),
    }
    settings = {
        "ends_on": dt.date.fromisoformat(_get(data, "ends_on", str)),
        "lower_handicap_limit": _get(data, "lower_handicap_limit", int),
        "upper_handicap_limit": _get(data, "upper_handicap_limit", int),
        "rules_edition": _get(data, "rules_edition", str),
        "courtesy_change": _get(data, "courtesy_change", bool),
        "tack_allowance": _get(data, "tack_allowance", bool),
    }
    tournament, _ = Tournament.objects.update_or_create(**fields, defaults=settings)
    return tournament


def _field(data: dict[str, Any]) -> Field:
    field, _ = Field.objects.update_or_create(
        name=_get(data, "name", str),
        club=_get(data, "club", str),
        defaults={
            "length": _get(data, "length", int),
            "width": _get(data, "width", int),
            "boarded": _get(data, "boarded", bool),
        },
    )
    return field


def _entry(tournament: Tournament, data: dict[str, Any]) -> Entry:
    team_data = _get(data, "team", dict)
    team, _ = Team.objects.update_or_create(
        name=_get(team_data, "name", str), defaults={"color": _get(team_data, "color", str)}
    )
    entry, _ = Entry.objects.get_or_create(tournament=tournament, team=team)
    lines = _get(data, "roster", list)
    entry.roster.all().delete()  # the roster as the tournament's server has it now
    for line in lines:
        player = Player.objects.filter(name=_get(line, "name", str)).order_by("pk").first()
        if player is None:
            player = Player.objects.create(name=line["name"], handicap=_get(line, "player_handicap", int))
        RosterLine.objects.create(
            entry=entry, player=player, number=_get(line, "number", int), handicap=_get(line, "handicap", int)
        )
    return entry


def _officials(match: Match, officials: list[Any]) -> None:
    """Each official as a user of the field server, with the password hash of the tournament's
    server (their usual password), in the groups of their roles on this match."""
    ensure_role_groups()
    User = get_user_model()
    groups = {name: Group.objects.get(name=name) for name in (COMMITTEE_GROUP, UMPIRE_GROUP, SCORER_GROUP)}
    umpires = []
    for data in officials:
        username, roles = _get(data, "username", str), _get(data, "roles", list)
        user, _ = User.objects.get_or_create(username=username)
        user.first_name, user.last_name = _get(data, "first_name", str), _get(data, "last_name", str)
        user.password = _get(data, "password", str)
        user.is_active = True
        user.save()
        for role in roles:
            if role in ("umpire", "referee"):
                user.groups.add(groups[UMPIRE_GROUP])
            if role == "umpire":
                umpires.append(user)
            elif role == "referee":
                match.referee = user
            elif role == "scorer":
                user.groups.add(groups[SCORER_GROUP])
                match.scorer = user
            elif role == "committee":
                user.groups.add(groups[COMMITTEE_GROUP])
                CommitteeAssignment.objects.get_or_create(user=user, tournament=match.tournament, revoked_at=None)
    match.save(update_fields=["referee", "scorer"])
    match.umpires.set(umpires)


def _log(match: Match, log: list[Any]) -> None:
    """The log so far, verbatim. A field server that has this match already keeps its own log if
    the tournament's server's is a prefix of it (the field wrote on), takes the missing events if
    its own is a prefix of the server's, and refuses a log that differs."""
    stored = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "client_id", "payload"))
    users = {u.username: u for u in get_user_model().objects.all()}
    for n, item in enumerate(log, start=1):
        try:
            seq, event_id, event_type, event, received_at, sent_by = event_item(item, n)
        except ImportRefused as refused:
            raise PairingError("pairing_event", seq=n, problem=refused.message) from None
        if n <= len(stored):
            if stored[n - 1][1] != event_id or stored[n - 1][2] != event:
                raise PairingError("pairing_log_differs", seq=n)
            continue
        MatchEvent(
            match=match,
            seq=seq,
            client_id=event_id,
            type=event_type,
            payload=event,
            sent_by=users.get(sent_by or ""),
            received_at=received_at,
        ).save(force_insert=True)
    last = max(len(stored), len(log))
    if last != match.last_seq:
        match.last_seq = last
        forget_cached_game(match.pk)
        game = match_game(match)
        match.state_cache = to_state(game)
        match.status = match.state_cache.get("status", match.status)
        match.save(update_fields=["last_seq", "state_cache", "status"])


@transaction.atomic
def pairing_import(payload: Any, *, server_url: str, token: str) -> Match:
    """Create (or refresh) the match of ``payload`` on this field server, with its link to the
    tournament's server (``FieldLink``); raises ``PairingError``."""
    from .models import FieldLink

    if not isinstance(payload, dict) or payload.get("format") != FORMAT or payload.get("version") != VERSION:
        raise PairingError("pairing_format", format=FORMAT, version=VERSION)
    remote_id = _get(payload, "match_id", int)
    link = FieldLink.objects.filter(server_url=server_url, remote_match_id=remote_id).select_related("match").first()
    tournament = _tournament(_get(payload, "tournament", dict))
    field = _field(_get(payload, "field", dict))
    home, away = _entry(tournament, _get(payload, "home", dict)), _entry(tournament, _get(payload, "away", dict))
    data = _get(payload, "match", dict)
    values = {
        "tournament": tournament,
        "field": field,
        "home": home,
        "away": away,
        "starts_at": dt.datetime.fromisoformat(_get(data, "starts_at", str)),
        "periods": _get(data, "periods", int),
        "period_seconds": _get(data, "period_seconds", int),
        "stage": _get(data, "stage", str),
        "home_defends": _get(data, "home_defends", str),
        "home_handicap_goals": Decimal(_get(data, "home_handicap_goals", str)),
        "away_handicap_goals": Decimal(_get(data, "away_handicap_goals", str)),
    }
    if link is None:
        match = Match.objects.create(**values)
        link = FieldLink(match=match, server_url=server_url, remote_match_id=remote_id)
    else:
        match = link.match
        for key, value in values.items():
            setattr(match, key, value)
        match.save(update_fields=list(values))
    link.token = token
    link.error_code = link.error_message = ""
    link.save()
    _officials(match, _get(payload, "officials", list))
    match = match_with_config(match.pk)
    if _config_key(match_config(match)) != _get(payload, "config_hash", str):
        raise PairingError("pairing_config")
    _log(match, _get(payload, "log", list))
    return match
