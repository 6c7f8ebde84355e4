"""A start-up note (Django's system checks) when production seals the signatures with SECRET_KEY."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Warning


def signing_key_check(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    if settings.DEBUG or settings.SCORESHEET_SIGNING_KEY:
        return []
    return [
        Warning(
            "SCORESHEET_SIGNING_KEY is not set: the scoresheet signatures are sealed with SECRET_KEY.",
            hint=(
                "Give the seals a secret of their own in the environment (docs/SCORESHEET.md, 'The seal'); "
                "list SECRET_KEY in SCORESHEET_SIGNING_OLD_KEYS so that the signatures sealed so far still verify."
            ),
            id="matches.W001",
        )
    ]
