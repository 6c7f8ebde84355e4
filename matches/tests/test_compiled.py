"""The event POST's reads built once (matches/compiled.py): the same rows as the ORM's querysets,
which are also what it runs with its seam off (``polo/seams.py``: ``orm-compiled``)."""

from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from matches import compiled
from matches.compiled import locked_match_with_config
from matches.games import match_config
from matches.models import Match, RosterLine
from polo import seams

from .personas import make_entry, make_match

pytestmark = pytest.mark.django_db

_orm_locked = compiled._locked_by_the_orm  # (the seam's stock path: Django's querysets)


@pytest.fixture
def seam_off(monkeypatch):
    monkeypatch.setattr(seams.SEAMS["orm-compiled"], "enabled", False)


def _values(instance) -> dict:
    deferred = instance.get_deferred_fields()
    return {
        f.attname: getattr(instance, f.attname)
        for f in type(instance)._meta.concrete_fields
        if f.attname not in deferred
    }


def _rosters_out_of_order(match: Match) -> None:
    """Both rosters stored in an order other than their numbers (the read must sort them)."""
    for entry in (match.home, match.away):
        lines = list(RosterLine.objects.filter(entry=entry).order_by("number"))
        RosterLine.objects.filter(entry=entry).delete()
        for line in reversed(lines):
            line.pk = None
            line.save()


def test_the_locked_match_is_the_rows_the_orm_reads_with_every_relation_cached():
    match = make_match(home_handicap_goals=Decimal("1.5"), periods=4)
    match.home = make_entry(match.tournament, "Home", handicaps=(3, 2, 1, 0))
    match.save()
    _rosters_out_of_order(match)
    with transaction.atomic():
        orm = _orm_locked(match.pk)
        with CaptureQueriesContext(connection) as queries:
            fast = locked_match_with_config(match.pk)
            config = match_config(fast)
            role_rows = (fast.tournament.name, fast.field.name, fast.home.team.name, fast.away.team.color)
        assert len(queries.captured_queries) == 1  # the match with its joins and both rosters
    assert config == match_config(orm)
    assert [p["number"] for p in config["home"]["players"]] == [1, 2, 3, 4]
    assert config["home"]["handicap_goals"] == 1.5
    assert role_rows == (orm.tournament.name, orm.field.name, orm.home.team.name, orm.away.team.color)
    for fast_row, orm_row in [
        (fast, orm),
        (fast.tournament, orm.tournament),
        (fast.field, orm.field),
        (fast.home, orm.home),
        (fast.away.team, orm.away.team),
    ]:
        assert _values(fast_row) == _values(orm_row)
    assert fast.get_deferred_fields() == {"state_cache"}
    lines = list(fast.away.roster.all())
    assert [_values(line) for line in lines] == [_values(line) for line in orm.away.roster.all()]
    assert all(line.entry is fast.away for line in lines)


def test_the_roster_is_the_entrys_own_queryset_and_the_deferred_state_still_loads():
    match = make_match()
    Match.objects.filter(pk=match.pk).update(state_cache={"status": "scheduled"})
    with transaction.atomic():
        fast = locked_match_with_config(match.pk)
        with CaptureQueriesContext(connection) as queries:
            assert fast.home.team_handicap == 6  # (2, 2, 1, 1)
        assert queries.captured_queries == []  # (the prefetch cache serves both)
        # A further filter is a query of this entry's lines, as after Django's own prefetch.
        assert fast.home.roster.filter(number__gte=3).count() == 2
        assert fast.state_cache == {"status": "scheduled"}


def test_a_match_whose_entries_have_no_roster_yet_is_read_with_empty_rosters():
    match = make_match()
    RosterLine.objects.filter(entry__in=(match.home, match.away)).delete()
    with transaction.atomic():
        fast = locked_match_with_config(match.pk)
        with CaptureQueriesContext(connection) as queries:
            assert (list(fast.home.roster.all()), list(fast.away.roster.all())) == ([], [])
        assert queries.captured_queries == []
    assert (fast.home.team.pk, fast.away.team.pk) == (match.home.team_id, match.away.team_id)


def test_one_entrys_roster_alone_is_read_and_the_other_stays_empty():
    match = make_match()
    RosterLine.objects.filter(entry=match.away).delete()
    with transaction.atomic():
        fast = locked_match_with_config(match.pk)
    assert [line.number for line in fast.home.roster.all()] == [1, 2, 3, 4]
    assert list(fast.away.roster.all()) == []
    assert all(line.player.pk == line.player_id for line in fast.home.roster.all())


def test_there_is_no_locked_match_for_an_unknown_id():
    with transaction.atomic():
        assert locked_match_with_config(999_999) is None


def test_with_the_seam_off_the_locked_match_is_read_by_the_orms_querysets(seam_off):
    match = make_match()
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            stock = locked_match_with_config(match.pk)
            config = match_config(stock)
        assert len(queries.captured_queries) == 2  # the match with its joins, then both rosters
        assert locked_match_with_config(999_999) is None
    if connection.vendor == "postgresql":
        assert queries.captured_queries[0]["sql"].endswith('FOR UPDATE OF "matches_match"')
    assert [p["number"] for p in config["home"]["players"]] == [1, 2, 3, 4]
    assert stock.get_deferred_fields() == {"state_cache"}


