"""The live room: how an accepted event reaches every screen, and the official clock's horns.

- ``receivers``: hears the match log's seam (``matches/log_events.py``) and the officials'
  logouts and role changes, and hands them to ``broadcast``;
- ``broadcast``: sends a message to a channel-layer group without making the caller wait;
- ``groups``: the one place that names the groups and the message types;
- ``fanout``: the per-process hub, the only subscriber of the layer, which writes each update to
  every local websocket and repairs gaps from the log;
- ``clock``: the clock watcher (appends the horns a running clock makes due) and the reads' catch-up;
- ``snapshots``: what a screen (or an API read) starts from, the clock caught up first;
- ``consumers`` and ``routing``: the websocket itself, ``/ws/matches/{id}/``;
- ``loop``: the ASGI server's event loop, where the hub and the watcher live;
- ``shutdown``: the process stopping (the ASGI lifespan): open sockets closed with 1012, the hub
  and the watcher stopped.
"""
