"""The contract's state (docs/MATCH-LOG.md, "State"): a Game as the JSON every screen reads.

Beside the contract's keys the state carries what the screens would otherwise have to know of the
rules (CONTRACT-NOTES §7): the rule edition's name (``edition``) and the numbers the officials'
screens show or count down (``limits``: the restart timers, the stoppage timers, the penalty
distances), so that no page writes a rule's number of its own.
"""

from __future__ import annotations

from typing import Any

from . import messages as m
from .shootout import progress
from .state import Game, Restart, next_period


def _num(v: float) -> int | float:
    return int(v) if float(v).is_integer() else v


def restart_message(game: Game, r: Restart, lang: str) -> str:
    ed = game.config.edition
    params = {
        "team": game.config.team(r.team).name if r.team else "",
        "penalty": m.PENALTY_NAMES.get(r.penalty or "", ""),
        **m.edition_params(ed),
    }
    text = m.render(r.msgid, params, lang)
    for extra in (
        r.again,
        m.S_NEXT_PERIOD if r.next_period else None,
        m.S_MIN_CLOCK if r.min_clock_remaining else None,
    ):
        if extra:
            text = m.render(m.JOIN, {"first": text, "second": m.render(extra, params, lang)}, lang)
    return m.render(m.RULE_PREFIX, {"rule": r.clause or r.rule, "text": text}, lang)


def restart_dict(game: Game, r: Restart | None, lang: str) -> dict[str, Any] | None:
    if r is None:
        return None
    return {
        "kind": r.kind,
        "team": r.team,
        "penalty": r.penalty,
        "spot": None if r.spot is None else {"x": float(r.spot[0]), "y": float(r.spot[1])},
        "toward": r.toward,
        "count_seconds": r.count_seconds,
        "hit_within_seconds": r.hit_within_seconds,
        "tap_allowed": r.tap_allowed,
        "min_clock_remaining": r.min_clock_remaining,
        "next_period": r.next_period,
        "rule": r.rule,
        "clause": r.clause or r.rule,
        "message": restart_message(game, r, lang),
    }


def phase(game: Game, elapsed: float) -> str:
    if (
        game.ended_by is not None
        or game.status in ("final", "abandoned", "shootout", "tied")
        or elapsed >= game.config.period_end
    ):
        return "over"
    return "extra" if elapsed >= game.config.period_seconds else "regular"


def to_state(game: Game, *, now: float | None = None, lang: str = "en") -> dict[str, Any]:
    """The contract's state (docs/MATCH-LOG.md, "State"), JSON-ready.

    With ``now`` and a running clock, the clock is projected to ``now`` (never past the horn that
    would end the period: the horn itself is an event, see ``due_events``), and its ``anchor`` is
    ``now``: the time ``elapsed`` was read at."""
    cfg = game.config
    elapsed, anchor = game.elapsed, game.anchor if game.running else None
    if game.running and now is not None and game.anchor is not None:
        # Projected to ``now``: the anchor is the time elapsed was read at (screens run the clock
        # as ``elapsed + (server_now - anchor)``), so it moves with the projection.
        elapsed, anchor = min(elapsed + max(0.0, now - game.anchor), cfg.period_end), now
    state: dict[str, Any] = {
        "status": game.status,
        "period": {
            "number": game.period,
            "kind": game.period_kind,
            "final_regulation": game.period_kind == "regulation" and game.period == cfg.periods,
        },
        "clock": {
            "elapsed": float(elapsed),
            "running": game.running,
            "phase": phase(game, elapsed),
            "anchor": anchor,
            "held": bool(game.holds) and game.held_from is not None,
            "regular_seconds": cfg.period_seconds,
            "end_seconds": cfg.period_end,
        },
        "score": {"home": _num(game.score("home")), "away": _num(game.score("away"))},
        "goals": {"home": game.goals[0], "away": game.goals[1]},
        "handicap_goals": {"home": _num(cfg.home.handicap_goals), "away": _num(cfg.away.handicap_goals)},
        "defends": {"home": game.defends("home"), "away": game.defends("away")},
        "restart": restart_dict(game, game.restart, lang),
        "timers": [
            {
                "kind": t.kind,
                "seconds": t.seconds,
                "team": t.team,
                "number": t.number,
                "started_at": t.started_at,
                "rule": t.rule,
            }
            for t in game.timers
        ],
        "excused_horses": [
            {"team": e.team, "number": e.number, "horse": e.horse, "rule": e.provision} for e in game.excused
        ],
        "unavailable_players": [
            {"team": u.team, "number": u.number, "reason": u.reason, "name": u.name, "substituted": u.substituted}
            for u in game.unavailable
        ],
        "shootout": shootout_dict(game),
        "winner": game.winner,
        "result": game.result,
        "holds": [{"id": h.id, "kind": h.kind, "clock": _num(h.clock), "by": h.by} for h in game.holds],
        "last_seq": game.last_seq,
        "edition": cfg.edition.name,
        "limits": dict(cfg.edition.limits),
    }
    if game.status == "interval":
        state["interval"] = interval_dict(game)
    if game.courtesy_period is not None:
        state["courtesy_change_used_in_period"] = game.courtesy_period
    if game.cards:
        state["cards"] = [{"team": t, "number": n, "color": c} for t, n, c in game.cards]
    if game.forfeit is not None:
        state["forfeit"] = {"team": game.forfeit[0], "reason": game.forfeit[1], "rule": "21.f(5)"}
    if game.status == "suspended":
        state["suspended_from"] = game.suspended_from
    return state


def interval_dict(game: Game) -> dict[str, Any]:
    cfg = game.config
    halftime = game.period_kind == "regulation" and game.period == cfg.halftime_after and cfg.periods > 1
    number, kind = next_period(game)
    return {
        "kind": "halftime" if halftime else "interval",
        "seconds": cfg.halftime_seconds if halftime else cfg.interval_seconds,
        "started_at": game.interval_started_at,
        "next_period": {"number": number, "kind": kind},
    }


def shootout_dict(game: Game) -> dict[str, Any] | None:
    so = game.shootout
    if so is None:
        return None
    p = progress(so, game.config.upper_handicap_limit, game.config.edition)
    return {
        "format": so.format,
        "first": so.first,
        "order": {k: list(v) for k, v in so.order.items()},
        "round": p.round,
        "line": p.line,
        "next": None if p.next is None else {"team": p.next[0], "number": p.next[1]},
        "points": dict(p.points),
        "winner": so.winner,
        "attempts": [{"team": t, "number": n, "scored": s} for t, n, s in so.attempts],
    }
