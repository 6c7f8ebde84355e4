"""The awards' and the scoresheet's part of the OpenAPI document: their response types and examples,
which the views declare (``matches.awards.api``, ``matches.scoresheet.api``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from matches.api.openapi_components import error_response
from matches.api.responses import ErrorAnswer, ResponseType

LogHash = Annotated[str, Field(pattern="^[0-9a-f]{64}$", description="SHA-256, lowercase hex (docs/SCORESHEET.md).")]
Role = Literal["umpire", "referee"]


class AwardedPlayer(ResponseType):
    """The MVP, or the player who rode the Best Playing Pony."""

    id: int
    name: str
    team: str | None
    number: int | None


class AwardedHorse(ResponseType):
    name: str
    owner: str | None
    breeder: str | None
    ridden_in_match: bool = Field(description="Chosen from the match's mount events.")


class Award(ResponseType):
    kind: Literal["mvp", "bpp"] = Field(description="mvp: Most Valuable Player; bpp: Best Playing Pony.")
    label: str = Field(description="The award's name in the caller's language.")
    player: AwardedPlayer
    horse: AwardedHorse | None
    awarded_at: float


class MatchAwards(ResponseType):
    match_id: int
    awards: list[Award]


class TitledMatchAwards(MatchAwards):
    title: str


class TournamentAwards(ResponseType):
    tournament_id: int
    awards: list[Award] = Field(description="The tournament's own awards.")
    matches: list[TitledMatchAwards]


class Signature(ResponseType):
    name: str
    username: str
    role: Role
    role_label: str
    signed_at: float
    last_seq: int
    log_hash: LogHash
    valid: bool = Field(description="false: an event was accepted after it (broken), or its seal does not hold.")
    sealed: bool = Field(description="false: its record was written or altered without the server's signing secret.")


class Official(ResponseType):
    name: str | None = None
    username: str | None = None
    role: Role | None = None
    role_label: str | None = None


class Scoresheet(ResponseType):
    match_id: int
    status: str
    signable: bool = Field(description="The match is over (final or abandoned).")
    last_seq: int
    log_hash: LogHash
    complete: bool = Field(description="Every umpire and the referee signed this log.")
    broken: bool = Field(description="A signature no longer matches the log: sign again.")
    altered: bool = Field(description="A signature's seal does not hold: its record was altered.")
    officials: list[Official] | None = None
    missing: list[str] | None = Field(default=None, description="Who has not signed this log.")
    signatures: list[Signature] = Field(description="The newest of each official.")


class ScoresheetRefusal(ErrorAnswer):
    """A signature refused: here is the scoresheet."""

    scoresheet: Scoresheet


EXAMPLE_MVP = {
    "kind": "mvp",
    "label": "Most Valuable Player",
    "player": {"id": 7, "name": "Adolfo Cambiaso", "team": "La Dolfina", "number": 2},
    "horse": None,
    "awarded_at": 1793003600.0,
}
EXAMPLE_BPP = {
    "kind": "bpp",
    "label": "Best Playing Pony",
    "player": {"id": 7, "name": "Adolfo Cambiaso", "team": "La Dolfina", "number": 2},
    "horse": {"name": "Cuartetera", "owner": "La Dolfina", "breeder": "Adolfo Cambiaso", "ridden_in_match": True},
    "awarded_at": 1793003600.0,
}
EXAMPLE_HASH = "3f1c0a5e9b7d2c4f6a8e0b1d3c5f7a9e2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a"
EXAMPLE_SCORESHEET = {
    "match_id": 12,
    "status": "final",
    "signable": True,
    "last_seq": 57,
    "log_hash": EXAMPLE_HASH,
    "complete": False,
    "broken": False,
    "altered": False,
    "officials": [
        {"name": "Ulises Umpire", "username": "umpire1", "role": "umpire", "role_label": "umpire"},
        {"name": "Rita Referee", "username": "referee", "role": "referee", "role_label": "referee"},
    ],
    "missing": ["referee"],
    "signatures": [
        {
            "name": "Ulises Umpire",
            "username": "umpire1",
            "role": "umpire",
            "role_label": "umpire",
            "signed_at": 1793003000.5,
            "last_seq": 57,
            "log_hash": EXAMPLE_HASH,
            "valid": True,
            "sealed": True,
        }
    ],
}
EXAMPLE_MATCH_AWARDS = {"match_id": 12, "awards": [EXAMPLE_MVP, EXAMPLE_BPP]}
EXAMPLE_TOURNAMENT_AWARDS = {
    "tournament_id": 3,
    "awards": [EXAMPLE_MVP],
    "matches": [{"match_id": 12, "title": "La Dolfina v Ellerstina", "awards": [EXAMPLE_BPP]}],
}


def scoresheet_refusal(description: str, code: str, message: str) -> dict[str, Any]:
    """A signature refused: the error and the scoresheet."""
    response = error_response(description, code, message)
    body = response["content"]["application/json"]
    body["schema"] = ScoresheetRefusal
    body["example"]["scoresheet"] = EXAMPLE_SCORESHEET
    return response
