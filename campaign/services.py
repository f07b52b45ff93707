"""Every write to a campaign goes through these services. Each one is a transaction; those
that change the campaign's state lock its row and check the snapshot they started from,
so two advances never both land and no submission is lost."""

import copy
import hashlib
import json
import logging
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from celery import signature
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, Q
from django.utils import timezone
from django.utils.text import slugify
from kombu.exceptions import OperationalError as BrokerError

from accounts.models import User
from campaign.maps import BUILTIN_MAPS, load_builtin_map
from campaign.models import (
    KINGDOM_NAME_LENGTH,
    AuditEntry,
    Campaign,
    Membership,
    Snapshot,
    Submission,
    default_deadlines,
    every_day,
    new_join_code,
)
from campaign.rules import decisions
from campaign.rules.decisions import ANSWER_KEYS, ANSWERS, BY_UNIT, LISTED
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import HexMap, map_to_json
from campaign.rules.mapgen import generate_map
from campaign.rules.options import DEFAULTS, OPTION_ROWS, orders_in_cycle
from campaign.rules.state import STEPS, BattleStatus, Season, Step
from campaign.signals import campaign_full, invitations_made, snapshot_stored

type Json = dict[str, Any]

logger = logging.getLogger(__name__)
ADVANCE_TASK = "campaign.tasks.advance_campaign"  # registered by CampaignConfig.ready


