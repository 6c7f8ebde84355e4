"""What the committee's views share: the gates (only the committee, or the login page; then only the
committee of the tournament a page belongs to: ``matches.permissions.is_committee_of``), the match
or tournament they act on, and the way a form's errors and a refused event reach the page as
messages."""

from __future__ import annotations

import uuid
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language, gettext as _

from matches.models import Match, Tournament
from matches.permissions import is_committee, is_committee_of

from ..services import committee_event_send


def committee_required(view):
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_committee(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def committee_of(request: HttpRequest, tournament: Tournament | int | None) -> None:
    """Only the committee of the tournament (its assigned members, the federation) goes further: any
    other committee member gets 403 (tournaments and matches are public, so no existence is hidden)."""
    if not is_committee_of(request.user, tournament):
        raise PermissionDenied


def match_or_404(pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("tournament", "field", "home__team", "away__team", "referee", "scorer"), pk=pk
    )


def committee_match(request: HttpRequest, pk: int) -> Match:
    """The match, for the committee of its tournament only."""
    match = match_or_404(pk)
    committee_of(request, match.tournament_id)
    return match


def committee_tournament(request: HttpRequest, pk: int) -> Tournament:
    """The tournament, for its committee only."""
    tournament = get_object_or_404(Tournament, pk=pk)
    committee_of(request, tournament)
    return tournament


def language() -> str:
    return (get_language() or "en")[:2]


def refused(request: HttpRequest, result) -> None:
    error = result.error
    text = error.message(language())
    if getattr(error, "rule", None):
        text = _("%(message)s (Rule %(rule)s)") % {"message": text, "rule": error.rule}
    messages.error(request, text)


def form_errors(request: HttpRequest, form) -> None:
    for field, errors in form.errors.items():
        for error in errors:
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {error}" if label else error)


def event_form_initial() -> dict:
    """A fresh event id for a form that sends a committee event (a double submit records it once)."""
    return {"event_id": uuid.uuid4()}


def event_send(
    request: HttpRequest, match: Match, event: dict, success: str, audit_details: dict | None = None
) -> bool:
    result = committee_event_send(match=match, event=event, user=request.user, audit_details=audit_details)
    if result.accepted:
        messages.success(request, success)
    else:
        refused(request, result)
    return result.accepted
