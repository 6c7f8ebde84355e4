"""The API's response types, defined once (issue 37): a view's declaration names the type of each
answer (``operations.operation``), whose JSON Schema becomes the OpenAPI document's component of
that name, and a test validates the API's real answers against them
(``matches/tests/test_api_openapi.py``). The contract's own shapes (the state, the
event) stay the match log's JSON Schemas, referred to by ``contract``.

Answers are open objects (a client ignores a key it does not know); a key without a default is
required, a ``| None`` one may be null.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, WithJsonSchema

from matches.models import Match
from polo.api_errors import Error

from .types import REF


def contract(name: str, description: str | None = None) -> Any:
    """A value of the contract's schema ``name`` (a component: ``State``, ``Event``…)."""
    schema = {"$ref": REF + name} | ({"description": description} if description else {})
    return Annotated[dict[str, Any], WithJsonSchema(schema)]


State = contract("State")
Event = contract("Event")


class ResponseType(BaseModel):
    """An answer of the API (documented, not parsed: the views build plain dicts)."""


class ErrorAnswer(ResponseType):
    """Every error under /api/: ``polo.api_errors.api_error``."""

    error: Error


class Refusal(ErrorAnswer):
    """An event refused (by the rules, or not a valid event): nothing changed; here is the state."""

    accepted: Literal[False] = False
    state: State
    last_seq: int


class StaleRefusal(Refusal):
    """The log moved on since the entry began: whether the event still fits (issue 9)."""

    valid_now: bool | None = None
    would_be: Error | None = None


class StateRefusal(ErrorAnswer):
    """A confirmation refused on the log's state, which comes with it."""

    state: State


class Accepted(ResponseType):
    accepted: Literal[True]
    duplicate: bool = Field(default=False, description="A retry of an event already recorded (same id).")
    seq: int
    last_seq: int
    event: Event
    state: State


class StoredEvent(ResponseType):
    seq: int = Field(ge=1)
    id: str
    type: str
    event: Event
    received_at: float = Field(description="Epoch seconds.")


class EventsPage(ResponseType):
    events: list[StoredEvent]
    last_seq: int


class Player(ResponseType):
    number: int
    name: str
    handicap: int | None = None


class Side(ResponseType):
    name: str
    color: str = Field(pattern="^#[0-9a-fA-F]{6}$")
    handicap_goals: float
    players: list[Player]


class TournamentRef(ResponseType):
    id: int
    name: str
    club: str | None = None


class Ground(ResponseType):
    name: str
    length: float
    width: float
    boarded: bool


STAGE = {
    "type": ["string", "null"],
    "enum": [*Match.Stage.values, None],
    "description": "Zone play, subsidiary, or the knockout round; null when the committee gave none.",
}


class MatchMeta(ResponseType):
    id: int
    tournament: TournamentRef
    field: Ground
    starts_at: float = Field(description="Epoch seconds.")
    stage: Annotated[str | None, WithJsonSchema(STAGE)] = None
    periods: int | None = None
    period_seconds: int | None = None
    home: Side
    away: Side


class NextPeriod(ResponseType):
    number: int
    kind: Literal["regulation", "overtime"]


class Interval(ResponseType):
    """The break between periods (null unless status is interval): half-time or an ordinary
    interval (Rule 14.a), its length and the server time its countdown started at."""

    kind: Literal["interval", "halftime"]
    seconds: float
    started_at: float | None
    next_period: NextPeriod


def _of_state(key: str, description: str | None = None) -> Any:
    schema = {"$ref": REF + "State/properties/" + key} | ({"description": description} if description else {})
    return Annotated[Any, WithJsonSchema(schema)]


class SummaryState(ResponseType):
    """The state's summary keys (``matches.selectors.SUMMARY_KEYS``)."""

    status: _of_state("status")
    score: contract("State_score")
    period: _of_state("period")
    clock: _of_state("clock")
    restart: _of_state(
        "restart",
        "The state's restart (null while the ball is in play): a card words it from kind, team, penalty and rule "
        "(or clause) in its own language; the list's message is in English.",
    )
    interval: Interval | None
    shootout: _of_state("shootout")
    winner: _of_state("winner")
    result: _of_state("result")


class FieldPresence(ResponseType):
    """The field. Its timekeeper (issue 34): heard_at, when the scorer's screen last said it had sent
    everything it kept (null: no timekeeper, the server keeps the time), silent (longer than
    FIELD_SILENT_SECONDS: the screens hold the clock and say they wait for the field) and
    silent_for. A match kept at the field (issue 35): on the tournament's server kept_at 'field' and
    heard_at, when the field server last reached it; on a field server kept_at 'here' and uplink,
    how the upload of the log stands."""

    heard_at: float | None
    silent: bool
    silent_for: float | None
    kept_at: Literal["field", "here"] | None = None
    uplink: dict[str, Any] | None = None


class MatchSummary(MatchMeta):
    last_seq: int
    field_state: FieldPresence
    state: SummaryState


class MatchesPage(ResponseType):
    date: str | None = Field(default=None, json_schema_extra={"format": "date"})
    matches: list[MatchSummary]


class MatchState(ResponseType):
    match: MatchMeta
    state: State
    last_seq: int
    server_time: float
    field: FieldPresence | None = None


class Goal(ResponseType):
    id: str | None = Field(description="The id of the event that scored.")
    seq: int
    team: Literal["home", "away"]
    goals: float = Field(description="How many goals it gave (1, or more for a goal awarded).")
    number: int | None = Field(description="The hitter's number (null for a Penalty 1).")
    name: str = Field(description="The hitter's name (empty when unknown).")
    own_goal: bool
    penalty: bool = Field(description="Whether it came from a penalty (a Penalty 1 included).")
    how: Literal["field", "penalty", "own_goal", "penalty_1", "unattributed"] = Field(
        description="What kind of goal, as the box score and the official report count it."
    )
    penalty_number: str | None = Field(
        description="The penalty it came from (1, 2, 3, 4, 5a, 5b, 6, or unknown); null when from play."
    )
    period: int | None
    period_kind: str
    clock: float | None = Field(description="Time played in the chukker (seconds).")


class GoalsPage(ResponseType):
    goals: list[Goal]
    last_seq: int


class Score(ResponseType):
    home: float
    away: float


class Confirmation(ResponseType):
    period: int = Field(description="The chukker confirmed.")
    umpire: str
    username: str
    score: Score
    last_seq: int = Field(description="How far the log had got when it was confirmed.")
    at: float = Field(description="Epoch seconds.")


class ConfirmationsPage(ResponseType):
    confirmations: list[Confirmation]


class ServerSentEvent(ResponseType):
    """One server-sent event of the stream (as an EventSource reads it)."""

    data: str = Field(
        json_schema_extra={"contentMediaType": "application/json"},
        description="The frame (snapshot, update, heartbeat) as JSON.",
    )
    id: str | None = Field(default=None, description="An update's last_seq.")
    event: str | None = None
    retry: int | None = None


class ServerTime(ResponseType):
    server_time: float = Field(description="Epoch seconds.")
