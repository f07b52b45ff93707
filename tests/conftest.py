"""Shared fixtures. Tests that need a real server ask for it through a fixture
here: without the server they skip on a developer's machine, and fail when CI is
set, because CI provides PostgreSQL, Redis and Chromium and a skip there would hide
a broken setup."""

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import redis
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Model
from django.test import override_settings
from hypothesis import settings as hypothesis_settings
from whitenoise.middleware import WhiteNoiseMiddleware  # type: ignore[import-untyped]

from campaign.display.mapcache import _ground_kept, _pickled_kept
from campaign.models import newest_events
from config.celery import app as celery_app
from tests.campaign.helpers import CAST, at_step, make_cast, new_campaign, play_until
from tests.notifications.notifying import discord_stand_in, with_addresses

BASE_DIR = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


# Hypothesis's budgets (the fuzz tests, tests/test_fuzz_*.py, and the property tests):
# - "ci", for `make test` and CI alike: the same examples on every run (derandomized), so a
#   run passes or fails on the code alone and a failure in CI comes back on any machine;
# - "long" (HYPOTHESIS_PROFILE=long, `make fuzz-long`): a nightly-size run that explores new
#   examples on every run and prints how to replay what it finds.
# A test's own @settings still sets its own number of examples.
hypothesis_settings.register_profile(
    "ci", max_examples=24, deadline=None, derandomize=True, database=None
)
hypothesis_settings.register_profile(
    "long", max_examples=1500, deadline=None, derandomize=False, database=None, print_blob=True
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "ci")


# The modules that take longest (most of it waiting: for a sweep, a load test, a browser),
# longest first. `make test`'s workers take a module at a time, in the order collected
# (--dist loadscope --no-loadscope-reorder): these start early, each among the tests
# pytest-django runs together (its stable sort by database use comes after this one),
# rather than keep one worker busy at the end while the other has finished. Sorting them
# first whatever database they use (after pytest-django's sort) started the load test,
# PostgreSQL's restart and Redis's absence at once: two runs of CI took 20-35 s longer.
LONGEST_MODULES = (
    "faults/test_redis_away.py",
    "test_played_in_the_app.py",
    "test_fuzz_posts.py",
    "rules/test_properties.py",
    "test_loadtest.py",
    "e2e/test_accounts_and_csp.py",
    "campaign/commands/test_seed_demo.py",
    "e2e/test_start_a_campaign.py",
    "e2e/test_no_traps.py",
    "faults/test_postgres_restarted.py",
)


@pytest.hookimpl(tryfirst=True)  # before pytest-django's own, which keeps this order
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.path.relative_to(BASE_DIR / "tests").as_posix()
        return LONGEST_MODULES.index(path) if path in LONGEST_MODULES else len(LONGEST_MODULES)

    items.sort(key=rank)


# The settings WhiteNoise's middleware reads (whitenoise/middleware.py, whitenoise 6).
WHITENOISE_SETTINGS = (
    "DEBUG", "FORCE_SCRIPT_NAME", "STATIC_URL", "STATIC_ROOT", "STATICFILES_DIRS",
    "STATICFILES_FINDERS", "INSTALLED_APPS", "STORAGES", "WHITENOISE_AUTOREFRESH",
    "WHITENOISE_MAX_AGE", "WHITENOISE_ALLOW_ALL_ORIGINS", "WHITENOISE_CHARSET",
    "WHITENOISE_MIMETYPES", "WHITENOISE_ADD_HEADERS_FUNCTION", "WHITENOISE_INDEX_FILE",
    "WHITENOISE_IMMUTABLE_FILE_TEST", "WHITENOISE_USE_FINDERS", "WHITENOISE_STATIC_PREFIX",
    "WHITENOISE_ROOT", "WHITENOISE_KEEP_ONLY_HASHED_FILES", "WHITENOISE_MANIFEST_STRICT",
)  # fmt: skip


