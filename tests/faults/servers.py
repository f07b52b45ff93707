"""Servers the fault tests start, stop and restart themselves: a Redis, a PostgreSQL cluster
in a temporary directory, gunicorn serving the app, and a Celery worker whose pool process
can be killed. Never the shared servers the other tests use."""

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import redis
import requests

from tests.conftest import BASE_DIR, service_missing

RUN_AS_POSTGRES = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(check, timeout: float, what: str, every: float = 0.1):  # type: ignore[no-untyped-def]
    """`check()`'s first true answer within `timeout` seconds; fails saying `what` it waited for."""
    deadline = time.monotonic() + timeout
    while True:
        answer = check()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"Waited {timeout:.0f} s for {what}.")
        time.sleep(every)


# --- Redis --------------------------------------------------------------------------------------


@dataclass
class RedisServer:
    """A redis-server of the test's own on a free port, which it may stop and start again."""

    workdir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def answers(self) -> bool:
        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            service_missing("redis-server", "it is not installed (apt install redis-server)")
            return
        self.process = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_until(self.answers, 10, "Redis to answer")

    def pause(self) -> None:
        """Still listening, answering nothing (SIGSTOP): a Redis that hangs, its data kept."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)
        wait_until(self.answers, 10, "Redis to answer again")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@contextmanager
def redis_server(workdir: Path) -> Iterator[RedisServer]:
    server = RedisServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


# --- PostgreSQL ---------------------------------------------------------------------------------


def postgres_bin() -> Path:
    """The newest PostgreSQL's programs (Debian's packages), or those on the PATH."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: float(p.parts[-3]) if p.parts[-3].replace(".", "").isdigit() else 0.0,
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb is None:
        service_missing("PostgreSQL", "initdb is not installed (apt install postgresql)")
    return Path(str(initdb)).parent


@dataclass
class PostgresCluster:
    """A PostgreSQL cluster of the test's own in a temporary directory, started and stopped
    with pg_ctl (as the postgres user when the tests run as root)."""

    workdir: Path
    port: int = field(default_factory=free_port)

    @property
    def data(self) -> Path:
        return self.workdir / "pg"

    def url(self, database: str = "mighty_kingdoms") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run(
            [*RUN_AS_POSTGRES, str(postgres_bin() / program), *args],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, f"{program} failed: {done.stdout}{done.stderr}"

    def create(self) -> None:
        socket_dir = self.workdir / "pg-socket"
        for directory in (self.data, socket_dir):
            directory.mkdir(parents=True)
            if RUN_AS_POSTGRES:
                shutil.chown(directory, "postgres")
        self.workdir.chmod(0o755)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        (self.data / "postgresql.auto.conf").write_text(
            f"listen_addresses = '127.0.0.1'\nport = {self.port}\n"
            f"unix_socket_directories = '{socket_dir}'\nfsync = off\n"
        )

    def start(self) -> None:
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.data / "server.log"), "-w", "start"
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")


@contextmanager
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A new cluster, in a directory of its own that the postgres user may enter (pytest's
    tmp_path, under root's, is closed to it)."""
    workdir = Path(tempfile.mkdtemp(prefix="mk-faults-pg-"))
    cluster = PostgresCluster(workdir)
    cluster.create()
    cluster.start()
    try:
        cluster._run("createdb", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres",
                     "mighty_kingdoms")  # fmt: skip
        yield cluster
    finally:
        subprocess.run(
            [*RUN_AS_POSTGRES, str(postgres_bin() / "pg_ctl"), "-D", str(cluster.data),
             "-m", "immediate", "stop"],
            capture_output=True, timeout=60,
        )  # fmt: skip
        shutil.rmtree(workdir, ignore_errors=True)


# --- the app under gunicorn --------------------------------------------------------------------


@contextmanager
def gunicorn(env: dict[str, str], log: Path) -> Iterator[str]:
    """The app under gunicorn (one worker, a few threads) with these settings in its
    environment; its address."""
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", f"--bind=127.0.0.1:{port}",
             "--workers=1", "--threads=4", "--timeout=60"],
            cwd=BASE_DIR, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:

            def up() -> bool:
                if process.poll() is not None:
                    raise AssertionError(f"gunicorn stopped: {log.read_text()}")
                try:
                    return requests.get(f"{base}/healthz", timeout=2).status_code < 600
                except (requests.ConnectionError, requests.Timeout):
                    return False  # not listening yet, or still loading the app (a busy machine)

            wait_until(up, 60, "gunicorn to answer")
            yield base
        finally:
            process.terminate()
            process.wait(timeout=30)


@dataclass
class Visitor:
    """A signed-in person's browser, as far as the server can tell: their session cookie, a
    CSRF token and the cookies the server sets (kept by hand: they are Secure, and this is
    plain http)."""

    base: str
    session_key: str
    csrf: str = field(default_factory=lambda: secrets.token_hex(16))
    cookies: dict[str, str] = field(default_factory=dict)

    def _headers(self) -> dict[str, str]:
        cookies = {"sessionid": self.session_key, "csrftoken": self.csrf, **self.cookies}
        return {
            "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
            "X-CSRFToken": self.csrf,
            "Referer": self.base + "/",
        }

    def _kept(self, response: requests.Response) -> requests.Response:
        for name, value in response.cookies.items():
            if value and value != '""':
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)
        return response

    def get(self, path: str) -> requests.Response:
        return self._kept(requests.get(self.base + path, headers=self._headers(), timeout=30))

    def post(self, path: str, data: dict[str, str]) -> requests.Response:
        headers = self._headers()
        answer = requests.post(
            self.base + path, data=data, headers=headers, timeout=30, allow_redirects=False
        )
        return self._kept(answer)


# --- a Celery worker whose pool process can be killed -------------------------------------------


@dataclass
class PoolWorker:
    """A Celery worker (prefork, one pool process) on a queue of its own."""

    process: subprocess.Popen[bytes]
    queue: str
    log: Path

    def pool_processes(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()] if children.exists() else []

    def kill_pool_process(self) -> int:
        (pid,) = self.pool_processes()
        os.kill(pid, signal.SIGKILL)
        return pid

    def kill(self) -> None:
        """SIGKILL the whole worker and its pool, as when its machine dies."""
        for pid in self.pool_processes():
            os.kill(pid, signal.SIGKILL)
        self.process.kill()
        self.process.wait(timeout=10)


@contextmanager
def pool_worker(env: dict[str, str], log: Path, queue: str = "") -> Iterator[PoolWorker]:
    queue = queue or f"faults-{uuid.uuid4().hex[:12]}"
    with log.open("a") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork",
             "--concurrency=1", f"--queues={queue}", f"--hostname={queue}-{uuid.uuid4().hex[:6]}@%h",
             "--loglevel=INFO", "--without-mingle", "--without-gossip"],
            cwd=BASE_DIR, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        worker = PoolWorker(process, queue, log)
        try:
            wait_until(lambda: "ready." in log.read_text(), 60, "the worker to be ready")
            yield worker
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    worker.kill()
