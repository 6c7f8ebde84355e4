"""The role groups and what the committee may do in the admin."""
from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from .permissions import COMMITTEE_GROUP, ROLE_GROUPS

COMMITTEE_MODELS = ["tournament", "field", "team", "player", "entry", "rosterline", "match", "webhook"]
# Append-only records the committee reads but nobody edits.
COMMITTEE_READS = ["matchevent", "auditentry", "matchreport", "webhookdelivery", "scoreconfirmation"]


def ensure_role_groups() -> None:
    for name in ROLE_GROUPS:
        Group.objects.get_or_create(name=name)


def grant_committee_admin_permissions() -> None:
    """Committee members manage tournaments, teams and matches in the admin; they may view the
    event log but, like everyone, never change it."""
    group, _ = Group.objects.get_or_create(name=COMMITTEE_GROUP)
    perms = Permission.objects.filter(content_type__app_label="matches", content_type__model__in=COMMITTEE_MODELS)
    view_events = Permission.objects.filter(
        content_type__app_label="matches", codename__in=[f"view_{model}" for model in COMMITTEE_READS]
    )
    group.permissions.add(*perms, *view_events)
