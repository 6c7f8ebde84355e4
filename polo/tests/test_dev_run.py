"""``./dev run`` as a newcomer meets it: it says when the server is ready to answer, then prints the
demo's URLs and logins; every URL it prints answers; Ctrl-C stops the server cleanly."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import threading
import urllib.request

import pytest

from polo.testing import BASE_DIR, free_port

# ./dev run on the embedded defaults whatever the pass's backend: CI runs it once (conftest.py).
pytestmark = pytest.mark.backend_independent

READY_WITHIN = 180  # seconds: migrations and the demo on a fresh SQLite file, then the server's start


def _lines(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line)
    into.put(None)


def _next_line(lines: queue.Queue, seen: list[str]) -> str:
    try:
        line = lines.get(timeout=READY_WITHIN)
    except queue.Empty:
        raise AssertionError("./dev run went quiet:\n" + "".join(seen[-30:])) from None
    assert line is not None, "./dev run ended:\n" + "".join(seen[-30:])
    seen.append(line)
    return line


def test_dev_run_says_when_it_is_ready_and_prints_urls_that_answer(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "POLO_VAR_DIR": str(tmp_path),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "PYTHONUNBUFFERED": "1",
    }
    proc = subprocess.Popen(
        [str(BASE_DIR / "dev"), "run"],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: killed whole if it does not stop
        # Ctrl-C as a terminal delivers it: a test run started in the background of a script may
        # ignore SIGINT, and a signal ignored when bash starts cannot be trapped by it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stdout, lines), daemon=True).start()
    seen: list[str] = []
    try:
        while not _next_line(lines, seen).startswith("Ready:"):
            pass
        ready = seen[-1]
        assert f"http://127.0.0.1:{port}" in ready
        # Quiet before it is ready (issue 38): no list of the migrations applied.
        before = seen[:-1]
        assert not [line for line in before if "Applying " in line], "".join(before)
        assert len(before) <= 5, "".join(before)
        printed = []
        while not (line := _next_line(lines, seen)).startswith("Demo logins"):
            printed.append(line)
        assert "password for all: polo-demo" in line
        urls = [m.group(0) for text in printed for m in [re.search(r"http://\S+", text)] if m]
        labels = " ".join(printed)
        for wanted in (
            "Home",
            "scoreboard",
            "TV",
            "Overlay builder",
            "Start page",
            "Scorer",
            "tablet",
            "Committee",
            "Help",
        ):
            assert wanted in labels, f"./dev run does not print the {wanted} URL:\n{labels}"
        for url in urls:
            # Officials' and committee pages redirect to the login page, which answers 200.
            with urllib.request.urlopen(url, timeout=20) as answer:
                assert answer.status == 200, url
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C: the script passes it on to the server
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise AssertionError("./dev run did not stop on Ctrl-C:\n" + "".join(seen[-20:])) from None
    assert code == 0, "".join(seen[-20:])
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
    except OSError:
        pass
    else:
        raise AssertionError("the server still answers after Ctrl-C")
