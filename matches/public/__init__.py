"""The public room: the pages anyone may open without a login — a match's scoreboard, its stream
overlay and a tournament's day (``views``, ``urls``) — and the reads only they need (``selectors``:
the last goals)."""
