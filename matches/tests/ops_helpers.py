"""Helpers of the operations tests (``test_ops_*``): the web service's command and health check as
docker-compose.yml writes them, run here against a real uvicorn process on a free port."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import yaml

from polo.testing import BASE_DIR, free_port


def compose() -> dict:
    return yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())


def interpolate(value: str) -> str:
    """docker compose's ``${NAME:-default}`` with NAME unset (as in a fresh .env)."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def web_command(port: int) -> list[str]:
    """The web service's command, listening on 127.0.0.1:``port`` instead of 0.0.0.0:8000."""
    command = [interpolate(arg) for arg in compose()["services"]["web"]["command"]]
    command[command.index("--host") + 1] = "127.0.0.1"
    command[command.index("--port") + 1] = str(port)
    assert command[0] == "uvicorn"
    return [sys.executable, "-m", *command]


def web_health_check(port: int) -> list[str]:
    """The web service's health check command, aimed at ``port``."""
    test = compose()["services"]["web"]["healthcheck"]["test"]
    assert test[0] == "CMD"
    return [
        sys.executable if arg == "python" else arg.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for arg in test[1:]
    ]


def run_health_check(port: int) -> subprocess.CompletedProcess:
    return subprocess.run(web_health_check(port), capture_output=True, text=True, timeout=30, check=False)


class Uvicorn:
    """The web service's process as compose runs it (its very command), with ``env``."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **env}
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def start(self) -> Uvicorn:
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                web_command(self.port), cwd=BASE_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        raise RuntimeError("server did not answer /healthz in 60 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]
