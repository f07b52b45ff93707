"""The Celery app, configured from Django settings (the CELERY_ names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("mighty_kingdoms")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
