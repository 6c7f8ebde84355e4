"""What the committee room listens to, connected by ``MatchesConfig.ready()`` (``connect``): the
match log's seam (``matches/log_events.py``). A match that has ended, or whose ended log was
corrected or forfeited, gets its official report built (and its result sent to the webhooks)."""

from __future__ import annotations

from matches.log_events import LoggedEvents, events_logged

from .tasks import match_report_build

# Statuses in which a match has a result worth an official report.
REPORT_STATUSES = frozenset({"final", "abandoned"})


def connect() -> None:
    events_logged.connect(on_events_logged, dispatch_uid="polo-committee-report")


def on_events_logged(sender, *, logged: LoggedEvents, **kwargs) -> None:
    """Queue the report of a match that has ended. The events are committed already: a broker
    that is down must not fail their request (the seam logs the error, and the committee can
    rebuild the report from the match page)."""
    if logged.state.get("status") in REPORT_STATUSES:
        match_report_build.delay(logged.match_id, logged.state.get("last_seq"))
