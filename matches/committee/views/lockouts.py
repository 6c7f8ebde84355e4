"""Locked-out logins (the login throttle, ``matches/auth.py``): the logins and addresses refused now,
and the committee's unlock, recorded in the audit trail.

A committee member sees and unlocks the logins of their own tournaments' officials (the scorers,
umpires and referees of its matches, and its committee); the federation, every lockout, including
logins no one has and addresses locked for trying many logins."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.auth import Lockout, current_lockouts, unlock
from matches.models import CommitteeAssignment, Match
from matches.permissions import committee_tournament_ids

from ..audit import with_lines
from ..models import AuditEntry
from ..services import audit_record
from .common import committee_required

RECENT_UNLOCKS = 20


def visible_usernames(user) -> set[str] | None:
    """The logins whose lockouts the user may see and unlock (lower case, as the throttle counts
    them); None: every one (the federation)."""
    ids = committee_tournament_ids(user)
    if ids is None:
        return None
    matches = Match.objects.filter(tournament_id__in=ids)
    user_ids = {pk for pair in matches.values_list("scorer_id", "referee_id") for pk in pair if pk}
    user_ids |= set(Match.umpires.through.objects.filter(match__in=matches).values_list("user_id", flat=True))
    user_ids |= set(
        CommitteeAssignment.objects.filter(tournament_id__in=ids, revoked_at__isnull=True).values_list(
            "user_id", flat=True
        )
    )
    usernames = get_user_model().objects.filter(pk__in=user_ids).values_list("username", flat=True)
    return {name.lower() for name in usernames}


def _visible(lockouts: list[Lockout], usernames: set[str] | None) -> list[Lockout]:
    return lockouts if usernames is None else [lock for lock in lockouts if lock.username in usernames]


class UnlockForm(forms.Form):
    kind = forms.ChoiceField(choices=[("login", "login"), ("address", "address")])
    username = forms.CharField(max_length=150, required=False)
    address = forms.GenericIPAddressField(required=False)

    def clean(self):
        data = super().clean()
        if data.get("kind") == "login" and not data.get("username"):
            raise forms.ValidationError(_("Which login?"))
        return data


@committee_required
def lockout_list(request: HttpRequest) -> HttpResponse:
    usernames = visible_usernames(request.user)
    logins, addresses = current_lockouts()
    unlocks = AuditEntry.objects.filter(action=AuditEntry.Action.LOGIN_UNLOCK).select_related("user")
    if usernames is not None:
        unlocks = unlocks.filter(details__username__in=usernames)
    return render(
        request,
        "committee/lockouts.html",
        {
            "logins": _visible(logins, usernames),
            "addresses": addresses if usernames is None else [],
            "federation": usernames is None,
            "audit": with_lines(unlocks.order_by("-at", "-pk")[:RECENT_UNLOCKS]),
        },
    )


@committee_required
@require_POST
def lockout_unlock(request: HttpRequest) -> HttpResponse:
    form = UnlockForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(_("Not a lockout."))
    kind, address = form.cleaned_data["kind"], form.cleaned_data["address"] or None
    username = form.cleaned_data["username"].strip().lower() or None
    usernames = visible_usernames(request.user)
    if usernames is not None and (kind == "address" or username not in usernames):
        raise PermissionDenied
    with transaction.atomic():
        if kind == "address":
            failures = unlock(address=address, whole_address=True)
            details = {"address": address, "failures": failures}
            text = _("Address %(address)s unlocked.") % {"address": address or "—"}
        else:
            failures = unlock(username=username, address=address)
            details = {"username": username, "address": address, "failures": failures}
            text = _("Login %(username)s unlocked at %(address)s.") % {"username": username, "address": address or "—"}
        audit_record(user=request.user, action=AuditEntry.Action.LOGIN_UNLOCK, details=details)
    messages.success(request, text)
    return redirect("committee:lockouts")
