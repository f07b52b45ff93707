"""`manage.py seed_demo [--reset]`: demo campaigns to look around in, `demo` and
`demo-battle`.

An admin `gm` (also a Django superuser, for /admin/) and four players, `alice`, `bob`,
`carol` and `dave`, all with the password `demo`, on the built-in map river-kingdoms.
Everything goes through the services, as it would on the site: the players join, the gm
starts the campaign, and bots answer what each snapshot waits for (submitted, marked
ready, advanced) until a pitched battle has gone out to the tabletop, the gm has reported
its result, and every kingdom is asked for its next month's orders: a newcomer signing in
as alice has orders to give. The bots are steered so that two armies march on each other;
with the fixed seed the demo is the same every time. In `demo-battle` the bots steer
alice's and bob's armies at each other: their first pitched battle is played at the tabletop,
and the next waits for its tabletop result: alice and bob report and confirm it, carol and
dave can read its card.

It runs only with DEBUG on (the accounts have a known password). A demo that exists is
left alone; `--reset` deletes the demos and makes them again."""

import logging
import random
from argparse import ArgumentParser
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from itertools import pairwise
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from campaign.maps import BUILTIN_MAPS
from campaign.models import AuditEntry, Campaign, Snapshot
from campaign.rules import bots, decisions
from campaign.rules.hexmap import (
    Hex,
    HexMap,
    cached_map_from_json,
    distance,
    map_from_json,
    routes,
)
from campaign.rules.options import orders_in_cycle
from campaign.rules.state import HORDE, BattleStatus, PendingKind, Season, Step
from campaign.rules.vocabulary import EventType
from campaign.services import advancing, battle_entries, common, letters, setup, submissions
from campaign.services import members as members_services
from campaign.signals import demo_made, quietly
from config.celery import app as celery_app

type Json = dict[str, Any]

SLUG = "demo"
PASSWORD = "demo"
ADMIN = "gm"
MAP = "river-kingdoms"
SEED = 2  # the dice and the bots: a pitched battle waits in the fourth summer month
# (username, kingdom, colour)
PLAYERS = (
    ("alice", "Aldermark", "#2e7d32"),
    ("bob", "Brightwater", "#1565c0"),
    ("carol", "Carrowmoor", "#c62828"),
    ("dave", "Duskhollow", "#6a1b9a"),
)
MAX_STEPS = 200  # snapshots; the demo needs about 17


class Command(BaseCommand):
    help = "Create the demo campaign 'demo' (users gm, alice, bob, carol, dave; password demo)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--reset", action="store_true", help="delete the demo campaign and make it again"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            self.stderr.write(
                "No demo: its accounts have a known password, so seed_demo runs only with DEBUG=1."
            )
            return
        hashed = cache(lambda: make_password(PASSWORD))  # once: a hash takes a second or so
        for slug, make in DEMOS.items():
            existing = Campaign.objects.filter(slug=slug).first()
            if existing is not None and not options["reset"]:
                self.stdout.write(
                    f"The demo campaign {slug!r} exists already: nothing changed. "
                    "`manage.py seed_demo --reset` makes it again."
                )
                continue
            with stale_advances_run_here(), transaction.atomic():
                if existing is not None:
                    existing.delete()
                users, created = demo_users(hashed())
                campaign, news = make(users)
                demo_made.send(sender=Campaign, campaign=campaign, users=users)
            self.stdout.write(describe(campaign, news, created))


@contextmanager
def stale_advances_run_here() -> Iterator[None]:
    """The bots advance each demo themselves; the advances the services queue on the way
    find the campaign moved on. They run here at commit, in this process, rather than
    wait in the broker for the worker of `make run` to clear them before a player's. No
    notification is written meanwhile."""
    eager = celery_app.conf.task_always_eager
    trace = logging.getLogger("celery.app.trace")  # "Task ... succeeded", once per advance
    level = trace.level
    celery_app.conf.task_always_eager = True
    trace.setLevel(logging.WARNING)
    try:
        with quietly():  # nobody is told of the bots' hundreds of steps
            yield
    finally:
        celery_app.conf.task_always_eager = eager
        trace.setLevel(level)


