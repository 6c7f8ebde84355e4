"""Helpers of the scoresheet's tests: a finished match with a correction at hand.

``finished`` is a one-chukker match won 1–0 by home an hour ago (``committee_helpers.Committee``'s
cast: umpire ulises, referee rita), in which home #1 rode Lucera; ``correct`` voids that mount after
the final — a correction like any other (any accepted event changes the log hash). ``verify`` runs
``manage.py verify_report``.
"""

from __future__ import annotations

import io

from django.core.management import call_command

from .committee_helpers import Clock, Committee, ev, log, win_one_chukker


def finished_match() -> Committee:
    cast = Committee(periods=1)
    cast.clock = Clock()
    cast.mount = ev("mount", team="home", number=1, horse="Lucera")
    log(cast.match, cast.mount, clock=cast.clock)
    win_one_chukker(cast.match, cast.clock)
    cast.match.refresh_from_db()
    return cast


def correct(cast: Committee) -> None:
    """A correction after the final, by an umpire: the mount voided."""
    log(cast.match, ev("void", target=cast.mount["id"], reason="the other horse"), user=cast.umpire, clock=cast.clock)
    cast.match.refresh_from_db()


def verify(*args: str) -> tuple[int, str, str]:
    """``manage.py verify_report`` with ``args``: (exit status, what it printed, its errors)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_report", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit:
        code = int(exit.code)
    return code, out.getvalue(), err.getvalue()
