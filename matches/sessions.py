"""Sessions that carry their user: the session and its official in one read.

Django's database sessions keep the user's id inside the encoded session data, so every signed-in
request reads the session and then the user: two round trips to the database before the view begins
(under a crowd on this project's machine, some 3 ms of the event POST's 12; issue 14,
``docs/CAPACITY.md``). Here the session's row carries the user's id in a column of its own
(``UserSession.user``, kept by ``create_model_instance`` whenever the session is saved), the
session is read joined to its user, and the authentication backend (``ModelBackend``) returns the
user read with it instead of reading it again. The store's read is the statement Django's would run
(the session by its key, not yet expired; ``UserSessionManager`` does the same join for every other
read), built once per process from the models' ``_meta`` rather than on every request
(``matches/compiled.py``). Everything else is Django's: the session's encoding, expiry and key
rotation, ``django.contrib.auth.get_user``'s checks (the backend named in the session, the
password-change hash), and the user's fallback read when the session was not read by this store (a
session loaded elsewhere, a user id that is not the session's).

The user read with a session is kept in a context variable: it lives for the request (or the
websocket's connect) that read it, and is only returned for the same user id.

The model and the store's ``get_model_class`` and ``create_model_instance`` are Django's documented
way to extend its database sessions. The read is not: it replaces the store's private
``_get_session_from_db`` (and its async twin), so it is the seam ``session-with-user`` of
``polo/seams.py`` (it runs on ``orm-compiled``'s statement): checked at start-up against the
installed Django, off with an ERROR when Django no longer reads a session that way (then Django's
own read serves, and ``ModelBackend`` reads the user again), kept for an event POST's latency
(p50 1.21x in the same run, ``docs/CAPACITY.md``).

Ending an official's sessions is a delete by that column (``end_sessions``; the users' admin has
it as an action, "sign out everywhere"); a user deleted takes their sessions with them. The table
is new with this module (``SESSION_ENGINE``): everyone signed in before it landed signs in once
more.
"""

from __future__ import annotations

import functools
from contextvars import ContextVar
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import SESSION_KEY, backends, get_user_model
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession, BaseSessionManager
from django.core.exceptions import ValidationError
from django.db import connections, models, router
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from polo import seams

from .compiled import Columns, Statement

# The user read with the last session this context loaded (None: no session, or no user in it).
_read_with_session: ContextVar[Any] = ContextVar("read_with_session", default=None)


class UserSessionManager(BaseSessionManager):
    """Every read of a session brings its user with it: one join, no second read."""

    def get_queryset(self):
        return super().get_queryset().select_related("user")


class UserSession(AbstractBaseSession):
    """Django's session row, with the id of the user signed in to it (none for a visitor's)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )

    objects = UserSessionManager()

    class Meta(AbstractBaseSession.Meta):
        verbose_name = _("session")
        verbose_name_plural = _("sessions")

    @classmethod
    def get_session_store_class(cls):
        return SessionStore


class SessionStore(DatabaseSessionStore):
    @classmethod
    def get_model_class(cls):
        return UserSession

    def _get_session_from_db(self):
        """Django's read (the session whose key this is, not yet expired; on a miss the key is
        dropped), as one statement built once (``_session_with_user``)."""
        if not seams.on("session-with-user"):
            _read_with_session.set(None)
            return super()._get_session_from_db()
        row = _session_with_user(self.session_key)
        if row is None:
            self._session_key = None
        return _remember_user(row)

    async def _aget_session_from_db(self):
        if not seams.on("session-with-user"):
            _read_with_session.set(None)
            return await super()._aget_session_from_db()
        return await sync_to_async(self._get_session_from_db)()

    def create_model_instance(self, data: dict[str, Any]) -> UserSession:
        row = super().create_model_instance(data)
        row.user_id = _user_id(data.get(SESSION_KEY))
        return row


@functools.cache
def _statement() -> Statement:
    """The session joined to its user (built on first use: the user model is only known then)."""
    return Statement((Columns(UserSession, "s"), Columns(get_user_model(), "u")), _session_sql)


def _session_sql(connection, columns: str) -> str:
    quote = connection.ops.quote_name
    users = get_user_model()._meta
    column = {name: quote(UserSession._meta.get_field(name).column) for name in ("user", "session_key", "expire_date")}
    return (
        f"SELECT {columns} FROM {quote(UserSession._meta.db_table)} s"
        f" LEFT JOIN {quote(users.db_table)} u ON u.{quote(users.pk.column)} = s.{column['user']}"
        f" WHERE s.{column['session_key']} = %s AND s.{column['expire_date']} > %s"
    )


def _session_with_user(session_key: str) -> UserSession | None:
    """What ``UserSession.objects.select_related("user").get(session_key=session_key,
    expire_date__gt=timezone.now())`` gives (None where it raises ``DoesNotExist``), with SQL
    built once per database alias instead of on every signed-in request: Django's compiler took
    about 0.7 ms of the POST's CPU here, its queryset as much again (``docs/CAPACITY.md``)."""
    alias = router.db_for_read(UserSession)
    expires = UserSession._meta.get_field("expire_date")
    now = expires.get_db_prep_value(timezone.now(), connections[alias], prepared=False)
    for row, user in _statement().rows(alias, [session_key, now]):
        row.user = user  # (None for a visitor's session: its column is empty)
        return row
    return None


def _remember_user(row: UserSession | None) -> UserSession | None:
    """Keep the user read with the session (``_session_with_user``; None: no session)."""
    _read_with_session.set(row.user if row is not None else None)
    return row


def _user_id(value: Any) -> Any:
    """The session's user id as the user model's key (None if there is none, or not a key)."""
    if value is None:
        return None
    try:
        return get_user_model()._meta.pk.to_python(value)
    except ValidationError:
        return None


class ModelBackend(backends.ModelBackend):
    """Django's ``ModelBackend``; a signed-in request's user is the one read with its session."""

    def get_user(self, user_id):
        user = _read_with_session.get()
        if user is not None and user.pk == user_id:
            return user if self.user_can_authenticate(user) else None
        return super().get_user(user_id)


def end_sessions(users) -> int:
    """Sign ``users`` (a queryset or a list of users) out everywhere: delete their sessions.
    Returns how many there were."""
    deleted, _by_model = UserSession.objects.filter(user__in=users).delete()
    return deleted
