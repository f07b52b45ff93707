"""Sessions kept in the database and read from Redis: Django's `cached_db`, made safe for a
Redis that goes away (settings: SESSION_ENGINE when REDIS_URL is set).

Every signed-in request reads its session; from Redis that is one round trip instead of an
ORM query. The database stays the record, so a Redis restarted empty signs nobody out. What
differs from Django's `cached_db`, so that the cache never answers with a session the
database no longer holds:
- Reading: a cache that does not answer is skipped and the database read instead (pages
  still render with Redis away); the process then leaves it alone for a few seconds, so a
  Redis that hangs costs one request its timeout, not every request. What is read from
  the database is put back in the cache only where the cache holds nothing for that key
  (`add`), so a read that raced a sign-out or a change never puts the old session back.
- Signing out leaves a mark in the cache before the row goes: the mark answers "no
  session" for as long as the session could have lived. If the cache does not take the
  mark, nothing is deleted and the request fails with a 503 (`SessionsAway`): signing out
  with Redis away would otherwise leave the session in the cache, to come back once Redis
  does.
- Changing an existing session writes the cache first, then the database, for the same
  reason. A session made in this request (signing in) is written to the database first:
  the cache has never held its key, so it cannot hold an older copy of it.
- A new key for the same session (signing in, a new password: `cycle_key`) drops the old
  key even with the cache away. What the cache may still hold under it is signed out, or
  signed in as the same person with the password hash of then, which every request checks
  (Django signs out a session of someone else before signing in).
- Whether a new key is free is asked of the database alone (Django's `db` sessions): it
  is the record."""

import logging
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.core.cache import caches

logger = logging.getLogger(__name__)

SIGNED_OUT = "signed-out"  # the mark a deleted session leaves in the cache


class SessionsAway(Exception):
    """The cache did not take a change to a session: the request is refused (a 503) and
    the session left as it was."""


# A cache that failed to answer is left alone for a while by this process's reads and
# best-effort writes, so that a Redis that hangs costs a request its timeout once, not on
# every read. Keyed by the cache's location.
LEFT_ALONE_SECONDS = 10.0
_left_alone_until: dict[str, float] = {}


class SessionStore(DBStore):
    cache_key_prefix = "mk.sessions:"

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self.cache = caches[settings.SESSION_CACHE_ALIAS]
        self._location = str(settings.CACHES[settings.SESSION_CACHE_ALIAS].get("LOCATION"))
        self._made_here = False  # created in this request: the cache never held its key

    def load(self) -> dict[str, Any]:
        cached = self.cache_key_prefix + str(self.session_key)
        data = self._quietly(lambda: self.cache.get(cached))
        if data == SIGNED_OUT:
            self._session_key = None
            return {}
        if data is not None:
            return dict(data)
        row = self._get_session_from_db()  # type: ignore[attr-defined]  # Django's, unstubbed
        if row is None:
            return {}
        data = self.decode(row.session_data)
        age = self.get_expiry_age(expiry=row.expire_date)
        self._quietly(lambda: self.cache.add(cached, data, age))  # or read it again next time
        return data

    def create(self) -> None:
        super().create()
        self._made_here = True

    def save(self, must_create: bool = False) -> None:
        if self.session_key is None:
            self.create()  # a new key, its row written by save(must_create=True)
        elif must_create:
            super().save(must_create)
        elif self._made_here:  # the data of a session `create` wrote empty in this request
            super().save()
            self._cache_quietly(self.session_key, self._data())
        else:
            self._cache_or_refuse(self.session_key, self._data())
            super().save()

    def delete(self, session_key: str | None = None) -> None:
        key = session_key or self.session_key
        if key is None:
            return
        self._cache_or_refuse(key, SIGNED_OUT)
        super().delete(key)

    def cycle_key(self) -> None:
        """The same data under a new key, the old key dropped even with the cache away (see
        the module's docstring)."""
        data, key = self._data(), self.session_key
        self.create()
        self._session_cache = data
        if key:
            self._cache_quietly(key, SIGNED_OUT)
            super().delete(key)

    # The app is served by WSGI; a caller in async code gets the same rules.
    async def aload(self) -> dict[str, Any]:
        return await sync_to_async(self.load)()

    async def acreate(self) -> None:
        await sync_to_async(self.create)()

    async def asave(self, must_create: bool = False) -> None:
        await sync_to_async(self.save)(must_create)

    async def adelete(self, session_key: str | None = None) -> None:
        await sync_to_async(self.delete)(session_key)

    def _data(self) -> dict[str, Any]:
        data: dict[str, Any] = self._session  # type: ignore[attr-defined]  # Django's, unstubbed
        return data

    def _age(self, value: object) -> int:
        """How long the cache keeps a session, or the mark a sign-out leaves."""
        return settings.SESSION_COOKIE_AGE if value == SIGNED_OUT else self.get_expiry_age()

    def _cache_or_refuse(self, key: str, value: object) -> None:
        """Write the cache before the database, or refuse the change (tried even while the
        cache is left alone: a change waits for no one)."""
        try:
            self.cache.set(self.cache_key_prefix + key, value, self._age(value))
        except Exception as error:
            self._leave_alone()
            raise SessionsAway(f"The session store did not answer: {error}") from error

    def _cache_quietly(self, key: str, value: object) -> None:
        age = self._age(value)
        self._quietly(lambda: self.cache.set(self.cache_key_prefix + key, value, age))

    def _quietly(self, call: Callable[[], Any]) -> Any:
        """What the cache answers, or None if it does not (or failed a moment ago): then it
        is left alone for a while."""
        if time.monotonic() < _left_alone_until.get(self._location, 0.0):
            return None
        try:
            return call()
        except Exception as error:
            self._leave_alone()
            logger.warning(
                "Sessions are read from the database: the cache did not answer (%s).", error
            )
            return None

    def _leave_alone(self) -> None:
        _left_alone_until[self._location] = time.monotonic() + LEFT_ALONE_SECONDS
