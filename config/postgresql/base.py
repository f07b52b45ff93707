"""PostgreSQL through Django's own backend, whose kept connections are checked before a
request uses them (`conn_health_checks`) without a round trip to the server.

Django's check sends `SELECT 1` at the start of every request that reuses a connection: a
quarter of a revalidated poll's round trips. A server that stopped or restarted has said
goodbye and closed its end, so an idle connection's socket has something to read (or is
hung up): the operating system answers that at once. A connection inside a transaction is
checked Django's way. A connection found dead is replaced before the request uses it, as
with Django's check."""

import select
from typing import Any

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection: Any = self.connection
        if connection is None or connection.closed:
            return False
        if connection.info.transaction_status != pq.TransactionStatus.IDLE:
            return bool(super().is_usable())
        waiting = select.poll()
        waiting.register(connection.fileno(), select.POLLIN)
        return not waiting.poll(0)  # the server sent something unasked: its goodbye
