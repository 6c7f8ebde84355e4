"""The field server's uplink: pairing with the tournament's server, and pushing the log to it.

``pair(server, token, match_id)`` fetches the pairing payload (``GET
/api/field/matches/{id}/pairing``) and imports it (``wire.pairing_import``); ``pair_all(server,
token)`` pairs every match the token authorises (a day's token: ``GET /api/field/matches``). ``push(link)`` sends
the log after the replica's last seq (``POST /api/field/matches/{id}/log``), batch after batch,
until the replica has all of it. ``run()`` is the loop of ``manage.py field_sync``: it pushes
every link whose match has moved on, sends a heartbeat now and then (the public screens of the
tournament's server say when the field was last heard from), and after a failure waits longer
each time (``backoff``: every second at most while the link is down, up to 60 s after a refusal).
Nothing is kept in memory that a restart would lose: where the replica stands is stored with the
link (``remote_last_seq``) and corrected by the replica's answer to the next push.

The field keeps its log whatever the answer; a refusal is stored with the link
(``FieldLink.error_code``, ``error_message`` and ``error_params``: the text it means, ``refusals``)
and shown on the field's screens and by ``manage.py field_sync --status``, in their reader's language.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import logging
import os
import random
import ssl
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from matches.games import _config_key, match_config
from matches.models import Match, MatchEvent
from matches.scoresheet.hashing import canonical_event, hash_lines
from matches.selectors import match_with_config

from .models import FieldLink
from .refusals import known, retell, say
from .wire import log_items, pairing_import

log = logging.getLogger(__name__)

BATCH = 200  # events a push
TIMEOUT = 10.0  # seconds a request may take
HEARTBEAT = 15.0  # seconds between pushes when nothing is new
IDLE_POLL = 0.1  # seconds between looks at the local log (a read of one row on SQLite)
BACKOFF_MAX = 60.0
UNREACHABLE_MAX = 1.0


class LinkError(Exception):
    """The tournament's server could not be reached, or refused: ``code``, ``message`` (as it came,
    or this server's in English) and ``detail`` (the text it means: ``refusals.retell`` says it
    in another language)."""

    def __init__(
        self, code: str, message: str, status: int | None = None, body: Any = None, detail: Any = None
    ) -> None:
        super().__init__(message)
        self.code, self.message, self.status, self.body = code, message, status, body
        self.detail = detail if known(detail) else {}

    @classmethod
    def ours(cls, code: str, text: str, **params: Any) -> LinkError:
        """A trouble of the field's own (``refusals.TEXTS[text]``)."""
        detail = {"text": text, "params": params}
        return cls(code, say(text, params, "en"), detail=detail)

    def said(self, lang: str | None = None) -> str:
        return retell(self.detail, self.message, lang)


def check_server_url(url: str) -> str:
    """The tournament's server's address, without a trailing slash: HTTPS (the token travels in
    it), or plain HTTP to this machine only (a test, a tunnel)."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise LinkError.ours("not_https", "not_https")
    if parts.scheme == "http":
        try:
            loopback = parts.hostname == "localhost" or ipaddress.ip_address(parts.hostname).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise LinkError.ours("not_https", "not_https")
    return url.rstrip("/")


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS context of every request, made once (loading the system's certificates takes tens of
    milliseconds: made per request, it was most of an event's time from the field to the server)."""
    return ssl.create_default_context()


def _request(method: str, url: str, token: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body, ensure_ascii=False, allow_nan=False).encode()
    request = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json", "Accept-Language": "en"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT, context=_tls()) as answer:
            return json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        try:
            answer = json.loads(refused.read() or b"null")
        except ValueError:
            answer = None
        error = (answer or {}).get("error") if isinstance(answer, dict) else None
        if isinstance(error, dict):
            code, message = str(error.get("code")), str(error.get("message"))
            raise LinkError(code, message, refused.code, answer, answer.get("detail")) from None
        raise LinkError.ours("http_error", "http_error", status=refused.code) from None
    except (urllib.error.URLError, OSError, ValueError) as failed:
        reason = getattr(failed, "reason", None) or failed
        raise LinkError.ours("unreachable", "unreachable", reason=str(reason)) from None


def pair(server: str, token: str, match_id: int) -> Match:
    """Fetch the pairing of ``match_id`` from the tournament's server and import it."""
    server = check_server_url(server)
    payload = _request("GET", f"{server}/api/field/matches/{match_id}/pairing", token)
    return pairing_import(payload, server_url=server, token=token)


def pair_all(server: str, token: str) -> list[Match]:
    """Pair every match ``token`` authorises (a day's token: every match of its day and ground)."""
    server = check_server_url(server)
    listed = _request("GET", f"{server}/api/field/matches", token)
    ids = [m.get("id") for m in (listed or {}).get("matches", [])] if isinstance(listed, dict) else []
    if not ids:
        raise LinkError.ours("pairing_none", "pairing_none")
    return [pair(server, token, match_id) for match_id in ids if isinstance(match_id, int)]


@dataclass
class Pushed:
    sent: int  # events the replica took (new ones)
    remote_last_seq: int
    caught_up: bool
    kept_at: str = "field"  # "server": the tournament's server has the match back (it ended, or was taken back)


def batch_body(match_id: int, after: int) -> dict[str, Any]:
    """The push of the local log after ``after`` (at most ``BATCH`` events): the events as stored,
    the log hash up to ``after`` and up to the last event sent (one read of the log for both), and
    the match's config hash."""
    match = match_with_config(match_id)
    events = log_items(match.pk, after, BATCH)
    upto = after + len(events)
    rows = MatchEvent.objects.filter(match_id=match.pk, seq__lte=upto).order_by("seq")
    lines = [canonical_event(*row) for row in rows.values_list("seq", "client_id", "type", "payload")]
    return {
        "after": after,
        "prefix_hash": hash_lines(lines[:after]),
        "log_hash": hash_lines(lines),
        "config_hash": _config_key(match_config(match)),
        "events": events,
    }


