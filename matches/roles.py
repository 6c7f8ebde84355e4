"""The role groups and what the committee and the federation may do in the admin."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from .permissions import ALL_GROUPS, COMMITTEE_GROUP, FEDERATION_GROUP

COMMITTEE_MODELS = ["tournament", "field", "team", "player", "entry", "rosterline", "match", "webhook"]
# Append-only records the committee reads but nobody edits; a member sees who else runs their tournaments.
COMMITTEE_READS = [
    "matchevent",
    "auditentry",
    "matchreport",
    "webhookdelivery",
    "scoreconfirmation",
    "committeeassignment",
]
# The federation assigns the committees (an assignment is revoked, never deleted).
FEDERATION_MANAGES = ["add_committeeassignment", "change_committeeassignment"]


def ensure_role_groups() -> None:
    for name in ALL_GROUPS:
        Group.objects.get_or_create(name=name)


def _committee_permissions() -> list[Permission]:
    perms = Permission.objects.filter(content_type__app_label="matches", content_type__model__in=COMMITTEE_MODELS)
    view_events = Permission.objects.filter(
        content_type__app_label="matches", codename__in=[f"view_{model}" for model in COMMITTEE_READS]
    )
    return [*perms, *view_events]


def grant_committee_admin_permissions() -> None:
    """Committee members manage tournaments, teams and matches in the admin (their own tournaments'
    only: ``matches/admin.py`` scopes every list and form); they may view the event log but, like
    everyone, never change it."""
    group, _ = Group.objects.get_or_create(name=COMMITTEE_GROUP)
    group.permissions.add(*_committee_permissions())


def grant_federation_admin_permissions() -> None:
    """The federation has the committee's permissions on every tournament, and assigns committees."""
    group, _ = Group.objects.get_or_create(name=FEDERATION_GROUP)
    manages = Permission.objects.filter(content_type__app_label="matches", codename__in=FEDERATION_MANAGES)
    group.permissions.add(*_committee_permissions(), *manages)
