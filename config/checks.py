"""The project's own system checks (run by `manage.py check`, runserver and migrate)."""

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register
from django.core.exceptions import ImproperlyConfigured

MISSING_SECRET_KEY = (
    "SECRET_KEY is not set. Set it to a long random string, or set DEBUG=1 for development."
)


@register(Tags.security)
def check_secret_key(app_configs: object, **kwargs: object) -> list[CheckMessage]:
    try:
        key = settings.SECRET_KEY
    except ImproperlyConfigured:
        key = ""
    return [] if key else [Error(MISSING_SECRET_KEY, id="config.E001")]
