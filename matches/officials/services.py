"""Writes and reads for the officials' screens that are not match-log events.

Score confirmation (the umpires confirm the score at the end of each chukker): the umpire confirms
what the screen showed; the service checks it against the state the log gives *now*, so a
confirmation can never record a score the log does not have.
"""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from matches.models import Match
from matches.selectors import match_state

from .models import ScoreConfirmation

# States in which a chukker has ended and its score can be confirmed.
PERIOD_OVER_STATUSES = frozenset({"interval", "tied", "shootout", "final"})


class ScoreConfirmationError(Exception):
    """A refused confirmation: ``code`` for programs, ``message`` (translated) for people."""

    def __init__(self, code: str, message: str, state: dict[str, Any]) -> None:
        super().__init__(message)
        self.code, self.message, self.state = code, message, state


def period_is_over(state: dict[str, Any]) -> bool:
    clock = state.get("clock") or {}
    return state.get("status") in PERIOD_OVER_STATUSES or clock.get("phase") == "over"


def period_score(state: dict[str, Any]) -> dict[str, float]:
    """The score at the end of the chukker: the state's, less the goal a shootout adds to its
    winner's score (Rule 14.d), which no chukker scored."""
    score = dict(state.get("score") or {})
    winner = state.get("winner")
    if state.get("result") == "shootout" and winner in score:
        score[winner] = score[winner] - 1
    return score


@transaction.atomic
def score_confirmation_record(
    *, match_id: int, umpire, period: int, home: float, away: float, now: float | None = None
) -> ScoreConfirmation:
    """Record that ``umpire`` confirms the score ``home``–``away`` at the end of chukker ``period``."""
    now = time.time() if now is None else now
    # The lock keeps the log from moving between reading the state and recording last_seq.
    match = Match.objects.select_for_update().select_related("tournament", "field").get(pk=match_id)
    state = match_state(match, now=now)
    if not period_is_over(state):
        raise ScoreConfirmationError(
            "period_not_over", _("The chukker is not over yet: confirm the score when it ends."), state
        )
    current_period = (state.get("period") or {}).get("number")
    score = period_score(state)
    if period != current_period or float(home) != float(score.get("home")) or float(away) != float(score.get("away")):
        raise ScoreConfirmationError(
            "score_changed", _("The score has changed since your screen showed it: check it and confirm again."), state
        )
    return ScoreConfirmation.objects.create(
        match=match,
        period=period,
        umpire=umpire,
        home=Decimal(str(home)),
        away=Decimal(str(away)),
        last_seq=match.last_seq,
    )


def score_confirmations(match: Match) -> list[dict[str, Any]]:
    """Every confirmation of the match, oldest first, as the screens show them."""
    rows = ScoreConfirmation.objects.filter(match=match).select_related("umpire").order_by("period", "at", "pk")
    return [
        {
            "period": row.period,
            "umpire": row.umpire.get_full_name() or row.umpire.get_username(),
            "username": row.umpire.get_username(),
            "score": {"home": float(row.home), "away": float(row.away)},
            "last_seq": row.last_seq,
            "at": row.at.timestamp(),
        }
        for row in rows
    ]
