"""The Celery app. Tasks are thin: fetch by id, call a service (see matches/committee/tasks.py).

With Redis (production) tasks go to the broker and the worker runs them. On the embedded defaults
(no Redis) Celery runs them in-process (``CELERY_TASK_ALWAYS_EAGER``); with
``CELERY_EMBEDDED_THREADS`` (the default there) they run on a small thread pool, so the request that
queued a task never waits for it (a webhook endpoint that does not answer would otherwise hold the
scorer's last event of a match for its whole retry budget). A retry there waits its backoff on a
timer, as it would wait in the broker.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

from celery import Celery, Task
from celery.exceptions import Retry
from celery.utils import uuid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polo.settings")

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _background_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="polo-task")
        return _pool


def _run_in_thread(task: Task, args, kwargs, task_id: str, retries: int = 0) -> None:
    from django.db import connections

    try:
        task.apply(args=args, kwargs=kwargs, task_id=task_id, retries=retries)
    finally:
        connections.close_all()  # this thread's connections, not the request's


def _in_pool() -> bool:
    return threading.current_thread().name.startswith("polo-task")


def schedule(delay: float, function) -> None:
    """Call ``function()`` after ``delay`` seconds (a daemon timer: a retry still waiting when the
    process ends is dropped, as an unacknowledged task would be without a broker)."""
    timer = threading.Timer(delay, function)
    timer.daemon = True
    timer.start()


class BackgroundTask(Task):
    def apply_async(self, args=None, kwargs=None, task_id=None, **options):
        from django.conf import settings

        if self.app.conf.task_always_eager and getattr(settings, "CELERY_EMBEDDED_THREADS", False) and not _in_pool():
            task_id = task_id or uuid()
            try:
                _background_pool().submit(_run_in_thread, self, args, kwargs, task_id)
                return self.AsyncResult(task_id)
            except RuntimeError:
                pass  # the interpreter is shutting down (a management command ending): run it now
        # A task queued by a task already on the pool runs right there, in order.
        return super().apply_async(args=args, kwargs=kwargs, task_id=task_id, **options)

    def retry(
        self, args=None, kwargs=None, exc=None, throw=True, eta=None, countdown=None, max_retries=None, **options
    ):
        """On the pool, a retry waits its countdown (the exponential backoff of ``autoretry_for``)
        on a timer and runs on the pool again; Celery's own eager retry would run it at once."""
        request = self.request
        if not (request.is_eager and _in_pool()):
            return super().retry(
                args=args,
                kwargs=kwargs,
                exc=exc,
                throw=throw,
                eta=eta,
                countdown=countdown,
                max_retries=max_retries,
                **options,
            )
        retries = request.retries + 1
        limit = self.max_retries if max_retries is None else max_retries
        if limit is not None and retries > limit:
            if exc is not None:
                raise exc
            raise self.MaxRetriesExceededError(f"{self.name} gave up after {limit} retries")
        delay = max(0.0, float(countdown or 0))
        args = request.args if args is None else args
        kwargs = request.kwargs if kwargs is None else kwargs
        schedule(delay, lambda: _background_pool().submit(_run_in_thread, self, args, kwargs, request.id, retries))
        raise Retry(exc=exc, when=delay)


app = Celery("polo", task_cls=BackgroundTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
