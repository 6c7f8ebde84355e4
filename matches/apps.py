"""The one Django app of the project, ``matches``, and the place its rooms are put together.

The match log (``matches/models.py``, ``services.py``, ``selectors.py``) knows none of the rooms
around it. This config is the only code that names them: it loads the records the rooms keep
beside the log, and lets the rooms subscribe to the log's one post-commit seam
(``matches/log_events.py``).
"""

from importlib import import_module

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

# Rooms with records of their own (one app, one app label: their tables stay ``matches_*``).
ROOMS_WITH_MODELS = ("officials", "committee", "awards", "scoresheet", "field")


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")
    default_auto_field = "django.db.models.BigAutoField"

    def import_models(self) -> None:
        """The match log's models (``matches.models``), then each room's own."""
        super().import_models()
        import_module(f"{self.name}.sessions")  # the sessions that carry their user
        for room in ROOMS_WITH_MODELS:
            import_module(f"{self.name}.{room}.models")

    def ready(self) -> None:
        from django.core import checks

        from polo import seams

        from .committee import receivers as committee
        from .live import receivers as live
        from .scoresheet.checks import signing_key_check

        checks.register(signing_key_check)

        # The fast paths into libraries' internals: each verified against the installed version
        # (off, with an ERROR, where it no longer fits), or turned off by STOCK_PARTS.
        seams.verify()

        # Receivers are called in the order they connect: the committee queues a finished match's
        # report, then the live room tells the sockets.
        committee.connect()
        live.connect()
