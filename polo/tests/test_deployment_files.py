"""Docker cannot run here, so the production files are checked for what can be checked: that
docker-compose.yml parses, has the services and health checks production needs, and that its
commands and settings match the app (modules, management commands, environment keys)."""

import importlib
import ipaddress
import re
import shlex

import pytest
import yaml
from django.core.management import get_commands

from polo.testing import BASE_DIR


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())


def test_compose_has_the_production_services_with_health_checks_and_volumes(compose):
    services = compose["services"]
    assert {"postgres", "redis", "migrate", "web", "worker", "proxy"} <= set(services)
    for name in ("postgres", "redis", "web", "worker", "proxy"):
        assert "healthcheck" in services[name], name
    assert {"pgdata", "redisdata"} <= set(compose["volumes"])
    assert services["web"]["deploy"]["replicas"] >= 2  # several ASGI processes behind the proxy
    for name in ("migrate", "web", "worker"):
        assert services[name]["env_file"] == ".env"


def test_the_web_and_worker_commands_name_real_entry_points(compose):
    web = compose["services"]["web"]["command"]
    assert web[0] == "uvicorn"
    module, attr = web[1].split(":")
    assert callable(getattr(importlib.import_module(module), attr))
    worker = compose["services"]["worker"]["command"]
    assert worker[:3] == ["celery", "-A", "polo"]
    assert importlib.import_module("polo").celery_app.main == "polo"


def test_the_worker_loads_the_app_s_tasks_under_their_registered_names(settings):
    """The worker imports the committee's tasks (``CELERY_IMPORTS``) and finds them by the names
    they had before the rooms (``matches.tasks.*``): a task queued by the previous version, still
    in the broker during a deploy, finds its task."""
    from polo.celery import app

    for module in settings.CELERY_IMPORTS:
        importlib.import_module(module)
    assert {"matches.tasks.match_report_build", "matches.tasks.webhook_deliver"} <= set(app.tasks)
    assert app.tasks["matches.tasks.match_report_build"].__module__ == "matches.committee.tasks"


def test_the_migrate_job_runs_commands_the_app_has(compose):
    command = " ".join(compose["services"]["migrate"]["command"])
    used = re.findall(r"manage\.py (\w+)", command)
    assert used == ["migrate", "grant_app_role"]
    assert set(used) <= set(get_commands())


def test_the_proxy_passes_websockets_to_the_web_service():
    conf = (BASE_DIR / "deploy" / "nginx.conf").read_text()
    assert "server web:8000" in conf
    assert "proxy_set_header Upgrade $http_upgrade" in conf
    assert "location /ws/" in conf


def test_every_setting_in_the_env_example_is_read_by_the_app():
    settings_src = (BASE_DIR / "polo" / "settings.py").read_text()
    compose_src = (BASE_DIR / "docker-compose.yml").read_text() + (BASE_DIR / "deploy" / "postgres-init.sh").read_text()
    keys = re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", (BASE_DIR / ".env.example").read_text(), flags=re.M)
    assert keys
    for key in keys:
        assert f'"{key}"' in settings_src or key in compose_src, f"{key} is in .env.example but nothing reads it"


def test_only_our_proxy_is_believed_about_client_addresses(compose):
    """Issue 11: ``--forwarded-allow-ips '*'`` let any client choose its address (the leftmost
    X-Forwarded-For) and walk around the login throttle. Now uvicorn and the app believe only the
    proxy's fixed address, which no other container can be given."""
    web = compose["services"]["web"]
    command = web["command"]
    assert "--proxy-headers" in command
    trusted = command[command.index("--forwarded-allow-ips") + 1]
    assert "*" not in trusted
    assert web["environment"]["FORWARDED_ALLOW_IPS"] == trusted  # the app reads what uvicorn trusts
    default = re.fullmatch(r"\$\{FORWARDED_ALLOW_IPS:-([^}]+)\}", trusted).group(1)
    proxy = ipaddress.ip_address(compose["services"]["proxy"]["networks"]["default"]["ipv4_address"])
    assert default == str(proxy)
    network = compose["networks"]["default"]["ipam"]["config"][0]
    assert proxy in ipaddress.ip_network(network["subnet"])
    assert proxy not in ipaddress.ip_network(network["ip_range"])  # not handed to another container
    image_cmd = yaml.safe_load(re.search(r"^CMD (\[.*\])", (BASE_DIR / "Dockerfile").read_text(), flags=re.M).group(1))
    assert "--forwarded-allow-ips" not in image_cmd  # uvicorn reads FORWARDED_ALLOW_IPS (the image's: none)
    for name, service in compose["services"].items():
        assert "*" not in (service.get("command") or []), name


