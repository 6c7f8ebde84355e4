"""Who may do what. Personas:

- **federation** (superusers and the group ``federation``: the server's operators): the committee of
  every tournament on the server, and the only ones who assign committees.
- **committee** (group ``committee``): runs the tournaments they are assigned to
  (``CommitteeAssignment``, one per tournament; the creator of a tournament is assigned to it) and
  no other: sets them up, sends the committee's events (suspend, resume, abandon, overtime,
  shootout, forfeit) on their matches, runs their shootouts and reads their private notes. Out of
  the group, a member's assignments grant nothing; a revoked assignment grants nothing.
- **umpire / referee** (assigned per match): may log game events on their own match, and suspend.
- **scorer** (assigned per match): may log game events on their own match only.
- **the public** (anonymous or any other user): reads, never writes.

Pages, the API and the websockets all ask these functions, so they enforce the same scope.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from .models import CommitteeAssignment, Field, Match, Tournament

COMMITTEE_GROUP = "committee"
FEDERATION_GROUP = "federation"
UMPIRE_GROUP = "umpire"
SCORER_GROUP = "scorer"
ROLE_GROUPS = (COMMITTEE_GROUP, UMPIRE_GROUP, SCORER_GROUP)
ALL_GROUPS = (*ROLE_GROUPS, FEDERATION_GROUP)

# Events only the committee decides (Rules 14.c, 14.d, 21.f(5)); suspend/resume/abandon also umpires.
COMMITTEE_ONLY_EVENTS = frozenset({"overtime", "shootout_start", "forfeit"})
COMMITTEE_OR_UMPIRE_EVENTS = frozenset({"suspend", "resume", "abandon"})
COMMITTEE_MAY_ALSO = frozenset({"shootout_attempt", "void"})


def event_permissions() -> dict[str, list[str]]:
    """The lists above, for the officials' screens (``static/js/officials/permissions.js`` reads them
    from the page): a button is offered by the same rule the server applies, written once."""
    return {
        "committee_only": sorted(COMMITTEE_ONLY_EVENTS),
        "committee_or_umpire": sorted(COMMITTEE_OR_UMPIRE_EVENTS),
        "committee_may_also": sorted(COMMITTEE_MAY_ALSO),
    }


AnyUser = AbstractBaseUser | AnonymousUser


def _active(user: AnyUser) -> bool:
    return bool(user.is_authenticated and user.is_active)


def _tournament_id(tournament: Tournament | int | None) -> int | None:
    return tournament.pk if isinstance(tournament, Tournament) else tournament


def is_federation(user: AnyUser) -> bool:
    """The server's operators: the committee of every tournament."""
    return _active(user) and (user.is_superuser or user.groups.filter(name=FEDERATION_GROUP).exists())


def is_committee(user: AnyUser) -> bool:
    """May open the committee's area (each member then sees and acts on their own tournaments only)."""
    if not _active(user):
        return False
    return user.is_superuser or user.groups.filter(name__in=(COMMITTEE_GROUP, FEDERATION_GROUP)).exists()


def committee_assignments(user: AnyUser) -> QuerySet[CommitteeAssignment]:
    """The user's assignments in force: active, and only while the user is in the committee group."""
    if not _active(user):
        return CommitteeAssignment.objects.none()
    return CommitteeAssignment.objects.active().filter(user=user, user__groups__name=COMMITTEE_GROUP)


def committee_tournament_ids(user: AnyUser) -> set[int] | None:
    """The ids of the tournaments the user runs; ``None`` means every one (the federation)."""
    if is_federation(user):
        return None
    return set(committee_assignments(user).values_list("tournament_id", flat=True))


def committee_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    ids = committee_tournament_ids(user)
    return Tournament.objects.all() if ids is None else Tournament.objects.filter(pk__in=ids)


def committee_matches(user: AnyUser) -> QuerySet[Match]:
    ids = committee_tournament_ids(user)
    return Match.objects.all() if ids is None else Match.objects.filter(tournament_id__in=ids)


def is_committee_of(user: AnyUser, tournament: Tournament | int | None) -> bool:
    """Whether the user is the committee of this tournament (assigned to it, or the federation)."""
    if is_federation(user):
        return True
    tournament_id = _tournament_id(tournament)
    return tournament_id is not None and committee_assignments(user).filter(tournament_id=tournament_id).exists()


@dataclass(frozen=True)
class CommitteeScope:
    """Under what a user acts as the committee of a tournament: their assignment to it, or (with
    none) the federation's role. The audit trail stores it with every committee action."""

    assignment: CommitteeAssignment | None

    @property
    def federation(self) -> bool:
        return self.assignment is None


def committee_scope(user: AnyUser, tournament: Tournament | int | None) -> CommitteeScope | None:
    """The user's authority over the tournament, the most specific first: their assignment, else the
    federation's role; ``None`` when they are not its committee."""
    tournament_id = _tournament_id(tournament)
    if tournament_id is not None:
        assignment = committee_assignments(user).filter(tournament_id=tournament_id).first()
        if assignment is not None:
            return CommitteeScope(assignment)
    if is_federation(user):
        return CommitteeScope(None)
    return None


def may_edit_field(user: AnyUser, field: Field) -> bool:
    """Fields are shared by the tournaments played on them: a committee member may change one only
    while no tournament but theirs has a match on it (the federation, always)."""
    ids = committee_tournament_ids(user)
    if ids is None:
        return True
    return is_committee(user) and not Match.objects.filter(field=field).exclude(tournament_id__in=ids).exists()


def match_role(user: AnyUser, match: Match) -> str | None:
    """The user's role on this match: "scorer", "umpire" (umpires and the referee), "committee" (the
    committee of its tournament) or None."""
    if not _active(user):
        return None
    if match.scorer_id == user.pk:
        return "scorer"
    if match.referee_id == user.pk or match.umpires.filter(pk=user.pk).exists():
        return "umpire"
    if is_committee_of(user, match.tournament_id):
        return "committee"
    return None


def can_log_event(user: AnyUser, match: Match, event_type: str | None) -> bool:
    return role_may_log(match_role(user, match), event_type)


def role_may_log(role: str | None, event_type: str | None) -> bool:
    """Whether an official of ``role`` (None: no official of the match) logs ``event_type``."""
    if role is None:
        return False
    if role == "committee":
        return event_type in COMMITTEE_ONLY_EVENTS | COMMITTEE_OR_UMPIRE_EVENTS | COMMITTEE_MAY_ALSO
    if event_type in COMMITTEE_ONLY_EVENTS:
        return False
    if event_type in COMMITTEE_OR_UMPIRE_EVENTS:
        return role == "umpire"
    return True


def can_void(role: str | None, target_type: str, target_role: str | None) -> bool:
    """Who may undo what (issue 9): a void only by a role that may log its target, and never the
    committee's own decisions (suspend, resume, abandon, overtime, shootout, forfeit) by the
    scorer or the umpires. ``target_role``: the role of whoever logged the target (None for the
    clock's own horns)."""
    if role is None:
        return False
    if role == "committee":
        return True  # the committee may correct anything on the matches it runs
    if target_role == "committee" or target_type in COMMITTEE_ONLY_EVENTS:
        return False
    if target_type in COMMITTEE_OR_UMPIRE_EVENTS:
        return role == "umpire"
    return True


def is_official(user: AnyUser, match: Match) -> bool:
    """Officials of the match (and its tournament's committee) may see private notes and the
    officials' screens."""
    return match_role(user, match) is not None