class ServiceError(Exception):
    """A refusal a player or admin understands; nothing was changed. `also`: the other
    refusals of the same form, told all at once."""

    def __init__(
        self,
        message: str,
        *,
        code: str = "refused",
        field: str | None = None,
        also: Iterable["ServiceError"] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field
        self.also = list(also)

    @property
    def every(self) -> list["ServiceError"]:
        return [self, *self.also]


# --- reading -------------------------------------------------------------------------


def latest_snapshot(campaign: Campaign) -> Snapshot:
    snapshot = campaign.snapshots.order_by("-number").first()
    if snapshot is None:
        raise ServiceError("The campaign has not started yet.", code="not-started")
    return snapshot


def kingdom_of(campaign: Campaign, user: User) -> str:
    membership = campaign.memberships.filter(user=user).exclude(kingdom="").first()
    if membership is None:
        raise ServiceError("You don't rule a kingdom in this campaign.", code="not-a-player")
    return membership.kingdom


def is_admin(campaign: Campaign, user: User) -> bool:
    return campaign.memberships.filter(user=user, is_admin=True).exists()


def owing(data: Json) -> set[str]:
    """The kingdoms the campaign is waiting for."""
    return {p["kingdom"] for p in data.get("pending", [])}


def ready_kingdoms(campaign: Campaign) -> set[str]:
    """Kingdoms with every open decision marked ready."""
    open_ = Submission.objects.filter(campaign=campaign, consumed_by=None).exclude(kingdom="")
    return ready_among(open_.values_list("kingdom", "ready"))


def marked_ready(user: User | int, campaign: Campaign | None = None) -> dict[int, set[str]]:
    """The kinds of the open decisions the user's (or the user id's) kingdoms have marked
    ready, by campaign id: in one campaign, or in all of the user's. One query."""
    given = Submission.objects.filter(
        consumed_by=None,
        ready=True,
        campaign__memberships__user=user,
        kingdom=F("campaign__memberships__kingdom"),
    ).exclude(kingdom="")
    if campaign is not None:
        given = given.filter(campaign=campaign)
    ready: dict[int, set[str]] = defaultdict(set)
    for campaign_id, kind in given.values_list("campaign_id", "kind"):
        ready[campaign_id].add(kind)
    return ready


def ready_among(given: Iterable[tuple[str, bool]]) -> set[str]:
    """The kingdoms of these open decisions (kingdom, ready) with every one marked ready."""
    given = list(given)
    return {kingdom for kingdom, _ in given} - {kingdom for kingdom, ready in given if not ready}


def asked_of(data: Json, kingdom: str) -> set[str]:
    """The `inputs` keys the campaign is waiting for from this kingdom."""
    return decisions.asked_of(data.get("pending", []), kingdom)


# --- creating and joining ------------------------------------------------------------------


def require_admin(campaign: Campaign, actor: User) -> None:
    if not is_admin(campaign, actor):
        raise ServiceError("Only the campaign's admins may do that.", code="not-an-admin")


def _unique_slug(model: type[Campaign], base: str) -> str:
    slug, n = base or "campaign", 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


MIN_KINGDOMS, MAX_KINGDOMS = 2, 8
MAX_DEADLINE_HOURS = 24 * 28
HEXES_PER_KINGDOM = 45  # a generated map's size when none is asked for


def _checked_options(options: Json | None) -> Json:
    """The campaign file's options, defaults filled in; each refused by its row of the
    options table (campaign.rules.options) in words."""
    merged = {**DEFAULTS, **(options or {})}
    for key, value in merged.items():
        row = OPTION_ROWS.get(key)
        if row is None:
            raise ServiceError(f"There is no option {key!r}.", code="bad-option", field=key)
        refusal = row.refusal(value)
        if refusal is not None:
            raise ServiceError(refusal, code="bad-option", field=key)
    return merged


def _checked_deadlines(deadlines: dict[str, int] | None) -> dict[str, int]:
    hours = {**default_deadlines(), **(deadlines or {})}
    for kind, value in hours.items():
        if kind not in default_deadlines():
            raise ServiceError(
                f"There is no {kind} deadline.", code="bad-deadline", field="deadlines"
            )
        if type(value) is not int or not 1 <= value <= MAX_DEADLINE_HOURS:
            raise ServiceError(
                f"The {kind} deadline is 1 to {MAX_DEADLINE_HOURS} hours.",
                code="bad-deadline", field=f"{kind}_hours",
            )  # fmt: skip
    if hours["turn"] > min(hours["setup"], hours["orders"]):
        raise ServiceError(
            "One kingdom's turn is part of a step: give it at most the setup and orders hours.",
            code="bad-deadline", field="turn_hours",
        )  # fmt: skip
    return hours


def _checked_days(days: Iterable[int] | None) -> list[int]:
    chosen = every_day() if days is None else sorted(set(days))
    if not chosen or not set(chosen) <= set(every_day()):
        raise ServiceError(
            "Choose at least one day of the week for the deadlines.",
            code="no-days", field="deadline_days",
        )  # fmt: skip
    return chosen


def _checked_zone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return "UTC"  # a zone dropped from the machine's tz database since it was chosen
    return name


def generated_map(*, kingdoms: int, seed: int, size: int | None = None) -> HexMap:
    """The map a campaign generated with these choices gets: the same choices, the same map
    (its preview on the new campaign page is this map)."""
    try:
        return generate_map(kingdoms, seed, size or HEXES_PER_KINGDOM * kingdoms)
    except (ValueError, RuntimeError) as error:
        raise ServiceError(str(error), code="no-map", field="map_name") from None


@transaction.atomic
def campaign_create(
    *,
    name: str,
    admin: User,
    kingdoms: int,
    map_name: str = "generated",
    size: int | None = None,
    options: Json | None = None,
    deadlines: dict[str, int] | None = None,
    deadline_days: Iterable[int] | None = None,
    public: bool = False,
    time_zone: str | None = None,
    key: str = "",
) -> Campaign:
    """A campaign open for players, on a built-in map or a generated one; `admin` runs it.
    Deadlines fall only on `deadline_days` (0 is Monday; every day by default), counted in
    `time_zone` (the admin's by default). A `public` campaign's map, might, chronicle and
    end may be read by anyone. `key` names the form it comes from: the campaign that form
    made already, if any, is returned instead of a second one (Back, then Create again)."""
    made = made_from(key, admin)
    if made is not None:
        return made
    if not MIN_KINGDOMS <= kingdoms <= MAX_KINGDOMS:
        raise ServiceError(
            f"A campaign has {MIN_KINGDOMS} to {MAX_KINGDOMS} kingdoms.",
            code="kingdom-count", field="kingdoms",
        )  # fmt: skip
    name = " ".join(name.split())
    if not name:
        raise ServiceError("The campaign needs a name.", code="no-name", field="name")
    options = _checked_options(options)
    hours = _checked_deadlines(deadlines)
    days = _checked_days(deadline_days)
    if map_name == "generated":
        hexmap = generated_map(kingdoms=kingdoms, seed=int(options["seed"]), size=size)
    elif map_name in BUILTIN_MAPS:
        info = BUILTIN_MAPS[map_name]
        if not info.min_kingdoms <= kingdoms <= info.max_kingdoms:
            raise ServiceError(
                f"{info.title} is for {info.min_kingdoms} to {info.max_kingdoms} kingdoms.",
                code="map-size", field="map_name",
            )  # fmt: skip
        hexmap = load_builtin_map(map_name)
    else:
        raise ServiceError(
            f"There is no map called {map_name!r}.", code="unknown-map", field="map_name"
        )
    try:
        with transaction.atomic():
            campaign = Campaign.objects.create(
                name=name,
                slug=_unique_slug(Campaign, slugify(name)[:50]),
                kingdoms=kingdoms,
                options=options,
                deadlines=hours,
                deadline_days=days,
                time_zone=_checked_zone(time_zone or admin.time_zone),
                public=public,
                map_name=map_name,
                map=map_to_json(hexmap),
                creation_key=key,
            )
            Membership.objects.create(campaign=campaign, user=admin, is_admin=True)
            record_audit(
                campaign,
                admin,
                AuditEntry.Action.CREATED,
                details={"kingdoms": kingdoms, "map": map_name},
            )
    except IntegrityError:  # the same form, posted twice at once: the other post made it
        made = made_from(key, admin)
        if made is None:
            raise
        return made
    return campaign


def made_from(key: str, admin: User) -> Campaign | None:
    """The campaign `admin` made from the new-campaign form `key`, if any."""
    if not key:
        return None
    return Campaign.objects.filter(
        creation_key=key, memberships__user=admin, memberships__is_admin=True
    ).first()


@transaction.atomic
def campaign_archive(*, campaign: Campaign, actor: User, archived: bool = True) -> Campaign:
    """Left off (or put back on) its members' home pages; everything stays readable."""
    campaign = _locked_for_admin(campaign, actor)
    campaign.archived_at = timezone.now() if archived else None
    campaign.save(update_fields=["archived_at"])
    record_audit(
        campaign, actor, AuditEntry.Action.ARCHIVED if archived else AuditEntry.Action.UNARCHIVED
    )
    return campaign


@transaction.atomic
def campaign_delete(*, campaign: Campaign, actor: User) -> None:
    """Only a campaign that has not started may be deleted: one that has is archived."""
    campaign = _locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError(
            "Only a campaign that has not started can be deleted: archive it instead.",
            code="started",
        )
    campaign.delete()


def campaign_for_code(code: str) -> Campaign:
    """The campaign a join code (from the invitation link) belongs to."""
    campaign = Campaign.objects.filter(join_code=code.strip()).first()
    if campaign is None:
        raise ServiceError("No campaign has that join code.", code="unknown-code", field="code")
    return campaign


def join_refusal(campaign: Campaign, user: User) -> ServiceError | None:
    """Why `user` may not take a kingdom in the campaign now, whatever its name: None if
    they may. The join page asks before it offers its form; `campaign_join` asks again."""
    players = campaign.memberships.exclude(kingdom="")
    if players.filter(user=user).exists():
        return ServiceError("You already rule a kingdom in this campaign.", code="already-joined")
    if campaign.status != Campaign.Status.OPEN:
        return ServiceError(
            "This campaign has already started: its admin may hand you a kingdom whose "
            "player leaves.",
            code="not-open",
        )
    if user.pk in campaign.barred:
        return ServiceError(
            "You were removed from this campaign: this invitation no longer lets you in. "
            "Ask its admin for a new one.",
            code="removed",
        )
    if players.count() >= campaign.kingdoms:
        return ServiceError("Every kingdom of this campaign is taken.", code="full")
    return None


COLOUR = re.compile(r"#[0-9a-f]{6}")
HERALDRY_SIGNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _free_heraldry(name: str, taken: set[str]) -> str:
    """The first letter of the name not taken by another kingdom, else another letter."""
    candidates = [c for c in name.upper() if c.isalnum()] + list(HERALDRY_SIGNS)
    return next(c for c in candidates if c not in taken)


@transaction.atomic
def campaign_join(
    *, campaign: Campaign, user: User, kingdom_name: str, colour: str = "", heraldry: str = ""
) -> Membership:
    """Take a kingdom in a campaign that is open for players. Its name, colour (#rrggbb)
    and heraldry (a letter or sign) must differ from every other kingdom's; without a
    heraldry it gets the first letter of its name not taken, and without a colour the map
    gives it one."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    refusal = join_refusal(campaign, user)
    if refusal is not None:
        raise refusal
    players = campaign.memberships.exclude(kingdom="")
    name = " ".join(kingdom_name.split())
    colour = colour.strip().lower()
    heraldry = heraldry.strip().upper()
    taken = set(players.values_list("heraldry", flat=True))
    refusals = _kingdom_refusals(players, name, colour, heraldry, taken)
    if refusals:
        raise ServiceError(
            refusals[0].message, code=refusals[0].code, field=refusals[0].field, also=refusals[1:]
        )
    base = slugify(name)[:12].strip("-") or "kingdom"
    kingdom, n = base, 1
    while players.filter(kingdom=kingdom).exists():
        n += 1
        kingdom = f"{base}{n}"
    membership, _ = Membership.objects.update_or_create(
        campaign=campaign,
        user=user,
        defaults={
            "kingdom": kingdom,
            "kingdom_name": name,
            "colour": colour,
            "heraldry": heraldry or _free_heraldry(name, taken),
        },
    )
    if campaign.memberships.exclude(kingdom="").count() == campaign.kingdoms:
        campaign_full.send(sender=Campaign, campaign=campaign)
    return membership


def _kingdom_refusals(
    players: Any, name: str, colour: str, heraldry: str, taken: set[str]
) -> list[ServiceError]:
    """What is wrong with a new kingdom's name, colour (#rrggbb) and heraldry, all at once."""
    refusals = []
    if not name:
        refusals.append(
            ServiceError("Your kingdom needs a name.", code="no-name", field="kingdom_name")
        )
    elif len(name) > KINGDOM_NAME_LENGTH:
        refusals.append(ServiceError(
            "That name is too long for a kingdom.", code="long-name", field="kingdom_name"
        ))  # fmt: skip
    elif players.filter(kingdom_name__iexact=name).exists():
        refusals.append(ServiceError(
            f"Another kingdom is called {name} already: choose another name.",
            code="name-taken", field="kingdom_name",
        ))  # fmt: skip
    if colour and not COLOUR.fullmatch(colour):
        refusals.append(
            ServiceError("Give the colour as #rrggbb.", code="bad-colour", field="colour")
        )
    elif colour and players.filter(colour__iexact=colour).exists():
        refusals.append(ServiceError(
            "Another kingdom has that colour already: choose another.",
            code="colour-taken", field="colour",
        ))  # fmt: skip
    if heraldry and (len(heraldry) > 2 or not heraldry.isalnum()):
        refusals.append(ServiceError(
            "Heraldry is one letter or sign.", code="bad-heraldry", field="heraldry"
        ))  # fmt: skip
    elif heraldry and heraldry in taken:
        refusals.append(ServiceError(
            f"Another kingdom bears {heraldry} already: choose another letter.",
            code="heraldry-taken", field="heraldry",
        ))  # fmt: skip
    return refusals


@transaction.atomic
def campaign_invite_by_email(
    *, campaign: Campaign, actor: User, emails: Iterable[str], link: str
) -> list[str]:
    """Invite each address to the campaign with its join page's `link`: announced
    (`signals.invitations_made`) for the outbox to send, one e-mail each (nobody sees the
    others' addresses), after this transaction commits; nothing is sent while the request
    waits. Recorded in the audit log. Returns the addresses the listeners took on to send.
    Nothing is sent for a campaign that has started."""
    campaign = _locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError("This campaign has already started.", code="not-open")
    addresses = list(dict.fromkeys(e.strip().lower() for e in emails if e.strip()))
    if not addresses:
        raise ServiceError("Give at least one e-mail address.", code="no-emails", field="emails")
    for address in addresses:
        try:
            validate_email(address)
        except ValidationError:
            raise ServiceError(
                f"{address} is not an e-mail address.", code="bad-email", field="emails"
            ) from None
    entry = record_audit(campaign, actor, AuditEntry.Action.INVITED, details={"to": addresses})
    answers = invitations_made.send(
        sender=Campaign, campaign=campaign, actor=actor, addresses=addresses, link=link,
        invitation=entry.pk,
    )  # fmt: skip
    taken = {address for _, said in answers for address in said or ()}
    return [address for address in addresses if address in taken]


@transaction.atomic
def campaign_new_code(*, campaign: Campaign, actor: User) -> Campaign:
    """A new join code: the old invitation link stops working, and players removed before
    the start may join again with the new one."""
    campaign = _locked_for_admin(campaign, actor)
    code = new_join_code()
    while Campaign.objects.filter(join_code=code).exists():
        code = new_join_code()
    campaign.join_code, campaign.barred = code, []
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.NEW_CODE)
    return campaign


