"""Names (issue 35): an admin renames a place of the campaign's gazetteer (audited); a
player names their kingdom's armies and ships. A name is unique in the campaign: no other
place, unit or kingdom has it."""

from django.db import transaction

from accounts.models import User
from campaign.gazetteer import NAME_LENGTH, Names, all_names
from campaign.models import AuditEntry, Campaign
from campaign.services.common import (
    Json,
    ServiceError,
    check_admin_saw,
    check_seen,
    kingdom_of,
    latest_snapshot,
    locked_for_admin,
    plain,
    record_audit,
)
from campaign.words import names_of


def _taken(campaign: Campaign, names: Names, units: list[str], new: str, *, keep: str) -> None:
    """Refused if `new` is the name of a place, a unit or a kingdom of the campaign other
    than the one being named (whose name now is `keep`)."""
    said = [*all_names(campaign.gazetteer), *names.kingdoms.values()]
    said += [names.unit(unit) for unit in units]
    if new.casefold() != keep.casefold() and new.casefold() in {n.casefold() for n in said}:
        raise ServiceError(
            f"{new} is a name the campaign has already: choose another.",
            code="name-taken",
            field="name",
        )


@transaction.atomic
def place_rename(
    *,
    campaign: Campaign,
    actor: User,
    place: str,
    name: str,
    reason: str,
    seen: int | None = None,
) -> str:
    """The admin renames the place called `place` (a region, or a settlement that stands or
    stood) to `name`; audited. Its new name, as kept. `seen`: the snapshot the admin's
    page showed (`check_admin_saw`)."""
    campaign = locked_for_admin(campaign, actor)
    check_admin_saw(campaign, seen)
    if not campaign.gazetteer:
        raise ServiceError("The campaign's places are named when it starts.", code="not-started")
    data = latest_snapshot(campaign).data
    names = names_of(data, campaign.gazetteer)
    if place not in names.places():
        raise ServiceError(
            f"No place is called {place} now: choose one from the list.", code="no-such-place"
        )
    new = plain(name, max_length=NAME_LENGTH, what="A place's name", field="name")
    units = [u["id"] for u in (*data.get("armies", []), *data.get("ships", []))]
    _taken(campaign, names, units, new, keep=place)
    gazetteer: Json = campaign.gazetteer
    hexes = [r["hexes"][0] for r in gazetteer["regions"] if r["name"] == place]
    for region in gazetteer["regions"]:
        if region["name"] == place:
            region["name"] = new
    for key, settlement in gazetteer["settlements"].items():
        if settlement == place:
            gazetteer["settlements"][key] = new
            hexes.append([int(n) for n in key.split(",")])
    campaign.save(update_fields=["gazetteer"])
    details = {"from": place, "to": new, "hex": hexes[0] if hexes else None}
    record_audit(campaign, actor, AuditEntry.Action.PLACE_RENAMED, reason, details)
    return new


@transaction.atomic
def unit_rename(
    *, campaign: Campaign, user: User, unit: str, name: str, seen: int | None = None
) -> str:
    """The player names one of their kingdom's armies or ships; an empty `name` gives it
    back its own ("Aldermark's 1st army"). Refused for a unit of another kingdom
    (`not-yours`), one there is not (`no-such-unit`), and from a page the campaign has
    moved on from (`seen`). Its name now."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    kingdom = kingdom_of(campaign, user)
    snapshot = latest_snapshot(campaign)
    check_seen(snapshot, seen)
    data = snapshot.data
    units = [*data.get("armies", []), *data.get("ships", [])]
    found = next((u for u in units if u["id"] == unit), None)
    if found is None:
        raise ServiceError("There is no such army or ship now.", code="no-such-unit")
    if found["kingdom"] != kingdom:
        raise ServiceError("You may only name your own kingdom's units.", code="not-yours")
    names = names_of(data, campaign.gazetteer)
    given: dict[str, str] = campaign.gazetteer.setdefault("units", {})
    if not name.strip():
        given.pop(unit, None)
        campaign.save(update_fields=["gazetteer"])
        return names.default_unit(unit)
    new = plain(name, max_length=NAME_LENGTH, what="An army's name", field="name")
    others = [u["id"] for u in units if u["id"] != unit]
    _taken(campaign, names, others, new, keep=given.get(unit, ""))
    given[unit] = new
    campaign.save(update_fields=["gazetteer"])
    return new