def service_missing(service: str, why: str) -> None:
    if IN_CI:
        pytest.fail(f"{service} is needed, and CI must provide it, but {why}.")
    pytest.skip(f"{service} is not available here: {why}.")


@pytest.fixture
def postgres() -> None:
    """The test database is PostgreSQL (DATABASE_URL=postgres://...)."""
    if connection.vendor != "postgresql":
        engine = settings.DATABASES["default"]["ENGINE"]
        service_missing("PostgreSQL", f"DATABASE_URL points to {engine}")


@pytest.fixture
def redis_url() -> str:
    """REDIS_URL is set and Redis answers a PING."""
    url: str = settings.REDIS_URL
    if not url:
        service_missing("Redis", "REDIS_URL is not set")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        service_missing("Redis", f"it does not answer at REDIS_URL ({error})")
    return url


@pytest.fixture(autouse=True, scope="session")
def no_stale_messages() -> None:
    """Without Redis, tasks queued and never run wait as files under var/tests/ (see
    VAR_DIR in pyproject.toml): nothing reads them, so each run starts without them."""
    broker = getattr(settings, "CELERY_BROKER_DIR", None)
    if broker is not None and not settings.REDIS_URL:
        for message in (broker / "messages").glob("*.msg"):
            message.unlink(missing_ok=True)


@pytest.fixture(autouse=True, scope="session")
def media_of_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """What the tests upload (battle reports' photographs) is kept in a folder of the run's
    own, never under var/; a test that counts what is stored has its own (`media` in
    tests/battles/conftest.py)."""
    with override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("media")):
        yield


@pytest.fixture(autouse=True, scope="session")
def static_files_listed_once() -> Iterator[None]:
    """WhiteNoise lists and stats every static file (the app's and the admin's, about 200)
    when its middleware is made, and Django's test client makes the middleware anew for
    each client: about a tenth of a view test's time. The files do not change during a
    run, so each process lists them once for each configuration of the middleware and
    later middlewares take the same table; what a request is answered is unchanged."""
    listed: dict[str, dict[str, Any]] = {}
    list_them = WhiteNoiseMiddleware.add_files_from_finders

    def add_files_from_finders(self: WhiteNoiseMiddleware) -> None:
        key = repr([getattr(settings, name, None) for name in WHITENOISE_SETTINGS])
        if key not in listed:
            before = dict(self.files)
            list_them(self)
            listed[key] = {
                url: file for url, file in self.files.items() if before.get(url) is not file
            }
        self.files.update(listed[key])

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders
    try:
        yield
    finally:
        WhiteNoiseMiddleware.add_files_from_finders = list_them


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def no_story_kept() -> None:
    """Each test starts with no newest snapshot's story kept by its process
    (`campaign.models.newest_events`), nor any map's ground or value derived
    (`mapcache._ground_kept`, `_pickled_kept`), so a page's queries and drawings do not hang
    on the tests that ran before it in the same worker."""
    newest_events.cache_clear()
    _ground_kept.cache_clear()
    _pickled_kept.cache_clear()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests create many users; the production hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = FAST_HASHERS


@contextmanager
def made_for_the_module(django_db_blocker: Any) -> Iterator[None]:
    """For a module-scoped fixture that makes what many of the module's tests start from
    (a campaign played for seconds): what is made inside is made once, in a transaction
    rolled back once the module is done, and each test's changes are rolled back with its
    own savepoint. The fixture hands out its rows read again for each test (`read_again`),
    which may have changed them. Users made inside get the quick hasher."""
    with django_db_blocker.unblock(), transaction.atomic():
        with override_settings(PASSWORD_HASHERS=FAST_HASHERS):  # fast_password_hashing's
            yield
        transaction.set_rollback(True)


def read_again[M: Model](row: M) -> M:
    """A row a module's fixture made (`made_for_the_module`), read anew for a test: the test
    may change the object it is given; its changes to the row are rolled back with it."""
    return type(row)._default_manager.get(pk=row.pk)


