"""Settings for the test suite: the app's own settings with DEBUG's development defaults.

``DATABASE_URL`` and ``REDIS_URL`` pass through, so the same suite runs on the embedded defaults
and on PostgreSQL + Redis (see ``.ci/run``).
"""

import os

os.environ.setdefault("DEBUG", "true")
# The suite's thousands of sockets and committee posts come from one address and a few users in
# the same minutes: its own limits are out of the way, and the tests of the limits set theirs
# (matches/tests/test_limits.py).
os.environ.setdefault("WS_MAX_CONNECTIONS_PER_ADDRESS", "1000000")
os.environ.setdefault("FORM_POSTS_PER_MINUTE", "1000000")

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests only

# Tests run in-process tasks synchronously (deterministic); polo/tests/test_background_tasks.py
# turns the thread pool on to prove the embedded default.
CELERY_EMBEDDED_THREADS = False

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # A statement stuck behind another connection's lock fails with PostgreSQL's own message
    # (which lock, which statement) instead of hanging the run.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c lock_timeout=60000"  # noqa: F405