@transaction.atomic
def campaign_remove_player(
    *, campaign: Campaign, actor: User, username: str, reason: str = ""
) -> None:
    """Before the start, a player leaves the campaign and their kingdom is free again. A
    removed player who is not an admin may not join again until the admin makes a new join
    code; an admin who played stays an admin."""
    campaign = _locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError(
            "Players are removed only before the start; now, hand their kingdom to someone else.",
            code="not-open",
        )
    membership = (
        campaign.memberships.exclude(kingdom="")
        .filter(user__username=username)
        .select_related("user")
        .first()
    )
    if membership is None:
        raise ServiceError(
            f"{username} rules no kingdom in this campaign.", code="not-a-player", field="player"
        )
    details = {"player": username, "kingdom": membership.kingdom_name}
    if membership.is_admin:
        _clear_kingdom(membership)
    else:
        membership.delete()
        campaign.barred = [*campaign.barred, membership.user.pk]
        campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.PLAYER_REMOVED, reason, details)


def _clear_kingdom(membership: Membership) -> None:
    membership.kingdom = membership.kingdom_name = membership.colour = membership.heraldry = ""
    membership.save()


@transaction.atomic
def campaign_make_admin(*, campaign: Campaign, actor: User, username: str) -> Membership:
    """Another member runs the campaign too."""
    campaign = _locked_for_admin(campaign, actor)
    membership = campaign.memberships.filter(user__username=username).first()
    if membership is None:
        raise ServiceError(
            f"{username} is not in this campaign.", code="not-a-member", field="member"
        )
    if membership.is_admin:
        raise ServiceError(f"{username} is an admin already.", code="already-admin", field="member")
    membership.is_admin = True
    membership.save()
    record_audit(campaign, actor, AuditEntry.Action.ADMIN_ADDED, details={"admin": username})
    return membership


