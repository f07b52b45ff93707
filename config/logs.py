"""Log lines as JSON objects (LOG_FORMAT=json), one a line, for a log collector: the time,
level, logger and message of every record, with the method, path and status of the
request where Django or gunicorn's access log gives one, and the traceback of an error as
"exc_info"."""

import logging
from typing import Any

from django.http import HttpRequest
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter


class JsonLogFormatter(JsonFormatter):
    def __init__(self) -> None:
        super().__init__(
            ["levelname", "name", "message"],
            rename_fields={"levelname": "level", "name": "logger", "status_code": "status"},
            timestamp="time",
            # Django's request and server records carry the request (or socket) itself.
            reserved_attrs=[*RESERVED_ATTRS, "request", "server_time"],
        )

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        super().add_fields(log_data, record, message_dict)
        request = getattr(record, "request", None)
        if isinstance(request, HttpRequest):
            log_data["method"] = request.method
            log_data["path"] = request.path
        if record.name == "gunicorn.access" and isinstance(record.args, dict):
            # gunicorn hands its access log the request's "atoms" (see its access_log_format).
            atoms = record.args
            log_data["method"] = atoms.get("m")
            log_data["path"] = atoms.get("U")
            status = str(atoms.get("s", ""))
            log_data["status"] = int(status) if status.isdigit() else status
            log_data["duration_ms"] = atoms.get("M")
