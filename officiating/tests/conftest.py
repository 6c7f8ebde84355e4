"""The engine's tests: the test rule edition is known for the whole session."""

from officiating.tests import editions  # noqa: F401  (registers TEST-SHORT)
