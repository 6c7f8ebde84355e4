"""The event POST's read of its match as SQL built once per process, and its write in one statement
on PostgreSQL (``append_and_save``) (issue 14: where the time goes).

Profiled, an event's POST was mostly Django's query compiler, not the database or the rules:
building the SQL of the locked match with its four joins took about 1 ms on every POST, and the
rosters' prefetch (a select_related, a filter, an ordering) about as much again, the same SQL
each time. Here the two are one statement (the rosters' lines joined to the locked match: one
round trip instead of two), built once, from the models' ``_meta`` (so it follows every
field they gain), runs on Django's connection (its transaction, its pool, its prepared
statements), and its rows become model instances through the ORM's own steps: each column's
converters (``from_db_value`` and the backend's), then ``Model.from_db``. What the caller gets is
what the querysets it replaces gave: the same instances, the related ones cached, the rosters in
each entry's prefetch cache (``entry.roster.all()`` reads no row).

Filling those caches, building instances from rows of its own SQL and sending the save signals by
hand rely on what the ORM does not promise, so this is the seam ``orm-compiled`` of
``polo/seams.py``: checked at start-up against the installed Django, off with an ERROR when Django
no longer has what it relies on (then ``_locked_by_the_orm`` and ``save`` serve), kept for an event
POST's latency (p50 1.47x, p99 1.50x in the same run, ``docs/CAPACITY.md``).
"""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError, connections, router
from django.db.models import signals

from polo import seams

from .models import Entry, Field, Match, MatchEvent, Player, RosterLine, Team, Tournament


class Columns:
    """One model's columns in a statement, and its instance from their slice of a row."""

    def __init__(self, model, alias: str, *, defer: tuple[str, ...] = ()) -> None:
        self.model = model
        self.alias = alias
        self.fields = [f for f in model._meta.concrete_fields if f.name not in defer]
        self.attnames = {f.attname for f in self.fields}
        self.width = len(self.fields)

    def sql(self, connection) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(f.column)}" for f in self.fields)

    def converters(self, connection) -> list[tuple[int, list[tuple[Any, bool]], Any]]:
        """(position, converters, column) for each column that has any, as the compiler finds them.
        A converter that is a method of this connection's operations is kept as its function
        (``True`` beside it): ``build`` binds it to the operations of the connection it runs on,
        another thread's, so no connection is kept alive by the statement."""
        found = []
        for n, f in enumerate(self.fields):
            column = f.get_col(self.alias)
            functions = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if functions:
                found.append((n, [_unbound(convert, connection.ops) for convert in functions], column))
        return found

    def build(self, db: str, values: list[Any], converters, connection):
        for n, functions, column in converters:
            value = values[n]
            for convert, of_ops in functions:
                args = (connection.ops, value) if of_ops else (value,)
                value = convert(*args, column, connection)
            values[n] = value
        return self.model.from_db(db, self.attnames, values)


def _unbound(convert, ops) -> tuple[Any, bool]:
    """``convert`` as its function if it is a method of ``ops`` (True), else as it is (False)."""
    if getattr(convert, "__self__", None) is ops:
        return convert.__func__, True
    return convert, False


class Statement:
    """A SELECT of several models' columns side by side: its SQL and its columns' converters,
    built once for each database alias that runs it. (Once per alias, not per connection: under
    ASGI every request runs in a thread of its own, so with Django's connections one a thread a
    statement built per connection was built again on every POST, ~1.5 ms of CPU.)"""

    def __init__(self, parts: tuple[Columns, ...], build_sql) -> None:
        self.parts = parts
        self.build_sql = build_sql
        self.built: dict[str, tuple[str, list]] = {}

    def rows(self, alias: str, params: list[Any], *, once: int = 0):
        """Each row as one instance per part. The first ``once`` parts are the same in every row
        (a one-to-many join): built from the first row only. A later part whose columns are all
        NULL (an outer join that found nothing) is None."""
        connection = connections[alias]
        built = self.built.get(alias)
        if built is None:
            sql = self.build_sql(connection, ", ".join(part.sql(connection) for part in self.parts))
            built = self.built[alias] = (sql, [part.converters(connection) for part in self.parts])
        sql, converters_of = built
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        first: list[Any] = []
        for n, row in enumerate(fetched):
            start, instances = 0, []
            for k, (part, converters) in enumerate(zip(self.parts, converters_of, strict=True)):
                end = start + part.width
                if k < once and n > 0:
                    instances.append(first[k])
                elif row[start] is None:  # (the primary key, first of a part's columns)
                    instances.append(None)
                else:
                    instances.append(part.build(alias, list(row[start:end]), converters, connection))
                start = end
            if n == 0:
                first = instances
            yield instances