def cast_read_again(cast: dict[str, Any]) -> dict[str, Any]:
    """A module's cast, each user read anew for a test (`read_again`)."""
    return {name: read_again(user) for name, user in cast.items()}


def campaign_made_once(
    make: Callable[[dict[str, Any]], Any],
    *,
    name: str = "campaign",
    names: Sequence[str] = CAST,
) -> tuple[Any, Any, Any]:
    """The fixtures of a module (or a folder's conftest) whose tests start from one
    campaign, made once for the module (`made_for_the_module`) by `make` from the cast of
    `names`: `made` (the cast and the campaign), and for each test `cast` and the campaign
    (`name`), read again. A module takes them as `made, cast, campaign =
    campaign_made_once(...)`."""

    @pytest.fixture(scope="module")
    def made(django_db_setup: None, django_db_blocker: Any) -> Iterator[tuple[Any, Any]]:
        with made_for_the_module(django_db_blocker):
            cast = make_cast(names)
            yield cast, make(cast)

    @pytest.fixture(name="cast")
    def made_cast(made: tuple[Any, Any]) -> dict[str, Any]:
        return cast_read_again(made[0])

    @pytest.fixture(name=name)
    def made_campaign(made: tuple[Any, Any]) -> Any:
        return read_again(made[1])

    return made, made_cast, made_campaign


def played_to(step: str, **options: Any) -> Callable[[dict[str, Any]], Any]:
    """For `campaign_made_once`: a new campaign (with `options`) played by the bots until
    its clock is at `step`."""

    def play(cast: dict[str, Any]) -> Any:
        campaign = new_campaign(cast, options=options or None)
        play_until(campaign, cast, at_step(step))
        return campaign

    return play


@pytest.fixture
def cast():
    """The cast of tests/campaign/helpers.py: gm, alice, bob and eve (the battle tests and
    the account tests have casts of their own, made by the same helper)."""
    return make_cast()


@pytest.fixture
def people(cast):
    """The cast, each with an e-mail address."""
    return with_addresses(cast)


@pytest.fixture
def discord(settings, monkeypatch):
    """The stand-in for Discord, on 127.0.0.1, allowed as a webhook in the tests only."""
    settings.NOTIFICATIONS_ANY_WEBHOOK = True
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    with discord_stand_in() as stand_in:
        yield stand_in


@dataclass(frozen=True)
class Worker:
    """A Celery worker process listening on a queue of its own, and its log."""

    queue: str
    log: Path


def database_url_for_tests() -> str:
    """DATABASE_URL for the database the tests run on (pytest-django's test database)."""
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = quote(db["PASSWORD"] or "", safe="")
    credentials = f"{user}:{password}@" if password else f"{user}@"
    return f"postgres://{credentials}{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def celery_worker(redis_url: str, log: Path) -> Iterator[Worker]:
    """A real worker process on the real Redis broker and the PostgreSQL test database,
    on a queue no other worker listens to; stopped on the way out."""
    queue = f"test-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "DATABASE_URL": database_url_for_tests(), "REDIS_URL": redis_url}
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             f"--queues={queue}", f"--hostname={queue}@%h", "--loglevel=INFO"],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            yield Worker(queue, log)
        finally:
            process.terminate()
            process.wait(timeout=30)


@pytest.fixture
def eager_celery(monkeypatch):
    """Tasks queued by the services run at once, in this process."""
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)


@pytest.fixture
def eager(monkeypatch):
    """Queued tasks run at once, in this process, and their errors raise."""
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)
    monkeypatch.setitem(celery_app.conf, "task_eager_propagates", True)


@pytest.fixture
def run(eager, django_capture_on_commit_callbacks):
    """Call a service, then run at once what it queued after commit."""

    def run(service: Callable[..., Any], **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return run
