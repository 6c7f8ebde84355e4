"""Login, and the login throttle: django-axes, configured in ``polo/settings.py`` and extended here.

Axes counts failed logins in the database (its ``AccessAttempt`` table, one row per username,
address and browser), so the throttle holds while Redis is away. Three limits, each over the last
``LOGIN_THROTTLE_SECONDS`` (a lock ends that long after the failure that set it):

- **per (username, address)**: ``LOGIN_THROTTLE_ATTEMPTS`` failures (axes' own rule:
  ``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]``, ``AXES_FAILURE_LIMIT`` =
  :func:`failure_limit`). An official who mistypes is locked at that address only; someone else
  at the same field's Wi-Fi still logs in.
- **per address**: ``LOGIN_THROTTLE_ADDRESS_ATTEMPTS`` failures, whatever the usernames
  (:class:`LoginThrottleHandler`): one address trying many logins is stopped.
- **the per-username backoff**: a login that failed ``LOGIN_THROTTLE_USERNAME_ATTEMPTS`` times
  (from any addresses) is under attack, and each address's allowance for it halves for every that
  many failures, down to one try and never to none (:func:`failure_limit`). Attackers spread over
  many addresses get one guess per address per window instead of five, while the official's right
  password from an address that has not failed (the tablet at the field, a phone) always reaches
  the password check: the username alone never locks anyone out.

Locked attempts are refused before the password is checked and are not recorded (they neither
extend the lock nor grow the table). The refusal is the login page with a message in the user's
language and status 429 (:func:`lockout_response`). The committee lists current lockouts and
unlocks one (``matches/committee/views/lockouts.py``, audited).

The client's address (:func:`client_address`) is the connection's, unless the connection comes from
a trusted proxy (``TRUSTED_PROXIES``, read from ``FORWARDED_ALLOW_IPS``): then X-Forwarded-For is
read from the right, past the trusted proxies, and the first address that is not one of them is the
client, i.e. the address our nginx appended, never the leftmost one a client writes itself.
uvicorn applies the same rule with the same setting (``--forwarded-allow-ips``), so the address is
right whether or not the server resolved it. IPv6 clients are counted by their /64 (one site).
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib.auth import get_user_model, views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import ngettext

USERNAME_MAX_LENGTH = 150
IPV6_SITE_PREFIX = 64

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


# -- who is trying ---------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _address(text: str | None) -> Address | None:
    """An address as a proxy or a server writes it (``1.2.3.4``, ``1.2.3.4:5678``, ``[::1]:5678``,
    ``::1``), or None for anything else."""
    text = (text or "").strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    text = text.split("%", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address) -> bool:
    return any(
        address in network
        for network in _networks(tuple(settings.TRUSTED_PROXIES))
        if network.version == address.version
    )


def _counted(address: Address) -> str:
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_SITE_PREFIX}", strict=False).network_address)
    return str(address)


def client_address(request: HttpRequest) -> str | None:
    """The address the login throttle counts (``AXES_CLIENT_IP_CALLABLE``): see the module's notes."""
    return address_of(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR", ""))


def address_of(peer: str | None, forwarded_for: str) -> str | None:
    """The client's address from the connection's peer and its X-Forwarded-For (the same rule for
    a request and a websocket's scope)."""
    hop = _address(peer)
    if hop is None:
        return None
    if _trusted(hop):
        for entry in reversed(forwarded_for.split(",")):
            address = _address(entry)
            if address is None:
                break  # not an address: believe nothing further left, the last proxy is the client
            hop = address
            if not _trusted(address):
                break
    return _counted(hop)


def attempted_username(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """The username an attempt is counted under (``AXES_USERNAME_CALLABLE``): as typed, without
    case or surrounding spaces, so ``Umpire2`` and ``umpire2 `` add up."""
    field = get_user_model().USERNAME_FIELD
    if credentials:
        value = credentials.get(field)
    else:
        value = getattr(request, "POST", {}).get(field)
    if value is None:
        return None
    return str(value).replace("\x00", "").strip().lower()[:USERNAME_MAX_LENGTH] or None


# -- the limits ------------------------------------------------------------------------------------


def cool_off(request: HttpRequest | None = None) -> timedelta:
    """``AXES_COOLOFF_TIME``: the window failures are counted over, and how long a lock lasts."""
    return timedelta(seconds=settings.LOGIN_THROTTLE_SECONDS)


def _since(request: HttpRequest | None = None) -> datetime:
    return (getattr(request, "axes_attempt_time", None) or timezone.now()) - cool_off(request)


def recent_failures(since: datetime, **filters) -> int:
    return (
        AccessAttempt.objects.filter(attempt_time__gte=since, **filters).aggregate(n=Sum("failures_since_start"))["n"]
        or 0
    )


def allowance(username_failures: int) -> int:
    """Failures allowed per address for a username that failed this often from anywhere."""
    halvings = username_failures // settings.LOGIN_THROTTLE_USERNAME_ATTEMPTS
    return max(1, settings.LOGIN_THROTTLE_ATTEMPTS >> halvings)


def failure_limit(request: HttpRequest, credentials: dict | None = None) -> int:
    """``AXES_FAILURE_LIMIT``: the failures allowed for this username at this address."""
    username = attempted_username(request, credentials)
    if username is None:
        return settings.LOGIN_THROTTLE_ATTEMPTS
    return allowance(recent_failures(_since(request), username=username))


class LoginThrottleHandler(AxesDatabaseHandler):
    """Axes' database handler, plus the per-address limit."""

    def address_locked(self, request: HttpRequest) -> bool:
        failures = recent_failures(_since(request), ip_address=request.axes_ip_address)
        return failures >= settings.LOGIN_THROTTLE_ADDRESS_ATTEMPTS

    def is_locked(self, request, credentials: dict | None = None) -> bool:
        return super().is_locked(request, credentials) or self.address_locked(request)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or request.axes_locked_out or not self.address_locked(request):
            return
        request.axes_locked_out = True
        request.axes_credentials = credentials
        user_locked_out.send(
            "axes",
            request=request,
            username=attempted_username(request, credentials),
            ip_address=request.axes_ip_address,
        )


class LoginThrottleBackend(AxesStandaloneBackend):
    """Axes' gate before the password check. A call with no HTTP request (a management command,
    a test's ``authenticate()``) has no address to throttle and goes straight to the password;
    every login over HTTP (this app's login page, the admin's) passes its request."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs
    ):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


# -- the lockout page and the login view -----------------------------------------------------------


def lockout_message() -> str:
    minutes = max(1, math.ceil(settings.LOGIN_THROTTLE_SECONDS / 60))
    return ngettext(
        "Too many failed login attempts. Try again in %(minutes)d minute, or ask the committee to unlock your login.",
        "Too many failed login attempts. Try again in %(minutes)d minutes, or ask the committee to unlock your login.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the login page again, with why and for how long, status 429.
    (Axes calls it with the original response and the credentials, in an order that differs between
    its sync and async paths: neither is needed.)"""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    context = {"form": AuthenticationForm(request), "lockout": lockout_message(), "next": next_url}
    response = render(request, "registration/login.html", context, status=429)
    response["Retry-After"] = str(settings.LOGIN_THROTTLE_SECONDS)
    return response


class ThrottledLoginView(auth_views.LoginView):
    """Django's login view; axes (its backend, signals and middleware) throttles it."""

    template_name = "registration/login.html"
    redirect_authenticated_user = True


# -- current lockouts, for the committee -----------------------------------------------------------


@dataclass(frozen=True)
class Lockout:
    """A login (``username`` at ``address``) or, with ``username`` None and ``whole_address``, an
    address refused now; ``until`` is when the lock ends unless it is unlocked first."""

    username: str | None
    address: str | None
    failures: int
    limit: int
    until: datetime
    whole_address: bool = False


def _until(rows: list[tuple[datetime, int]], limit: int, window: timedelta) -> datetime:
    """When the failures of ``rows`` (last failure time, count), each forgotten ``window`` after its
    time, drop below ``limit``."""
    remaining = sum(count for _, count in rows)
    for at, count in sorted(rows):
        remaining -= count
        if remaining < limit:
            return at + window
    return max(at for at, _ in rows) + window  # not reached: the rows are above the limit


def _newest_first(lockout: Lockout) -> tuple:
    return (-lockout.until.timestamp(), lockout.username or "", lockout.address or "")


def current_lockouts(now: datetime | None = None) -> tuple[list[Lockout], list[Lockout]]:
    """The logins locked now, and the addresses locked now (for trying many logins)."""
    window = cool_off()
    since = (now or timezone.now()) - window
    recent = AccessAttempt.objects.filter(attempt_time__gte=since)
    per_username = dict(recent.values_list("username").annotate(n=Sum("failures_since_start")))
    rows: dict[tuple[str | None, str | None], list[tuple[datetime, int]]] = {}
    by_address: dict[str | None, list[tuple[datetime, int]]] = {}
    for username, address, at, count in recent.values_list(
        "username", "ip_address", "attempt_time", "failures_since_start"
    ):
        rows.setdefault((username, address), []).append((at, count))
        by_address.setdefault(address, []).append((at, count))
    logins = []
    for (username, address), times in rows.items():
        limit = allowance(per_username.get(username, 0)) if username else settings.LOGIN_THROTTLE_ATTEMPTS
        failures = sum(count for _, count in times)
        if failures >= limit:
            logins.append(Lockout(username, address, failures, limit, _until(times, limit, window)))
    addresses = []
    for address, times in by_address.items():
        failures = sum(count for _, count in times)
        limit = settings.LOGIN_THROTTLE_ADDRESS_ATTEMPTS
        if failures >= limit:
            addresses.append(Lockout(None, address, failures, limit, _until(times, limit, window), whole_address=True))
    return sorted(logins, key=_newest_first), sorted(addresses, key=_newest_first)


def unlock(*, username: str | None = None, address: str | None, whole_address: bool = False) -> int:
    """Forget the failures of a login at an address (or of every login at an address): returns how
    many failures were forgotten."""
    attempts = AccessAttempt.objects.filter(ip_address=address)
    if not whole_address:
        attempts = attempts.filter(username=username)
    failures = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
    attempts.delete()
    return failures