@transaction.atomic
def campaign_step_down(*, campaign: Campaign, actor: User) -> None:
    """The actor stops running the campaign, which another admin goes on running. They stay
    in it: still ruling their kingdom if they have one, else following it."""
    campaign = _locked_for_admin(campaign, actor)
    admins = campaign.memberships.filter(is_admin=True)
    if not admins.exclude(user=actor).exists():
        raise ServiceError(
            "You are its only admin: make another member an admin first.", code="last-admin"
        )
    admins.filter(user=actor).update(is_admin=False)
    record_audit(campaign, actor, AuditEntry.Action.STEPPED_DOWN)


@transaction.atomic
def campaign_hand_over(
    *, campaign: Campaign, actor: User, kingdom: str, username: str, reason: str
) -> Membership:
    """After the start, a kingdom changes hands: `username` (a member without a kingdom,
    or any user) rules it from now on, with its drafts and battles; its old player no
    longer does (and leaves the campaign, unless they are an admin)."""
    campaign = _locked_for_admin(campaign, actor)
    if campaign.status not in (Campaign.Status.RUNNING, Campaign.Status.PAUSED):
        raise ServiceError(
            "Kingdoms are handed over in a campaign under way; before the start, remove the "
            "player and let someone else join.",
            code="not-running",
        )
    if not reason.strip():
        raise ServiceError("Say why the kingdom changes hands.", code="no-reason", field="reason")
    old = campaign.memberships.filter(kingdom=kingdom).select_related("user").first()
    known = {k["id"]: k["name"] for k in latest_snapshot(campaign).data["kingdoms"]}
    if old is None and kingdom not in known:
        raise ServiceError(
            f"There is no kingdom {kingdom}.", code="unknown-kingdom", field="kingdom"
        )
    user = User.objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise ServiceError(
            f"There is no user called {username.strip()}.", code="unknown-user", field="username"
        )
    new = campaign.memberships.filter(user=user).first()
    if old is not None and old.user == user:
        raise ServiceError(
            f"{username} rules that kingdom already.", code="same-player", field="username"
        )
    if new is not None and new.kingdom:
        raise ServiceError(
            f"{username} rules {new.kingdom_name} in this campaign already.",
            code="already-plays", field="username",
        )  # fmt: skip
    if old is not None:
        look = {"kingdom_name": old.kingdom_name, "colour": old.colour, "heraldry": old.heraldry}
    else:  # its player's account is gone: its name from the campaign file, a free letter
        signs = set(campaign.memberships.values_list("heraldry", flat=True))
        look = {
            "kingdom_name": known[kingdom],
            "colour": "",
            "heraldry": _free_heraldry(known[kingdom], signs),
        }
    if old is not None and old.is_admin:
        _clear_kingdom(old)
    elif old is not None:
        old.delete()
    if new is None:
        new = Membership(campaign=campaign, user=user)
    new.kingdom = kingdom
    for field, value in look.items():
        setattr(new, field, value)
    new.save()
    details = {"kingdom": look["kingdom_name"], "from": old.user.get_username() if old else None,
               "to": user.get_username()}  # fmt: skip
    record_audit(campaign, actor, AuditEntry.Action.HANDED_OVER, reason, details)
    return new


@transaction.atomic
def campaign_start(*, campaign: Campaign, actor: User) -> Snapshot:
    """Start a full campaign at setup: the first snapshot, waiting for the races."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    require_admin(campaign, actor)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError("This campaign has already started.", code="not-open")
    players = list(campaign.memberships.exclude(kingdom="").order_by("joined_at", "pk"))
    if len(players) != campaign.kingdoms:
        raise ServiceError(
            f"{len(players)} of {campaign.kingdoms} kingdoms have joined.", code="not-full"
        )
    data: Json = {
        "format": 1,
        "name": campaign.name,
        "options": campaign.options,
        "map": campaign.map,
        "clock": {"year": 1, "season": "setup", "month": 0, "step": "races"},
        "kingdoms": [{"id": m.kingdom, "name": m.kingdom_name} for m in players],
    }
    try:
        started = advance(data)
    except RuleError as error:
        raise ServiceError(error.message, code=error.code, field=error.field) from None
    snapshot = store_snapshot(
        campaign=campaign, number=1, data=started, reason=Snapshot.Reason.START, created_by=actor
    )
    campaign.status = Campaign.Status.RUNNING
    _open_deadline(campaign, started)
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.STARTED)
    return snapshot


# --- submissions ----------------------------------------------------------------------


def merge_inputs(
    inputs: Json, kind: str, kingdom: str, payload: Any, *, append: bool = False
) -> Json:
    """The inputs with one kingdom's decision of one kind added."""
    merged = copy.deepcopy(inputs)
    if kind in LISTED:
        merged.setdefault(kind, []).extend(payload)
    elif kind in BY_UNIT:
        merged.setdefault(kind, {}).update(payload)
    elif append:
        merged.setdefault(kind, {}).setdefault(kingdom, []).extend(payload)
    else:
        merged.setdefault(kind, {})[kingdom] = payload
    return merged


def _cycle_orders(data: Json, kind: str) -> bool:
    return kind == "orders" and orders_in_cycle(data["options"])


def _check_with_engine(data: Json, kind: str, kingdom: str, payload: Any) -> None:
    """Run the engine on the state with this decision added: an illegal decision is refused
    now, in the game's words, rather than at the deadline."""
    trial = {
        **data,
        "inputs": merge_inputs(
            data.get("inputs", {}), kind, kingdom, payload, append=_cycle_orders(data, kind)
        ),
    }
    try:
        advance(trial)
    except RuleError as error:
        raise ServiceError(named(error.message, data), code=error.code, field=error.field) from None


def named(message: str, data: Json) -> str:
    """The engine's message with each kingdom's id replaced by its name ("Aldermark may give
    to Duskhollow only once a winter"); a unit's id ("aldermark-1") is left as it is."""
    names = {k["id"]: k.get("name") or k["id"] for k in data.get("kingdoms", [])}
    if not names:
        return message
    ids = "|".join(re.escape(i) for i in sorted(names, key=len, reverse=True))
    return re.sub(rf"(?<![\w-])({ids})(?![\w-])", lambda m: names[m[1]], message)


# What a player may say about a battle through its submissions: for its own kingdom only.
# Results reach the engine through `battle_entry_save`, once the opponent has confirmed a
# report or the admin has decided (the battles app).
PLAYER_BATTLE_ENTRIES = {"concede", "last_stand", "naval"}


