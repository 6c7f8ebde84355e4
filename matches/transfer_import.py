"""Reading a tournament's export back in (docs/EXPORT.md; the format: ``matches/transfer.py``): the
checks of each field, in one transaction, and nothing half-written on a refusal."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from officiating.engine import to_state

from .awards.models import Award
from .committee.models import AuditEntry
from .games import forget_cached_game, match_game
from .models import CommitteeAssignment, Entry, Field, Match, MatchEvent, Player, RosterLine, Team, Tournament
from .officials.models import ScoreConfirmation
from .scoresheet.hashing import log_hash
from .scoresheet.models import Signature
from .transfer import FORMAT, VERSION, YEARS, ImportRefused  # (the format; this module only reads it)


def read_export(raw: bytes) -> dict[str, Any]:
    """The document in ``raw``, once it is known to be an export this server reads."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ImportRefused("This is not a tournament export: it is not JSON (UTF-8).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(f'This is not a tournament export: it has no "format": "{FORMAT}".')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ImportRefused('This is not a tournament export: its "version" is not a whole number from 1.')
    if version > VERSION:
        raise ImportRefused(
            f"This export is of version {version}, newer than this server reads (up to {VERSION}): "
            "upgrade this server, or export again from a server of this version."
        )
    return data


class _Doc:
    """Typed access to the document, each miss named by where it is (``matches[2].events[5].seq``)."""

    @staticmethod
    def get(obj: Any, key: str, kind: type | tuple[type, ...], where: str, *, null: bool = False) -> Any:
        if not isinstance(obj, dict):
            raise ImportRefused(f"{where}: an object was expected.")
        if key not in obj:
            raise ImportRefused(f'{where}: "{key}" is missing.')
        value = obj[key]
        if value is None and null:
            return None
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)
            raise ImportRefused(f"{where}.{key}: {names} expected, found {json.dumps(value)[:40]}.")
        return value

    @classmethod
    def items(cls, obj: Any, key: str, where: str) -> list[Any]:
        return cls.get(obj, key, list, where)

    @classmethod
    def when(cls, obj: Any, key: str, where: str, *, null: bool = False) -> datetime | None:
        text = cls.get(obj, key, str, where, null=null)
        if text is None:
            return None
        try:
            value = datetime.fromisoformat(text)
        except ValueError:
            value = None
        if value is None or value.tzinfo is None:
            raise ImportRefused(f"{where}.{key}: a time with its UTC offset expected, found {text[:40]!r}.")
        try:
            utc = value.astimezone(UTC)
        except OverflowError:
            utc = None
        if utc is None or not YEARS[0] <= utc.year <= YEARS[1]:
            raise ImportRefused(
                f"{where}.{key}: {text[:40]} is not a time between the years {YEARS[0]} and {YEARS[1]}."
            )
        return utc

    @classmethod
    def day(cls, obj: Any, key: str, where: str) -> date:
        text = cls.get(obj, key, str, where)
        try:
            day = date.fromisoformat(text)
        except ValueError:
            raise ImportRefused(f"{where}.{key}: a day (YYYY-MM-DD) expected, found {text[:40]!r}.") from None
        if not YEARS[0] <= day.year <= YEARS[1]:
            raise ImportRefused(f"{where}.{key}: {text} is not a day between the years {YEARS[0]} and {YEARS[1]}.")
        return day

    @classmethod
    def decimal(cls, obj: Any, key: str, where: str) -> Decimal:
        text = cls.get(obj, key, str, where)
        try:
            value = Decimal(text)
        except InvalidOperation:
            value = Decimal("NaN")
        if not value.is_finite():
            raise ImportRefused(f"{where}.{key}: a number written as text expected, found {text[:40]!r}.")
        return value

    @classmethod
    def index(cls, obj: Any, key: str, among: list[Any], where: str, *, null: bool = False) -> Any:
        at = cls.get(obj, key, int, where, null=null)
        if at is None:
            return None
        if not 0 <= at < len(among):
            raise ImportRefused(f"{where}.{key}: {at} is not the place of one of the file's rows.")
        return among[at]


_KIND_NAMES = {str: "text", int: "a whole number", bool: "true or false", list: "a list", dict: "an object"}
doc = _Doc


