"""What the live room listens to, connected by ``MatchesConfig.ready()`` (``connect``):

- the match log's seam (``matches/log_events.py``): events were committed, so the match's sockets
  get them with the state after them, in each language;
- Django's own signals: an official who logs out, or whose officials' role on a match may have
  changed (a committee assignment revoked included), has their sockets closed or re-checked; so
  does one whose session ended by any other path (a session deleted: signed out everywhere; the
  user saved: a password change, a deactivation), each socket checking the session it opened with.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from matches.log_events import LoggedEvents, events_logged
from matches.models import CommitteeAssignment, Match
from matches.sessions import UserSession
from officiating.engine.boxscore_json import goal_rows

from .broadcast import broadcast_match_roles, broadcast_match_update, broadcast_user
from .groups import USER_LOGOUT, USER_ROLES


def connect() -> None:
    events_logged.connect(on_events_logged, dispatch_uid="polo-live-events")
    user_logged_out.connect(on_logout, dispatch_uid="polo-ws-logout")
    m2m_changed.connect(on_m2m, dispatch_uid="polo-ws-umpires")
    post_save.connect(on_save, dispatch_uid="polo-ws-match-officials")
    post_delete.connect(on_session_deleted, sender=UserSession, dispatch_uid="polo-ws-session-ended")


def on_events_logged(sender, *, logged: LoggedEvents, **kwargs) -> None:
    """Tell the match's viewers; the send itself does not wait for the channel layer.

    The message carries the new events and the state in each language, so that no process has
    to read them back (measured: a hub's read of one update costs some 300 times what carrying
    the state does)."""
    states = {code: logged.state_in(code) for code, _name in settings.LANGUAGES}
    broadcast_match_update(
        logged.match_id,
        logged.first_seq,
        logged.last_seq,
        states=states,
        events=list(logged.events),
        goals=goal_rows(logged.game, since=logged.first_seq - 1),
        server_time=logged.now,
    )


# --- who may keep an official's socket open --------------------------------------------------


def on_logout(sender, request, user, **kwargs) -> None:
    if user is not None and user.pk is not None:
        transaction.on_commit(lambda: broadcast_user(user.pk, USER_LOGOUT))


def on_m2m(sender, instance, action, **kwargs) -> None:
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    if sender is Match.umpires.through and isinstance(instance, Match):
        transaction.on_commit(lambda: broadcast_match_roles(instance.pk))
    elif sender is get_user_model().groups.through and isinstance(instance, get_user_model()):
        transaction.on_commit(lambda: broadcast_user(instance.pk, USER_ROLES))


def on_save(sender, instance, created, update_fields=None, **kwargs) -> None:
    if sender is Match and not created:
        # The event path saves only the state cache: not a change of officials.
        if update_fields is not None and not ({"scorer", "referee"} & set(update_fields)):
            return
        transaction.on_commit(lambda: broadcast_match_roles(instance.pk))
    elif sender is get_user_model() and not created:
        if update_fields is not None and not ({"is_active", "is_superuser", "password"} & set(update_fields)):
            return
        transaction.on_commit(lambda: broadcast_user(instance.pk, USER_ROLES))
    elif sender is CommitteeAssignment:  # assigned or revoked: the member's committee sockets re-check
        transaction.on_commit(lambda: broadcast_user(instance.user_id, USER_ROLES))


def on_session_deleted(sender, instance, **kwargs) -> None:
    """A session ended (``end_sessions``, a logout, a flush): its user's sockets check theirs."""
    if instance.user_id is not None:
        user_id = instance.user_id
        transaction.on_commit(lambda: broadcast_user(user_id, USER_ROLES))
