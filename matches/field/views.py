"""The committee's part of a match kept at the field (``/committee/matches/{id}/field/…``): issue a
field token (shown once), revoke one, hand the match to the field or take it back. Each is
audited (``services``). The panel on the committee's match page: ``{% field_panel match %}``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.committee.views.common import committee_match, committee_required
from matches.models import Match

from .models import FieldToken
from .services import field_token_issue, field_token_revoke, match_keep_at


@committee_required
@require_POST
def field_token_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A new token, on a page of its own (never in a message or a log: only its hash is kept)."""
    match = committee_match(request, pk)
    token, secret = field_token_issue(match=match, user=request.user)
    server = request.build_absolute_uri("/").rstrip("/")
    command = f"./dev field pair --server {server} --match {match.pk} --token {secret}"
    response = render(
        request, "field/token.html", {"match": match, "token": token, "secret": secret, "command": command}
    )
    response["Cache-Control"] = "no-store"
    return response


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
