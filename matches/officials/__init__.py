"""The officials' room: the scorer's laptop and the umpires'/referee's tablet (``views``, ``urls``),
and what the officials record beside the match log, the umpires' score confirmations (``models``,
``services``; posted to ``/api/matches/{id}/confirmations``)."""