def event_read(e: Any, seq: int, at: str) -> tuple[int, str, str, dict[str, Any], datetime]:
    """One event of a log as ``transfer.event_data`` writes it (the export's file, the field's
    pairing and push), expected at ``seq``: (seq, id, type, event, received_at); ``sent_by``, a
    username, is the caller's to look up. ``ImportRefused`` names what is wrong, where (``at``)."""
    found, event_id, event_type = doc.get(e, "seq", int, at), doc.get(e, "id", str, at), doc.get(e, "type", str, at)
    event = doc.get(e, "event", dict, at)
    if found != seq:
        raise ImportRefused(f"{at}.seq: {found} where the log's {seq}th event was expected.")
    if not event_id or len(event_id) > 64:
        raise ImportRefused(f"{at}.id: an id of 1 to 64 characters expected.")
    if event.get("id") != event_id or event.get("type") != event_type:
        raise ImportRefused(f'{at}: its "id" and "type" are not those of its "event".')
    received_at = doc.when(e, "received_at", at)
    assert received_at is not None
    doc.get(e, "sent_by", str, at, null=True)
    return found, event_id, event_type, event, received_at


@dataclass
class Imported:
    tournament: Tournament
    matches: int = 0
    events: int = 0
    people_created: list[str] = field(default_factory=list)
    people_matched: list[str] = field(default_factory=list)


def _saved(instance: models.Model, where: str, **update: Any) -> Any:
    """``instance`` checked by its model (lengths, bounds, choices) and saved; then the fields Django
    sets itself on insert (``auto_now_add``) given their exported values."""
    try:
        instance.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        problems = "; ".join(f"{key}: {' '.join(map(str, msgs))}" for key, msgs in error.message_dict.items())
        raise ImportRefused(f"{where}: {problems}") from None
    instance.save()
    if update:
        type(instance)._base_manager.filter(pk=instance.pk).update(**update)
        for key, value in update.items():
            setattr(instance, key, value)
    return instance


