"""The app as deployed, with `bench_urls` as its URLs: what `manage.py bench_pages` serves
with gunicorn, and nothing else does."""

from django.conf import settings

from config.wsgi import application

settings.ROOT_URLCONF = "campaign.management.bench_urls"

__all__ = ["application"]