def _check_own(data: Json, kind: str, kingdom: str, payload: Any) -> None:
    """A player decides only for its own kingdom and its own units."""
    if kind in LISTED:
        for entry in payload if isinstance(payload, list) else [payload]:
            said = set(entry) - {"hex"} if isinstance(entry, dict) else set()
            if len(said) != 1 or not said <= PLAYER_BATTLE_ENTRIES or entry[said.pop()] != kingdom:
                raise ServiceError(
                    "You may concede, make a Last Stand or choose a naval battle for your own "
                    "kingdom; results are reported on the battle's card.",
                    code="not-yours", field=kind,
                )  # fmt: skip
    if kind in BY_UNIT:
        own = {u["id"] for u in (*data["armies"], *data["ships"]) if u["kingdom"] == kingdom}
        if not isinstance(payload, dict) or not set(payload) <= own:
            raise ServiceError(
                "You may only move your own kingdom's units.", code="not-yours", field=kind
            )


@transaction.atomic
def submission_save(
    *, campaign: Campaign, user: User, kind: str, payload: Any, seen: int | None = None
) -> Submission:
    """Give or change a decision the campaign is waiting for from the user's kingdom. In
    `cycle` mode an order is given once and is final; otherwise it may be changed until
    the kingdom marks itself ready. `seen` is the snapshot the player was looking at: if
    the campaign has moved on since, the decision is refused rather than applied to a
    step the player never saw."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    kingdom = kingdom_of(campaign, user)
    if campaign.status not in (Campaign.Status.RUNNING, Campaign.Status.PAUSED):
        raise ServiceError("The campaign is not running.", code="not-running")
    snapshot = latest_snapshot(campaign)
    _check_seen(snapshot, seen)
    if kind not in ANSWER_KEYS or kind not in asked_of(snapshot.data, kingdom):
        raise ServiceError(
            "Nothing of that kind is asked of your kingdom now.", code="not-asked", field=kind
        )
    _check_own(snapshot.data, kind, kingdom, payload)
    # An order given in the cycle (ruling O1) and a battle entry are final once given.
    final = _cycle_orders(snapshot.data, kind) or kind in LISTED
    submission = Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, kind=kind, consumed_by=None
    ).first()
    given = submission.payload if final and submission is not None else []
    _check_with_engine(snapshot.data, kind, kingdom, [*given, *payload] if final else payload)
    if submission is not None and submission.ready and not final:
        raise ServiceError(
            "You marked this ready: withdraw that first to change it.", code="already-ready"
        )
    if submission is None:
        submission = Submission(
            campaign=campaign, kingdom=kingdom, kind=kind, payload=[] if final else None
        )
    submission.payload = [*submission.payload, *payload] if final else payload
    submission.snapshot = snapshot.number
    submission.submitted_by = user
    submission.ready = final
    submission.save()
    if final:
        _advance_when_ready(campaign, snapshot)
    return submission


def _check_seen(snapshot: Snapshot, seen: int | None) -> None:
    """`seen` is the snapshot the player was looking at: a decision made for a step that
    has moved on since is refused rather than applied to a step the player never saw."""
    if seen is not None and seen != snapshot.number:
        raise ServiceError(
            "The campaign has moved on since you looked: check the new state and decide again.",
            code="moved-on",
        )


@transaction.atomic
def submission_set_ready(
    *,
    campaign: Campaign,
    user: User,
    ready: bool = True,
    seen: int | None = None,
    draft: str | None = None,
    unsaved: Mapping[str, Any] | None = None,
) -> int:
    """Mark (or unmark) every open decision of the user's kingdom ready. When every kingdom
    the campaign waits for is ready, the campaign advances. `seen` as for
    `submission_save`; `draft` is the `draft_digest` of the decisions the player's page
    showed: a Ready from a page whose decisions have changed since (in another tab) is
    refused, so Ready commits what the player saw. `unsaved`: decisions (by `inputs` key)
    the page showed but the kingdom never gave, given first, in the same transaction: a
    refusal leaves nothing changed."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    kingdom = kingdom_of(campaign, user)
    snapshot = latest_snapshot(campaign)
    _check_seen(snapshot, seen)
    own = Submission.objects.filter(campaign=campaign, kingdom=kingdom, consumed_by=None)
    if ready:
        check_draft(draft_digest(own), draft)
        for kind, payload in (unsaved or {}).items():
            if not own.filter(kind=kind).exists():
                submission_save(campaign=campaign, user=user, kind=kind, payload=payload, seen=seen)
    count = own.update(ready=ready)
    if ready and count:
        _advance_when_ready(campaign, snapshot)
    return count


def draft_digest(decisions: Iterable[Submission]) -> str:
    """A short fingerprint of a kingdom's open decisions, as a page draws them."""
    given = sorted((d.kind, json.dumps(d.payload, sort_keys=True)) for d in decisions)
    return hashlib.sha256(json.dumps(given).encode()).hexdigest()[:16]


def check_draft(current: str, draft: str | None) -> None:
    """Refused unless the kingdom's open decisions (`current`, their digest) are those its
    page showed (`draft`; None from a caller that shows none)."""
    if draft is not None and draft != current:
        raise ServiceError(
            "Your decisions changed in another tab or window since this page was drawn: "
            "here they are as they stand now. Press Ready again if they are what you want.",
            code="draft-changed",
        )


def everyone_ready(campaign: Campaign, snapshot: Snapshot) -> bool:
    """Every kingdom the campaign waits for has a ready decision for each kind it owes.
    When only tabletop results are awaited, any reported result or concession will do:
    the engine applies what it can, in picking order (ruling B11)."""
    return everyone_ready_at(campaign, snapshot.data)


def everyone_ready_at(campaign: Campaign, data: Json) -> bool:
    """`everyone_ready`, for the newest snapshot's file."""
    ready = set(
        Submission.objects.filter(campaign=campaign, consumed_by=None, ready=True).values_list(
            "kingdom", "kind"
        )
    )
    pending = data.get("pending", [])
    owed = {(p["kingdom"], ANSWERS[p["kind"]]) for p in pending if p["kind"] != "battle_result"}
    if owed:
        return owed <= ready
    return any(kind == "battles" for _, kind in ready)


def _advance_when_ready(campaign: Campaign, snapshot: Snapshot) -> None:
    if campaign.status == Campaign.Status.RUNNING and everyone_ready(campaign, snapshot):
        queue_advance(campaign, snapshot.number)


