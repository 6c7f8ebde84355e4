"""CI's split (conftest.py, ``--backend-share K/N``): each test that cannot depend on the backend
runs in exactly one share, and every other test runs in every share."""

from __future__ import annotations

import subprocess
import sys

import pytest

from polo.testing import BASE_DIR

# Collection only, in subprocesses of its own: its outcome cannot depend on the pass's backend (CI runs it once).
pytestmark = pytest.mark.backend_independent

# A module of the rules service (backend-independent) and two of the server (run in every share).
FILES = [
    "officiating/tests/test_geometry.py",
    "matches/tests/test_socket_language.py",
    "matches/tests/test_permissions.py",
]


def collected(*options: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *options, *FILES],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {line for line in done.stdout.splitlines() if "::" in line}


def test_the_shares_run_each_independent_test_once_and_every_other_test_in_each():
    everything = collected()
    independent = collected("-m", "backend_independent")
    first, second = collected("--backend-share", "1/2"), collected("--backend-share", "2/2")
    dependent = everything - independent
    assert independent and dependent
    assert first | second == everything
    assert first & second == dependent
    assert first & independent and second & independent
