"""Settings, all from the environment, with defaults that run on one machine.

DATABASE_URL   default: a SQLite file under var/
REDIS_URL      default: none (Celery then uses a folder under var/ as its broker)
SECRET_KEY     required to serve the app unless DEBUG is on
DEBUG          default: off
ALLOWED_HOSTS  comma-separated; default: localhost names when DEBUG is on, none otherwise
EMAIL_HOST     SMTP server for mail (with EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
               EMAIL_USE_TLS, EMAIL_TIMEOUT, DEFAULT_FROM_EMAIL); default: the console
"""

import logging
import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

django_stubs_ext.monkeypatch()  # lets typed code write ModelAdmin[Model] and the like

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR") or BASE_DIR / "var")
# The tests run in parallel worker processes (pytest-xdist names them gw0, gw1, ...): each
# keeps its files in a folder of its own under VAR_DIR, and its Redis data (cache, broker,
# results) in a Redis database of its own (below). Only in the workers themselves: the
# processes a test starts are given what they need.
TEST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "") if "pytest" in sys.modules else ""
if TEST_WORKER:
    VAR_DIR = VAR_DIR / TEST_WORKER


def env_str(name: str, default: str = "") -> str:
    """The variable's value; unset and empty both mean the default."""
    return os.environ.get(name) or default


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    if value.strip().lower() in {"1", "true", "yes", "on"}:
        return True
    if value.strip().lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a yes/no value (1 or 0), not {value!r}.")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from None


def env_rate(name: str, default: str) -> tuple[int, int] | None:
    """A rate such as 60/m (posts, and s, m, h or d) as (count, seconds); "off" is no limit."""
    value = (os.environ.get(name) or default).strip().lower()
    if value in {"off", "0", "none"}:
        return None
    count, _, period = value.partition("/")
    seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}.get(period.strip())
    if not count.strip().isdigit() or seconds is None or int(count) < 1:
        raise ImproperlyConfigured(
            f"{name} must be a number of posts per s, m, h or d (such as 60/m), "
            f"or off, not {value!r}."
        )
    return int(count), seconds


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

# Without DEBUG there is no default: the web app refuses to start without a key (the
# system check in config/checks.py, and config/wsgi.py), while commands that need no key,
# such as `manage.py adjudicate`, still run.
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "django-insecure-development-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Where the site is served, e.g. https://kingdoms.example.org: the links of e-mails and
# Discord posts, written far from any request (campaign.words.site_url).
SITE_URL = env_str("SITE_URL")

INSTALLED_APPS = [
    "accounts",
    "campaign",
    "battles",
    "notifications",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_http_compression",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Pages are sent compressed (make run and behind nginx alike): Zstandard to a browser
    # that takes it (a map page in a quarter of a millisecond; gzip took seven times as
    # long), else Brotli, else gzip, which is padded at random against BREACH as Django's
    # GZipMiddleware pads it; CSRF tokens are masked.
    "django_http_compression.middleware.HttpCompressionMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A body bigger than its view takes is refused before the CSRF check reads it.
    "config.uploads.BodySizeMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # An htmx request with no session is sent to sign in as a whole page, not a fragment.
    "accounts.middleware.HtmxSignInMiddleware",
    "config.ratelimit.PostRateLimitMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "campaign.context_processors.vocabulary",
            ],
        },
    },
]

# Database: PostgreSQL in deployment and CI, a SQLite file by default.
DATABASE_URL = env_str("DATABASE_URL")
if not DATABASE_URL:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASE_URL = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
# A connection kept between requests (DATABASE_CONN_MAX_AGE) is checked before a request
# uses it: after PostgreSQL restarts, a dead one is replaced instead of failing a request
# (config/postgresql: the check asks the operating system, not the server).
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, its kept connections checked without a round trip.
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    # Parameters bound by the server let psycopg prepare a query once a connection has run
    # it a few times: PostgreSQL then plans it once per kept connection, not on every
    # request (half of its CPU on a poll). A pooler in front must keep them: session mode,
    # or transaction mode with max_prepared_statements (docs/deploy.md).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and the Celery worker share the file: WAL and immediate
    # transactions keep them from tripping over each other's locks.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# An address a player writes without its scheme ("www.example.net") is linked as https, as
# Django will do by default from 2028.
URLIZE_ASSUME_HTTPS = True
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:sign_in"
LOGIN_REDIRECT_URL = "campaign:home"
LOGOUT_REDIRECT_URL = "campaign:home"
AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a locked-out sign-in before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.UsernameOrEmailBackend",
]

# Sign-in throttling (django-axes): five failures for one account from one address lock
# that pair out for 15 minutes, counted from the last failure; an account's username and
# its e-mail address, in any case, count as one. Failures are rows in the database (so
# tests start clean); a success clears them. Behind a proxy, set TRUSTED_PROXY_COUNT
# (below) so the visitor's address is counted, not the proxy's.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "accounts.backends.throttled_identity"
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429
AXES_DISABLE_ACCESS_LOG = True  # failures are kept; no log of every successful sign-in
AXES_VERBOSE = False
AXES_CLIENT_IP_CALLABLE = "config.ratelimit.client_address"