def demo_users(hashed_password: str) -> tuple[dict[str, User], list[str]]:
    """The gm and the players, made or found, each with the demo password (its hash)."""
    users: dict[str, User] = {}
    created: list[str] = []
    for name in (ADMIN, *(player for player, _, _ in PLAYERS)):
        user, made = User.objects.get_or_create(username=name)
        user.password = hashed_password
        user.email = user.email or f"{name}@example.org"
        if name == ADMIN:
            user.is_staff = user.is_superuser = True
        user.save()
        users[name] = user
        if made:
            created.append(name)
    return users, created


def started(users: Mapping[str, User], name: str, *, general: str = "", **options: Any) -> Campaign:
    """A campaign on the demo map, joined by the four players and started by the gm; with
    marauders, `general` (a player's username) plays their battles."""
    admin = users[ADMIN]
    campaign = setup.campaign_create(
        name=name, admin=admin, kingdoms=len(PLAYERS), map_name=MAP,
        options={"seed": SEED, **options},
    )  # fmt: skip
    for username, kingdom_name, colour in PLAYERS:
        members_services.campaign_join(
            campaign=campaign, user=users[username], kingdom_name=kingdom_name, colour=colour
        )
    if general:
        kingdom = common.kingdom_of(campaign, users[general])
        setup.campaign_marauder_general(campaign=campaign, actor=admin, general=kingdom)
    setup.campaign_start(campaign=campaign, actor=admin)
    return campaign


DEMO_SEED = 6  # the dice of `demo`: alice's and dave's armies stand after its battle

# The letters of `demo` (issue 28): (writer, to, text); no one to is to everyone.
LETTERS = (
    (
        "carol",
        (),
        "Hear ye, hear ye! Carrowmoor holds a tourney at midsummer: every "
        "kingdom's champion is welcome, and no army shall cross our border while it lasts.",
    ),
    (
        "alice",
        ("bob",),
        "Neighbour, our armies have bled enough this spring. Keep to your side "
        "of the river this summer, and Aldermark keeps to hers. Do we have a pact?",
    ),
    (
        "bob",
        ("alice",),
        "A pact, then, until the winter. But if Duskhollow marches on either "
        "of us, we march together.",
    ),
)


def write_letters(campaign: Campaign, users: Mapping[str, User]) -> None:
    """A herald's proclamation and a private pact between alice and bob, whose answer alice
    has not read yet."""
    kingdom = {m.user.username: m.kingdom for m in campaign.memberships.exclude(kingdom="")}
    for writer, to, text in LETTERS:
        letters.letter_write(
            campaign=campaign, user=users[writer],
            to=[kingdom[name] for name in to], herald=not to, text=text,
        )  # fmt: skip


def demo_campaign(users: Mapping[str, User], seed: int = DEMO_SEED) -> tuple[Campaign, str]:
    """`demo`: started and played by bots until a pitched battle has been fought at the
    tabletop (its result reported by the gm) and every kingdom is asked for its orders
    again. Returns the campaign and that battle."""
    campaign = started(users, "Demo", seed=seed)
    players = {m.kingdom: m.user for m in campaign.memberships.exclude(kingdom="")}
    rng = random.Random(seed)
    hexmap = map_from_json(campaign.map)
    fought: Json | None = None
    for _ in range(MAX_STEPS):
        data = common.latest_snapshot(campaign).data
        if fought is not None and data["clock"]["step"] == Step.ORDERS:
            campaign.refresh_from_db()
            key = (fought["year"], fought["month"], fought["hex"])
            resolved = next(b for b in data["battles"] if (b["year"], b["month"], b["hex"]) == key)
            write_letters(campaign, users)
            return campaign, battle_news(campaign, resolved)
        fought = fought or next(iter(awaiting(data)), None)
        play_bot_step(
            campaign, players=players, admin=users[ADMIN], rng=rng, hexmap=hexmap,
            march=fought is None,
        )  # fmt: skip
    raise CommandError(f"No pitched battle went to the tabletop in {MAX_STEPS} snapshots.")


