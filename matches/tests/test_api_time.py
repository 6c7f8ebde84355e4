"""GET /api/time: the server's clock, for a screen's first guess of its offset."""

import time

from django.test import Client


def test_it_gives_the_servers_epoch_seconds():
    before = time.time()
    response = Client().get("/api/time")
    after = time.time()
    assert response.status_code == 200
    assert before <= response.json()["server_time"] <= after
    assert "no-cache" in response["Cache-Control"]


def test_it_is_read_only():
    assert Client().post("/api/time").status_code == 405
