"""Django's database sessions, whose row carries the signed-in user's id.

Django's database session engine, extended as Django documents it ("Extending database-backed
session engines"): the row (``UserSession``, an ``AbstractBaseSession``) has a column of its own
with the id of the user signed in to it, which the store (``get_model_class``,
``create_model_instance``) keeps whenever the session is saved. Everything else is Django's: the
session's encoding, expiry, key rotation and read, and ``django.contrib.auth``'s checks of the
user (the backend named in the session, the password-change hash, a deactivated user refused).

The column is what the project needs the sessions for beyond Django's: ending an official's
sessions is a delete by it (``end_sessions``; the users' admin has it as an action, "sign out
everywhere", for a laptop left at the field), and a user deleted takes their sessions with them.
(Django's ``signed_cookies`` could not be ended from the server; ``cached_db`` would fail every
signed-in request while Redis is away.)

Until issue 37 the store's read was replaced (Django's private ``_get_session_from_db``) by one
compiled statement bringing the user with it: measured against Django's own read in the same runs
it bought an event POST 1.18x on its p50 and nothing on its p99 (``docs/CAPACITY.md``), under the
20 % that reaching into a library's internals must buy, so the read is Django's again.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY, backends, get_user_model
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


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

    def create_model_instance(self, data: dict[str, Any]) -> UserSession:
        row = super().create_model_instance(data)
        row.user_id = _user_id(data.get(SESSION_KEY))
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
    """Django's ``ModelBackend`` as it comes, under the name every signed-in session records
    (``AUTHENTICATION_BACKENDS``): renaming it would sign everyone out."""


def end_sessions(users) -> int:
    """Sign ``users`` (a queryset or a list of users) out everywhere: delete their sessions.
    Returns how many there were."""
    deleted, _by_model = UserSession.objects.filter(user__in=users).delete()
    return deleted