class _Importer:
    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.users: dict[str, Any] = {}
        self.result: Imported | None = None

    def person(self, obj: Any, key: str, where: str, *, null: bool = True):
        name = doc.get(obj, key, str, where, null=null)
        if name is None:
            return None
        if name not in self.users:
            raise ImportRefused(f'{where}.{key}: "{name}" is not one of the file\'s "people".')
        return self.users[name]

    def run(self) -> Imported:
        data = self.data
        t = doc.get(data, "tournament", dict, "the file")
        name, club = doc.get(t, "name", str, "tournament"), doc.get(t, "club", str, "tournament")
        starts_on = doc.day(t, "starts_on", "tournament")
        there = Tournament.objects.filter(name=name, club=club, starts_on=starts_on).first()
        if there is not None:
            raise ImportRefused(
                f"The tournament {name} ({club}) of {starts_on.isoformat()} is already on this server "
                f"(tournament {there.pk})."
            )
        tournament = _saved(
            Tournament(
                name=name,
                club=club,
                starts_on=starts_on,
                ends_on=doc.day(t, "ends_on", "tournament"),
                lower_handicap_limit=doc.get(t, "lower_handicap_limit", int, "tournament"),
                upper_handicap_limit=doc.get(t, "upper_handicap_limit", int, "tournament"),
                rules_edition=doc.get(t, "rules_edition", str, "tournament"),
                courtesy_change=doc.get(t, "courtesy_change", bool, "tournament"),
                tack_allowance=doc.get(t, "tack_allowance", bool, "tournament"),
            ),
            "tournament",
            created_at=doc.when(t, "created_at", "tournament"),
        )
        self.result = Imported(tournament)
        self._people()
        fields = [self._field(f, f"fields[{i}]") for i, f in enumerate(doc.items(data, "fields", "the file"))]
        players = [
            _saved(
                Player(
                    name=doc.get(p, "name", str, f"players[{i}]"), handicap=doc.get(p, "handicap", int, f"players[{i}]")
                ),
                f"players[{i}]",
            )
            for i, p in enumerate(doc.items(data, "players", "the file"))
        ]
        entries = self._entries(tournament, players)
        assignments = self._committee(tournament)
        matches = [
            self._match(tournament, m, f"matches[{i}]", fields, entries)
            for i, m in enumerate(doc.items(data, "matches", "the file"))
        ]
        self._awards(tournament, matches, players, entries)
        self._audit(tournament, matches, assignments)
        return self.result

    def _people(self) -> None:
        User = get_user_model()
        assert self.result is not None
        for i, p in enumerate(doc.items(self.data, "people", "the file")):
            where = f"people[{i}]"
            username = doc.get(p, "username", str, where)
            user = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
            if user is None:
                # An account of the file's person, who cannot log in until an operator gives it a
                # password and activates it (their password is the exporting server's, never exported).
                user = User(
                    username=username,
                    first_name=doc.get(p, "first_name", str, where),
                    last_name=doc.get(p, "last_name", str, where),
                    is_active=False,
                )
                user.set_unusable_password()
                _saved(user, where)
                self.result.people_created.append(username)
            else:
                self.result.people_matched.append(username)
            self.users[username] = user

    def _field(self, f: Any, where: str) -> Field:
        values = {
            "name": doc.get(f, "name", str, where),
            "club": doc.get(f, "club", str, where),
            "length": doc.get(f, "length", int, where),
            "width": doc.get(f, "width", int, where),
            "boarded": doc.get(f, "boarded", bool, where),
        }
        # Fields are shared by tournaments: the same field on this server serves.
        return Field.objects.filter(**values).order_by("pk").first() or _saved(Field(**values), where)

    def _entries(self, tournament: Tournament, players: list[Player]) -> dict[str, Entry]:
        entries: dict[str, Entry] = {}
        for i, e in enumerate(doc.items(self.data, "entries", "the file")):
            where = f"entries[{i}]"
            team_data = doc.get(e, "team", dict, where)
            team_name = doc.get(team_data, "name", str, f"{where}.team")
            # Team names are unique on a server: a team of that name here is that team.
            team = Team.objects.filter(name=team_name).first() or _saved(
                Team(name=team_name, color=doc.get(team_data, "color", str, f"{where}.team")), f"{where}.team"
            )
            if team_name in entries:
                raise ImportRefused(f"{where}: the team {team_name} is entered twice.")
            entry = entries[team_name] = _saved(Entry(tournament=tournament, team=team), where)
            for j, line in enumerate(doc.items(e, "roster", where)):
                at = f"{where}.roster[{j}]"
                _saved(
                    RosterLine(
                        entry=entry,
                        player=doc.index(line, "player", players, at),
                        number=doc.get(line, "number", int, at),
                        handicap=doc.get(line, "handicap", int, at),
                    ),
                    at,
                )
        return entries

    def _committee(self, tournament: Tournament) -> list[CommitteeAssignment]:
        assignments = []
        for i, a in enumerate(doc.items(self.data, "committee", "the file")):
            where = f"committee[{i}]"
            assignments.append(
                _saved(
                    CommitteeAssignment(
                        tournament=tournament,
                        user=self.person(a, "user", where, null=False),
                        assigned_at=doc.when(a, "assigned_at", where),
                        assigned_by=self.person(a, "assigned_by", where),
                        revoked_at=doc.when(a, "revoked_at", where, null=True),
                        revoked_by=self.person(a, "revoked_by", where),
                    ),
                    where,
                )
            )
        return assignments

    def _team(self, m: Any, key: str, entries: dict[str, Entry], where: str) -> Entry:
        name = doc.get(m, key, str, where)
        if name not in entries:
            raise ImportRefused(f"{where}.{key}: {name} is not one of the file's entries.")
        return entries[name]

    def _match(
        self, tournament: Tournament, m: Any, where: str, fields: list[Field], entries: dict[str, Entry]
    ) -> Match:
        assert self.result is not None
        match = _saved(
            Match(
                tournament=tournament,
                field=doc.index(m, "field", fields, where),
                home=self._team(m, "home", entries, where),
                away=self._team(m, "away", entries, where),
                starts_at=doc.when(m, "starts_at", where),
                periods=doc.get(m, "periods", int, where),
                period_seconds=doc.get(m, "period_seconds", int, where),
                stage=doc.get(m, "stage", str, where),
                home_defends=doc.get(m, "home_defends", str, where),
                home_handicap_goals=doc.decimal(m, "home_handicap_goals", where),
                away_handicap_goals=doc.decimal(m, "away_handicap_goals", where),
                referee=self.person(m, "referee", where),
                scorer=self.person(m, "scorer", where),
            ),
            where,
        )
        match.umpires.set(
            [self.person({"u": u}, "u", f"{where}.umpires", null=False) for u in doc.items(m, "umpires", where)]
        )
        rows = []
        for j, e in enumerate(doc.items(m, "events", where)):
            at = f"{where}.events[{j}]"
            seq, event_id, event_type, payload, received_at = event_read(e, j + 1, at)
            rows.append(
                MatchEvent(
                    match=match,
                    seq=seq,
                    client_id=event_id,
                    type=event_type,
                    payload=payload,
                    received_at=received_at,
                    sent_by=self.person(e, "sent_by", at),
                )
            )
        for row in rows:
            try:
                row.full_clean(exclude=["match"], validate_unique=False, validate_constraints=False)
            except ValidationError as error:
                raise ImportRefused(f"{where}.events[{row.seq - 1}]: {error.messages[0]}") from None
        try:
            with transaction.atomic():
                MatchEvent.objects.bulk_create(rows)
        except IntegrityError:
            raise ImportRefused(f"{where}.events: two events share an id.") from None
        self._fold(match, m, where, rows)
        for j, s in enumerate(doc.items(m, "signatures", where)):
            at = f"{where}.signatures[{j}]"
            signed_seq, signed_hash = doc.get(s, "last_seq", int, at), doc.get(s, "log_hash", str, at)
            # A signature binds the log as it was at its position (a later correction breaks it, but
            # never changes what it signed): sealed here, with this server's secret, once that holds.
            if not 0 <= signed_seq <= len(rows) or log_hash(match.pk, signed_seq)[1] != signed_hash:
                raise ImportRefused(f"{at}: it does not sign this match's log at its position: the file was altered.")
            _saved(
                Signature(
                    match=match,
                    official=self.person(s, "official", at, null=False),
                    role=doc.get(s, "role", str, at),
                    last_seq=signed_seq,
                    log_hash=signed_hash,
                    signed_at=doc.when(s, "signed_at", at),
                ),
                at,
            )
        for j, c in enumerate(doc.items(m, "confirmations", where)):
            at = f"{where}.confirmations[{j}]"
            _saved(
                ScoreConfirmation(
                    match=match,
                    period=doc.get(c, "period", int, at),
                    umpire=self.person(c, "umpire", at, null=False),
                    home=doc.decimal(c, "home", at),
                    away=doc.decimal(c, "away", at),
                    last_seq=doc.get(c, "last_seq", int, at),
                ),
                at,
                at=doc.when(c, "at", at),
            )
        self.result.matches += 1
        self.result.events += len(rows)
        return match

    def _fold(self, match: Match, m: Any, where: str, rows: list[MatchEvent]) -> None:
        """The log folded by this server's rules engine into the match's state, which must end where
        the file says it did, with the same log hash."""
        match.last_seq = len(rows)
        forget_cached_game(match.pk)
        try:
            game = match_game(match)
        except (ValueError, TypeError, KeyError) as error:
            raise ImportRefused(f"{where}: the rules engine cannot fold its log ({error}).") from None
        now = rows[-1].received_at.timestamp() if rows else match.starts_at.timestamp()
        state = to_state(game, now=now)
        match.state_cache, match.status = state, state.get("status", Match.Status.SCHEDULED)
        match.save(update_fields=["state_cache", "last_seq", "status"])
        digest = log_hash(match.pk)[1]
        if digest != doc.get(m, "log_hash", str, where):
            raise ImportRefused(f"{where}: its events do not hash to its log_hash: the file was altered.")
        if match.status != doc.get(m, "status", str, where):
            raise ImportRefused(
                f"{where}: its log folds to the status {match.status} here, not {m['status']} as exported."
            )

    def _awards(
        self, tournament: Tournament, matches: list[Match], players: list[Player], entries: dict[str, Entry]
    ) -> None:
        for i, a in enumerate(doc.items(self.data, "awards", "the file")):
            where = f"awards[{i}]"
            team = doc.get(a, "team", str, where, null=True)
            _saved(
                Award(
                    tournament=tournament,
                    match=doc.index(a, "match", matches, where, null=True),
                    kind=doc.get(a, "kind", str, where),
                    player=doc.index(a, "player", players, where),
                    entry=self._team(a, "team", entries, where) if team is not None else None,
                    horse=doc.get(a, "horse", str, where),
                    owner=doc.get(a, "owner", str, where),
                    breeder=doc.get(a, "breeder", str, where),
                    from_mount=doc.get(a, "from_mount", bool, where),
                    awarded_at=doc.when(a, "awarded_at", where),
                    awarded_by=self.person(a, "awarded_by", where),
                ),
                where,
            )

    def _audit(self, tournament: Tournament, matches: list[Match], assignments: list[CommitteeAssignment]) -> None:
        for i, a in enumerate(doc.items(self.data, "audit", "the file")):
            where = f"audit[{i}]"
            _saved(
                AuditEntry(
                    tournament=tournament,
                    match=doc.index(a, "match", matches, where, null=True),
                    at=doc.when(a, "at", where),
                    user=self.person(a, "user", where),
                    action=doc.get(a, "action", str, where),
                    details=doc.get(a, "details", dict, where),
                    scope=doc.get(a, "scope", str, where),
                    assignment=doc.index(a, "assignment", assignments, where, null=True),
                ),
                where,
            )


def tournament_import(data: dict[str, Any]) -> Imported:
    """Make the exported tournament on this server, all of it or nothing (one transaction):
    ``ImportRefused`` says why not. ``data`` is what ``read_export`` returned."""
    try:
        with transaction.atomic():
            return _Importer(data).run()
    except IntegrityError as error:
        raise ImportRefused(f"The file contradicts itself or this server's records: {error}") from None