def _locked_sql(connection, columns: str) -> str:
    """The match with the rows its config is built from, one row per roster line of either entry
    (one row with no line when neither has any), in the lines' number order."""
    quote = connection.ops.quote_name
    features = connection.features
    if features.has_select_for_update_of:
        lock = " FOR UPDATE OF m"  # the match, not the joined rows
    elif features.has_select_for_update:
        lock = " FOR UPDATE"
    else:
        lock = ""  # SQLite: the write transaction itself (IMMEDIATE) keeps two devices apart
    return (
        f"SELECT {columns} FROM {quote(Match._meta.db_table)} m"
        f" INNER JOIN {quote(Tournament._meta.db_table)} t ON t.id = m.{quote('tournament_id')}"
        f" INNER JOIN {quote(Field._meta.db_table)} f ON f.id = m.{quote('field_id')}"
        f" INNER JOIN {quote(Entry._meta.db_table)} he ON he.id = m.{quote('home_id')}"
        f" INNER JOIN {quote(Team._meta.db_table)} ht ON ht.id = he.{quote('team_id')}"
        f" INNER JOIN {quote(Entry._meta.db_table)} ae ON ae.id = m.{quote('away_id')}"
        f" INNER JOIN {quote(Team._meta.db_table)} at ON at.id = ae.{quote('team_id')}"
        f" LEFT JOIN {quote(RosterLine._meta.db_table)} rl"
        f" ON rl.{quote('entry_id')} IN (m.{quote('home_id')}, m.{quote('away_id')})"
        f" LEFT JOIN {quote(Player._meta.db_table)} p ON p.id = rl.{quote('player_id')}"
        f" WHERE m.id = %s ORDER BY rl.{quote('number')}{lock}"
    )


_LOCKED = Statement(
    (
        Columns(Match, "m", defer=("state_cache",)),  # (written on every POST, never read there)
        Columns(Tournament, "t"),
        Columns(Field, "f"),
        Columns(Entry, "he"),
        Columns(Team, "ht"),
        Columns(Entry, "ae"),
        Columns(Team, "at"),
        Columns(RosterLine, "rl"),
        Columns(Player, "p"),
    ),
    _locked_sql,
)
_MATCH_PARTS = 7  # the match and its config's rows: the same in every row of _LOCKED


def locked_match_with_config(match_id: int) -> Match | None:
    """What ``Match.objects.select_for_update(of=("self",)).select_related("tournament", "field",
    "home__team", "away__team").defer("state_cache").get(pk=match_id)`` followed by
    ``games.with_rosters`` gives, in one statement built once (one round trip: under a crowd, after
    the pause between two events, each costs about 1 ms here, ``docs/CAPACITY.md``): the match row
    locked until the end of the caller's transaction, its tournament, field, entries and teams
    cached on it, both rosters (players included) in the entries' prefetch caches. None if there is no such match."""
    if not seams.on("orm-compiled"):
        return _locked_by_the_orm(match_id)
    alias = router.db_for_write(Match)
    rows = list(_LOCKED.rows(alias, [match_id], once=_MATCH_PARTS))
    if not rows:
        return None
    match, tournament, field, home, home_team, away, away_team = rows[0][:_MATCH_PARTS]
    home.team = home_team
    away.team = away_team
    match.tournament = tournament
    match.field = field
    match.home = home
    match.away = away
    lines: dict[int, list[RosterLine]] = {home.pk: [], away.pk: []}
    for line, player in (row[_MATCH_PARTS:] for row in rows):
        if line is not None:
            line.player = player
            lines[line.entry_id].append(line)
    for entry in (home, away):
        _prefetched_roster(entry, lines[entry.pk])
    return match


def _locked_by_the_orm(match_id: int) -> Match | None:
    """The same read through the ORM's public API (the seam off): two statements, compiled each time."""
    from .games import with_rosters

    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("tournament", "field", "home__team", "away__team")
        .defer("state_cache")
        .filter(pk=match_id)
        .first()
    )
    return None if match is None else with_rosters([match])[0]


