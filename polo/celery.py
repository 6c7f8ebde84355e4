"""The Celery app. Tasks are thin: fetch by id, call a service (see matches/tasks.py).

With Redis (production) tasks go to the broker and the worker runs them. On the embedded defaults
(no Redis) Celery runs them in-process (``CELERY_TASK_ALWAYS_EAGER``); with
``CELERY_EMBEDDED_THREADS`` (the default there) they run on a small thread pool, so the request that
queued a task never waits for it (a webhook endpoint that does not answer would otherwise hold the
scorer's last event of a match for its whole retry budget).
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

from celery import Celery, Task
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


def _run_in_thread(task: Task, args, kwargs, task_id: str) -> None:
    from django.db import connections

    try:
        task.apply(args=args, kwargs=kwargs, task_id=task_id)
    finally:
        connections.close_all()  # this thread's connections, not the request's


class BackgroundTask(Task):
    def apply_async(self, args=None, kwargs=None, task_id=None, **options):
        from django.conf import settings

        in_pool = threading.current_thread().name.startswith("polo-task")
        if self.app.conf.task_always_eager and getattr(settings, "CELERY_EMBEDDED_THREADS", False) and not in_pool:
            task_id = task_id or uuid()
            try:
                _background_pool().submit(_run_in_thread, self, args, kwargs, task_id)
                return self.AsyncResult(task_id)
            except RuntimeError:
                pass  # the interpreter is shutting down (a management command ending): run it now
        # A task queued by a task already on the pool runs right there, in order.
        return super().apply_async(args=args, kwargs=kwargs, task_id=task_id, **options)


app = Celery("polo", task_cls=BackgroundTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