def played_until[T](
    campaign: Campaign,
    users: Mapping[str, User],
    seed: int,
    reached: Callable[[Json], T | None],
    missed: str,
    **steering: Any,
) -> tuple[Json, T]:
    """The bots play the campaign, the dice of `seed` deciding their choices and steered as
    `play_bot_step` is, until `reached` finds what the demo waits for in its newest file;
    that file and what was found. Refused, saying what was `missed`, if the campaign ends
    first or takes more than MAX_STEPS snapshots."""
    players = {m.kingdom: m.user for m in campaign.memberships.exclude(kingdom="")}
    rng = random.Random(seed)
    hexmap = map_from_json(campaign.map)
    for _ in range(MAX_STEPS):
        data = common.latest_snapshot(campaign).data
        found = reached(data)
        if found is not None:
            campaign.refresh_from_db()
            return data, found
        if data["clock"]["season"] == Season.ENDED:
            break
        play_bot_step(
            campaign, players=players, admin=users[ADMIN], rng=rng, hexmap=hexmap, **steering
        )
    raise CommandError(f"{missed} in {MAX_STEPS} snapshots.")


def battle_campaign(users: Mapping[str, User]) -> tuple[Campaign, str]:
    """`demo-battle`: played by bots, alice's and bob's armies steered at each other: their
    first pitched battle is played at the tabletop (its result reported by the gm), and
    the bots go on until their next one waits for its tabletop result."""
    campaign = started(users, "Demo battle")
    rivals = tuple(common.kingdom_of(campaign, users[name]) for name in ("alice", "bob"))

    def waiting(data: Json) -> Json | None:
        """Their next battle waiting at the tabletop, once their first one is played."""
        played = any(
            _between(b, rivals) and b["status"] == BattleStatus.RESOLVED for b in data["battles"]
        )
        return next((b for b in awaiting(data) if _between(b, rivals)), None) if played else None

    _, battle = played_until(
        campaign, users, SEED, waiting, "alice's and bob's armies did not meet",
        march=True, between=rivals,
    )  # fmt: skip
    return campaign, battle_news(campaign, battle)


def _between(battle: Json, rivals: tuple[str, ...]) -> bool:
    """A pitched battle between the two `rivals`."""
    return battle["kind"] == "pitched" and {battle["attacker"], battle["defender"]} == set(rivals)


WINTER_SEED = 3  # the bots' dice for demo-winter (see `hungry_and_buyer`)


def winter_campaign(users: Mapping[str, User], seed: int = WINTER_SEED) -> tuple[Campaign, str]:
    """`demo-winter`: played by bots until a winter waits for every kingdom's tithes, with
    a kingdom short of food (more armies than food), and alice's kingdom able to raise an
    army and feed it (gold, a fortress, fewer than six armies, food to spare)."""
    campaign = started(users, "Demo winter")
    buyer = common.kingdom_of(campaign, users["alice"])
    data, short = played_until(
        campaign, users, seed, lambda d: hungry_and_buyer(d, buyer),
        "No winter with a hungry kingdom",
    )  # fmt: skip
    armies = sum(1 for a in data["armies"] if a["kingdom"] == short["id"])
    return campaign, (
        f"Winter: {short['name']} is short of food ({armies} armies, {short['food']} "
        "food); alice's kingdom can raise an army and feed it."
    )


def hungry_and_buyer(data: Json, buyer: str) -> Json | None:
    """At a winter's tithes, the first kingdom short of food, if there is one and the
    `buyer` can raise an army and feed it; else None."""
    if (data["clock"]["season"], data["clock"]["step"]) != (Season.WINTER, Step.TITHE):
        return None
    armies = Counter(a["kingdom"] for a in data["armies"])
    forts = {t["owner"] for t in data["tiles"] if t["settlement"] == "fortress"}
    purse = next(k for k in data["kingdoms"] if k["id"] == buyer)
    can_buy = purse["gold"] and buyer in forts and purse["food"] > armies[buyer] < 6
    short = [k for k in data["kingdoms"] if armies[k["id"]] > k["food"]]
    return short[0] if short and can_buy else None


ENDED_YEARS = 2  # demo-ended is a short campaign: two years


def ended_campaign(users: Mapping[str, User]) -> tuple[Campaign, str]:
    """`demo-ended`: a two-year campaign played by bots to its end, armies steered to meet
    (the gm reporting the tabletop results), with its whole chronicle of explorations,
    battles and builds, and its final standings."""
    campaign = started(users, "Demo ended", years=ENDED_YEARS)
    data, winner = played_until(
        campaign, users, SEED,
        lambda d: d["scores"][0] if d["clock"]["season"] == Season.ENDED else None,
        "The short campaign did not end", march=True,
    )  # fmt: skip
    name = next(k["name"] for k in data["kingdoms"] if k["id"] == winner["kingdom"])
    return campaign, f"The campaign has ended: {name} won with {winner['might']} might."


