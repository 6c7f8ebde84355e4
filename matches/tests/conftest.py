"""Fixtures shared by the server's tests, each defined once here."""

from __future__ import annotations

import socket

import pytest
from django.core.cache import cache
from redis.exceptions import RedisError

from .personas import Cast
from .scoresheet_helpers import finished_match
from .stats_helpers import counted_match


@pytest.fixture
def cast(request):
    """The people, teams and matches a test works with: the module's ``CAST`` (a class or a factory
    taking no argument: ``committee_helpers.Committee``, ``partial(Committee, periods=1)``...), else
    the officials' cast (``personas.Cast``: two matches, their scorers, umpires and referee)."""
    return getattr(request.module, "CAST", Cast)()


@pytest.fixture
def eager_celery():
    """Run Celery tasks in-process (the embedded default; with REDIS_URL the suite's own tasks go
    to a real worker only in ``test_tasks_worker``)."""
    from polo.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before


@pytest.fixture
def finished():
    """A one-chukker match won by home, a mount logged in it (scoresheet_helpers.finished_match)."""
    return finished_match()


@pytest.fixture
def counted():
    """The box score's worked match: two chukkers and overtime (stats_helpers.counted_match)."""
    return counted_match()


@pytest.fixture
def redis_away(settings):
    """The cache's Redis unreachable (a port nothing listens on): the app must carry on."""
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 1},
        }
    }
    with pytest.raises(RedisError):
        cache.get("anything")  # the cache really is away
