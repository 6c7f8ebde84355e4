"""CI's split (conftest.py, ``--backend-share K/N`` or ``K1-K2/N``): each test that cannot depend on the
backend runs in exactly one share, and every other test runs in every share."""

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


@pytest.mark.parametrize(("first", "second"), [("1/2", "2/2"), ("1-3/5", "4-5/5")])
def test_the_shares_run_each_independent_test_once_and_every_other_test_in_each(first, second):
    everything = collected()
    independent = collected("-m", "backend_independent")
    one, other = collected("--backend-share", first), collected("--backend-share", second)
    dependent = everything - independent
    assert independent and dependent
    assert one | other == everything
    assert one & other == dependent
    assert one & independent and other & independent


def test_a_share_out_of_order_is_refused():
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "--backend-share", "3-2/5", FILES[0]],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "the first before the last" in done.stderr