OPTIONS_SEED = 5  # the dice of `demo-options`: a tower, a quest's artefact and the siege by year 5


def options_campaign(users: Mapping[str, User]) -> tuple[Campaign, str]:
    """`demo-options`: a campaign with every optional rule of part A on, played by bots,
    alice's army steered on bob's capital, until a Wizard's tower stands, a quest has won
    an artefact, and their siege waits for its tabletop result with artefacts on its card."""
    switches: dict[str, Any] = {name: True for name in OPTIONS_IN_DEMO}
    campaign = started(users, "Demo options", seed=OPTIONS_SEED, **switches)
    rivals = tuple(common.kingdom_of(campaign, users[name]) for name in ("alice", "bob"))

    def siege_shown(data: Json) -> Json | None:
        siege = next((b for b in awaiting(data) if b.get("siege")), None)
        return siege if siege is not None and wizardry_shown(data, siege) else None

    _, siege = played_until(
        campaign, users, OPTIONS_SEED, siege_shown,
        "No siege with artefacts between alice and bob, after a tower and a quest's artefact,",
        siege=(rivals[0], rivals[1]),
    )  # fmt: skip
    news = battle_news(campaign, siege)
    return campaign, news.replace("A pitched battle", "A siege assault", 1)


def wizardry_shown(data: Json, siege: Json) -> bool:
    """Whether a Wizard's tower stands, a quest has won an artefact, and `siege`'s card
    shows artefacts (option wizards)."""
    won = any(e["type"] == EventType.QUEST and e.get("artefact") for e in data.get("events", []))
    carried = any(side.get("artefacts") for side in siege["sides"])
    return bool(data.get("towers")) and won and carried


# The optional rules `demo-options` has on: part A's (campaign-options.md), whose dice its
# story was found with; each rule the bots play takes dice of its own.
OPTIONS_IN_DEMO = ("army_limits", "wizards", "common_deck", "sieges")


WARS_SEED = 12  # the dice of `demo-wars`: its battle against the horde waits in year 3
# The optional rules `demo-wars` has on: part B's, War of Kings adapted (campaign-options.md).
WARS_OPTIONS: dict[str, Any] = {
    "marauders": True,
    "marauder_race": "Orcs",
    "roads": True,
    "milestones": True,
    "yearly_event": True,
}


def wars_campaign(users: Mapping[str, User]) -> tuple[Campaign, str]:
    """`demo-wars`: the four options of part B on, bob the marauders' general, played by
    bots until a band raids beside alice's kingdom with its orders on the map, roads have
    carried trade to her capital, a kingdom holds a milestone, and a battle against the
    horde waits at the tabletop for bob to report it."""
    campaign = started(users, "Demo wars", seed=WARS_SEED, general="bob", **WARS_OPTIONS)
    alice, bob = (common.kingdom_of(campaign, users[name]) for name in ("alice", "bob"))

    def horde_battle(data: Json) -> Json | None:
        battle = next((b for b in awaiting(data) if _against_the_horde(b, bob)), None)
        return battle if battle is not None and wars_shown(data, alice) else None

    _, battle = played_until(
        campaign, users, WARS_SEED, horde_battle,
        "No battle against the horde with a raid beside alice, her trade and a milestone,",
        warlike=alice,
    )  # fmt: skip
    return campaign, horde_battle_news(campaign, battle)


GLORY_SEED = 78  # the dice of `demo-glory`: each kingdom holds an honour, and alice's disputed
# heir costs one of her three armies, in the winter of year 3 (35 snapshots)


