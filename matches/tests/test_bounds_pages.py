"""No stored value within the bounds makes a page answer 500 (issue 36). A start of 9999-12-31
23:59:59 saved through the admin was the year 10000 on PostgreSQL, and from then on the match's
API, its public pages, the committee's pages, standings, bracket and the admin's match list
answered 500; 0001-01-01 or 9999-12-31 in the committee's match form was an ``OverflowError``.

Here a tournament holds the extremes the bounds allow (``matches/bounds.py``, the models'
validators, ``officiating.engine.strict``): its first and last days, a match starting in the last
second of the last day and one at the first moment of the first, the widest handicap limits,
the largest field, the longest period, the most handicap goals, a card at the latest clock and a
substitute of the longest name and the highest handicap. Every page that shows them opens. Beyond
the bounds, the committee's forms and the admin refuse with a clear error."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from matches.bounds import FIRST_DAY, LAST_DAY
from matches.models import Match
from officiating.engine.config import (
    HANDICAP_LIMIT_RANGE,
    MAX_FIELD_LENGTH,
    MAX_FIELD_WIDTH,
    MAX_HANDICAP_GOALS,
    MAX_PERIOD_SECONDS,
    PLAYER_HANDICAP_RANGE,
)
from officiating.engine.strict import NAME_MAX

from .live_helpers import client_for, ev, log
from .personas import PASSWORD

pytestmark = pytest.mark.django_db

LAST_MOMENT = dt.datetime.combine(LAST_DAY, dt.time(23, 59, 59))
FIRST_MOMENT = dt.datetime.combine(FIRST_DAY, dt.time(0, 0))
SUBSTITUTE = "S" * NAME_MAX


@pytest.fixture
def extremes(cast):
    """The cast's tournament at the bounds; match A ends by forfeit after a card at the latest
    clock and a substitution, match B has not begun. Each object passes its model's validation."""
    tournament, field = cast.match_a.tournament, cast.match_a.field
    tournament.starts_on, tournament.ends_on = FIRST_DAY, LAST_DAY
    tournament.lower_handicap_limit = int(4 * PLAYER_HANDICAP_RANGE[0])
    tournament.upper_handicap_limit = int(HANDICAP_LIMIT_RANGE[1])
    field.length, field.width = int(MAX_FIELD_LENGTH), int(MAX_FIELD_WIDTH)
    a, b = cast.match_a, cast.match_b
    a.starts_at = timezone.make_aware(LAST_MOMENT)
    b.starts_at = timezone.make_aware(FIRST_MOMENT)
    for m in (a, b):
        m.period_seconds = int(MAX_PERIOD_SECONDS)
        m.home_handicap_goals = Decimal(int(MAX_HANDICAP_GOALS))
        m.periods = Match._meta.get_field("periods").validators[-1].limit_value
    a.stage = Match.Stage.FINAL
    for obj in (tournament, field, a, b):
        obj.full_clean()
        obj.save()
    latest = MAX_PERIOD_SECONDS + 30 + 60  # the period, its extra time, the stamp window
    log(a, ev("play"))
    log(a, ev("whistle", reason="other", ball={"x": 100, "y": 50}))
    log(a, ev("card", team="home", number=2, color="yellow", clock=latest), user=cast.umpire_a)
    substitute = {"name": SUBSTITUTE, "handicap": PLAYER_HANDICAP_RANGE[1]}
    log(a, ev("substitution", team="away", out=3, player=substitute))
    log(a, ev("forfeit", team="home", reason="no_horses"), user=cast.committee)
    return cast


def pages(cast) -> list[tuple[str, object]]:
    """(path, who opens it) for every page that shows the tournament, its matches or its days."""
    a, b, t = cast.match_a.pk, cast.match_b.pk, cast.match_a.tournament_id
    member, scorer = cast.committee, cast.scorer_a
    days = [f"?date={FIRST_DAY.isoformat()}", f"?date={LAST_DAY.isoformat()}"]
    public = [
        *(f"/matches/{m}/{page}" for m in (a, b) for page in ("", "overlay/", "start/", "play-by-play/", "stats/")),
        f"/matches/{a}/play-by-play/entries/",
        *(f"/tournaments/{t}/{page}{day}" for page in ("live/", "start/") for day in days),
        f"/tournaments/{t}/stats/",
    ]
    api = [
        *(f"/api/matches/{m}/{page}" for m in (a, b) for page in ("state", "events", "goals", "stats", "awards")),
        *(f"/api/tournaments/{t}/{page}" for page in ("matches", "stats", "awards")),
        *(f"/api/matches{day}" for day in days),
        *(f"/api/tournaments/{t}/matches{day}" for day in days),
    ]
    committee = [
        "/committee/",
        *(f"/committee/{page}{day}" for page in ("day/", "availability/") for day in days),
        *(f"/committee/tournaments/{t}/{page}" for page in ("", "edit/", "standings/", "bracket/", "matches/new/")),
        *(f"/committee/matches/{m}/{page}" for m in (a, b) for page in ("", "edit/")),
        *(f"/committee/matches/{a}/{page}" for page in ("report/", "report.pdf", "log.csv", "log.json", "stats/")),
        f"/committee/matches/{a}/uspa-sheet/",
        f"/committee/tournaments/{t}/awards/",
        f"/committee/matches/{a}/awards/",
        f"/committee/fields/{cast.match_a.field_id}/",
        f"/api/matches/{a}/scoresheet",  # (the officials' and the committee's)
    ]
    officials = [f"/matches/{a}/scorer/", f"/matches/{a}/referee/"]
    return [*((p, None) for p in public + api), *((p, member) for p in committee), *((p, scorer) for p in officials)]


ADMIN_PAGES = ["match", "tournament", "field", "matchevent", "entry"]


def test_every_page_showing_the_extremes_the_bounds_allow_opens(extremes):
    clients: dict = {}
    failures = []
    for path, who in pages(extremes):
        client = clients.setdefault(who, client_for(who))
        status = client.get(path).status_code
        if status != 200:
            failures.append((path, status))
    assert failures == []


def test_the_admin_lists_and_shows_the_extremes(extremes):
    root = get_user_model().objects.create_superuser("root", password=PASSWORD)
    admin = client_for(root)
    for model in ADMIN_PAGES:
        assert admin.get(reverse(f"admin:matches_{model}_changelist")).status_code == 200, model
    for model, pk in (
        ("match", extremes.match_a.pk),
        ("match", extremes.match_b.pk),
        ("tournament", extremes.match_a.tournament_id),
    ):
        assert admin.get(reverse(f"admin:matches_{model}_change", args=[pk])).status_code == 200, (model, pk)
