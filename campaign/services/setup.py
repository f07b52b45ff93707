"""Setting a campaign up: created from the new-campaign form (its options, deadlines and map
checked), archived or deleted, and started once its kingdoms are taken."""

from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from campaign.gazetteer import make_gazetteer
from campaign.maps import BUILTIN_MAPS, load_builtin_map
from campaign.models import (
    CAMPAIGN_NAME_LENGTH,
    AuditEntry,
    Campaign,
    Membership,
    Snapshot,
    default_deadlines,
    every_day,
)
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import HexMap, map_to_json
from campaign.rules.mapgen import generate_map
from campaign.rules.optional.marauders import ADMIN
from campaign.rules.options import DEFAULTS, OPTION_ROWS
from campaign.services.advancing import open_deadline, store_snapshot
from campaign.services.common import (
    Json,
    ServiceError,
    checked_zone,
    locked_for_admin,
    plain,
    record_audit,
    require_admin,
)


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
    options table (campaign.rules.options) in words. An optional rule's settings stand
    while it is on (their defaults filled in: the marauders' general is the admin until the
    admin names a player), and are left out while it is off (OG1)."""
    merged = {**DEFAULTS, **(options or {})}
    for key, value in merged.items():
        row = OPTION_ROWS.get(key)
        if row is None:
            raise ServiceError(f"There is no option {key!r}.", code="bad-option", field=key)
        refusal = row.refusal(value)
        if refusal is not None:
            raise ServiceError(refusal, code="bad-option", field=key)
    for row in OPTION_ROWS.values():
        if row.needs and merged.get(row.needs) is True:
            merged.setdefault(row.name, row.default)
        elif row.needs:
            merged.pop(row.name, None)
    return {key: value for key, value in merged.items() if value is not False}  # OG1


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
    letters: str = Campaign.Letters.ON,
) -> Campaign:
    """A campaign open for players, on a built-in map or a generated one; `admin` runs it.
    Deadlines fall only on `deadline_days` (0 is Monday; every day by default), counted in
    `time_zone` (the admin's by default). A `public` campaign's map, might, chronicle and
    end may be read by anyone. `key` names the form it comes from: the campaign that form
    made already, if any, is returned instead of a second one (Back, then Create again).
    `letters`: whom its kingdoms may write to (`Campaign.Letters`)."""
    made = made_from(key, admin)
    if made is not None:
        return made
    if not MIN_KINGDOMS <= kingdoms <= MAX_KINGDOMS:
        raise ServiceError(
            f"A campaign has {MIN_KINGDOMS} to {MAX_KINGDOMS} kingdoms.",
            code="kingdom-count", field="kingdoms",
        )  # fmt: skip
    name = plain(name, max_length=CAMPAIGN_NAME_LENGTH, what="The campaign's name", field="name")
    options = _checked_options(options)
    hours = _checked_deadlines(deadlines)
    days = _checked_days(deadline_days)
    if letters not in Campaign.Letters.values:
        raise ServiceError("Choose who may write letters.", code="bad-letters", field="letters")
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
                time_zone=checked_zone(time_zone or admin.time_zone),
                public=public,
                letters=letters,
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
    campaign = locked_for_admin(campaign, actor)
    campaign.archived_at = timezone.now() if archived else None
    campaign.save(update_fields=["archived_at"])
    record_audit(
        campaign, actor, AuditEntry.Action.ARCHIVED if archived else AuditEntry.Action.UNARCHIVED
    )
    return campaign


@transaction.atomic
def campaign_delete(*, campaign: Campaign, actor: User) -> None:
    """Only a campaign that has not started may be deleted: one that has is archived."""
    campaign = locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError(
            "Only a campaign that has not started can be deleted: archive it instead.",
            code="started",
        )
    campaign.delete()


@transaction.atomic
def campaign_marauder_general(*, campaign: Campaign, actor: User, general: str) -> str:
    """Option marauders (OW5): before the campaign starts, its admin names who plays the
    horde's tabletop battles: the admin (`"admin"`) or a player, by the id of the kingdom
    they rule, as the campaign file names the general."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    require_admin(campaign, actor)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError(
            "The marauders' general is chosen before the campaign starts.", code="not-open"
        )
    if not campaign.options.get("marauders"):
        raise ServiceError("This campaign has no marauders.", code="no-marauders")
    if general != ADMIN and not campaign.memberships.filter(kingdom=general).exists():
        raise ServiceError(
            "The general is the admin or a player of the campaign.", code="bad-general",
            field="general",
        )  # fmt: skip
    campaign.options = {**campaign.options, "marauder_general": general}
    campaign.save(update_fields=["options"])
    record_audit(campaign, actor, AuditEntry.Action.GENERAL_CHOSEN, details={"general": general})
    return general


@transaction.atomic
def campaign_start(*, campaign: Campaign, actor: User) -> Snapshot:
    """Start a full campaign at setup: the first snapshot, waiting for the races; its
    places are named (campaign.gazetteer)."""
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
    campaign.gazetteer = make_gazetteer(
        campaign.map, int(campaign.options["seed"]), [m.kingdom_name for m in players]
    )
    snapshot = store_snapshot(
        campaign=campaign, number=1, data=started, reason=Snapshot.Reason.START, created_by=actor
    )
    campaign.status = Campaign.Status.RUNNING
    open_deadline(campaign, started)
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.STARTED)
    return snapshot
