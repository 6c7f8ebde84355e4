"""A rule edition for the tests only: it proves that the engine reads its numbers from the edition
chosen by ``match.rules`` (``officiating/engine/editions.py``), not from numbers of its own.

TEST-SHORT is USPA 2026 with 6-minute periods, 20 seconds of extra time and the Penalty 2 spot
20 yards out. Its scenarios (``scenarios/TEST-SHORT/``) are USPA-2026 scenarios with those numbers
changed and nothing else. ``conftest.py`` registers it for the test session.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from officiating.engine.editions import USPA_2026, register

TEST_SHORT = register(
    replace(
        USPA_2026,
        name="TEST-SHORT",
        title="USPA 2026 with short periods (tests only)",
        period_seconds=360.0,
        extra_seconds=20.0,
        spots=MappingProxyType({**USPA_2026.spots, "2": ("goal", 20.0)}),
    )
)
