"""The link between a field server and the tournament's server in the tests and benchmarks of a
match kept at the field: a small TCP proxy on loopback that the test cuts and restores, and the
two servers set up and paired as ``./dev field`` and the committee would."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from polo.testing import BASE_DIR, ServerProcess


class TcpProxy:
    """Forwards 127.0.0.1:``port`` to ``target_port``. ``cut()`` drops every connection and refuses
    new ones (closed as soon as accepted: the field sees a dead link) until ``restore()``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.up = True
        self.lock = threading.Lock()
        self.open: list[socket.socket] = []
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> None:
        with self.lock:
            self.up = False
            for s in self.open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self.open = []

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.listener.close()


def manage_json(server: ServerProcess, code: str) -> Any:
    """Run ``code`` in the server's Django shell; it prints one JSON line, returned parsed."""
    out = server.manage("shell", "-c", code)
    return json.loads(out.strip().splitlines()[-1])


def scheduled_match(tournament: ServerProcess) -> tuple[int, str]:
    """A match of the demo with no event yet, and its scorer's login."""
    return tuple(
        manage_json(
            tournament,
            "import json; from matches.models import Match; "
            "m = Match.objects.filter(last_seq=0, scorer__isnull=False).order_by('starts_at').first(); "
            "print(json.dumps([m.pk, m.scorer.username]))",
        )
    )


def log_record(server: ServerProcess, match_id: int, now: float) -> dict[str, Any]:
    """The match's log (seq, id, payload), its log hash and its state at ``now``, as stored."""
    return manage_json(
        server,
        "import json; from matches.models import Match, MatchEvent; from matches.games import match_game; "
        "from matches.scoresheet.hashing import log_hash; from officiating.engine import to_state; "
        f"m = Match.objects.get(pk={match_id}); "
        "rows = list(MatchEvent.objects.filter(match=m).order_by('seq').values_list('seq', 'client_id', 'payload')); "
        f"print(json.dumps({{'rows': rows, 'hash': log_hash(m.pk), 'state': to_state(match_game(m), now={now}), "
        "'kept_at': m.kept_at}))",
    )


class FieldSync:
    """``manage.py field_sync`` of a field server, as ``./dev field`` runs it beside uvicorn."""

    def __init__(self, field: ServerProcess) -> None:
        self.field = field
        self.log_path = Path(field.tmp_dir) / "field_sync.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> FieldSync:
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "field_sync"], cwd=BASE_DIR, env=self.field.env, stdout=log, stderr=log
        )
        return self

    def stop(self, *, kill: bool = False) -> None:
        if self.proc is not None and self.proc.poll() is None:
            if kill:
                self.proc.kill()
            else:
                self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None


class Paired:
    """A tournament's server (the demo; started), the proxy in front of it, and a field server's
    database paired with one of its matches through the proxy (the match handed to the field), as
    the committee and ``./dev field pair`` leave them. ``make(name, **kwargs)``: a ``ServerProcess``
    (the tests' ``make_server``). The field server is not started; ``sync`` runs once ``start_sync``."""

    def __init__(self, make, field_database: Path) -> None:
        self.tournament = make("tournament").start()
        self.proxy = TcpProxy(self.tournament.port)
        self.sync: FieldSync | None = None
        self.remote_id, self.scorer = scheduled_match(self.tournament)
        token = self.tournament.manage("field_token", "--match", str(self.remote_id)).strip().splitlines()[-1]
        self.tournament.manage("field_keep", "--match", str(self.remote_id), "--at", "field")
        # As ``./dev field`` runs it: SQLite, the in-memory layer, Celery eager, no Redis.
        self.field = make(
            "field",
            demo=False,
            database_url=f"sqlite:///{field_database}",
            extra_env={"FIELD_SERVER": "true", "REDIS_URL": "", "CHANNEL_PREFIX": "field"},
        )
        out = self.field.manage(
            "field_pair", "--server", self.proxy.url, "--match", str(self.remote_id), "--token", token
        )
        self.match_id = int(out.split(" is match ")[1].split()[0])

    def start_sync(self) -> FieldSync:
        self.sync = FieldSync(self.field).start()
        return self.sync

    def replica_state(self) -> dict[str, Any]:
        status, body = self.tournament.client().request("GET", f"/api/matches/{self.remote_id}/state")
        assert status == 200, body
        return body

    def close(self) -> None:
        if self.sync is not None:
            self.sync.stop()
        self.proxy.close()


def until(condition, *, timeout: float = 30.0, what: str = "the condition") -> Any:
    """Wait for ``condition()`` to be truthy (polled), and return it; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {timeout} s")
