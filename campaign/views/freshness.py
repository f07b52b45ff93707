"""ETags for the campaign pages players keep open and htmx polls: a second identical request
is answered 304 Not Modified without drawing the page again.

The tag is a digest of everything the page shows for its viewer: the campaign's row (its
status, deadline, options...), its newest snapshot, its members and their kingdoms' looks,
the decisions given and not yet consumed (who is ready), the viewer (their account, session,
time zone, CSRF cookie), the request itself (path and query, htmx fragment or whole page),
and the code and templates of this release. One query, which does not grow with the map or
the campaign's length. When a message waits to be shown, there is no tag: the page is
always drawn, and the message shown once.

The browser revalidates (`Cache-Control: private, no-cache`), sends If-None-Match itself on
htmx's polls and hands htmx the stored page on a 304 (htmx 2 sees a 200 and swaps the same
board), so polling goes on as before."""

import hashlib
from collections.abc import Callable
from functools import cache, lru_cache, wraps
from pathlib import Path
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.db import connection
from django.db.models import Field, Model
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition

from accounts.models import User
from campaign.access import PageRead, keep_page_read
from campaign.display.setup_board import SETUP_KINDS
from campaign.models import (
    HERALD,
    Campaign,
    Correspondence,
    Letter,
    LettersRead,
    Membership,
    Snapshot,
    Submission,
)
from campaign.reads import model_of
from campaign.rules.state import OrdersMode, PendingKind
from campaign.services.letters import EDITABLE_FOR

_RELEASE_FILES = ("templates", "campaign", "battles", "accounts")

# The kinds of decision (`inputs` keys) whose readiness a page shows of other kingdoms;
# None: every kind.
type Others = frozenset[str] | None
SETUP_ANSWERS: Others = frozenset(SETUP_KINDS.values())


