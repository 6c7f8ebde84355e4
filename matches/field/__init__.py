"""A match kept at the field (issue 35): the same app on the field's laptop, its log flowing up.

Vocabulary:

- the *tournament's server*: the app on the internet, where the committee runs the tournament;
- the *field server*: the same app on the scorer's laptop at the ground (``./dev field``), on the
  embedded defaults, serving the officials' tablets and a TV on the field's own network;
- a *field token*: a secret the committee issues on the tournament's server for one match
  (``manage.py field_token --match ID``, or the committee's match page) or for every match of a
  day, on one ground or of one tournament (``--date D --field ID`` / ``--tournament ID``, or the
  committee's tournament page). Only its hash is stored; it expires and can be revoked (both
  audited). The field server keeps it to talk to the tournament's server;
- *pairing* (``manage.py field_pair``): the field server takes over HTTPS, with the token,
  everything the match needs (``wire``: tournament, field, teams, rosters, handicaps, the match
  and its log so far, the officials who may sign in at the field);
- *kept at* (``Match.kept_at``): where the match's log is written. One writer per match: while a
  match is kept at the field, the field server is its authority (the clock, the horns, every
  accepted event) and the tournament's server holds a *replica* of its log: it refuses the
  officials' writes for it (``kept_at_field``), runs no clock watcher for it and appends no horn;
- the *uplink* (``sender``, ``manage.py field_sync``): the field server pushes its log to
  ``POST /api/field/matches/{id}/log`` in order, from the replica's last seq, idempotent by event
  id; the replica appends the events verbatim (``services.replica_append``), so both logs are the
  same event for event, with the same log hash.

Every refusal and trouble is a named text (``refusals``), said in the reader's language on both
servers; when the field was last heard is said by every screen and page from the server's field
object (``heard`` for the pages that are not live). A match's log has one format, the tournament's
export's (``wire`` writes and reads its events with ``matches.transfer``).

The protocol: docs/LIVE-PROTOCOL.md, "A match kept at the field". What a stolen field laptop gives
away: docs/SECURITY.md.
"""
