import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

from config.checks import MISSING_SECRET_KEY

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

try:
    settings.SECRET_KEY  # noqa: B018  (Django refuses an empty key on access)
except ImproperlyConfigured:
    raise ImproperlyConfigured(MISSING_SECRET_KEY) from None
