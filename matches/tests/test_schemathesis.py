"""Schemathesis: property-based requests from the API's own OpenAPI document (/api/openapi.json),
against a live server (uvicorn with the demo, ``polo.testing.ServerProcess``) — issue 11.

Every operation of the document is called with requests generated from it: valid ones (positive)
and ones the document says are wrong (negative: a ``since`` below 0, a body that is no event, a
key an event does not take...). Every answer must be no server error (no 5xx), a status the
document lists for the operation, its content type, and a body its schema validates; what the
document calls invalid must be refused (4xx), and what it calls valid must not be refused as
malformed (no 400, 406 or 413: issue 37; a 403, a 404 for an id drawn at random, or a refusal of
the rules on the match as it stands are answers to a valid request). The posts are made by a logged-in official (the
demo's umpire1: a session cookie and the CSRF header), on a match of the demo (the one part-way
through) as well as on ids the generator picks; the reads are public. Schemathesis generates
NUL characters too (``allow-x00``), which PostgreSQL's ``jsonb`` refuses (CI's second pass).

The run is bounded: ``EXAMPLES`` per operation and mode, no deadline. The number of generated
cases is printed.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings, strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from polo.testing import ServerProcess

EXAMPLES = {"POST": 100, "GET": 40}  # per operation and generation mode (the writes get the most)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("schemathesis"), "schemathesis").start()
    yield server
    server.close()


def official_session(server: ServerProcess) -> tuple[requests.Session, str]:
    """umpire1 logged in: the session cookie, and the CSRF token the posts send in X-CSRFToken."""
    client = server.client()
    client.login("umpire1", "polo-demo")
    session = requests.Session()
    for cookie in client.jar:
        session.cookies.set(cookie.name, cookie.value)
    token = session.cookies["csrftoken"]
    session.headers["Referer"] = server.url + "/"
    # requests' own default (Accept: */*) would override the Accept a case sends (the stream's).
    del session.headers["Accept"]
    return session, token


def run(strategy, checks, session: requests.Session, token: str, examples: int) -> Counter:
    """Call and check ``examples`` cases of ``strategy``; the statuses of the answers."""
    statuses: Counter = Counter()

    @settings(
        max_examples=examples, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=strategy)
    def call(case):
        headers = {"X-CSRFToken": token} if case.method.upper() == "POST" else None
        response = case.call_and_validate(session=session, headers=headers, checks=checks)
        statuses[response.status_code] += 1

    call()
    return statuses


def test_every_generated_request_is_answered_as_the_document_says(server, capsys):
    started = time.monotonic()
    config = SchemathesisConfig.from_dict(
        {
            "base-url": server.url,
            "generation": {"allow-x00": True, "with-security-parameters": False},
            # A refusal is any 4xx the document lists: 413 (over the size cap) is one too.
            "checks": {
                "negative_data_rejection": {"expected-statuses": [400, 403, 404, 405, 406, 409, 413, 422]},
                # A request the document calls valid is never refused as malformed (400, 406, 413):
                # only by who sends it (403), the ids drawn (404) or the rules on the match now.
                "positive_data_acceptance": {"expected-statuses": ["2XX", 403, 404, 409, 422, 423]},
            },
            "max-stream-events": 1,  # the stream's snapshot frame, then the next case
        }
    )
    schema = schemathesis.openapi.from_url(server.url + "/api/openapi.json", config=config)
    operations = [(path, m) for path, item in schema.raw_schema["paths"].items() for m in item if m in ("get", "post")]
    session, token = official_session(server)
    live = next(m["id"] for m in session.get(server.url + "/api/matches").json()["matches"] if m["last_seq"] > 0)
    counted: dict[str, Counter] = {}

    for result in schema.get_all_operations():
        operation = result.ok()
        pinned = {"match_id": live} if "{match_id}" in operation.path else None
        inputs = [operation.path_parameters, operation.query, operation.headers, operation.body]
        modes = [GenerationMode.POSITIVE] + ([GenerationMode.NEGATIVE] if any(map(len, inputs)) else [])
        for mode in modes:  # (an operation that takes nothing has no wrong input)
            strategy = operation.as_strategy(generation_mode=mode)
            if pinned:  # half on the demo's match in play, half on any id
                strategy = st.one_of(strategy, operation.as_strategy(generation_mode=mode, path_parameters=pinned))
            checks = [*CHECKS, negative_data_rejection if mode is GenerationMode.NEGATIVE else positive_data_acceptance]
            label = f"{operation.method.upper()} {operation.path} {mode.value}"
            counted[label] = run(strategy, checks, session, token, EXAMPLES[operation.method.upper()])

    total = sum(sum(statuses.values()) for statuses in counted.values())
    with capsys.disabled():
        print(
            f"\nschemathesis: {total} generated cases over {len(counted)} operation-modes, "
            f"{time.monotonic() - started:.1f} s"
        )
        for label, statuses in sorted(counted.items()):
            seen = ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))
            print(f"  {sum(statuses.values()):4d}  {label}  ({seen})")
    # Every operation of the document but the document itself (Schemathesis leaves it out).
    assert len({label.rsplit(" ", 1)[0] for label in counted}) == len(operations) - 1 >= 13  # 9, and awards, scoresheet
    # The posts reached the rules, past the session and the CSRF check (refused there: 403).
    posted = counted["POST /api/matches/{match_id}/events positive"]
    assert posted[409] + posted[422] > 0 and posted[403] < sum(posted.values()) / 4