def glory_campaign(users: Mapping[str, User]) -> tuple[Campaign, str]:
    """`demo-glory`: the options of part C on (glory and honours, the ruler's death), played
    by bots, who give their secret honour wishes with their winters' purchases, until
    honours are held, alice has her wishes, and a winter's succession step asks alice which
    of her armies her disputed heir disbands (OB7): the choice is hers, still open."""
    campaign = started(users, "Demo glory", seed=GLORY_SEED, glory=True, succession=True)
    alice = common.kingdom_of(campaign, users["alice"])
    data, _ = played_until(
        campaign, users, GLORY_SEED, lambda d: glory_shown(d, alice) or None,
        "No winter asked alice which army her disputed heir disbands, with honours held and "
        "her wishes given,",
    )  # fmt: skip
    return campaign, glory_news(campaign, data)


def glory_shown(data: Json, alice: str) -> bool:
    """At a winter's succession step, alice's kingdom is asked which of its two or more
    armies to disband (OB7), a kingdom holds an honour, and alice has wished for honours."""
    clock = data["clock"]
    if (clock["season"], clock["step"]) != (Season.WINTER, Step.SUCCESSION):
        return False
    asked = any(
        p["kind"] == PendingKind.SUCCESSION and p["kingdom"] == alice for p in data["pending"]
    )
    armies = sum(1 for a in data["armies"] if a["kingdom"] == alice)
    kingdoms = {k["id"]: k for k in data["kingdoms"]}
    held = any(k.get("honours") for k in kingdoms.values())
    return asked and armies >= 2 and held and bool(kingdoms[alice].get("honour_wishes"))


def glory_news(campaign: Campaign, data: Json) -> str:
    members = {m.kingdom: m for m in campaign.memberships.select_related("user")}
    holders = "; ".join(
        f"{members[k['id']].kingdom_name} {', '.join(k['honours'])}"
        for k in data["kingdoms"]
        if k.get("honours")
    )
    (alice,) = (k for k in data["kingdoms"] if members[k["id"]].user.username == "alice")
    armies = sum(1 for a in data["armies"] if a["kingdom"] == alice["id"])
    heir = "a civil war" if alice.get("heir") == "civil_war" else "a disputed heir"
    return (
        f"Honours held: {holders}. {members[alice['id']].kingdom_name} (alice) wishes for "
        f"{', '.join(alice['honour_wishes'])}; her ruler has died, and {heir} disbands one of "
        f"her {armies} armies: she chooses which."
    )


def _against_the_horde(battle: Json, general: str) -> bool:
    """A pitched battle against the horde whose general is `general` (not its own)."""
    sides = {battle["attacker"], battle["defender"]}
    return battle["kind"] == "pitched" and HORDE in sides and general not in sides


def wars_shown(data: Json, alice: str) -> bool:
    """A band with an order within three tiles of alice's settlements, trade gathered at her
    capital, and a milestone held."""
    settled = [tuple(t["hex"]) for t in data["tiles"] if t["owner"] == alice and t["settlement"]]
    raiding = any(
        m.get("order") and min((distance(tuple(m["hex"]), s) for s in settled), default=9) <= 3
        for m in data.get("marauder_armies") or []
    )
    traded = any(
        e["type"] == EventType.GATHERED
        and e["kingdom"] == alice
        and any(g["source"] == "trade" and g["gold"] > 0 for g in e.get("gains", []))
        for e in data["events"]
    )
    held = any(k.get("milestones") for k in data["kingdoms"])
    return raiding and traded and held


def horde_battle_news(campaign: Campaign, battle: Json) -> str:
    members = {m.kingdom: m for m in campaign.memberships.select_related("user")}
    kingdom = members[battle["attacker"]]
    return (
        f"A pitched battle at {battle['hex']} against the marauders went to the tabletop, "
        f"waiting for its result: {kingdom.kingdom_name} ({kingdom.user}) against the Orc "
        f"horde, bob its general, on a {battle['board']} board."
    )


DEMOS = {
    SLUG: demo_campaign,
    "demo-battle": battle_campaign,
    "demo-winter": winter_campaign,
    "demo-ended": ended_campaign,
    "demo-options": options_campaign,
    "demo-wars": wars_campaign,
    "demo-glory": glory_campaign,
}


