"""gunicorn's own settings (mighty-kingdoms-web.service: --config python:config.gunicorn):
with LOG_FORMAT=json its access log and error log are JSON lines like the app's, each
request with its method, path, status and duration."""

import os
from typing import Any

logconfig_dict: dict[str, Any] = {}
if os.environ.get("LOG_FORMAT", "").strip().lower() == "json":
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "config.logs.JsonLogFormatter"}},
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["json"], "level": "INFO"},
        "loggers": {
            "gunicorn.error": {"handlers": ["json"], "level": "INFO", "propagate": False},
            "gunicorn.access": {"handlers": ["json"], "level": "INFO", "propagate": False},
        },
    }
