"""Test support: a real ASGI server process with its own database, and Chromium via Playwright.

Browser and fault tests run the app as users meet it: uvicorn in its own process, real
websockets, the database named by ``DATABASE_URL`` (a fresh SQLite file, or a fresh PostgreSQL
database next to the one in ``DATABASE_URL``: each a copy of one migrated template a run makes
once) and, when ``REDIS_URL`` is set, Redis with a channel
prefix of its own. The server can be stopped and started again on the same database and port.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fresh_database_url(tmp_dir: Path, name: str, *, template: str | None = None) -> tuple[str, callable]:
    """A new database for a server process (empty, or a copy of ``template``: a database URL of the
    same kind), and a function that drops it."""
    base = os.environ.get("DATABASE_URL", "")
    if base.startswith(("postgres://", "postgresql://")):
        import psycopg

        head, _, _db = base.rpartition("/")
        dbname = f"polo_e2e_{name}_{uuid.uuid4().hex[:8]}"
        admin_url = f"{head}/postgres"
        copy = f' TEMPLATE "{template.rpartition("/")[2]}"' if template else ""
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{dbname}"{copy}')

        def drop() -> None:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')

        return f"{head}/{dbname}", drop
    path = tmp_dir / f"{name}.sqlite3"
    if template:
        import sqlite3

        # (SQLite's backup API: the copy is whole even if the source's WAL was not checkpointed.)
        source, target = sqlite3.connect(template.removeprefix("sqlite:///")), sqlite3.connect(path)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
    return f"sqlite:///{path}", lambda: None


# A migrated, empty database per test process and database server, copied for each new server
# process instead of migrating each one afresh (about 2 s of CPU a server on SQLite, more on
# PostgreSQL; a test run starts some forty). The demo is loaded into each copy, not into the
# template: it is laid out from the time it is loaded (the match under way, the day's starts).
_templates: dict[str, str] = {}


def _base_env(var_dir: Path) -> dict[str, str]:
    """A server process's environment before its own settings (``extra_env``) and database."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "polo.settings_e2e",
        "DEBUG": "true",
        "DATABASE_POOL": "true",  # (on PostgreSQL: psycopg's pool and prepared statements, as deployed)
        "POLO_VAR_DIR": str(var_dir),
        "PYTHONUNBUFFERED": "1",
        # Load tests and benches open thousands of sockets from this one address.
        "WS_MAX_CONNECTIONS_PER_ADDRESS": "1000000",
    }


def _migrated_template() -> str:
    base = os.environ.get("DATABASE_URL", "")
    if base not in _templates:
        folder = Path(tempfile.mkdtemp(prefix="polo-template-"))
        url, drop = _fresh_database_url(folder, "template")
        try:
            _manage(_base_env(folder) | {"DATABASE_URL": url}, "shell", "-c", _MIGRATE)
        except BaseException:
            drop()
            raise
        atexit.register(lambda: (drop(), shutil.rmtree(folder, ignore_errors=True)))
        _templates[base] = url
    return _templates[base]


def _manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


_MIGRATE = "from django.core.management import call_command; call_command('migrate', interactive=False, verbosity=0)"
_DEMO = "from django.core.management import call_command; call_command('demo')"
_MIGRATE_AND_DEMO = _MIGRATE + "; call_command('demo')"


class ServerProcess:
    """``uvicorn polo.asgi:application`` on a free port, with migrations and the demo loaded."""

    def __init__(
        self,
        tmp_dir: Path,
        name: str = "e2e",
        *,
        demo: bool = True,
        extra_env: dict | None = None,
        database_url: str | None = None,
        channel_prefix: str | None = None,
        app: str = "polo.asgi:application",
    ) -> None:
        self.tmp_dir = Path(tmp_dir)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._drop = lambda: None
        self.env = {
            **_base_env(self.tmp_dir),
            "CHANNEL_PREFIX": channel_prefix or f"e2e{uuid.uuid4().hex[:8]}",
            **(extra_env or {}),
        }
        fresh = database_url is None
        if fresh:
            template = _migrated_template()
            database_url, self._drop = _fresh_database_url(self.tmp_dir, name, template=template)
        self.database_url = database_url
        self.env["DATABASE_URL"] = database_url
        self.app = app  # the ASGI application uvicorn serves (a bench may serve a variant)
        self.proc: subprocess.Popen | None = None
        self.log_path = self.tmp_dir / f"{name}-{self.port}.log"
        if fresh:  # a copy of the migrated template: only the demo to load
            if demo:
                self.manage("shell", "-c", _DEMO)
        else:  # a database of the caller's (one Django start-up for both steps)
            self.manage("shell", "-c", _MIGRATE_AND_DEMO if demo else _MIGRATE)

    def manage(self, *args: str) -> str:
        return _manage(self.env, *args)

    def start(self) -> ServerProcess:
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                self.app,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--ws-max-size",
                "65536",
                "--ws-per-message-deflate",
                "false",
                "--log-level",
                "warning",
            ],
            cwd=BASE_DIR,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError("server did not become healthy in 30 s")

    def stop(self, *, kill: bool = False) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self, *, kill: bool = False) -> None:
        self.stop(kill=kill)
        self.start()

    def close(self) -> None:
        self.stop()
        self._drop()

    # --- a tiny HTTP client for tests (session cookie + CSRF), standard library only ---------
    def client(self) -> HttpClient:
        return HttpClient(self.url)


class HttpClient:
    def __init__(self, base_url: str) -> None:
        import http.cookiejar

        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def _csrf(self) -> str:
        for cookie in self.jar:
            if cookie.name == "csrftoken":
                return cookie.value
        self.request("GET", "/accounts/login/")
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def request(
        self, method: str, path: str, data: dict | None = None, *, form: bool = False, headers: dict | None = None
    ) -> tuple[int, dict | str]:
        body = None
        hdrs = {"Referer": self.base_url + "/", **(headers or {})}
        if data is not None:
            if form:
                from urllib.parse import urlencode

                body = urlencode(data).encode()
                hdrs["Content-Type"] = "application/x-www-form-urlencoded"
            else:
                body = json.dumps(data).encode()
                hdrs["Content-Type"] = "application/json"
        if method != "GET":
            hdrs["X-CSRFToken"] = self._csrf()
        req = urllib.request.Request(self.base_url + path, data=body, method=method, headers=hdrs)
        try:
            with self.opener.open(req, timeout=15) as r:
                status, raw, ctype = r.status, r.read(), r.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            status, raw, ctype = e.code, e.read(), e.headers.get("Content-Type", "")
        text = raw.decode("utf-8", "replace")
        return status, (json.loads(text) if "json" in ctype and text else text)

    def login(self, username: str, password: str) -> None:
        status, _ = self.request("POST", "/accounts/login/", {"username": username, "password": password}, form=True)
        if not any(c.name == "sessionid" for c in self.jar):
            raise AssertionError(f"login failed for {username} (HTTP {status})")

    def session_cookies(self) -> list[dict]:
        """The cookies in Playwright's format, to log a browser context in as this client."""
        return [{"name": c.name, "value": c.value, "url": self.base_url} for c in self.jar]