def describe(campaign: Campaign, news: str, created: list[str]) -> str:
    snapshot = common.latest_snapshot(campaign)
    clock = snapshot.data["clock"]
    members = {m.kingdom: m for m in campaign.memberships.select_related("user")}
    waiting = sorted(members[k].user.username for k in common.owing(snapshot.data))
    waiting += [
        f"{members[p['general']].user.username if p['general'] in members else ADMIN} "
        "(for the marauders)"
        for p in snapshot.data.get("pending", [])
        if p["kingdom"] == HORDE
    ]
    names = [ADMIN, *(player for player, _, _ in PLAYERS)]
    made = f" (created: {', '.join(created)})" if created else " (all existed)"
    return "\n".join(
        [
            f"Campaign {campaign.name!r} (slug {campaign.slug}) on {BUILTIN_MAPS[MAP].title}, "
            f"{campaign.kingdoms} kingdoms, {campaign.status}: year {clock['year']}, "
            f"{clock['season']} month {clock['month']}, {snapshot.number} snapshots.",
            news,
            f"Now the campaign waits for the {clock['step']} of {', '.join(waiting)}."
            if waiting
            else "It waits for nobody.",
            f"Users, password {PASSWORD!r}: {', '.join(names)}{made}. "
            f"{ADMIN} runs the campaign and is a Django superuser: see the data at /admin/.",
        ]
    )


def battle_news(campaign: Campaign, battle: Json) -> str:
    members = {m.kingdom: m for m in campaign.memberships.select_related("user")}
    attacker, defender = members[battle["attacker"]], members[battle["defender"]]
    done = battle["status"] == BattleStatus.RESOLVED
    return (
        f"A pitched battle at {battle['hex']} went to the tabletop"
        + (" and its result is in: " if done else ", waiting for its result: ")
        + f"{attacker.kingdom_name} ({attacker.user}) against "
        f"{defender.kingdom_name} ({defender.user}), on a {battle['board']} board."
    )


def awaiting(data: Json) -> list[Json]:
    """The battles of a campaign file waiting for their tabletop result."""
    return [b for b in data.get("battles", []) if b["status"] == BattleStatus.AWAITING_RESULT]


# --- bots through the services ----------------------------------------------------------------


def play_bot_step(
    campaign: Campaign,
    *,
    players: Mapping[str, User],
    admin: User,
    rng: random.Random,
    hexmap: HexMap | None = None,
    march: bool = False,
    between: tuple[str, ...] = (),
    siege: tuple[str, str] | None = None,
    warlike: str = "",
) -> Snapshot:
    """Answer with bots whatever the newest snapshot waits for, the way people would: each
    kingdom's player saves its decisions and marks them ready; tabletop results and the
    admin's simple battles come from the admin. Then advance, and return the newest
    snapshot. With `march`, two armies are steered to meet (see `march_armies`), of the
    kingdoms `between` if given; with `siege` (attacker, defender), towards a siege of the
    defender's capital (see `besiege`); a `warlike` kingdom's armies hunt the marauders and
    its winters build roads to its cities (see `hunt_the_horde`, `build_roads`). With option
    glory, the secret honour wishes the bots give with their purchases are saved too."""
    snapshot = common.latest_snapshot(campaign)
    data = snapshot.data
    hexmap = hexmap or cached_map_from_json(data["map"])
    decided: Json = bots.decide(data, rng, hexmap)["inputs"]
    if march and data["clock"]["step"] == Step.ORDERS:
        march_armies(data, decided, hexmap, between)
    if siege is not None and data["clock"]["step"] == Step.ORDERS:
        besiege(data, decided, hexmap, *siege)
    if warlike and data["clock"]["step"] == Step.ORDERS:
        hunt_the_horde(data, decided, hexmap, warlike)
    if warlike and data["clock"]["step"] == Step.BUILD:
        build_roads(data, decided, warlike)
    for kingdom, kind, payload in bot_answers(data, decided):
        submissions.submission_save(
            campaign=campaign, user=players[kingdom], kind=kind, payload=payload
        )
    for kingdom, wishes in sorted(decided.get(decisions.HONOUR_WISHES, {}).items()):
        submissions.wishes_save(campaign=campaign, user=players[kingdom], wishes=wishes)
    given = len((data.get("inputs") or {}).get("battles", []))
    for entry in decided.get("battles", [])[given:]:
        _battle_entry(campaign, players, admin, entry)
    for kingdom in sorted(common.owing(data)):
        submissions.submission_set_ready(campaign=campaign, user=players[kingdom])
    advanced = advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=snapshot.number)
    return advanced or common.latest_snapshot(campaign)


