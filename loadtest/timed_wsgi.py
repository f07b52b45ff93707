"""The app as `make loadtest` serves it: config.wsgi's application, with the CPU each
request costs its thread written down, so that loadtest/check.py can say where the web
processes' CPU goes, kind by kind, as the server spent it (not as a test client's profile
guesses it: loadtest/profile_requests.py).

Each request's kind is the name locust gives it (the X-Loadtest-Request header; "other"
for any other request), written with its status and the thread's CPU (ms) from the
request's start until its answer is whole and closed (Django's request_finished included),
a line to LOADTEST_OUT/cpu-web-PID.tsv. What a web process spends outside these (gunicorn,
its connections, starting up) is the rest of its CPU. Writing the line costs a few
microseconds."""

import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from config.wsgi import application as served

KIND_HEADER = "HTTP_X_LOADTEST_REQUEST"

_opened: dict[int, Any] = {}
_opening = threading.Lock()


def _log() -> Any:
    """This process's file (a worker is forked from gunicorn's master: its own pid)."""
    pid = os.getpid()
    with _opening:
        if pid not in _opened:
            path = Path(os.environ.get("LOADTEST_OUT", ".")) / f"cpu-web-{pid}.tsv"
            _opened[pid] = path.open("a", buffering=1)
        return _opened[pid]


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    started = time.thread_time()
    status = ["000"]

    def start(line: str, headers: list[tuple[str, str]], *info: Any) -> Any:
        status[0] = line[:3]
        return start_response(line, headers, *info)

    answer = served(environ, start)
    try:
        body = [b"".join(answer)]  # a page is whole already; a file the load test never asks
    finally:
        close = getattr(answer, "close", None)
        if close is not None:
            close()
    spent = (time.thread_time() - started) * 1000
    kind = environ.get(KIND_HEADER, "other").replace("\t", " ")
    _log().write(f"{kind}\t{status[0]}\t{spent:.3f}\n")
    return body
