"""The project's own system checks (run by `manage.py check`, runserver and migrate)."""

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

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


@register()
def check_file_storage(app_configs: object, **kwargs: object) -> list[CheckMessage]:
    """The storage of uploaded photographs can be loaded: with S3_BUCKET set, django-storages
    must be installed (docs/deploy.md)."""
    backend = settings.STORAGES["default"]["BACKEND"]
    try:
        import_string(backend)
    except ImportError as error:
        return [
            Error(
                f"The storage of uploaded photographs ({backend}) can't be loaded: {error}.",
                hint="With S3_BUCKET set, install django-storages[s3] (docs/deploy.md).",
                id="config.E002",
            )
        ]
    return []
