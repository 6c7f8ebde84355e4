"""Settings of the test suite's server processes (``polo.testing.ServerProcess``): the app's own
settings, as deployed, with one change that no user meets: a fast password hasher, as Django
advises for tests. Every browser test logs its officials in, and PBKDF2 spends some 0.3 s of CPU
on each login (and on each of the demo's users when a server loads it)."""

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
