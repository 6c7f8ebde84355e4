"""A match's length as the committee sets it (issue 38): chukkers of 7:00 as the rules have them
(Rule 14.b(1)), or a practice match's of any length the rules engine can run."""

from __future__ import annotations

from officiating.engine import USPA_2026

# A chukker's length under the rules (Rule 14.b(1): the single horn at 7:00); a practice match's
# may be any length the rules engine can run (more than the 5 s a restart needs, at most an hour).
RULE_PERIOD_SECONDS = int(USPA_2026.period_seconds)
PRACTICE_PERIOD_SECONDS = (10, 3600)


def mss(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def parse_chukker_length(text: str) -> int:
    """ "m:ss" or whole seconds ("1:30", "90") to seconds; ValueError otherwise."""
    text = text.strip()
    if ":" in text:
        minutes, _colon, seconds = text.partition(":")
        if not (minutes.isdigit() and seconds.isdigit() and len(seconds) == 2 and int(seconds) < 60):
            raise ValueError(text)
        return int(minutes) * 60 + int(seconds)
    if not text.isdigit():
        raise ValueError(text)
    return int(text)
