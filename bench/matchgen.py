"""A generator of realistic match logs (docs/MATCH-LOG.md) for benchmarks and tests.

``realistic_match(seed)`` returns a whole match-log dict: a six-chukker match of about 400 events
— throw-ins, plays, balls out over the end line (knock-ins and the odd safety) and over the side
(free hits), fouls with every penalty (Penalty 1 goals included), goals and goals from penalties,
whistles for falls, helmets, broken balls and tack (throw-ins, a fair-play possession now and
then), late knock-ins, horns, horse changes between chukkers, cards, and a void or two.

The generator follows the flow of a match (ends change after every goal, a period ends at the
first stoppage after the 7-minute horn, the final chukker at the double horn or on a deciding
goal) so that the engine accepts nearly every event. It knows nothing about the engine: it only
writes the contract's events. Same seed, same match.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

__all__ = ["match_config", "realistic_match"]

LENGTH, WIDTH = 300.0, 160.0
TEAMS = ("home", "away")


def _other(team: str) -> str:
    return "away" if team == "home" else "home"


def match_config(
    *,
    periods: int = 6,
    home_defends: str = "north",
    boarded: bool = False,
    home_handicap: float = 0,
    away_handicap: float = 1,
) -> dict[str, Any]:
    """The ``match`` object of a log (contract defaults, two teams of four)."""

    def side(name: str, color: str, goals: float) -> dict[str, Any]:
        return {
            "name": name,
            "color": color,
            "handicap_goals": goals,
            "players": [
                {"number": n, "name": f"{name} {n}", "handicap": h} for n, h in enumerate((1, 2, 3, 2), start=1)
            ],
        }

    return {
        "rules": "USPA-2026",
        "periods": periods,
        "period_seconds": 420,
        "extra_seconds": 30,
        "interval_seconds": 180,
        "halftime_seconds": 300,
        "upper_handicap_limit": 8,
        "courtesy_change": False,
        "field": {"length": LENGTH, "width": WIDTH, "boarded": boarded},
        "home_defends": home_defends,
        "home": side("Blue", "#1d4ed8", home_handicap),
        "away": side("Red", "#dc2626", away_handicap),
    }


class _Match:
    """Bookkeeping of a match being written: clock, score, who defends which end."""

    def __init__(self, rng: random.Random, periods: int, home_defends: str, handicaps: dict[str, float]):
        self.rng = rng
        self.periods = periods
        self.events: list[dict[str, Any]] = []
        self.score = dict(handicaps)
        self.home_end = home_defends  # the end home defends now
        self.voids_left = 2

    # -- small helpers --------------------------------------------------------------------------
    def new_id(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def add(self, event_type: str, **fields: Any) -> dict[str, Any]:
        event = {"type": event_type, "id": self.new_id(), **fields}
        self.events.append(event)
        return event

    def end_of(self, team: str) -> str:
        """The end (north/south) that ``team`` defends now."""
        if team == "home":
            return self.home_end
        return "south" if self.home_end == "north" else "north"

    def line_x(self, end: str) -> float:
        return 0.0 if end == "north" else LENGTH

    def goal(self, team: str, clock: float, **extra: Any) -> None:
        self.add("goal", team=team, number=self.rng.randint(1, 4), clock=clock, **extra)
        self.score[team] += 1
        self.home_end = "south" if self.home_end == "north" else "north"  # 22.e(1)

    def spot(self) -> dict[str, float]:
        r = self.rng
        return {"x": round(r.uniform(10, LENGTH - 10), 1), "y": round(r.uniform(10, WIDTH - 10), 1)}

    def wide_of_goal(self) -> float:
        """A y on the end line that is not between the posts (76–84)."""
        r = self.rng
        if r.random() < 0.2:  # near a post: the 5-yard rule of 22.a
            return round(r.choice([r.uniform(71.5, 75.5), r.uniform(84.5, 88.5)]), 1)
        return round(r.choice([r.uniform(1, 70), r.uniform(90, WIDTH - 1)]), 1)

    # -- one stoppage and its restart ----------------------------------------------------------
    def stoppage(self, clock: float, *, take_restart: bool = True, void: bool = False) -> None:
        r = self.rng
        roll = r.random()
        attacker = r.choice(TEAMS)
        defender = _other(attacker)
        restart_extra: list[tuple[str, dict[str, Any]]] = []
        if roll < 0.09:  # a field goal
            self.goal(attacker, clock)
        elif roll < 0.36:  # wide of goal: knock-in (22.a), now and then a safety (21.a)
            end = self.end_of(defender)
            if r.random() < 0.1:
                self.add(
                    "ball_out",
                    line="end",
                    at={"x": self.line_x(end), "y": self.wide_of_goal()},
                    last_hit_by=defender,
                    deflected_off=r.choice(["none", "own_mount"]),
                    clock=clock,
                )
            else:
                self.add(
                    "ball_out",
                    line="end",
                    at={"x": self.line_x(end), "y": self.wide_of_goal()},
                    last_hit_by=attacker,
                    deflected_off="none",
                    clock=clock,
                )
                if r.random() < 0.05:  # the knock-in is late: Penalty 4 to the other team (22.a)
                    restart_extra.append(("restart_violation", {"kind": "late", "team": defender}))
        elif roll < 0.52:  # over the side boards or side line: free hit (22.f)
            x = round(r.uniform(2, LENGTH - 2), 1)
            y = r.choice([0.0, WIDTH])
            deflected = r.choices(["none", "teammate", "opponent", "unknown"], weights=(80, 8, 8, 4))[0]
            self.add(
                "ball_out", line="side", at={"x": x, "y": y}, last_hit_by=attacker, deflected_off=deflected, clock=clock
            )
        elif roll < 0.80:  # a foul and its penalty
            penalty = r.choices(["1", "2", "3", "4", "5a", "5b"], weights=(3, 22, 15, 20, 25, 15))[0]
            fields: dict[str, Any] = {"against": defender, "number": r.randint(1, 4), "penalty": penalty}
            if penalty == "5a" or (penalty == "2" and r.random() < 0.3):
                fields["spot"] = self.spot()
                if penalty == "2":
                    fields["from_spot"] = True
            if r.random() < 0.08:
                fields["card"] = "yellow"
            self.add("foul", clock=clock, **fields)
            if penalty == "1":  # the fouled team's goal; ends change (14.b(2))
                self.score[attacker] += 1
                self.home_end = "south" if self.home_end == "north" else "north"
            elif penalty in ("2", "3") and take_restart and r.random() < 0.35:
                restart_extra.append(("goal_from_penalty", {"team": attacker}))
        else:  # a whistle: throw-in toward the nearer side (22.e(4)) or fair-play possession (22.h)
            reason = r.choice(
                [
                    "player_fall",
                    "lost_helmet",
                    "broken_tack",
                    "damaged_ball",
                    "lodged_ball",
                    "inadvertent",
                    "rule_check",
                    "other",
                ]
            )
            fields = {"reason": reason, "ball": self.spot(), "possession": attacker}
            if reason in ("inadvertent", "rule_check", "damaged_ball") and r.random() < 0.3:
                fields["fair_play"] = True
            if reason in ("player_fall", "lost_helmet", "broken_tack"):
                fields.update(team=r.choice(TEAMS), number=r.randint(1, 4))
            self.add("whistle", clock=clock, **fields)

        if void and self.voids_left:  # a card shown in error while play is stopped, then voided
            card = self.add("card", team=r.choice(TEAMS), number=r.randint(1, 4), color="yellow")
            self.add("void", target=card["id"], reason="card shown to the wrong player")
            self.voids_left -= 1
        if not take_restart:
            return
        for kind, fields in restart_extra:
            if kind == "restart_violation":
                self.add("restart_violation", clock=clock, **fields)
        self.add("play")
        for kind, fields in restart_extra:
            if kind == "goal_from_penalty":
                self.goal(fields["team"], clock + 2.0, from_penalty=True)
                self.add("play")

    # -- a whole chukker ----------------------------------------------------------------------
    def period(self, number: int, gap: float) -> None:
        r = self.rng
        if number > 1:  # fresh horses between chukkers
            for team in TEAMS:
                for n in range(1, 5):
                    self.add("mount", team=team, number=n, horse=f"{team[0].upper()}{n}-{number}")
        self.add("play")  # the two horns and the throw-in (or the carried-over restart)
        final = number == self.periods
        t = 0.0
        void_due = number in (2, self.periods - 1)  # a void or two per match
        limit = 405.0 if final else 415.0
        while True:
            step = round(r.uniform(0.4, 1.6) * gap, 1)
            if t + step > limit:
                break
            t = round(t + step, 1)
            void_now = void_due and t > 200
            void_due = void_due and not void_now
            self.stoppage(t, void=void_now)
        self.add("horn", kind="seven", clock=420.0)
        if not final:
            # the first stoppage after the 7-minute horn ends the period (14.b(2)); its restart
            # opens the next period (22.g)
            self.stoppage(round(r.uniform(421, 449), 1), take_restart=False)
            return
        if self.score["home"] == self.score["away"]:  # a deciding goal, so the game has a winner
            self.goal(r.choice(TEAMS), round(r.uniform(421, 448), 1))
        else:
            self.add("horn", kind="final", clock=450.0, ball=self.spot())


def realistic_match(
    seed: int = 0, *, periods: int = 6, target_events: int = 400, home_defends: str = "north"
) -> dict[str, Any]:
    """A realistic match log of about ``target_events`` events over ``periods`` chukkers."""
    rng = random.Random(seed)
    config = match_config(periods=periods, home_defends=home_defends)
    handicaps = {t: float(config[t]["handicap_goals"]) for t in TEAMS}
    m = _Match(rng, periods, home_defends, handicaps)
    # about 2.05 events per stoppage (the stoppage, the restart, now and then a goal from a
    # penalty, a void) plus the horns, the plays that open periods and the horse changes
    overhead = periods * 3 + (periods - 1) * 8
    stoppages_per_period = max(1.0, (target_events - overhead) / (2.05 * periods))
    gap = 415.0 / stoppages_per_period
    for number in range(1, periods + 1):
        m.period(number, gap)
    return {"format": "polo-match-log/1", "match": config, "events": m.events}


if __name__ == "__main__":  # python bench/matchgen.py [seed]: print one match
    import json
    import sys

    print(json.dumps(realistic_match(int(sys.argv[1]) if len(sys.argv) > 1 else 0), indent=1))