# Posts (config/ratelimit.py): per signed-in player, and per address for anyone else
# (sign-in, sign-up, password reset). A player ordering quickly on a phone makes a few posts
# a minute. "off" lifts a limit (the load test signs 1,600 players in from one address).
POST_RATE_LIMIT = env_rate("POST_RATE_LIMIT", "60/m")
ANONYMOUS_POST_RATE_LIMIT = env_rate("ANONYMOUS_POST_RATE_LIMIT", "30/m")
# A map preview generates and draws a map (about 0.1 s of CPU at the largest size): so many
# a player; and so many new campaigns an account may create (5 a day).
PREVIEW_RATE_LIMIT = env_rate("PREVIEW_RATE_LIMIT", "30/m")
NEW_CAMPAIGN_RATE_LIMIT = env_rate("NEW_CAMPAIGN_RATE_LIMIT", "5/d")
# Invitations by e-mail a day (the last 24 hours): for a campaign, and for an admin's
# account across their campaigns (fewer for an account younger than a day).
INVITATIONS_PER_CAMPAIGN = env_int("INVITATIONS_PER_CAMPAIGN", 20)
INVITATIONS_PER_ACCOUNT = env_int("INVITATIONS_PER_ACCOUNT", 50)
INVITATIONS_PER_NEW_ACCOUNT = env_int("INVITATIONS_PER_NEW_ACCOUNT", 10)
# How many proxies (nginx: 1) stand between visitors and gunicorn, each adding to
# X-Forwarded-For: the visitor's address is read from there, for the post limit and
# django-axes. 0 (the default) believes only REMOTE_ADDR.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"  # British English: the rulebook's, and the dates' and numbers' formats
TIME_ZONE = "UTC"
# The app speaks English alone: without Django's translation machinery, which every value
# a template shows passed through (a tenth of the end page's drawing).
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# What players upload (the photographs of battle reports, as battles.photos keeps them):
# files under VAR_DIR/media by default, served by the app itself to those who may see them
# (never by a static or media server, so MEDIA_URL is not used). With S3_BUCKET set, any
# S3-compatible store through django-storages, which is then to be installed
# (docs/deploy.md); the bucket may stay private.
MEDIA_ROOT = VAR_DIR / "media"
S3_BUCKET = env_str("S3_BUCKET")
if S3_BUCKET:
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": S3_BUCKET,
            "endpoint_url": env_str("S3_ENDPOINT_URL") or None,
            "region_name": env_str("S3_REGION") or None,
            "access_key": env_str("S3_ACCESS_KEY_ID") or None,
            "secret_key": env_str("S3_SECRET_ACCESS_KEY") or None,
            "location": env_str("S3_PREFIX"),
            "default_acl": "private",
            "file_overwrite": False,
        },
    }
# Static files: found in their source folders as they are asked for, in development and the
# tests (WHITENOISE_USE_FINDERS). Deployed (0), they are what `collectstatic` gathered,
# compressed, under names carrying a hash of their contents, which WhiteNoise lets browsers
# keep for good (a changed file gets a new name).
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", True)
if not WHITENOISE_USE_FINDERS:
    STORAGES["staticfiles"] = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}

# Redis: broker, result backend and cache when set; otherwise nothing to install.
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL and TEST_WORKER:  # test worker gwN: database N + 1, whichever REDIS_URL names
    REDIS_URL = urlunsplit(urlsplit(REDIS_URL)._replace(path=f"/{int(TEST_WORKER[2:]) + 1}"))

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",  # Django's, keeping its client
            "LOCATION": REDIS_URL,
            # A Redis that hangs fails within a second, and the pages draw without the
            # cache (campaign.display.mapcache), instead of waiting as long as it hangs.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    # Sessions kept in the database and read from Redis; never from a cache of one
    # process, which another process's sign-out would not reach.
    SESSION_ENGINE = "accounts.sessions"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery (read by config/celery.py from the CELERY_ names).
# Without Redis the broker is kombu's filesystem transport: a real worker and beat
# on one machine, with the messages as files under var/celery/.
CELERY_BROKER_DIR = VAR_DIR / "celery"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {"socket_connect_timeout": 2}
    CELERY_RESULT_BACKEND = REDIS_URL