def bot_answers(data: Json, decided: Json) -> Iterator[tuple[str, str, Any]]:
    """(kingdom, kind, payload) for each decision a kingdom owes, from the bots' inputs;
    battle entries apart (`_battle_entry`)."""
    pending = data.get("pending", [])
    before = data.get("inputs") or {}
    cycle = orders_in_cycle(data["options"])
    owed = sorted({(p["kingdom"], decisions.ANSWERS[p["kind"]]) for p in pending})
    for kingdom, kind in owed:
        if kind in decisions.LISTED:
            continue
        answer = decided.get(kind, {})
        if kind in decisions.BY_UNIT:
            units = {p["unit"] for p in pending if p["kingdom"] == kingdom and "unit" in p}
            yield kingdom, kind, {unit: to for unit, to in answer.items() if unit in units}
        elif kind == decisions.ANSWERS[PendingKind.ORDERS] and cycle:  # one after another: the new
            yield kingdom, kind, answer[kingdom][len(before.get(kind, {}).get(kingdom, [])) :]
        elif kingdom in answer:
            yield kingdom, kind, answer[kingdom]


def _battle_entry(
    campaign: Campaign, players: Mapping[str, User], admin: User, entry: Json
) -> None:
    if "result" in entry or "resolve" in entry:
        battle_entries.battle_entry_save(
            campaign=campaign, actor=admin, entry=entry, audit=AuditEntry.Action.BATTLE_DECIDED
        )
    elif "naval" in entry:
        return  # no service takes the choice of a naval battle yet: it stays pitched
    else:  # a concession or a Last Stand, by the kingdom it names
        kingdom = entry.get("concede") or entry["last_stand"]
        submissions.submission_save(
            campaign=campaign, user=players[kingdom], kind="battles", payload=[entry]
        )


def march_armies(data: Json, inputs: Json, hexmap: HexMap, between: tuple[str, ...] = ()) -> None:
    """Steer the bots' orders so that two armies meet: of the upright armies given an
    order, the two of different kingdoms with the shortest march between them; the one
    first in id order marches a step towards the other, which stands and defends. Month
    after month the two close in, until they share a tile and a battle is fought."""
    orders = inputs.get("orders", {})
    ordered = {order["unit"] for given in orders.values() for order in given}
    armies = [
        a
        for a in data.get("armies", [])
        if a["upright"] and a["id"] in ordered and (not between or a["kingdom"] in between)
    ]
    best: tuple[int, str, str, Hex] | None = None
    for hunter in sorted(armies, key=lambda a: a["id"]):
        steps = routes(hexmap, (hunter["hex"][0], hunter["hex"][1]), _towers(data))
        for quarry in armies:
            there = (quarry["hex"][0], quarry["hex"][1])
            if quarry["kingdom"] == hunter["kingdom"] or there not in steps:
                continue
            distance, step = steps[there]
            if best is None or (distance, hunter["id"], quarry["id"]) < best[:3]:
                best = (distance, hunter["id"], quarry["id"], step)
    if best is None:
        return
    _, hunter_id, quarry_id, step = best
    for given in orders.values():
        for i, order in enumerate(given):
            if order["unit"] == hunter_id:
                given[i] = {"unit": hunter_id, "order": "move", "to": list(step)}
            elif order["unit"] == quarry_id:
                given[i] = {"unit": quarry_id, "order": "defend"}


def hunt_the_horde(data: Json, inputs: Json, hexmap: HexMap, kingdom: str) -> None:
    """Steer the kingdom's first upright army a step towards the nearest marauder band
    (option marauders), so that a battle against the horde comes."""
    bands = {(m["hex"][0], m["hex"][1]) for m in data.get("marauder_armies") or []}
    given = inputs.get("orders", {}).get(kingdom, [])
    ordered = {order["unit"] for order in given}
    for army in data.get("armies", []):
        if army["kingdom"] != kingdom or not army["upright"] or army["id"] not in ordered:
            continue
        steps = routes(hexmap, (army["hex"][0], army["hex"][1]), _towers(data))
        near = sorted((steps[b][0], b) for b in bands if b in steps)
        if near:
            step = steps[near[0][1]][1]
            order = {"unit": army["id"], "order": "move", "to": list(step)}
            inputs["orders"][kingdom] = [order if o["unit"] == army["id"] else o for o in given]
            return