@cache
def _release() -> str:
    """A fingerprint of this release's code and templates: a deployment changes every tag."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for folder in _RELEASE_FILES:
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in {".py", ".html"} and "migrations" not in path.parts:
                digest.update(path.relative_to(base).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _viewer(request: HttpRequest) -> list[object]:
    user = request.user
    session = getattr(request, "session", None)
    return [
        _release(),
        [user.pk, user.get_username(), user.display_name, user.time_zone]
        if isinstance(user, User)
        else None,
        None if session is None else [session.session_key, sorted(session.items())],
        _csrf_secret(request),
        request.get_full_path(),
        request.headers.get("HX-Request"),
        request.headers.get("HX-History-Restore-Request"),
    ]


def _csrf_secret(request: HttpRequest) -> str | None:
    """The secret the page's CSRF token is made from: the cookie's, or, for a visitor who
    has none yet, the one this answer sets (`get_token` makes it, as the page's
    `{% csrf_token %}` would). When the cookie holds it, it is read, not asked of
    `get_token`, so a poll answered 304 sends no cookie again (a page drawn renews it)."""
    if request.META.get("CSRF_COOKIE") is None:
        get_token(request)
    return request.META.get("CSRF_COOKIE")


def _fields(model: type[Model], *, leaving: tuple[str, ...] = ()) -> list[Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if f.name not in leaving and f.column]


def _columns(model: type[Model], alias: str, *, leaving: tuple[str, ...] = ()) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column or '')}" for f in _fields(model, leaving=leaving))


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


# Rows gathered into one text by the database: fields apart by a unit separator, rows by a
# record separator (characters no kingdom id, kind or time holds).
_FIELD, _ROW = "\x1f", "\x1e"


def _as_text(*columns: str) -> str:
    """The columns of a row as one text, NULL as the empty text."""
    return f" || '{_FIELD}' || ".join(f"COALESCE(CAST({c} AS TEXT), '')" for c in columns)


def _rows_of(row_text: str, table: str, where: str, order: str) -> str:
    """A scalar subquery: the rows of `table` that match `where`, in `order`, as one text."""
    if connection.vendor == "postgresql":
        gathered = f"string_agg({row_text}, '{_ROW}' ORDER BY {order})"
    else:  # SQLite orders no aggregate: it gathers in the order it reads, the same for the
        # same rows (another order would only draw the page again, never keep an old one)
        gathered = f"group_concat({row_text}, '{_ROW}')"
    return f"(SELECT {gathered} FROM {table} WHERE {where})"


@cache
def _read(*, letters: bool) -> str:
    """A poll's tag is most of what the poll costs: one hand-written read (its names from
    the models) spares the ORM compiling five queries, and the database four round trips.
    It gives the campaign's row bar the map; whether the viewer is a member and their
    kingdom (the viewer's membership is joined once, `v`, and every part that asks for
    their kingdom reads it there), and the membership's row as the last columns; the newest snapshot's id and time stored; its members,
    their kingdoms' looks and names, as one text; its open decisions (id, kingdom, kind,
    ready, last change) as one text; and, with `letters`, the letters the viewer's kingdom
    reads (`_letters_seen`). Its parameters: the time `_letters_seen` takes (with
    `letters`), the viewer's id, the campaign's slug."""
    membership, snapshot = _table(Membership), _table(Snapshot)
    member_columns = [f"m.{connection.ops.quote_name(f.column or '')}" for f in _fields(Membership)]
    members = _rows_of(
        _as_text(*member_columns, "u.username", "u.display_name"),
        f"{membership} m JOIN {_table(User)} u ON u.id = m.user_id",
        "m.campaign_id = c.id",
        "m.id",
    )
    given = _rows_of(
        _as_text("g.id", "g.kingdom", "g.kind", "g.ready", "g.updated_at"),
        f"{_table(Submission)} g",
        "g.campaign_id = c.id AND g.consumed_by_id IS NULL",
        "g.id",
    )
    return (
        f"SELECT {_columns(Campaign, 'c', leaving=('map',))}, "
        "CASE WHEN v.id IS NULL THEN NULL ELSE 1 END, v.kingdom, "
        f"(SELECT s.id FROM {snapshot} s WHERE s.campaign_id = c.id"
        " ORDER BY s.number DESC LIMIT 1), "
        f"(SELECT s.created_at FROM {snapshot} s WHERE s.campaign_id = c.id"
        " ORDER BY s.number DESC LIMIT 1), "
        f"{members}, {given}{', ' + _letters_seen() if letters else ''}, "
        f"{_columns(Membership, 'v')} "
        f"FROM {_table(Campaign)} c "
        f"LEFT JOIN {membership} v ON v.campaign_id = c.id AND v.user_id = %s "
        "WHERE c.slug = %s"
    )


def _letters_seen() -> str:
    """Two columns of `_read`: the letters of the correspondences the viewer's kingdom
    reads (how many, the newest, the last change), and how far it has read them (issue 28),
    so that a new letter, a change or a letter read redraws the pages that count or show
    them. Nothing of a correspondence the viewer does not read. How far other kingdoms have
    read counts only where the viewer's kingdom wrote a letter it may still change (since
    `%s`, a parameter: now less `EDITABLE_FOR`): their reading ends that, and nothing else
    the viewer sees, so every member reading the herald does not redraw every member's
    pages. The viewer's kingdom is `_read`'s `v.kingdom` (NULL for an admin who rules
    none, so that no correspondence of a kingdom is theirs)."""
    correspondence = _table(Correspondence)
    kingdom = "NULLIF(v.kingdom, '')"
    find = "strpos" if connection.vendor == "postgresql" else "instr"
    readable = f"(k.key = '{HERALD}' OR {find}(k.key, ',' || {kingdom} || ',') > 0)"
    letters = (
        f"(SELECT {_as_text('COUNT(l.id)', 'MAX(l.id)', 'MAX(l.edited_at)')} "
        f"FROM {_table(Letter)} l JOIN {correspondence} k ON k.id = l.correspondence_id "
        f"WHERE k.campaign_id = c.id AND {readable})"
    )
    still_changeable = (
        f"EXISTS (SELECT 1 FROM {_table(Letter)} w WHERE w.correspondence_id = k.id"
        f" AND w.kingdom = {kingdom} AND w.written_at > %s)"
    )
    reads = (
        f"(SELECT {_as_text('COUNT(r.id)', 'SUM(r.up_to)')} "
        f"FROM {_table(LettersRead)} r JOIN {correspondence} k ON k.id = r.correspondence_id "
        f"WHERE k.campaign_id = c.id AND (r.kingdom = {kingdom} OR {still_changeable}))"
    )
    return f"{letters}, {reads}"


def _given_seen(
    gathered: str | None, own_kingdom: str | None, others: Others
) -> list[tuple[Any, ...]]:
    """The open decisions that change what the viewer sees (id, kingdom, kind, ready, last
    change): the viewer's own, and the admins' battle entries (kingdom ""), as they change;
    another kingdom's only once ready (ruling S1, sealed orders: its drafts change nothing
    the viewer sees), then not as it changes, and only of the kinds whose readiness the page
    shows (`others`; None: every kind)."""
    given = []
    for row in gathered.split(_ROW) if gathered else []:
        id_, kingdom, kind, ready, changed = row.split(_FIELD)
        readied = ready in ("1", "true") and (others is None or kind in others)
        watched = kingdom in ("", own_kingdom)
        if readied or watched:
            given.append((int(id_), kingdom, kind, readied, changed if watched else None))
    return given


def _campaign_shown(
    slug: str, user: object, *, others: Others, unseen_while_drafting: bool, letters: bool
) -> tuple[bool, list[object], PageRead] | None:
    """Whether the viewer may read the campaign, what its pages show of it (bar the
    snapshots' own files, which never change), and what the view may take from it instead
    of reading it again (`PageRead`); None if there is no such campaign. `others`:
    the kinds of decision whose readiness the page shows of other kingdoms (None: all). With
    `unseen_while_drafting`, a viewer still drafting sealed orders sees no other kingdom's
    readiness (`_as_drafting_sees`). Without `letters`, nothing of the letters (a page
    that shows none)."""
    names = [f.name for f in _fields(Campaign, leaving=("map",))]
    viewer = user.pk if isinstance(user, User) else None
    with connection.cursor() as cursor:
        changeable_since = connection.ops.adapt_datetimefield_value(timezone.now() - EDITABLE_FOR)
        cursor.execute(
            _read(letters=letters), ([changeable_since] if letters else []) + [viewer, slug]
        )
        row = cursor.fetchone()
    if row is None:
        return None
    campaign = dict(zip(names, row, strict=False))
    viewed_by = len(_fields(Membership))  # the viewer's membership, the last columns
    member, own, newest, stored, members, gathered, *letters_read = row[len(names) : -viewed_by]
    own_kingdom = own or None  # None: no kingdom's drafts are the viewer's
    given = _given_seen(gathered, own_kingdom, others)
    if unseen_while_drafting:
        given = _as_drafting_sees(given, own_kingdom, newest=(newest, stored))
    readable = bool(member) or bool(campaign["public"])

    def made() -> tuple[Campaign, Membership | None]:
        found = model_of(Campaign, row, leaving=("map",))
        membership = model_of(Membership, row[-viewed_by:]) if member else None
        if membership is not None:
            membership.campaign = found
        return found, membership

    read = PageRead(slug, repr(letters_read), made)
    return readable, [list(row[: len(names) + 4]), members, given, letters_read], read


def _as_drafting_sees(
    given: list[tuple[Any, ...]], own_kingdom: str | None, newest: tuple[Any, ...]
) -> list[Any]:
    """The decisions a player sees while the campaign waits for their sealed orders and
    they have not marked them ready: their own and the admins', not who else is ready. The
    orders page names whom it waits for only once the player is ready (or not asked), so
    others marking themselves ready change nothing on it. `newest`: the newest snapshot's
    id and the time it was stored."""
    others = [g for g in given if g[1] not in ("", own_kingdom)]
    if not others or own_kingdom is None or newest[0] is None:
        return given
    if any(g[1] == own_kingdom and g[2] == "orders" and g[3] for g in given):
        return given  # ready: the page names whom it waits for
    if own_kingdom not in _sealed_orders_asked(*newest):
        return given
    return [g for g in given if g[1] in ("", own_kingdom)]


@lru_cache(maxsize=4096)
def _sealed_orders_asked(snapshot: int, stored: object) -> frozenset[str]:
    """The kingdoms the snapshot waits for sealed orders from (none in the order cycle,
    whose orders the page shows as they are given), read from its file's options and
    pending alone. Kept by each process: a snapshot never changes, and its id with the time
    it was stored names it even in a database recreated under the same process."""
    found = (
        Snapshot.objects.filter(pk=snapshot)
        .values_list("state__options__orders", "state__pending")
        .first()
    )
    if found is None or found[0] == OrdersMode.CYCLE:
        return frozenset()
    return frozenset(
        str(p.get("kingdom"))
        for p in found[1] or []
        if isinstance(p, dict) and p.get("kind") == PendingKind.ORDERS
    )


def campaign_tag(
    request: HttpRequest,
    slug: str,
    *,
    others: Others = frozenset(),
    unseen_while_drafting: bool = False,
    letters: bool = True,
) -> str | None:
    """The ETag of a campaign page for this viewer, from what that page shows of it: the
    readiness of other kingdoms only for the kinds in `others` (None: all); the letters
    the viewer reads unless the page shows none (`letters`). None (always drawn) when a
    message waits, or when the viewer cannot read the campaign (the view then says
    why)."""
    if len(messages.get_messages(request)):
        return None
    found = _campaign_shown(
        slug,
        request.user,
        others=others,
        unseen_while_drafting=unseen_while_drafting,
        letters=letters,
    )
    if found is None or not found[0]:
        return None
    keep_page_read(request, found[2])
    parts = repr([_viewer(request), found[1]])
    return hashlib.sha256(parts.encode()).hexdigest()[:32]


def _tag_of_page(request: HttpRequest, *args: Any, slug: str, **kwargs: Any) -> str | None:
    return campaign_tag(request, slug)


def _tag_of_setup_page(request: HttpRequest, *args: Any, slug: str, **kwargs: Any) -> str | None:
    return campaign_tag(request, slug, others=SETUP_ANSWERS)


def _tag_of_orders_page(request: HttpRequest, *args: Any, slug: str, **kwargs: Any) -> str | None:
    return campaign_tag(request, slug, others=None, unseen_while_drafting=True, letters=False)


def revalidated[View: Callable[..., HttpResponse]](view: View) -> View:
    """Answers a GET whose If-None-Match holds the page's current tag with 304 Not Modified;
    every answer tells the browser to ask again each time, and that htmx's fragment and the
    whole page differ. For a page that shows nothing of the other kingdoms' readiness (the
    campaign page, a report)."""
    return _revalidated(view, _tag_of_page)


def revalidated_setup[View: Callable[..., HttpResponse]](view: View) -> View:
    """`revalidated` for the setup page, which shows which other kingdoms have chosen at the
    setup's steps (ruling S1: never what they chose), and nothing of it after them."""
    return _revalidated(view, _tag_of_setup_page)


def revalidated_orders[View: Callable[..., HttpResponse]](view: View) -> View:
    """`revalidated` for the orders page, which shows a player drafting sealed orders
    nothing of the others' readiness (`_as_drafting_sees`), and nobody anything of the
    letters: a letter written draws none of the campaign's boards again."""
    return _revalidated(view, _tag_of_orders_page)


def _revalidated[View: Callable[..., HttpResponse]](
    view: View, tag: Callable[..., str | None]
) -> View:
    conditional = condition(etag_func=tag)(view)

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.META.get("HTTP_IF_NONE_MATCH", "").strip() == "*":
            # "Any page at all": no browser asks it, and answered 304 it would tell that a
            # page exists before the view says who may see it (a 404 for a letter or
            # report that does not exist). The page is drawn, its access decides.
            del request.META["HTTP_IF_NONE_MATCH"]
        response = conditional(request, *args, **kwargs)
        if response.status_code not in (200, 304):
            del response["ETag"]  # a refusal or a redirect is never kept and revalidated
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("HX-Request", "Cookie"))
        return response

    return cast(View, wrapped)