def _prefetched_roster(entry: Entry, lines: list[RosterLine]) -> None:
    """``lines`` as the entry's roster, as ``prefetch_related("roster")`` leaves it: a queryset of
    the entry's lines whose rows are already here (Django's own ``prefetch_one_level`` does the same)."""
    for line in lines:
        line.entry = entry  # (the reverse of the prefetch: a line knows its entry without a query)
    roster = entry.roster.all()
    roster._result_cache = lines
    roster._prefetch_done = True
    entry._prefetched_objects_cache = getattr(entry, "_prefetched_objects_cache", {})
    entry._prefetched_objects_cache[RosterLine._meta.get_field("entry").remote_field.cache_name] = roster


def append_and_save(match: Match, rows: list[MatchEvent], fields: tuple[str, ...]) -> None:
    """Insert ``rows`` (new events of ``match``, not yet saved) and save ``fields`` of the match:
    on PostgreSQL in one statement (the insert a data-modifying CTE of the update: one round trip
    instead of two, ``docs/CAPACITY.md``), elsewhere through the ORM. Either way each instance is
    saved as ``save`` leaves it (its primary key, not ``adding``) and Django's ``pre_save`` and
    ``post_save`` are sent for each, the match's with ``update_fields``."""
    alias = router.db_for_write(Match)
    connection = connections[alias]
    if connection.vendor != "postgresql" or not rows or not seams.on("orm-compiled"):
        for row in rows:
            row.save(force_insert=True, using=alias)
        match.save(update_fields=fields, using=alias)
        return
    sql, event_fields, match_fields = _write_sql(connection, len(rows), fields)
    for row in rows:
        signals.pre_save.send(sender=MatchEvent, instance=row, raw=False, using=alias, update_fields=None)
    signals.pre_save.send(sender=Match, instance=match, raw=False, using=alias, update_fields=frozenset(fields))
    params = [f.get_db_prep_save(f.pre_save(row, True), connection) for row in rows for f in event_fields]
    params += [f.get_db_prep_save(f.pre_save(match, False), connection) for f in match_fields]
    params.append(match.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        answer = cursor.fetchone()
    if answer is None:  # (as Django's save with update_fields: the row is gone)
        raise DatabaseError("Save with update_fields did not affect any rows.")
    pks = {seq: pk for pk, seq in answer[0]}
    for row in rows:
        row.pk = pks[row.seq]
        row._state.adding = False
        row._state.db = alias
        signals.post_save.send(
            sender=MatchEvent, instance=row, created=True, update_fields=None, raw=False, using=alias
        )
    match._state.db = alias
    signals.post_save.send(
        sender=Match, instance=match, created=False, update_fields=frozenset(fields), raw=False, using=alias
    )


_WRITES: dict[tuple[int, tuple[str, ...]], tuple[str, list, list]] = {}


def _write_sql(connection, count: int, fields: tuple[str, ...]) -> tuple[str, list, list]:
    """PostgreSQL's one statement for ``count`` new events and the match's ``fields``, built once
    per shape, with the fields whose values it takes, in order."""
    built = _WRITES.get((count, fields))
    if built is not None:
        return built
    quote = connection.ops.quote_name
    event_fields = [f for f in MatchEvent._meta.concrete_fields if not f.primary_key]
    match_fields = [Match._meta.get_field(name) for name in fields]
    one_row = "(" + ", ".join(["%s"] * len(event_fields)) + ")"
    event_pk, seq = quote(MatchEvent._meta.pk.column), quote("seq")
    sql = (
        f"WITH e AS (INSERT INTO {quote(MatchEvent._meta.db_table)}"
        f" ({', '.join(quote(f.column) for f in event_fields)}) VALUES {', '.join([one_row] * count)}"
        f" RETURNING {event_pk}, {seq})"
        f" UPDATE {quote(Match._meta.db_table)} SET {', '.join(f'{quote(f.column)} = %s' for f in match_fields)}"
        f" WHERE {quote(Match._meta.pk.column)} = %s"
        f" RETURNING (SELECT json_agg(json_build_array(e.{event_pk}, e.{seq})) FROM e)"
    )
    built = _WRITES[(count, fields)] = (sql, event_fields, match_fields)
    return built
