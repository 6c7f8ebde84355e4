"""The polo officiating project: settings, URLs, ASGI entry point and Celery app."""

from .celery import app as celery_app

__all__ = ["celery_app"]
