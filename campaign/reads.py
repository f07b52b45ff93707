"""The reads every page makes (the signed-in account, the campaign, its members, its newest
snapshot, the open decisions) as SQL written once from the models, not compiled by the ORM
on each request: the ORM spends about a millisecond of CPU on a read whose round trip costs
a fifth of that, and a campaign page makes four or five of them. The rows become models as
the ORM makes them (`Model.from_db`, each value converted by its field's converters, found
once); a column left out is a deferred field, read if it is ever asked for."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model
from django.db.models.expressions import Col

type Converter = Callable[[Any, Any, Any], Any]


def rows_of[M: Model](
    model: type[M],
    *values: Any,
    where: tuple[str, ...],
    unset: tuple[str, ...] = (),
    leaving: tuple[str, ...] = (),
    newest: str = "",
) -> list[M]:
    """The rows of `model` whose columns `where` equal `values` and whose columns `unset`
    are NULL, as models, in the model's own order; bar the fields `leaving`. With `newest`
    (a column), the row with the greatest value of it alone."""
    read = _read(model, where, unset, leaving, newest)
    with connection.cursor() as cursor:
        cursor.execute(read.sql, values)
        rows = cursor.fetchall()
    return [model.from_db(connection.alias, read.names, read.converted(row)) for row in rows]


@dataclass(frozen=True)
class _Read:
    sql: str
    names: list[str]  # the fields read, in the order of the columns (attribute names)
    converters: list[tuple[Col, list[Converter]]]  # each column's, as the ORM's compiler finds them

    def converted(self, row: Sequence[Any]) -> list[Any]:
        values = list(row)
        for i, (column, converters) in enumerate(self.converters):
            for convert in converters:
                values[i] = convert(values[i], column, connection)
        return values


@cache
def _read(
    model: type[Model],
    where: Sequence[str],
    unset: Sequence[str],
    leaving: Sequence[str],
    newest: str,
) -> _Read:
    quote = connection.ops.quote_name
    meta = model._meta
    fields: list[Field[Any, Any]] = [f for f in meta.concrete_fields if f.name not in leaving]
    matching = " AND ".join(
        [*(f"{quote(column)} = %s" for column in where), *(f"{quote(c)} IS NULL" for c in unset)]
    )
    order = f" ORDER BY {quote(newest)} DESC LIMIT 1" if newest else _order_of(model)
    columns = ", ".join(quote(f.column or "") for f in fields)
    sql = f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {matching}{order}"
    converters = []
    for field in fields:
        column = Col(meta.db_table, field)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        converters.append((column, found))
    return _Read(sql, [f.attname for f in fields], converters)


def _order_of(model: type[Model]) -> str:
    """The model's own order (its Meta's `ordering`: fields of its own table)."""
    quote = connection.ops.quote_name
    meta = model._meta
    keys = []
    for key in meta.ordering or ():
        assert isinstance(key, str), key
        name = key.lstrip("-")
        field = meta.pk if name == "pk" else meta.get_field(name)
        keys.append(quote(getattr(field, "column", "")) + (" DESC" if key.startswith("-") else ""))
    return f" ORDER BY {', '.join(keys)}" if keys else ""
