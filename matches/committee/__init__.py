"""The committee room: running tournaments and the official record of their matches.

``models`` (the audit trail, official reports, result webhooks), ``forms``, ``services`` (every
write audited; the committee's events go through the match log's ``match_event_log``),
``selectors`` (the audit trail with the log's voids, the shootout round by round), ``audit`` (the
trail in words), ``reports`` (the official report and the log's exports), ``standings``,
``webhooks``, ``tasks`` (Celery), ``receivers`` (the match log's seam: a finished match's report)
and the screens under ``views``, routed by ``urls`` (``/committee/``).
"""