def test_the_image_starts_the_same_server_as_compose(compose):
    dockerfile = (BASE_DIR / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (\[.*\])", dockerfile, flags=re.M).group(1)
    assert yaml.safe_load(cmd)[:2] == compose["services"]["web"]["command"][:2]


def test_the_dev_script_serves_the_same_asgi_application():
    script = (BASE_DIR / "dev").read_text()
    assert "uvicorn polo.asgi:application" in script
    assert shlex.split("./dev run")[0] in ("./dev",)


def image_env() -> dict[str, str]:
    """The environment the Dockerfile's ENV lines set."""
    env: dict[str, str] = {}
    for line in re.findall(r"^ENV (.+)$", (BASE_DIR / "Dockerfile").read_text(), flags=re.M):
        env.update(part.split("=", 1) for part in shlex.split(line))
    return env


def client_seen(command: list[str], env: dict[str, str], peer: str, forwarded_for: str) -> str:
    """The client address the app is given when uvicorn, started with ``command`` in ``env``,
    receives a request from ``peer`` saying ``X-Forwarded-For: forwarded_for``."""
    import asyncio
    import os
    from unittest import mock

    import uvicorn
    from uvicorn.main import main as uvicorn_cli
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    params = uvicorn_cli.make_context("uvicorn", command[1:]).params
    with mock.patch.dict(os.environ, env):
        config = uvicorn.Config("polo.asgi:application", forwarded_allow_ips=params["forwarded_allow_ips"])
    assert params["proxy_headers"]
    seen: list[str] = []

    async def app(scope, receive, send) -> None:
        seen.append(scope["client"][0])

    scope = {"type": "http", "client": (peer, 50000), "headers": [(b"x-forwarded-for", forwarded_for.encode())]}
    asyncio.run(ProxyHeadersMiddleware(app, trusted_hosts=config.forwarded_allow_ips)(scope, None, None))
    return seen[0]


def test_the_image_believes_no_proxy_unless_forwarded_allow_ips_names_one(compose):
    """Issue 36: the image's uvicorn ran --proxy-headers without --forwarded-allow-ips, and so
    believed X-Forwarded-For from 127.0.0.1 and ::1 (its own default), which the README said it
    did not. The image now names none (ENV FORWARDED_ALLOW_IPS=""); compose names its nginx."""
    image_cmd = yaml.safe_load(re.search(r"^CMD (\[.*\])", (BASE_DIR / "Dockerfile").read_text(), flags=re.M).group(1))
    env = image_env()
    assert env["FORWARDED_ALLOW_IPS"] == ""
    for peer in ("127.0.0.1", "::1", "172.30.0.10"):
        assert client_seen(image_cmd, env, peer, "203.0.113.9") == peer
    configured = {**env, "FORWARDED_ALLOW_IPS": "192.0.2.10"}  # a deployment names its proxy
    assert client_seen(image_cmd, configured, "192.0.2.10", "203.0.113.9") == "203.0.113.9"
    assert client_seen(image_cmd, configured, "127.0.0.1", "203.0.113.9") == "127.0.0.1"
    web = compose["services"]["web"]
    command = [part.replace("${FORWARDED_ALLOW_IPS:-172.30.0.10}", "172.30.0.10") for part in web["command"]]
    assert client_seen(command, env, "172.30.0.10", "203.0.113.9") == "203.0.113.9"
    assert client_seen(command, env, "127.0.0.1", "203.0.113.9") == "127.0.0.1"
