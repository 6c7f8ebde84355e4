"""The probes: ``/healthz`` (liveness) and ``/readyz`` (readiness), JSON, GET or HEAD.

- ``/healthz``: the process answers. It reads nothing, so an outage of the database or Redis never
  gets a web process restarted (it would come back to the same outage).
- ``/readyz``: the process can serve: the database answers ``SELECT 1`` and, when ``REDIS_URL`` is
  set, Redis answers ``PING``, each within ``CHECK_TIMEOUT_SECONDS`` (checked at once, side by
  side). 200 ``{"ok": true, "checks": {"database": "ok", "redis": "ok"}}``; 503 with ``"down"``
  (it failed) or ``"timeout"`` (no answer in time) for what is not. The reason is all it says: the
  probes are public behind nginx, and an exception's text may name hosts or users (it goes to the
  log). Docker compose's health check of the web service asks ``/readyz``.

They are answered by ``HealthCheckMiddleware``, placed after the security headers and the CSP and
before everything that needs a host or a session: compose's health check is plain HTTP to
``127.0.0.1:8000``, which is neither in ``ALLOWED_HOSTS`` nor HTTPS (``SECURE_REDIRECT_EXEMPT``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.utils.cache import add_never_cache_headers

log = logging.getLogger(__name__)

CHECK_TIMEOUT_SECONDS = 2.0


def _database() -> None:
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()  # this check's thread's own connection (back to the pool, if any)


def _redis() -> None:
    import redis

    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=CHECK_TIMEOUT_SECONDS, socket_timeout=CHECK_TIMEOUT_SECONDS
    )
    try:
        client.ping()
    finally:
        client.close()


CHECKS: dict[str, Callable[[], None]] = {"database": _database, "redis": _redis}


def readiness() -> tuple[bool, dict[str, str]]:
    """Every check that applies, run side by side, each on a daemon thread of its own: a check
    that hangs (a database host that drops packets) is reported as ``timeout`` and left to end by
    itself, without holding the answer, a thread pool or the process's exit."""
    names = ["database"] + (["redis"] if settings.REDIS_URL else [])
    results: dict[str, str] = {}
    done = {name: threading.Event() for name in names}

    def run(name: str) -> None:
        try:
            CHECKS[name]()
            results[name] = "ok"
        except Exception as exc:  # noqa: BLE001 — whatever failed, the check says "down" (and logs why)
            log.warning("readiness: %s is down: %r", name, exc)
            results[name] = "down"
        finally:
            done[name].set()

    for name in names:
        threading.Thread(target=run, args=(name,), name=f"polo-readyz-{name}", daemon=True).start()
    deadline = time.monotonic() + CHECK_TIMEOUT_SECONDS
    checks = {}
    for name in names:
        done[name].wait(max(0.0, deadline - time.monotonic()))
        checks[name] = results.get(name, "timeout")
        if checks[name] == "timeout":
            log.warning("readiness: %s did not answer within %.1f s", name, CHECK_TIMEOUT_SECONDS)
    return all(result == "ok" for result in checks.values()), checks


def healthz() -> JsonResponse:
    return JsonResponse({"ok": True})


def readyz() -> JsonResponse:
    ok, checks = readiness()
    return JsonResponse({"ok": ok, "checks": checks}, status=200 if ok else 503)


PROBES = {"/healthz": healthz, "/readyz": readyz}


class HealthCheckMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = PROBES.get(request.path_info)
        if probe is None:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        response = probe()
        add_never_cache_headers(response)
        return response