def test_the_match_row_is_locked_and_the_joined_rows_are_not():
    match = make_match()
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked_match_with_config(match.pk)
    sql = queries.captured_queries[0]["sql"]
    if connection.vendor == "postgresql":
        assert sql.endswith("FOR UPDATE OF m")
    else:  # SQLite locks no row: its write transaction (IMMEDIATE, settings) keeps two writers apart
        assert "FOR UPDATE" not in sql


@pytest.mark.parametrize("fast", [True, False], ids=["seam on", "seam off"])
def test_new_events_and_the_state_are_stored_together_with_their_keys_and_signals(fast, monkeypatch):
    """PostgreSQL with the seam on: the events' insert and the match's update are one statement
    (one round trip); elsewhere, or with the seam off, the ORM's saves. Either way the rows are
    stored, keyed, and saved as ``save`` leaves them, and Django's save signals are sent (the
    match's with its update_fields)."""
    from django.db.models.signals import post_save
    from django.utils.timezone import now

    from matches.compiled import append_and_save
    from matches.models import MatchEvent

    monkeypatch.setattr(seams.SEAMS["orm-compiled"], "enabled", fast)
    match = make_match()
    seen = []

    def receiver(sender, instance, created, update_fields=None, **kwargs):
        seen.append((sender.__name__, created, set(update_fields) if update_fields else None))

    post_save.connect(receiver)
    try:
        with transaction.atomic():
            locked = locked_match_with_config(match.pk)
            rows = [
                MatchEvent(
                    match=locked,
                    seq=n,
                    client_id=f"c{n}",
                    type="play",
                    payload={"id": f"c{n}", "type": "play"},
                    received_at=now(),
                )
                for n in (1, 2)
            ]
            locked.last_seq, locked.state_cache, locked.status = 2, {"status": "in_play"}, "in_play"
            with CaptureQueriesContext(connection) as queries:
                append_and_save(locked, rows, ("state_cache", "last_seq", "status"))
    finally:
        post_save.disconnect(receiver)
    writes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith(("INSERT", "UPDATE", "WITH"))]
    assert len(writes) == (1 if fast and connection.vendor == "postgresql" else 3), writes
    stored = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("pk", "seq", "payload"))
    assert stored == [(rows[0].pk, 1, {"id": "c1", "type": "play"}), (rows[1].pk, 2, {"id": "c2", "type": "play"})]
    assert all(row.pk is not None and not row._state.adding for row in rows)
    match.refresh_from_db()
    assert (match.last_seq, match.status, match.state_cache) == (2, "in_play", {"status": "in_play"})
    assert seen == [
        ("MatchEvent", True, None),
        ("MatchEvent", True, None),
        ("Match", False, {"state_cache", "last_seq", "status"}),
    ]


def test_storing_the_state_of_a_match_that_is_gone_fails_and_stores_nothing():
    """As Django's save with update_fields: no match row to update is an error, and the
    transaction stores none of the events either."""
    from django.db import DatabaseError
    from django.utils.timezone import now

    from matches.compiled import append_and_save
    from matches.models import MatchEvent

    match = make_match()
    ghost = Match.objects.get(pk=match.pk)
    ghost.pk = 999_999
    row = MatchEvent(match=ghost, seq=1, client_id="c1", type="play", payload={}, received_at=now())
    with pytest.raises(DatabaseError), transaction.atomic():
        append_and_save(ghost, [row], ("last_seq",))
    assert not MatchEvent.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_statement_is_built_once_for_every_thread_and_holds_no_threads_connection(monkeypatch):
    """Under ASGI each request runs in a thread of its own, with a connection of its own: the
    statement is built for the first and serves the next (it was built again on every POST), and
    what it keeps holds no connection (SQLite's converters are its operations' methods: they are
    bound to the running thread's)."""
    match = make_match(home_handicap_goals=Decimal("1.5"))
    builds = []
    build_sql = compiled._LOCKED.build_sql
    monkeypatch.setattr(compiled._LOCKED, "build_sql", lambda *args: builds.append(args[0]) or build_sql(*args))
    monkeypatch.setattr(compiled._LOCKED, "built", {})

    def read_in_a_new_thread() -> tuple[Match, object]:
        def read():
            try:
                with transaction.atomic():
                    return locked_match_with_config(match.pk), connections["default"]
            finally:
                connections.close_all()  # (this thread's)

        with ThreadPoolExecutor(max_workers=1) as thread:
            return thread.submit(read).result()

    first, first_connection = read_in_a_new_thread()
    second, second_connection = read_in_a_new_thread()

    assert first_connection is not second_connection
    assert builds == [first_connection]
    for read in (first, second):
        assert (read.pk, read.starts_at, read.home_handicap_goals) == (match.pk, match.starts_at, Decimal("1.5"))
        assert read.home.team.name == match.home.team.name
    ((_sql, converters_of),) = compiled._LOCKED.built.values()
    kept = [pair for converters in converters_of for _, pairs, _ in converters for pair in pairs]
    assert not any(hasattr(getattr(fn, "__self__", None), "connection") for fn, _ in kept)
    if connection.vendor == "sqlite":  # (PostgreSQL's columns here need no converter)
        assert any(of_ops for _, of_ops in kept)