def build_roads(data: Json, inputs: Json, kingdom: str) -> None:
    """Steer the kingdom's winter purchases (option roads): first, roads along its own
    tiles from its capital to its nearest city or village not yet joined, a gold each, so
    that trade comes to its capital (OW10)."""
    own = {(t["hex"][0], t["hex"][1]): t for t in data["tiles"] if t["owner"] == kingdom}
    capital = next((k["capital"] for k in data["kingdoms"] if k["id"] == kingdom), None)
    if capital is None:
        return
    built = {frozenset(((a[0], a[1]), (b[0], b[1]))) for a, b in data.get("roads") or []}
    hexmap = cached_map_from_json(data["map"])
    start = (capital[0], capital[1])
    before: dict[Hex, Hex] = {}
    frontier = [start]
    for here in frontier:
        for there in hexmap.neighbours(here):
            if (
                there in own
                and there not in before
                and there != start
                and not hexmap.is_water_edge(here, there)
            ):
                before[there] = here
                frontier.append(there)
    goals = [h for h in frontier[1:] if own[h]["settlement"] in ("city", "village")]
    for goal in goals:
        path = [goal]
        while path[-1] != start:
            path.append(before[path[-1]])
        missing = [(a, b) for a, b in pairwise(path) if frozenset((a, b)) not in built]
        if missing:
            roads = [{"build": "road", "hex": list(a), "to": list(b)} for a, b in missing]
            chosen = {frozenset(pair) for pair in missing}
            purchases = inputs.setdefault("purchases", {})
            others = [p for p in purchases.get(kingdom, []) if _road_of(p) not in chosen]
            purchases[kingdom] = [*roads, *others]
            return


def _road_of(purchase: Json) -> frozenset[Hex] | None:
    """The two tiles of a road purchase (option roads); None for another purchase."""
    if purchase.get("build") != "road":
        return None
    a, b = purchase["hex"], purchase["to"]
    return frozenset(((a[0], a[1]), (b[0], b[1])))


def besiege(data: Json, inputs: Json, hexmap: HexMap, attacker: str, defender: str) -> None:
    """Steer the bots' orders towards a siege (option sieges, OA14): the defender's first
    army goes home and Defends its capital; the attacker's first marches on it, and waits
    next to it until the defender's army is home, so that it assaults a defended capital
    rather than taking an empty one. First armies, because that is where a kingdom's
    artefacts go unless it places them (OA9)."""
    capital = next(k["capital"] for k in data["kingdoms"] if k["id"] == defender)
    if capital is None:
        return
    home = (capital[0], capital[1])
    orders = inputs.get("orders", {})
    guard = _first_army(data, orders.get(defender, []), hexmap, home)
    guarded = guard is not None and guard[1] == 0
    hunter = _first_army(data, orders.get(attacker, []), hexmap, home)
    for kingdom_id, found in ((defender, guard), (attacker, hunter)):
        if found is None:
            continue
        army, distance, step = found
        if distance == 0 or (kingdom_id == attacker and distance == 1 and not guarded):
            order: Json = {"unit": army, "order": "defend"}
        else:
            order = {"unit": army, "order": "move", "to": list(step)}
        orders[kingdom_id] = [order if o["unit"] == army else o for o in orders[kingdom_id]]


def _first_army(
    data: Json, given: list[Json], hexmap: HexMap, target: Hex
) -> tuple[str, int, Hex] | None:
    """Of the upright armies the orders `given` name, the first in the file's order that
    can march to `target`: its id, the steps, and its first step there; None if none can."""
    ordered = {order["unit"] for order in given}
    for army in data.get("armies", []):
        if not army["upright"] or army["id"] not in ordered:
            continue
        here = (army["hex"][0], army["hex"][1])
        route = (0, here) if here == target else routes(hexmap, here, _towers(data)).get(target)
        if route is not None:
            return army["id"], route[0], route[1]
    return None


def _towers(data: Json) -> frozenset[Hex]:
    """The Wizard's towers, which no army enters (option wizards, OA5)."""
    return frozenset((t[0], t[1]) for t in data.get("towers") or [])
