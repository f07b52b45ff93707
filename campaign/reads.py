"""The reads every page makes (the signed-in account, the campaign, its members, its newest
snapshot, the open decisions) as SQL written once from the models, not compiled by the ORM
on each request: the ORM spends about a millisecond of CPU on a read whose round trip costs
a fifth of that, and a campaign page makes four or five of them. The rows become models as
the ORM makes them (`Model.from_db`, each value converted by its field's converters, found
once); a column left out is a deferred field, read if it is ever asked for."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

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
    return [cast(M, read.columns.model_of(row)) for row in rows]


def model_of[M: Model](model: type[M], row: Sequence[Any], *, leaving: tuple[str, ...] = ()) -> M:
    """A row of the model's columns bar the fields `leaving`, in the order `rows_of` reads
    them (the model's concrete fields), as a model: for SQL that reads a model's row among
    other things (`views.freshness`)."""
    return cast(M, _columns_of(model, leaving).model_of(row))


@dataclass(frozen=True)
class _Columns:
    model: type[Model]
    names: list[str]  # the fields read, in the order of the columns (attribute names)
    converters: list[tuple[Col, list[Converter]]]  # each column's, as the ORM's compiler finds them

    def model_of(self, row: Sequence[Any]) -> Model:
        values = list(row[: len(self.names)])
        for i, (column, converters) in enumerate(self.converters):
            for convert in converters:
                values[i] = convert(values[i], column, connection)
        return self.model.from_db(connection.alias, self.names, values)


@cache
def _columns_of(model: type[Model], leaving: Sequence[str]) -> _Columns:
    meta = model._meta
    fields: list[Field[Any, Any]] = [f for f in meta.concrete_fields if f.name not in leaving]
    converters = []
    for field in fields:
        column = Col(meta.db_table, field)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        converters.append((column, found))
    return _Columns(model, [f.attname for f in fields], converters)


@dataclass(frozen=True)
class _Read:
    sql: str
    columns: _Columns


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
    return _Read(sql, _columns_of(model, leaving))


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
