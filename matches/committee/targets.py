"""Where a webhook may send results: a public address, by https (issue 36).

A webhook is the committee's to configure, so its address must not become a way into the
server's own network: ``http://127.0.0.1:…``, a cloud's metadata address
(``http://169.254.169.254/``), ``http://[::1]/``, ``localhost`` or a name that resolves to any of
them. ``target`` reads the address, resolves its host and refuses it when any of the addresses
it resolves to is loopback, private, link-local, multicast, reserved, unspecified or otherwise
not global (an IPv4 address written inside IPv6 is judged as IPv4), unless the operator allowed
that network (``WEBHOOK_ALLOWED_NETWORKS``). Only ``https`` (``http`` too with ``DEBUG``), no
credentials in the address.

It runs when the committee saves a webhook (``validate_target``, the model field's validator, so
the committee's form and the admin's alike) and again before each delivery, since a name's
addresses can change in between; the delivery then connects to the address that was checked
(``Target.address``), never resolving the name a second time.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class TargetRefused(ValueError):
    """The address is not one a webhook may send to; ``message`` says why, in the user's language."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Target:
    scheme: str  # https (or http with DEBUG)
    host: str  # as the address names it: the request's Host and the certificate's name
    port: int
    path: str  # path and query
    address: str  # the checked address the delivery connects to


def _allowed(ip: IPAddress) -> bool:
    return any(ip.version == net.version and ip in net for net in settings.WEBHOOK_ALLOWED_NETWORKS)


def refused_address(ip: IPAddress) -> bool:
    """Whether a webhook may not reach ``ip``."""
    if _allowed(ip):
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return refused_address(ip.ipv4_mapped)
    return (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global
    )


def _resolve(host: str, port: int) -> list[IPAddress]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    addresses: list[IPAddress] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        ip = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
        if ip not in addresses:
            addresses.append(ip)
    return addresses


def target(url: str) -> Target:
    """The address ``url`` names, checked and resolved; ``TargetRefused`` saying why not."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise TargetRefused(_("Enter a valid address.")) from None
    scheme = parts.scheme.lower()
    if scheme != "https" and not (scheme == "http" and settings.DEBUG):
        raise TargetRefused(_("The address must begin with https://."))
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise TargetRefused(_("The address may not contain a user name or password."))
    host = parts.hostname or ""
    if not host:
        raise TargetRefused(_("Enter a valid address."))
    port = port or (443 if scheme == "https" else 80)
    addresses = _resolve(host, port)
    if not addresses:
        raise TargetRefused(_("The address's host could not be found."))
    if any(refused_address(ip) for ip in addresses):
        raise TargetRefused(
            _("Results are only sent to public addresses: this one leads to a local or private network.")
        )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme, host, port, path, str(addresses[0]))


def validate_target(url: str) -> None:
    """The webhook's address field: refused as ``target`` refuses it."""
    try:
        target(url)
    except TargetRefused as refused:
        raise ValidationError(refused.message, code="webhook_target") from None
