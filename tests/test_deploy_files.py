"""The deployment files of deploy/ work as docs/deploy.md says: the systemd units pass
systemd's own check and start what they name, with the example environment file; the
settings load from that file and pass Django's deployment check; nginx accepts the site's
config, and gunicorn started with the unit's command line answers behind it over TLS.

The files name their production places (/srv/mighty-kingdoms, /etc/mighty-kingdoms/env,
the certificates, port 8000); the tests put each in this checkout or a temporary folder,
and check that each replaced text is there, so a changed file cannot go untested."""

import configparser
import getpass
import http.client
import json
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import BASE_DIR, database_url_for_tests, service_missing

DEPLOY = BASE_DIR / "deploy"
APP_DIR = "/srv/mighty-kingdoms"
ENV_FILE = "/etc/mighty-kingdoms/env"
SITE = "kingdoms.example.org"
SERVICES = ("web", "worker", "beat", "backup")
# Read by gunicorn (WEB_CONCURRENCY) and deploy/backup, not by the settings.
NOT_SETTINGS = {"WEB_CONCURRENCY", "BACKUP_DIR", "BACKUP_KEEP"}


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string((DEPLOY / name).read_text())
    return parser


def example_environment() -> dict[str, str]:
    """The example environment file, read as systemd's EnvironmentFile reads it."""
    values = {}
    for line in (DEPLOY / "mighty-kingdoms.env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip().removeprefix('"').removesuffix('"')
    return values


def here(text: str) -> str:
    """A unit's text with the production paths replaced by this checkout's."""
    return text.replace(APP_DIR, str(BASE_DIR)).replace(
        ENV_FILE, str(DEPLOY / "mighty-kingdoms.env.example")
    )


def command_line(service: str) -> list[str]:
    command = unit(f"mighty-kingdoms-{service}.service")["Service"]["ExecStart"]
    assert command.startswith(APP_DIR)
    return shlex.split(here(command))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def app_environment(tmp_path: Path, **overrides: str) -> dict[str, str]:
    """The example environment file, on this machine's throwaway folders and servers."""
    machine = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
    return {**machine, **example_environment(), "VAR_DIR": str(tmp_path / "var"), **overrides}


@pytest.mark.parametrize("service", SERVICES)
def test_each_service_runs_the_app_as_its_own_user_from_the_environment_file(service):
    section = unit(f"mighty-kingdoms-{service}.service")["Service"]
    assert section["User"] == "kingdoms"
    assert section["WorkingDirectory"] == APP_DIR
    assert section["EnvironmentFile"] == ENV_FILE
    program = Path(command_line(service)[0])
    assert program.is_file(), f"{program} does not exist in this checkout"
    assert os.access(program, os.X_OK), f"{program} is not executable"


def test_the_backup_runs_every_night_and_catches_up_after_a_night_off():
    timer = unit("mighty-kingdoms-backup.timer")["Timer"]
    assert timer["OnCalendar"] == "*-*-* 03:15:00"
    assert timer["Persistent"] == "true"


def test_the_units_pass_systemds_own_check(tmp_path):
    analyze = shutil.which("systemd-analyze") or ""
    if not analyze:
        service_missing("systemd-analyze (Debian's systemd package)", "it is not installed")
    units = sorted(DEPLOY.glob("*.service")) + sorted(DEPLOY.glob("*.timer"))
    for path in units:
        (tmp_path / path.name).write_text(here(path.read_text()))
    result = subprocess.run(
        [analyze, "verify", *(str(tmp_path / path.name) for path in units)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # Unknown keys and bad values are only warnings: there must be none.
    assert result.stdout + result.stderr == ""


def test_every_setting_of_the_example_environment_is_one_the_app_reads():
    settings = (BASE_DIR / "config/settings.py").read_text()
    read = set(re.findall(r'(?:env_\w+|environ\.get)\("([A-Z_]+)"', settings))
    assert set(example_environment()) - NOT_SETTINGS - read == set()


def test_every_setting_of_the_example_environment_is_explained_in_the_guide():
    guide = (BASE_DIR / "docs" / "deploy.md").read_text()
    assert [name for name in example_environment() if name not in guide] == []


def test_the_example_environment_passes_djangos_deployment_check(tmp_path):
    """Read as deploy/manage reads it (a shell's `set -a; . FILE`)."""
    env = {**app_environment(tmp_path), "APP_USER": getpass.getuser()}
    env["APP_ENV_FILE"] = str(DEPLOY / "mighty-kingdoms.env.example")
    result = subprocess.run(
        [str(DEPLOY / "manage"), "check", "--deploy"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    # The one warning left is a choice: asking browsers to preload HSTS is a commitment
    # for the whole domain, left to the operator (SECURE_HSTS_PRELOAD).
    warnings = re.findall(r"\((\w+\.[EW]\d+)\)", result.stdout + result.stderr)
    assert warnings in ([], ["security.W021"]), result.stderr


def test_deploy_manage_runs_manage_py_with_the_environment_file(tmp_path):
    env = {**app_environment(tmp_path), "APP_USER": getpass.getuser()}
    env["APP_ENV_FILE"] = str(DEPLOY / "mighty-kingdoms.env.example")
    shown = "from django.conf import settings; print(settings.DEFAULT_FROM_EMAIL, settings.DEBUG)"
    result = subprocess.run(
        [str(DEPLOY / "manage"), "shell", "--no-imports", "-c", shown],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Mighty Kingdoms <kingdoms@example.org> False"


@pytest.mark.parametrize(("service", "ready"), [("worker", "ready."), ("beat", "beat: Starting")])
def test_the_worker_and_beat_start_with_their_units_command_line(service, ready, tmp_path):
    """On the broker that needs no server (REDIS_URL left empty), in a folder of its own."""
    command = [part.replace("%H", "test") for part in command_line(service)]
    if service == "worker":
        command += ["--queues", f"deploy-test-{os.getpid()}", "--pool", "solo"]
    else:
        command = [part.replace("/var/lib/mighty-kingdoms", str(tmp_path)) for part in command]
    log = tmp_path / f"{service}.log"
    env = app_environment(tmp_path, REDIS_URL="", SECRET_KEY="a-throwaway-key-" + "x" * 40)
    with log.open("w") as out:
        process = subprocess.Popen(
            command, cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            started = wait_for(lambda: ready in log.read_text() or process.poll() is not None)
        finally:
            process.terminate()
            process.wait(timeout=60)
    assert started, f"{service} did not start in time:\n{log.read_text()}"
    assert ready in log.read_text(), log.read_text()


def wait_for(done: object, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():  # type: ignore[operator]
            return True
        time.sleep(0.2)
    return False


# --- nginx in front of gunicorn ---------------------------------------------------------


def nginx_site(tmp_path: Path, *, http: int, https: int, gunicorn: int) -> Path:
    """The site's config with ports, certificate and include in the test's places; and a
    self-signed certificate for it."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={SITE}", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    proxy = tmp_path / "proxy.conf"
    proxy.write_text((DEPLOY / "nginx-mighty-kingdoms-proxy.conf").read_text())
    site = (DEPLOY / "nginx-mighty-kingdoms.conf").read_text()
    replacements = {
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{gunicorn};",
        "listen 80;": f"listen 127.0.0.1:{http};",
        "listen [::]:80;": "",
        "listen 443 ssl;": f"listen 127.0.0.1:{https} ssl;",
        "listen [::]:443 ssl;": "",
        f"/etc/letsencrypt/live/{SITE}/fullchain.pem": str(cert),
        f"/etc/letsencrypt/live/{SITE}/privkey.pem": str(key),
        "/etc/nginx/mighty-kingdoms-proxy.conf": str(proxy),
        "root /var/www/html;": f"root {tmp_path};",
    }
    for old, new in replacements.items():
        assert old in site, f"{old!r} is no longer in the nginx config: update this test"
        site = site.replace(old, new)
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "logs").mkdir()
    main = tmp_path / "nginx.conf"
    main.write_text(
        f"daemon off;\nworker_processes 1;\npid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/logs/error.log;\n"
        "events { worker_connections 64; }\n"
        "http {\n"
        f"  access_log {tmp_path}/logs/access.log;\n"
        + "".join(
            f"  {kind}_temp_path {tmp_path}/{kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        + f"  include {tmp_path}/site.conf;\n}}\n"
    )
    return main


@dataclass(frozen=True)
class Site:
    http: int
    https: int
    log: Path


@pytest.fixture
def nginx() -> str:
    program = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(program).exists():
        service_missing("nginx", "it is not installed (apt-get install nginx)")
    return program


@pytest.fixture(scope="module")
def collected_static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static files as a deployment serves them, gathered once for the module by
    `manage.py collectstatic` (docs/deploy.md) with the example environment: hashed names,
    compressed. The Django admin's files are left out (no test here opens the admin)."""
    var = tmp_path_factory.mktemp("collected")
    env = app_environment(var.parent, VAR_DIR=str(var), SECRET_KEY="a-throwaway-key-" + "x" * 40)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput",
         "--verbosity", "0", "--ignore", "admin"],
        cwd=BASE_DIR, env=env, check=True, timeout=120,
    )  # fmt: skip
    return var / "static"


@pytest.fixture
def site_behind_nginx(
    nginx: str, postgres: None, redis_url: str, tmp_path: Path, collected_static: Path
) -> Iterator[Site]:
    """gunicorn started with the web unit's command line and the example environment (on
    the test database and Redis, logging JSON, serving the static files collected), behind
    nginx with the site's config."""
    (tmp_path / "var").mkdir()
    (tmp_path / "var" / "static").symlink_to(collected_static)
    http, https, port = free_port(), free_port(), free_port()
    config = nginx_site(tmp_path, http=http, https=https, gunicorn=port)
    checked = subprocess.run(
        [nginx, "-t", "-c", str(config)], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stderr
    command = [part.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for part in command_line("web")]
    env = app_environment(
        tmp_path,
        DATABASE_URL=database_url_for_tests(),
        REDIS_URL=redis_url,
        SECRET_KEY="a-throwaway-key-" + "x" * 40,
        WEB_CONCURRENCY="2",
        EMAIL_HOST="",
        LOG_FORMAT="json",
    )
    log = tmp_path / "gunicorn.log"
    with log.open("w") as out, (tmp_path / "nginx.log").open("w") as nginx_out:
        web = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=out, stderr=out)
        proxy = subprocess.Popen([nginx, "-c", str(config)], stdout=nginx_out, stderr=nginx_out)
        try:
            up = wait_for(lambda: answers(port) and answers(https))
            assert up, log.read_text()
            yield Site(http, https, log)
        finally:
            proxy.terminate()
            web.terminate()
            proxy.wait(timeout=30)
            web.wait(timeout=60)


def answers(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def get(port: int, path: str, *, tls: bool) -> http.client.HTTPResponse:
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # the test's own self-signed certificate
        connection: http.client.HTTPConnection = http.client.HTTPSConnection(
            "127.0.0.1", port, context=context, timeout=30
        )
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"Host": SITE})
    return connection.getresponse()


@pytest.mark.django_db
def test_gunicorn_behind_nginx_answers_healthz_over_tls(site_behind_nginx):
    response = get(site_behind_nginx.https, "/healthz", tls=True)
    body = json.loads(response.read())
    assert response.status == 200, body
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["broker"] == "ok"


@pytest.mark.django_db
def test_with_log_format_json_gunicorns_every_log_line_is_json(site_behind_nginx):
    get(site_behind_nginx.https, "/healthz", tls=True).read()
    assert wait_for(lambda: "/healthz" in site_behind_nginx.log.read_text(), seconds=10)
    lines = [line for line in site_behind_nginx.log.read_text().splitlines() if line.strip()]
    entries = [json.loads(line) for line in lines]
    (request,) = [entry for entry in entries if entry["logger"] == "gunicorn.access"]
    assert (request["method"], request["path"], request["status"]) == ("GET", "/healthz", 200)
    assert "gunicorn.error" in {entry["logger"] for entry in entries}  # "Booting worker"


@pytest.mark.django_db
def test_pages_over_tls_are_served_not_redirected_again(site_behind_nginx):
    """The app trusts nginx's X-Forwarded-Proto: a page asked over https is answered, not
    sent round to https once more."""
    response = get(site_behind_nginx.https, "/accounts/sign-in/", tls=True)
    assert response.status == 200
    assert "Sign in" in response.read().decode()
    assert "max-age=31536000" in response.headers["Strict-Transport-Security"]


@pytest.mark.django_db
def test_plain_http_is_sent_to_https_but_healthz_answers(site_behind_nginx):
    http = site_behind_nginx.http
    response = get(http, "/accounts/sign-in/", tls=False)
    assert response.status == 301
    assert response.headers["Location"] == f"https://{SITE}/accounts/sign-in/"
    assert get(http, "/healthz", tls=False).status == 200
