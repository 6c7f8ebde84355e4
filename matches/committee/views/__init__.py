"""The committee's screens (``/committee/``): thin views that validate a form and call one service.

Only the committee group may use them (others get 403, the anonymous the login page), except the
shootout screen, which the match's umpires, referee and scorer may follow (and record hits on,
as the event API lets them). A module per part of the work:

- ``setup``: the dashboard, tournaments, fields, entries and rosters, scheduling, the day, the
  players unavailable today, the webhooks;
- ``match``: a match's page and its control (officials, handicap goals, suspend, resume,
  abandon, overtime, forfeit);
- ``shootout``: the shootout screen and its lot (Rule 14.d);
- ``results``: the official report, the log's exports, standings and the bracket;
- ``common``: what they share (the committee's gate, messages for refusals and form errors).
"""