def push_batch(link: FieldLink, after: int) -> dict[str, Any]:
    """One push of the log after ``after``: the replica's answer."""
    url = f"{link.server_url}/api/field/matches/{link.remote_match_id}/log"
    return _request("POST", url, link.token, batch_body(link.match_id, after))


def push(link: FieldLink) -> Pushed:
    """Push until the replica has the whole local log; raises ``LinkError`` (a refusal, or no link).
    A ``log_gap`` answer names the replica's last seq: the push resumes from there."""
    sent = 0
    after = link.remote_last_seq
    last_seq = Match.objects.filter(pk=link.match_id).values_list("last_seq", flat=True).get()
    after = min(after, last_seq)
    for _attempt in range(10_000):
        try:
            answer = push_batch(link, after)
        except LinkError as error:
            remote = (error.body or {}).get("last_seq") if isinstance(error.body, dict) else None
            if error.code == "log_gap" and isinstance(remote, int) and remote < after:
                after = remote  # the replica has less than we thought (a restored server): resume
                continue
            raise
        sent += int(answer.get("appended") or 0)
        moved, after = int(answer["last_seq"]) > after, int(answer["last_seq"])
        cleared = {"error_code": "", "error_message": "", "error_params": {}}
        _note(link, remote_last_seq=after, sent_at=timezone.now(), failures=0, **cleared)
        last_seq = Match.objects.filter(pk=link.match_id).values_list("last_seq", flat=True).get()
        if after >= last_seq:
            return Pushed(sent, after, True, str(answer.get("kept_at") or "field"))
        if not moved:  # (cannot happen with a replica that answers as documented: never spin on one)
            break
    return Pushed(sent, after, False)


def _note(link: FieldLink, **fields: Any) -> None:
    for key, value in fields.items():
        setattr(link, key, value)
    FieldLink.objects.filter(pk=link.pk).update(**fields)


def backoff(failures: int, code: str = "") -> float:
    """Seconds to wait after ``failures`` failures in a row, ±20 %. No link (``unreachable``): a
    try costs the tournament's server nothing, so every second at most (the replica catches up
    within about a second of the link's return). A refusal or a server error: doubling from 1 s to 60 s (a
    refusal repeats until someone acts; the server is not hammered meanwhile)."""
    if code == "unreachable":
        base = min(UNREACHABLE_MAX, 0.25 * 2.0 ** max(0, failures - 1))
    else:
        base = min(BACKOFF_MAX, 2.0 ** max(0, failures - 1))
    return base * random.uniform(0.8, 1.2)


def run(*, once: bool = False, stop=lambda: False) -> None:
    """The uplink's loop: for each link, push when the local log is ahead of the replica or a
    heartbeat is due, and back off after a failure."""
    next_try: dict[int, float] = {}
    last_push: dict[int, float] = {}
    returned: set[int] = set()
    while not stop():
        close_old_connections()
        now = time.monotonic()
        for link in FieldLink.objects.select_related("match"):
            if now < next_try.get(link.pk, 0.0):
                continue
            behind = link.match.last_seq > link.remote_last_seq
            # No heartbeat once the tournament's server has the match back: nothing more is awaited.
            if not behind and (link.pk in returned or now - last_push.get(link.pk, -HEARTBEAT) < HEARTBEAT):
                continue
            _note(link, attempted_at=timezone.now())
            try:
                pushed = push(link)
            except LinkError as error:
                failures = link.failures + 1
                _note(
                    link,
                    failures=failures,
                    error_code=error.code,
                    error_message=error.message,
                    error_params=error.detail,
                )
                wait = backoff(failures, error.code)
                next_try[link.pk] = time.monotonic() + wait
                log.warning(
                    "field sync of match %s: %s (%s); next try in %.0f s",
                    link.match_id,
                    error.message,
                    error.code,
                    wait,
                )
                continue
            last_push[link.pk] = time.monotonic()
            if pushed.caught_up and pushed.kept_at == "server":
                returned.add(link.pk)
            if pushed.sent:
                log.info(
                    "field sync of match %s: %s events sent, the replica is at #%s",
                    link.match_id,
                    pushed.sent,
                    pushed.remote_last_seq,
                )
        if once:
            return
        time.sleep(IDLE_POLL)


def command_language(asked: str | None = None) -> str:
    """The language of a command's messages at the field: ``asked`` (``--lang``), else ``LANG``'s
    (``es_AR.UTF-8``), else the site's; one of the site's languages."""
    known_codes = {code for code, _name in settings.LANGUAGES}
    for wanted in (asked, os.environ.get("LANG"), settings.LANGUAGE_CODE):
        code = (wanted or "").split(".")[0].split("_")[0].split("-")[0].lower()
        if code in known_codes:
            return code
    return "en"


def link_error(link: FieldLink, lang: str | None = None) -> str:
    """What is wrong with the link, in ``lang`` (the active language if None)."""
    return retell(link.error_params, link.error_message, lang)


def link_status(link: FieldLink, lang: str | None = None) -> dict[str, Any]:
    """How the uplink of one match stands, for the field's screens (``field.uplink``), its error
    said in ``lang``."""
    return {
        "server": link.server_url,
        "remote_last_seq": link.remote_last_seq,
        "sent_at": link.sent_at.timestamp() if link.sent_at else None,
        "attempted_at": link.attempted_at.timestamp() if link.attempted_at else None,
        "failures": link.failures,
        "error": {"code": link.error_code, "message": link_error(link, lang)} if link.error_code else None,
    }
