"""On the embedded defaults background work needs no Redis, and never holds the request that
queued it: tasks run on a thread pool in the same process."""

import threading

import pytest
from celery import shared_task

from polo.celery import app

ran = threading.Event()
release = threading.Event()
seen_threads: list[str] = []


@shared_task(ignore_result=True)
def slow_probe(value: int) -> int:
    seen_threads.append(threading.current_thread().name)
    release.wait(timeout=10)
    ran.set()
    return value


@pytest.fixture
def embedded_threads(settings):
    assert app.conf.task_always_eager or settings.REDIS_URL
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True  # the embedded default, also in the Redis pass
    settings.CELERY_EMBEDDED_THREADS = True
    ran.clear(), release.clear(), seen_threads.clear()
    yield
    app.conf.task_always_eager = before


def test_a_task_queued_on_the_embedded_defaults_runs_in_the_background(embedded_threads):
    result = slow_probe.delay(7)  # returns at once although the task is still waiting
    assert result.id
    assert not ran.is_set()
    release.set()
    assert ran.wait(timeout=10)
    assert seen_threads and seen_threads[0].startswith("polo-task")


def test_without_the_thread_pool_an_eager_task_runs_before_delay_returns(settings):
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    settings.CELERY_EMBEDDED_THREADS = False
    ran.clear(), seen_threads.clear()
    release.set()
    try:
        slow_probe.delay(1)
        assert ran.is_set()
        assert seen_threads == [threading.current_thread().name]
    finally:
        app.conf.task_always_eager = before