else:
    (CELERY_BROKER_DIR / "messages").mkdir(parents=True, exist_ok=True)
    (CELERY_BROKER_DIR / "results").mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = (
        "filesystem://localhost//"  # the host is ignored; naming it avoids a warning
    )
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR / "messages"),
        "data_folder_out": str(CELERY_BROKER_DIR / "messages"),
        "control_folder": str(CELERY_BROKER_DIR / "control"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = f"file://{CELERY_BROKER_DIR / 'results'}"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A request that queues a task while the broker is away answers within a few seconds (the
# change is saved; the beat's sweeps queue the task later), not after kombu's retries.
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {"task": "campaign.tasks.record_heartbeat", "schedule": 60.0},
    "advance-due-campaigns": {"task": "campaign.tasks.advance_due_campaigns", "schedule": 60.0},
    "advance-ready-campaigns": {"task": "campaign.tasks.advance_ready_campaigns", "schedule": 60.0},
    "queue-reminders": {"task": "notifications.tasks.queue_reminders", "schedule": 60.0},
    "send-due-notifications": {
        "task": "notifications.tasks.send_due_notifications",
        "schedule": 60.0,
    },
    "send-notification-digests": {
        "task": "notifications.tasks.send_notification_digests",
        "schedule": 900.0,
    },
}

# E-mail: SMTP when EMAIL_HOST is set, else printed to the console (development only:
# `check --deploy` refuses the console backend in production).
smtp_host = env_str("EMAIL_HOST")
if smtp_host:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": smtp_host,
                "port": env_int("EMAIL_PORT", 587),
                "username": env_str("EMAIL_HOST_USER"),
                "password": env_str("EMAIL_HOST_PASSWORD"),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
                "timeout": env_int("EMAIL_TIMEOUT", 10),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Mighty Kingdoms <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# How often a page that waits for the other players (setup, orders, winter) asks whether
# the campaign has moved on (htmx polling), in seconds.
POLL_SECONDS = env_int("POLL_SECONDS", 10)

# How long every kingdom of a campaign has been ready, with no advance, before the beat's
# sweep queues the advance again (it was lost: the broker was away, or its worker died).
# Long enough for an advance on its way to land first.
SWEEP_AFTER_SECONDS = env_int("SWEEP_AFTER_SECONDS", 60)

# Request size: every form of the app is small (the biggest, a winter list or a month's
# orders and their sequence, is a few KB and a few dozen fields; the Django admin's
# changelist posts at most a hundred selected rows). A bigger body or more fields is
# refused with a 400 before any view reads it (config/uploads.py, then Django's own
# RequestDataTooBig and TooManyFieldsSent). Only a battle report's photograph is uploaded
# as a file, one a post, on its own URL, which takes up to 12 MB (battles.report_views);
# a file bigger than FILE_UPLOAD_MAX_MEMORY_SIZE waits in a temporary file, not in memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 400
DATA_UPLOAD_MAX_NUMBER_FILES = 1
FILE_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# Content Security Policy (Django's own middleware), the same with DEBUG on or off.
# - Scripts: only this site's files (htmx, vendored libraries, static/js/). Pages have no
#   inline <script>; the nonce is there for django-htmx's script tags and any inline script
#   that must be, as <script nonce="{{ csp_nonce }}">. No 'unsafe-eval': htmx's eval
#   features are off (htmx-config in base.html) and nothing else uses eval.
# - Stylesheets: only this site's files. htmx's own injected <style> for indicators is off
#   (includeIndicatorStyles in htmx-config).
# - Style attributes: allowed ('unsafe-inline' for style-src-attr only). Kingdom colours are
#   any #rrggbb a player picks, set as style="--kingdom: #aa0000" on heraldry, so neither
#   classes nor hashes can name them. A style attribute cannot run script, and what it could
#   load is held to this site by img-src and font-src. Browsers without style-src-attr fall
#   back to style-src and show the heraldry without its colour.
# - Nothing may frame the site, change its base URL, embed plugins, or post forms elsewhere.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "style-src-attr": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Security: strict whenever DEBUG is off.
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_HSTS_SECONDS = 0 if DEBUG else env_int("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# /healthz is asked over plain http by load balancers.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Logs go to standard error (journald under systemd): plain lines, or with LOG_FORMAT=json
# one JSON object a line (config/logs.py), Django's, Celery's and the app's alike.
LOG_FORMAT = env_str("LOG_FORMAT", "text").lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}.")
LOG_LEVEL = env_str("LOG_LEVEL", "INFO")
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.logs.JsonLogFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # django-axes tells every sign-in at INFO; failures and lockouts are warnings.
    "loggers": {"axes": {"level": env_str("AXES_LOG_LEVEL", "WARNING")}},
}
if LOG_FORMAT == "json":
    LOGGING["handlers"]["console"]["formatter"] = "json"
    # Django's own loggers have plain handlers of their own: send them to the JSON one.
    for name in ("django", "django.server"):
        LOGGING["loggers"][name] = {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False}
    # Celery's worker and beat then keep to this configuration instead of their own.
    CELERY_WORKER_HIJACK_ROOT_LOGGER = False
    # Python's warnings too, as records of the py.warnings logger.
    logging.captureWarnings(True)

# An error tracker, only when SENTRY_DSN is set (nothing is imported or sent otherwise):
# errors of the web app and of Celery tasks, without personal data.
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.utils import BadDsn

    try:
        sentry_sdk.init(
            dsn=SENTRY_DSN,
            integrations=[DjangoIntegration(), CeleryIntegration()],
            environment=env_str("SENTRY_ENVIRONMENT", "production"),
            traces_sample_rate=0.0,
            send_default_pii=False,
        )
    except BadDsn as error:
        raise ImproperlyConfigured(f"SENTRY_DSN is not a Sentry DSN: {error}.") from None