def queue_advance(campaign: Campaign, snapshot_number: int, *, defaults: bool = False) -> None:
    """Advance in the background once this transaction has committed. The decisions are
    saved whether or not the broker answers: if it is away, the error is logged and the
    beat's sweep (`campaigns_ready_not_advanced`) queues the advance once it is back."""
    campaign_id = campaign.pk
    transaction.on_commit(lambda: _send_advance(campaign_id, snapshot_number, defaults))


def _send_advance(campaign_id: int, snapshot_number: int, defaults: bool) -> None:
    # Named, not imported: the tasks call the services, never the other way round.
    advance = signature(ADVANCE_TASK, (campaign_id, snapshot_number), {"defaults": defaults})
    try:
        advance.apply_async()
    except BrokerError as error:
        logger.warning(
            "The advance of campaign %s from snapshot %s could not be queued (%s): "
            "the beat's sweep will queue it once the broker answers.",
            campaign_id,
            snapshot_number,
            error,
        )


def campaigns_ready_not_advanced(
    older_than: timedelta = timedelta(minutes=1), now: datetime | None = None
) -> list[tuple[int, int]]:
    """(campaign id, snapshot number) of every running campaign in which every kingdom has
    been ready, with nothing changed for `older_than`, and that has not advanced: its
    advance was lost (the broker was away when it was queued, or its worker died)."""
    cutoff = (now or timezone.now()) - older_than
    open_ready = Q(submissions__consumed_by=None, submissions__ready=True)
    waiting = (
        Campaign.objects.filter(status=Campaign.Status.RUNNING)
        .annotate(
            ready_count=Count("submissions", filter=open_ready),
            last_change=Max("submissions__updated_at", filter=Q(submissions__consumed_by=None)),
        )
        .filter(ready_count__gt=0, last_change__lte=cutoff)
    )
    lost = []
    for campaign in waiting:
        snapshot = latest_snapshot(campaign)
        if snapshot.created_at <= cutoff and everyone_ready(campaign, snapshot):
            lost.append((campaign.pk, snapshot.number))
    return lost


# --- battles -------------------------------------------------------------------------


def check_battle_entry(campaign: Campaign, entry: Json) -> Snapshot:
    """Refused unless a battle in the entry's hex waits for its result and the engine
    accepts the entry; the newest snapshot otherwise."""
    snapshot = latest_snapshot(campaign)
    awaiting = [
        b["hex"]
        for b in snapshot.data.get("battles", [])
        if b["status"] == BattleStatus.AWAITING_RESULT
    ]
    if entry["hex"] not in awaiting:
        raise ServiceError(
            "No battle there waits for its result.", code="no-such-battle", field="hex"
        )
    if battle_settled_meanwhile(campaign, entry["hex"]):
        raise ServiceError(
            "The result of that battle is in already: the campaign is moving on.",
            code="settled",
        )
    _check_with_engine(snapshot.data, "battles", "", [entry])
    return snapshot


SETTLING = ("result", "resolve", "concede")


def battle_settled_meanwhile(campaign: Campaign, hex: list[int]) -> bool:
    """A result, a switch to a simple battle or a concession for the battle in this hex is
    among the decisions not yet used by an advance."""
    open_entries = Submission.objects.filter(campaign=campaign, kind="battles", consumed_by=None)
    return any(
        entry.get("hex") == hex and any(key in entry for key in SETTLING)
        for payload in open_entries.values_list("payload", flat=True)
        for entry in payload
    )


