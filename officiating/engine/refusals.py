"""How the rules say no: ``Refused`` carries a ``Rejection`` (a contract code, the rule it rests
on, a translatable message) from wherever an event is judged back to ``decide``."""

from __future__ import annotations

from typing import Any, NoReturn

from .messages import BAD_FIELD, MISSING_FIELD, Rejection


class Refused(Exception):
    def __init__(self, rejection: Rejection) -> None:
        super().__init__(rejection.code)
        self.rejection = rejection


def refuse(code: str, rule: str | None, msgid: str, **params: Any) -> NoReturn:
    raise Refused(Rejection(code, rule, msgid, params))


def invalid(msgid: str, **params: Any) -> NoReturn:
    """The event's shape is wrong (``invalid_event``: no rule)."""
    refuse("invalid_event", None, msgid, **params)


def missing(field: str) -> NoReturn:
    invalid(MISSING_FIELD, field=field)


def bad(field: str) -> NoReturn:
    invalid(BAD_FIELD, field=field)
