"""The report task and the webhook delivery through real Celery, as deployed: with ``REDIS_URL``
the event log's on-commit hook queues the task in Redis and a real worker process (started here)
builds the report and posts the result; on the embedded defaults the same code runs in-process.
The match is played in its own process (``manage.py shell``) against a fresh database."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
import time

import pytest

from polo.testing import BASE_DIR

from .committee_helpers import Receiver

SECRET = "worker-secret"


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def play_a_match(server, url: str) -> int:
    out = server.manage(
        "shell",
        "-c",
        f"""
import time
from matches.committee.models import Webhook
from matches.tests.committee_helpers import Clock, win_one_chukker
from matches.tests.personas import make_match
Webhook.objects.create(name="results", url={url!r}, secret={SECRET!r}, events=["match.result"])
m = make_match(periods=1)
win_one_chukker(m, Clock(time.time() - 3600), winner="away")
print("MATCH", m.pk)
""",
    )
    return int(out.split("MATCH")[1].split()[0])


def test_a_worker_builds_the_report_and_posts_the_result(make_server, receiver):
    # The receiver listens on this machine's loopback, which a webhook may reach only when the
    # operator allows it (WEBHOOK_ALLOWED_NETWORKS).
    server = make_server("tasks", demo=False, extra_env={"WEBHOOK_ALLOWED_NETWORKS": "127.0.0.1/32"})
    worker = None
    if os.environ.get("REDIS_URL"):
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "polo",
                "worker",
                "--pool",
                "solo",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel",
                "WARNING",
            ],
            cwd=BASE_DIR,
            env=server.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    try:
        match_id = play_a_match(server, receiver.url)
        deadline = time.time() + 90  # a wait for the worker, not a timing assertion
        mine = []
        while time.time() < deadline:
            mine = [r for r in receiver.requests if json.loads(r["body"])["match"]["id"] == match_id]
            if mine:
                break
            time.sleep(0.2)
        assert len(mine) == 1, receiver.requests
        request = mine[0]
        expected = "sha256=" + hmac.new(SECRET.encode(), request["body"], hashlib.sha256).hexdigest()
        assert hmac.compare_digest(expected, request["headers"]["X-Polo-Signature"])
        payload = json.loads(request["body"])
        assert payload["event"] == "match.result" and payload["result"]["winner"] == "away"
        out = server.manage(
            "shell",
            "-c",
            f"""
from matches.committee.models import MatchReport, WebhookDelivery
r = MatchReport.objects.get(match_id={match_id})
delivered = WebhookDelivery.objects.filter(ok=True).count()
print(r.last_seq, r.data["result"]["winner"], bytes(r.pdf)[:5].decode(), delivered)
""",
        )
        assert out.strip().splitlines()[-1].split() == [str(payload["last_seq"]), "away", "%PDF-", "1"]
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=20)
