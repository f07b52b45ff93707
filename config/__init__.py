from config import checks  # noqa: F401  (registers the project's system checks)
from config.celery import app as celery_app

__all__ = ["celery_app"]