@transaction.atomic
def battle_entry_save(
    *,
    campaign: Campaign,
    actor: User,
    entry: Json,
    audit: AuditEntry.Action | None = None,
    reason: str = "",
    seen: int | None = None,
) -> Submission:
    """A result for a battle that waits for one, or the switch to a simple battle: what both
    players agreed on, or what an admin decided (the battles app checks who may say it).
    The engine checks it, it joins the campaign's open battle entries, and the campaign
    advances when it runs and nothing else is owed (ruling B11). With `audit`, it is
    recorded in the audit log under that action, with the `reason` given."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    snapshot = check_battle_entry(campaign, entry)
    _check_seen(snapshot, seen)
    submission, _ = Submission.objects.get_or_create(
        campaign=campaign, kingdom="", kind="battles", consumed_by=None,
        defaults={"payload": [], "snapshot": snapshot.number, "submitted_by": actor, "ready": True},
    )  # fmt: skip
    submission.payload = [*submission.payload, entry]
    submission.save()
    if audit:
        record_audit(campaign, actor, audit, reason, details=entry)
    _advance_when_ready(campaign, snapshot)
    return submission


# --- advancing ------------------------------------------------------------------------


def gather_inputs(snapshot: Snapshot, submissions: Iterable[Submission]) -> Json:
    inputs: Json = copy.deepcopy(snapshot.data.get("inputs", {}))
    for submission in submissions:
        cycle = _cycle_orders(snapshot.data, submission.kind)
        inputs = merge_inputs(
            inputs, submission.kind, submission.kingdom, submission.payload, append=cycle
        )
    return inputs


def campaign_advance(
    *, campaign_id: int, snapshot_number: int, defaults: bool = False, actor: User | None = None
) -> Snapshot | None:
    """Gather the decisions into `inputs`, run the engine, store the new snapshot and open
    the next deadline. Does nothing if the campaign has moved on from `snapshot_number`
    (so a task may run twice). With `defaults`, missing decisions take the rulings'
    deadline defaults and drafts not yet marked ready count. If the engine refuses, nothing
    changes but the campaign is paused and the refusal recorded, for its admins to see."""
    try:
        return _advance_locked(campaign_id, snapshot_number, defaults=defaults, actor=actor)
    except RuleError as error:
        with transaction.atomic():
            campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
            if campaign.status == Campaign.Status.RUNNING:
                campaign.paused_with = (
                    (campaign.deadline - timezone.now()) if campaign.deadline else None
                )
                campaign.status, campaign.deadline = Campaign.Status.PAUSED, None
                campaign.save()
            details = {
                "snapshot": snapshot_number,
                "code": error.code,
                "field": error.field,
                "message": error.message,
            }
            record_audit(
                campaign,
                actor,
                AuditEntry.Action.ADVANCE_REFUSED,
                "The rules engine refused to advance; the campaign is paused.",
                details,
            )
        raise ServiceError(error.message, code=error.code, field=error.field) from None


@transaction.atomic
def _advance_locked(
    campaign_id: int, snapshot_number: int, *, defaults: bool, actor: User | None
) -> Snapshot | None:
    campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
    if campaign is None or campaign.status == Campaign.Status.ENDED:
        return None  # deleted, or over, since the task was queued
    if campaign.status == Campaign.Status.PAUSED and actor is None:
        return None  # paused since it was queued: the resume queues it again
    latest = latest_snapshot(campaign)
    if latest.number != snapshot_number:
        return None
    open_submissions = Submission.objects.filter(campaign=campaign, consumed_by=None)
    used = list(open_submissions if defaults else open_submissions.filter(ready=True))
    inputs = gather_inputs(latest, used)
    advanced = advance_from(latest.data, inputs, deadline=defaults)
    snapshot = store_snapshot(
        campaign=campaign, number=latest.number + 1, data=advanced, decisions=inputs,
        reason=Snapshot.Reason.ADVANCE, defaults=defaults, created_by=actor,
    )  # fmt: skip
    Submission.objects.filter(pk__in=[s.pk for s in used]).update(consumed_by=snapshot)
    if advanced["clock"]["season"] == "ended":
        campaign.status = Campaign.Status.ENDED
        campaign.deadline = None
    else:
        _open_deadline(campaign, advanced)
    campaign.save()
    if actor is not None:
        record_audit(
            campaign,
            actor,
            AuditEntry.Action.ADVANCED,
            details={"snapshot": snapshot.number, "defaults": defaults},
        )
    return snapshot


def advance_from(data: Json, inputs: Json, *, deadline: bool) -> Json:
    """The engine's answer to a snapshot with these decisions. At its `deadline`, what the
    snapshot waited for and is still missing takes the deadline defaults (the engine's
    --defaults-now), and nothing after it: the next step opens with its own deadline."""
    due = [(p["kind"], p["kingdom"]) for p in data.get("pending", [])]
    return advance({**data, "inputs": inputs}, defaults_now=deadline, due=due)


def store_snapshot(**fields: Any) -> Snapshot:
    """Store a new snapshot and announce it (`signals.snapshot_stored`) inside the same
    transaction, so the rows other apps keep of it (battles, the outbox) commit with it."""
    snapshot = Snapshot.objects.create(**fields)
    snapshot_stored.send(
        sender=Snapshot, campaign=snapshot.campaign, snapshot=snapshot, imported=False
    )
    return snapshot


def step_hours(campaign: Campaign, data: Json) -> int:
    """The hours the decisions `data` waits for are given: one kingdom's turn in a step
    taken one kingdom at a time (a capital, the order cycle) has the campaign's turn
    deadline; every other step the deadline of its kind (setup, orders, battles, winter)."""
    kind = "turn" if one_at_a_time(data) else deadline_of(Step(data["clock"]["step"]))
    return hours_of(campaign, kind)


def deadline_of(step: Step) -> str:
    """The kind of deadline a step of the clock has: its season's (setup, winter), and in
    summer "battles" for the battles step and "orders" for the rest of the month."""
    if step in STEPS[Season.SETUP]:
        return "setup"
    if step in STEPS[Season.WINTER]:
        return "winter"
    return "battles" if step is Step.BATTLES else "orders"


def hours_of(campaign: Campaign, kind: str) -> int:
    """The hours the campaign gives a kind of deadline (its default if it has none set)."""
    hours: int = campaign.deadlines.get(kind, default_deadlines()[kind])
    return hours


def one_at_a_time(data: Json) -> bool:
    """The campaign waits for one kingdom's turn: its capital (S3), or its order in the
    order cycle (O1)."""
    return any(p["kind"] == "capital" or p.get("cycle") for p in data.get("pending", []))


def _open_deadline(campaign: Campaign, data: Json) -> None:
    hours = step_hours(campaign, data)
    now = timezone.now()
    due = on_a_deadline_day(campaign, now + timedelta(hours=hours))
    if campaign.status == Campaign.Status.PAUSED:
        campaign.paused_with = due - now
    else:
        campaign.deadline = due


def on_a_deadline_day(campaign: Campaign, due: datetime) -> datetime:
    """`due`, or, if it falls on a day of the week the campaign keeps free of deadlines
    (`Campaign.deadline_days`, in its time zone), the same time of day on the next day that
    it allows. Every deadline the campaign sets goes through here."""
    days = set(campaign.deadline_days) & set(every_day())
    if not days or days == set(every_day()):
        return due
    zone = ZoneInfo(_checked_zone(campaign.time_zone))
    wall = due.astimezone(zone).replace(tzinfo=None)
    shift = 0
    while (wall + timedelta(days=shift)).weekday() not in days:
        shift += 1
    if not shift:
        return due
    return (wall + timedelta(days=shift)).replace(tzinfo=zone).astimezone(UTC)


def campaigns_due(now: Any = None) -> list[tuple[int, int]]:
    """(campaign id, snapshot number) of every running campaign whose deadline has passed."""
    now = now or timezone.now()
    due = Campaign.objects.filter(status=Campaign.Status.RUNNING, deadline__lte=now)
    return [(campaign.pk, latest_snapshot(campaign).number) for campaign in due]


# --- admin controls -------------------------------------------------------------------


def _locked_for_admin(campaign: Campaign, actor: User) -> Campaign:
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    require_admin(campaign, actor)
    return campaign


@transaction.atomic
def campaign_pause(*, campaign: Campaign, actor: User, reason: str = "") -> Campaign:
    """Deadlines stop; the time left is kept for the resume."""
    campaign = _locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.RUNNING:
        raise ServiceError("Only a running campaign can be paused.", code="not-running")
    campaign.paused_with = (campaign.deadline - timezone.now()) if campaign.deadline else None
    campaign.status, campaign.deadline = Campaign.Status.PAUSED, None
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.PAUSED, reason)
    return campaign


@transaction.atomic
def campaign_resume(*, campaign: Campaign, actor: User, reason: str = "") -> Campaign:
    campaign = _locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.PAUSED:
        raise ServiceError("The campaign is not paused.", code="not-paused")
    left = max(campaign.paused_with or timedelta(0), timedelta(0))
    campaign.status = Campaign.Status.RUNNING
    campaign.deadline = on_a_deadline_day(campaign, timezone.now() + left)
    campaign.paused_with = None
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.RESUMED, reason)
    _advance_when_ready(campaign, latest_snapshot(campaign))  # all may have got ready meanwhile
    return campaign


@transaction.atomic
def campaign_extend(*, campaign: Campaign, actor: User, hours: int, reason: str = "") -> Campaign:
    campaign = _locked_for_admin(campaign, actor)
    if hours < 1:
        raise ServiceError("Extend by at least one hour.", code="bad-hours", field="hours")
    if campaign.status == Campaign.Status.PAUSED:
        campaign.paused_with = (campaign.paused_with or timedelta(0)) + timedelta(hours=hours)
    elif campaign.deadline is not None:
        campaign.deadline = on_a_deadline_day(campaign, campaign.deadline + timedelta(hours=hours))
    else:
        raise ServiceError("The campaign has no deadline to extend.", code="no-deadline")
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.EXTENDED, reason, {"hours": hours})
    return campaign


def campaign_advance_now(*, campaign: Campaign, actor: User, reason: str = "") -> Snapshot | None:
    """The admin advances at once, with the deadline defaults for whoever is not ready."""
    with transaction.atomic():
        locked = _locked_for_admin(campaign, actor)
        number = latest_snapshot(locked).number
    snapshot = campaign_advance(
        campaign_id=campaign.pk, snapshot_number=number, defaults=True, actor=actor
    )
    if reason and snapshot is not None:
        record_audit(
            campaign, actor, AuditEntry.Action.ADVANCED_NOW, reason, {"snapshot": snapshot.number}
        )
    return snapshot


@transaction.atomic
def campaign_undo(
    *, campaign: Campaign, actor: User, reason: str, seen: int | None = None
) -> Snapshot:
    """Back to the state before the last advance, as a new snapshot. The decisions that
    advance used are open again (not ready); those given since are kept for review. With
    `seen`, refused if an advance has landed since the admin looked: they undo what they saw."""
    campaign = _locked_for_admin(campaign, actor)
    latest = latest_snapshot(campaign)
    _check_seen(latest, seen)
    if latest.number < 2:
        raise ServiceError("There is no advance to undo.", code="nothing-to-undo")
    previous = campaign.snapshots.get(number=latest.number - 1)
    snapshot = store_snapshot(
        campaign=campaign, number=latest.number + 1, data=previous.data, decisions={},
        reason=Snapshot.Reason.UNDO, created_by=actor,
    )  # fmt: skip
    Submission.objects.filter(campaign=campaign, consumed_by=None).update(consumed_by=snapshot)
    for submission in Submission.objects.filter(campaign=campaign, consumed_by=latest):
        submission.consumed_by, submission.ready = None, False
        submission.save()
    if campaign.status == Campaign.Status.ENDED:
        campaign.status = Campaign.Status.RUNNING
    _open_deadline(campaign, previous.data)
    campaign.save()
    record_audit(
        campaign,
        actor,
        AuditEntry.Action.UNDONE,
        reason,
        {"undid": latest.number, "back_to": previous.number, "snapshot": snapshot.number},
    )
    return snapshot


@transaction.atomic
def campaign_correct(
    *, campaign: Campaign, actor: User, reason: str, data: Json, what: str
) -> Snapshot:
    """The admin corrects the state (a tile, an army, resources): the corrected file is
    checked by the engine, stored as a new snapshot, and recorded with its reason."""
    campaign = _locked_for_admin(campaign, actor)
    if not reason.strip():
        raise ServiceError("Say why the state is corrected.", code="no-reason", field="reason")
    latest = latest_snapshot(campaign)
    try:
        parse_campaign(data)
    except RuleError as error:
        raise ServiceError(error.message, code=error.code, field=error.field) from None
    snapshot = store_snapshot(
        campaign=campaign,
        number=latest.number + 1,
        data=data,
        reason=Snapshot.Reason.CORRECTION,
        created_by=actor,
    )
    record_audit(
        campaign,
        actor,
        AuditEntry.Action.CORRECTED,
        reason,
        {"what": what, "snapshot": snapshot.number},
    )
    _advance_when_ready(campaign, snapshot)  # the decisions already ready still stand
    return snapshot


@transaction.atomic
def _correct_newest(
    campaign: Campaign, actor: User, reason: str, what: str, change: Callable[[Json], None]
) -> Snapshot:
    """A correction made on the newest state, read under the campaign's lock: an advance,
    an undo or another correction that lands first is never overwritten by a state read
    before it."""
    campaign = _locked_for_admin(campaign, actor)
    data = copy.deepcopy(latest_snapshot(campaign).data)
    change(data)
    return campaign_correct(campaign=campaign, actor=actor, reason=reason, data=data, what=what)


def correct_tile(
    *,
    campaign: Campaign,
    actor: User,
    reason: str,
    hex: list[int],
    owner: str | None,
    settlement: str | None,
) -> Snapshot:
    """Set (or clear, with owner None) the explored tile at a hex."""

    def change(data: Json) -> None:
        tiles = [t for t in data["tiles"] if t["hex"] != hex]
        if owner is not None:
            tiles.append({"hex": hex, "owner": owner, "settlement": settlement})
        data["tiles"] = sorted(tiles, key=lambda t: tuple(t["hex"]))

    return _correct_newest(campaign, actor, reason, f"tile {hex}", change)


def correct_army(
    *,
    campaign: Campaign,
    actor: User,
    reason: str,
    army: str,
    hex: list[int] | None,
    upright: bool = True,
) -> Snapshot:
    """Move an army (or remove it, with hex None)."""

    def change(data: Json) -> None:
        found = next((a for a in data["armies"] if a["id"] == army), None)
        if found is None:
            raise ServiceError(f"There is no army {army}.", code="unknown-unit", field="army")
        if hex is None:
            data["armies"] = [a for a in data["armies"] if a["id"] != army]
        else:
            found.update(hex=hex, upright=upright)

    return _correct_newest(campaign, actor, reason, f"army {army}", change)


def correct_resources(
    *, campaign: Campaign, actor: User, reason: str, kingdom: str, gold: int, food: int
) -> Snapshot:
    """Set a kingdom's gold and food."""

    def change(data: Json) -> None:
        found = next((k for k in data["kingdoms"] if k["id"] == kingdom), None)
        if found is None:
            raise ServiceError(
                f"There is no kingdom {kingdom}.", code="unknown-kingdom", field="kingdom"
            )
        found.update(gold=gold, food=food)

    return _correct_newest(campaign, actor, reason, f"resources of {kingdom}", change)


def record_audit(
    campaign: Campaign,
    actor: User | None,
    action: AuditEntry.Action,
    reason: str = "",
    details: Json | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        campaign=campaign, actor=actor, action=action, reason=reason, details=details or {}
    )
