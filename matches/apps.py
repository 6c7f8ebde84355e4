from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import broadcast  # noqa: F401  (connects the signals that close officials' sockets)
