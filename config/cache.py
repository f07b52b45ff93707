"""Django's Redis cache, keeping its redis-py client (settings: CACHES when REDIS_URL is set).

Django's `RedisCacheClient` builds a new `redis.Redis` over the same connection pool for
every call. Building one fills its table of reply handlers, about 60 µs: a twentieth of
an orders poll answered 304, which reads its session from this cache. A client is safe to
share between threads (each command borrows a connection from the pool, which starts
anew in a forked process), so one is kept for each pool; everything else is Django's."""

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class KeptClientCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}  # by the id of its pool, which Django never drops

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        """A client over the pool Django would use (the first server's for writes)."""
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # Django's, unstubbed
        if id(pool) not in self._clients:
            self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return self._clients[id(pool)]


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClientCacheClient
