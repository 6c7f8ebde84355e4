"""The Celery app. Tasks are thin: fetch by id, call a service (see matches/tasks.py)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polo.settings")

app = Celery("polo")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
