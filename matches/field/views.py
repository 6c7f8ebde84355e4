"""The committee's part of a match kept at the field (``/committee/matches/{id}/field/…``): issue a
field token (shown once), revoke one, hand the match to the field or take it back; and a day's
tokens (``/committee/tournaments/{id}/field/…``: every match of the tournament on a day, on one
ground or all). Each is audited (``services``). The panels: ``{% field_panel match %}`` on the
committee's match page, ``{% field_day_panel tournament %}`` on its tournament page."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.committee.views.common import committee_match, committee_required, committee_tournament
from matches.models import Field, Match

from .models import FieldToken
from .services import field_token_issue, field_token_revoke, match_keep_at


def _shown_once(request: HttpRequest, token, secret: str, back: tuple[str, int], match: Match | None = None):
    """The new token, on a page of its own (never in a message or a log: only its hash is kept)."""
    server = request.build_absolute_uri("/").rstrip("/")
    command = f"./dev field pair --server {server} --token {secret}"
    if match is not None:
        command += f" --match {match.pk}"
    context = {"token": token, "secret": secret, "command": command, "back": reverse(back[0], args=[back[1]])}
    response = render(request, "field/token.html", context)
    response["Cache-Control"] = "no-store"
    return response


@committee_required
@require_POST
def field_token_new(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    token, secret = field_token_issue(match=match, user=request.user)
    return _shown_once(request, token, secret, ("committee:match", match.pk), match)


@committee_required
@require_POST
def day_token_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A day's token: every match of the tournament starting that day, on the ground chosen or on all."""
    tournament = committee_tournament(request, pk)
    try:
        day = dt.date.fromisoformat(request.POST.get("day", ""))
    except ValueError:
        day = None
    ground_id = request.POST.get("field") or ""
    ground = Field.objects.filter(pk=int(ground_id)).first() if ground_id.isdigit() else None
    if day is None or (ground_id and ground is None):
        messages.error(request, _("Choose a day (YYYY-MM-DD) and, if you like, one field."))
        return redirect("committee:tournament", pk=tournament.pk)
    token, secret = field_token_issue(day=day, tournament=tournament, ground=ground, user=request.user)
    return _shown_once(request, token, secret, ("committee:tournament", tournament.pk))


@committee_required
@require_POST
def day_token_cancel(request: HttpRequest, pk: int, token_id: int) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    token = get_object_or_404(FieldToken, pk=token_id, tournament=tournament, match__isnull=True)
    if field_token_revoke(token=token, user=request.user):
        messages.success(request, _("Field token #%(id)s revoked: the field server is shut out.") % {"id": token.pk})
    return redirect("committee:tournament", pk=tournament.pk)


@committee_required
@require_POST
def field_token_cancel(request: HttpRequest, pk: int, token_id: int) -> HttpResponse:
    match = committee_match(request, pk)
    token = get_object_or_404(FieldToken, pk=token_id, match=match)
    if field_token_revoke(token=token, user=request.user):
        messages.success(request, _("Field token #%(id)s revoked: the field server is shut out.") % {"id": token.pk})
    return redirect("committee:match", pk=match.pk)


@committee_required
@require_POST
def field_keep(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    where = request.POST.get("at")
    if where not in Match.KeptAt.values:
        messages.error(request, _("Choose where the match is kept: at the field or on this server."))
        return redirect("committee:match", pk=match.pk)
    match_keep_at(match_id=match.pk, where=where, user=request.user)
    if where == Match.KeptAt.FIELD:
        messages.success(request, _("The match is kept at the field: its log is written on the field's server."))
    else:
        messages.success(request, _("The match is kept on this server again."))
    return redirect("committee:match", pk=match.pk)
