"""The rules service as a Django app: only the ``replay`` command and the message catalog.

The engine itself (``officiating.engine``) is pure Python and never imports Django.
"""

from django.apps import AppConfig


class OfficiatingConfig(AppConfig):
    name = "officiating"
    verbose_name = "Officiating (rules engine)"
    default_auto_field = "django.db.models.BigAutoField"
