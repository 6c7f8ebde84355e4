"""Typed helpers that read settings from the environment and fail loudly on bad values.

In the style of healthchecks' ``envbool``/``envint``: a typo in a deployment's env file must stop the
app at start-up, not surface as odd behaviour at the field.
"""

from __future__ import annotations

import ipaddress
import os
import re
from urllib.parse import urlsplit


class ConfigError(ValueError):
    """A setting in the environment has a value the app cannot use."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None else value


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ConfigError(f"{name} must be a boolean (true/false/1/0), got {value!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, got {value!r}") from None
    if minimum is not None and number < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {number}")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: set[str]) -> str:
    value = os.environ.get(name, default)
    if value not in choices:
        raise ConfigError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value


_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOSTNAME = re.compile(rf"^{_LABEL}(?:\.{_LABEL})*$")


def env_origins(name: str) -> list[str]:
    """Comma-separated web origins, ``scheme://host[:port]`` (http or https), as a browser names
    the page it shows: no path, query or credentials, no wildcard and no CSP keyword, so that each
    can be written into a Content-Security-Policy as it is. Scheme and host are lower-cased, a
    trailing ``/`` dropped. Unset or empty: none."""
    origins = []
    for item in env_list(name, []):
        try:
            parts = urlsplit(item)
            port = parts.port  # (raises on a port that is not one)
        except ValueError:
            parts, port = None, None
        host = (parts.hostname or "") if parts else ""
        if (
            parts is None
            or parts.scheme.lower() not in ("http", "https")
            or parts.username is not None
            or parts.password is not None
            or parts.path not in ("", "/")
            or parts.query
            or parts.fragment
            or not _is_host(host, bracketed="[" in parts.netloc)
        ):
            raise ConfigError(f"{name} must list origins such as https://switcher.example.com, got {item!r}")
        shown = f"[{host}]" if ":" in host else host
        origins.append(f"{parts.scheme.lower()}://{shown}" + (f":{port}" if port is not None else ""))
    return origins


def _is_host(host: str, *, bracketed: bool) -> bool:
    if bracketed:
        try:
            return ipaddress.ip_address(host).version == 6
        except ValueError:
            return False
    return len(host) <= 253 and bool(_HOSTNAME.match(host))


def env_networks(name: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Comma-separated addresses or networks (``10.0.0.5``, ``192.0.2.0/28``); unset or empty: none."""
    networks = []
    for item in env_list(name, []):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ConfigError(f"{name} must list addresses or networks, got {item!r}") from None
    return networks
