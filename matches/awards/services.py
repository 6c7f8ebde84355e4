"""The committee's writes of awards: record (or change) and withdraw. Only the committee of the
tournament (its assigned members, the federation); every write is in the audit trail, in the same
transaction, under the authority it was taken (``committee.services.audit_record``)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.committee.models import AuditEntry
from matches.committee.services import audit_record
from matches.models import Match, RosterLine, Tournament
from matches.permissions import committee_scope

from .models import Award

Kind = Award.Kind


class AwardRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _details(award: Award) -> dict[str, Any]:
    """An award in the audit trail: codes and names, never sentences."""
    return {
        "award": award.kind,
        "player": award.player.name,
        "team": award.entry.team.name if award.entry_id else "",
        "horse": award.horse,
        "owner": award.owner,
        "breeder": award.breeder,
        "ridden_in_match": award.from_mount if award.kind == Kind.BEST_PLAYING_PONY else None,
    }


def _check(user, tournament: Tournament, match: Match | None, line: RosterLine) -> None:
    if committee_scope(user, tournament) is None:
        raise PermissionDenied
    if match is not None:
        if match.tournament_id != tournament.pk:
            raise AwardRefused("wrong_tournament", _("The match is not of this tournament."))
        if match.status != Match.Status.FINAL:
            raise AwardRefused("not_final", _("The awards of a match are given once its result is final."))
        if line.entry_id not in (match.home_id, match.away_id):
            raise AwardRefused("not_a_player", _("The player did not play in this match."))
    elif line.entry.tournament_id != tournament.pk:
        raise AwardRefused("not_a_player", _("The player is not entered in this tournament."))


@transaction.atomic
def award_record(
    *,
    user,
    kind: str,
    tournament: Tournament,
    line: RosterLine,
    match: Match | None = None,
    horse: str = "",
    owner: str = "",
    breeder: str = "",
    from_mount: bool = False,
) -> Award:
    """Give the award (replacing the one of its kind already given: the trail keeps both)."""
    _check(user, tournament, match, line)
    horse, owner, breeder = horse.strip(), owner.strip(), breeder.strip()
    if kind == Kind.BEST_PLAYING_PONY and not horse:
        raise AwardRefused("no_horse", _("Name the horse."))
    if kind == Kind.MVP:
        horse, owner, breeder, from_mount = "", "", "", False
    # (of=self: a tournament award filters on an empty match, which PostgreSQL will not lock through.)
    award = Award.objects.select_for_update(of=("self",)).filter(tournament=tournament, match=match, kind=kind).first()
    before = _details(award) if award is not None else None
    if award is None:
        award = Award(tournament=tournament, match=match, kind=kind)
    award.player, award.entry = line.player, line.entry
    award.horse, award.owner, award.breeder, award.from_mount = horse, owner, breeder, from_mount
    award.awarded_at, award.awarded_by = timezone.now(), user
    award.save()
    details = _details(award)
    if before is not None:
        details["before"] = before
    audit_record(user=user, action=AuditEntry.Action.AWARD_SET, match=match, tournament=tournament, details=details)
    if match is not None:
        from matches.scoresheet.services import report_refresh

        transaction.on_commit(lambda: report_refresh(match.pk, match.last_seq))
    return award


@transaction.atomic
def award_withdraw(*, user, award: Award) -> None:
    if committee_scope(user, award.tournament_id) is None:
        raise PermissionDenied
    details = _details(award)
    match, tournament = award.match, award.tournament
    award.delete()
    audit_record(
        user=user, action=AuditEntry.Action.AWARD_WITHDRAW, match=match, tournament=tournament, details=details
    )
