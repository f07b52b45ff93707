"""The reads every page makes (the signed-in account, the campaign, its members, its newest
snapshot) as SQL written once from the models, not compiled by the ORM on each request:
compiling is about half a millisecond of a read that costs one to one and a half, and a
campaign page makes three or four of them. Django's raw queries turn the rows into models as
the ORM does (each value converted by its field; a column left out is a deferred field,
read if it is ever asked for)."""

from collections.abc import Sequence
from functools import cache

from django.db import connection
from django.db.models import Model


def rows_of[M: Model](
    model: type[M],
    *values: object,
    where: tuple[str, ...],
    unset: tuple[str, ...] = (),
    leaving: tuple[str, ...] = (),
    newest: str = "",
) -> list[M]:
    """The rows of `model` whose columns `where` equal `values` and whose columns `unset`
    are NULL, as models, in the model's own order; bar the fields `leaving`. With `newest`
    (a column), the row with the greatest value of it alone."""
    sql = _select(model, where, unset, leaving, newest)
    return list(model._default_manager.raw(sql, values))


@cache
def _select(
    model: type[Model],
    where: Sequence[str],
    unset: Sequence[str],
    leaving: Sequence[str],
    newest: str,
) -> str:
    quote = connection.ops.quote_name
    meta = model._meta
    columns = ", ".join(
        quote(f.column or "") for f in meta.concrete_fields if f.name not in leaving
    )
    matching = " AND ".join(
        [*(f"{quote(column)} = %s" for column in where), *(f"{quote(c)} IS NULL" for c in unset)]
    )
    order = f" ORDER BY {quote(newest)} DESC LIMIT 1" if newest else _order_of(model)
    return f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {matching}{order}"


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
