"""The awards' and the scoresheet's part of the OpenAPI document (``matches.api.openapi`` merges
``paths()`` and ``schemas()`` into it)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from matches.api import types
from matches.api.openapi_components import (
    LANGUAGE,
    MATCH_ID,
    OFFICIAL,
    TOO_LARGE,
    TOURNAMENT_ID,
    error_response,
    json_content,
    ref,
)
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
NOT_FOUND = error_response("No such match.", "not_found", "No such match.")


def _refusal(description: str, code: str, message: str) -> dict[str, Any]:
    response = error_response(description, code, message)
    body = response["content"]["application/json"]
    body["schema"] = ref("ScoresheetRefusal")
    body["example"]["scoresheet"] = EXAMPLE_SCORESHEET
    return response


def paths() -> dict[str, Any]:
    return {
        "/api/matches/{match_id}/awards": {
            "parameters": [MATCH_ID],
            "get": {
                "operationId": "getMatchAwards",
                "summary": "The match's MVP and Best Playing Pony (public)",
                "parameters": [LANGUAGE],
                "responses": {
                    "200": json_content(
                        ref("MatchAwards"), {"match_id": 12, "awards": [EXAMPLE_MVP, EXAMPLE_BPP]}, "The awards given."
                    ),
                    "404": NOT_FOUND,
                },
            },
        },
        "/api/tournaments/{tournament_id}/awards": {
            "parameters": [TOURNAMENT_ID],
            "get": {
                "operationId": "getTournamentAwards",
                "summary": "The tournament's awards and those of each of its matches (public)",
                "parameters": [LANGUAGE],
                "responses": {
                    "200": json_content(
                        ref("TournamentAwards"),
                        {
                            "tournament_id": 3,
                            "awards": [EXAMPLE_MVP],
                            "matches": [{"match_id": 12, "title": "La Dolfina v Ellerstina", "awards": [EXAMPLE_BPP]}],
                        },
                        "The awards given.",
                    ),
                    "404": error_response("No such tournament.", "not_found", "No such tournament."),
                },
            },
        },
        "/api/matches/{match_id}/scoresheet": {
            "parameters": [MATCH_ID],
            "get": {
                "operationId": "getScoresheet",
                "summary": "The official scoresheet: the log hash now and the officials' signatures",
                "description": "The match's officials and committee. A signature is valid while no event was "
                "accepted after it (docs/SCORESHEET.md).",
                "responses": {
                    "200": json_content(ref("Scoresheet"), EXAMPLE_SCORESHEET, "The scoresheet."),
                    "403": error_response("Not an official of this match.", "forbidden", "Officials only."),
                    "404": NOT_FOUND,
                },
            },
        },
        "/api/matches/{match_id}/scoresheet/signatures": {
            "parameters": [MATCH_ID],
            "post": {
                "operationId": "signScoresheet",
                "summary": "An umpire or the referee signs the final result as the log is now",
                "parameters": [LANGUAGE],
                "security": OFFICIAL,
                "requestBody": types.body(types.SignatureRequest, {"log_hash": EXAMPLE_HASH}),
                "responses": {
                    "201": json_content(ref("Scoresheet"), EXAMPLE_SCORESHEET, "Signed: the scoresheet now."),
                    "400": error_response(
                        "The body does not carry a log hash.", "invalid", "Send the log hash your screen shows."
                    ),
                    "403": _refusal(
                        "Not an umpire or the referee of this match.",
                        "forbidden",
                        "Only the match's umpires and referee sign its scoresheet.",
                    ),
                    "404": NOT_FOUND,
                    "409": _refusal(
                        "The log hash is not the log's now: here is the scoresheet.",
                        "log_changed",
                        "The log has changed since your screen showed it: check the result and sign again.",
                    ),
                    "413": TOO_LARGE,
                    "422": _refusal(
                        "The match is not over.",
                        "not_final",
                        "The match is not over: the scoresheet is signed at the final result.",
                    ),
                },
            },
        },
    }


def schemas() -> dict[str, Any]:
    return types.schemas(MatchAwards, TournamentAwards, Scoresheet, ScoresheetRefusal)
