"""A group plays a campaign from its setup through two whole years to its end entirely in
the app: nobody uses the Django admin, and no deadline default decides anything.

gm creates the campaign, alice and bob join it and gm starts it through the services: the
sign-up and new-campaign pages come later. From then on every decision the campaign asks
(the newest snapshot's `pending`) is given by an HTTP request to the app's own pages, as
their forms post: the fields and values are read from the page each player has just
opened (the hidden `seen` included), and a field or a value the page does not offer fails
the test. What to decide is the bots' (`campaign.rules.bots.decide`), with two armies
steered at each other (`seed_demo.march_armies`) so that battles are fought; in a third
game the bots are left alone, and their ships take armies aboard and put them ashore:

- setup: race, capital, settlements and first army on the setup page, then Ready;
- summer: each unit's order on the orders page, then Ready (in the order cycle, one final
  order at a time); a tabletop battle's result is reported by one side on its card and
  confirmed there by the other, a concession is made on the card, a simple battle is
  settled by gm at the battles desk, and a retreat (and, when asked, a Last Stand or the
  next battle's tile) is decided on the campaign's battles page;
- winter: tithes, purchases, the armies that go hungry and deployment on the winter page,
  then Ready.

Each advance happens because everyone asked is ready: the services queue it after their
request commits, and Celery runs it at once (`eager`). A naval battle instead of a
pitched one is chosen with the next battle's tile, where the page offers it (ruling B3)."""

import html
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import ResultReport
from campaign.management.commands.seed_demo import march_armies
from campaign.models import Campaign, Snapshot, Submission
from campaign.rules import bots, decisions
from campaign.rules.hexmap import map_from_json
from campaign.services import common
from tests.campaign.helpers import kingdom_of, make_cast, new_campaign, signed_in

pytestmark = pytest.mark.django_db

# The campaign's dice and the bots': with armies steered to meet, battles reported, conceded
# and settled by dice; left to the bots, ships taking armies aboard and putting them ashore.
STEERED_SEED, FREE_SEED = 24, 60
YEARS = 2
MAX_SNAPSHOTS = 200  # the campaign takes 30 snapshots, 40 with the order cycle
HTMX = {"HX-Request": "true"}

type Json = dict[str, Any]
type Chosen = Mapping[str, str | Sequence[str]]


# --- the forms on a page ----------------------------------------------------------------------


@dataclass
class Form:
    """A form as the page offers it: where it posts, what it posts as it stands (hidden
    fields, the options selected), and the values a player may choose for each field
    (radio buttons, check boxes, options, submit buttons)."""

    action: str
    values: dict[str, list[str]] = field(default_factory=dict)
    offered: dict[str, list[str]] = field(default_factory=dict)


class FormReader(HTMLParser):
    """Every form of a page; the fields outside any form (those an htmx form includes)
    are gathered in `loose`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.loose = Form(action="")
        self._form: Form | None = None
        self._select: str | None = None

    @property
    def current(self) -> Form:
        return self._form or self.loose

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        name = a.get("name", "")
        if tag == "form":
            self._form = Form(a.get("action", ""))
            self.forms.append(self._form)
        elif tag == "select":
            self._select = name
            self.current.offered[name] = []
        elif tag == "option" and self._select is not None:
            self.current.offered[self._select].append(a.get("value", ""))
            if "selected" in a:
                self.current.values[self._select] = [a.get("value", "")]
        elif tag == "button" and name:
            self.current.offered.setdefault(name, []).append(a.get("value", ""))
        elif tag == "textarea" and name:
            self.current.values[name] = [""]
        elif tag == "input" and name:
            kind, value = a.get("type", "text"), a.get("value", "")
            if kind in ("radio", "checkbox"):
                self.current.offered.setdefault(name, []).append(value or "on")
                if "checked" in a:
                    self.current.values.setdefault(name, []).append(value or "on")
            else:
                self.current.values.setdefault(name, []).append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None:
            options = self.current.offered[self._select]
            if options and self._select not in self.current.values:
                self.current.values[self._select] = [options[0]]  # as a browser sends it
            self._select = None


def read_forms(page: str) -> FormReader:
    reader = FormReader()
    reader.feed(page)
    return reader


def the_form(
    page: str, action: str, *, offering: str = "", without: str = "", **having: str
) -> Form:
    """The page's form that posts to `action` with the hidden values `having`, offering a
    choice of `offering` and no field `without`, if those are asked; fails if there is none."""
    for form in read_forms(page).forms:
        if (
            form.action == action
            and all(form.values.get(name) == [value] for name, value in having.items())
            and (not offering or offering in form.offered)
            and (not without or without not in form.values)
        ):
            return form
    on_page = [(f.action, f.values) for f in read_forms(page).forms if f.action == action]
    raise AssertionError(f"No form posting to {action} with {having or ''} {offering}: {on_page}")


REFUSAL = re.compile(
    r'class="(?:message message-error|message-error|setup-error|order-error)"[^>]*>(.*?)</',
    re.S,
)


def refusals_in(page: str) -> list[str]:
    return [html.unescape(found.strip()) for found in REFUSAL.findall(page)]


def hex_value(hex_: Sequence[int]) -> str:
    """A tile as the forms write it."""
    return f"{hex_[0]},{hex_[1]}"


# --- the group around the table ---------------------------------------------------------------


@dataclass
class Table:
    """The campaign, each kingdom's player and the gm signed in on browsers of their own,
    what runs the advances queued when a request commits, and a tally of the decisions
    given through the pages."""

    campaign: Campaign
    players: dict[str, Client]  # by kingdom
    gm: Client
    commit: Callable[..., AbstractContextManager[Any]]
    answered: Counter[str] = field(default_factory=Counter)

    def url(self, name: str, *args: Any) -> str:
        return reverse(name, args=[self.campaign.slug, *args])

    def newest(self) -> Snapshot:
        return common.latest_snapshot(self.campaign)

    def moved_on(self, since: int) -> bool:
        return self.newest().number > since

    def page(self, client: Client, name: str, *args: Any, query: str = "") -> str:
        response = client.get(self.url(name, *args) + query)
        assert response.status_code == 200, f"{name} answered {response.status_code}"
        return response.text

    def open_decision(self, kingdom: str, kind: str) -> Any:
        found = Submission.objects.filter(
            campaign=self.campaign, kingdom=kingdom, kind=kind, consumed_by=None
        ).first()
        return None if found is None else found.payload

    def ready(self, kingdom: str) -> bool:
        return kingdom in common.ready_kingdoms(self.campaign)


def submit(
    table: Table,
    client: Client,
    form: Form,
    chosen: Chosen | None = None,
    *,
    htmx: bool = False,
) -> str:
    """Post the form as the page has it, with the values `chosen` among those it offers;
    run what the request queued once it commits. Fails on a refusal, with its message."""
    data = {name: list(values) for name, values in form.values.items()}
    for name, value in (chosen or {}).items():
        values = [value] if isinstance(value, str) else list(value)
        assert name in form.offered or name in form.values, (
            f"The form posting to {form.action} has no field {name!r}: "
            f"{sorted({*form.values, *form.offered})}"
        )
        not_offered = [v for v in values if name in form.offered and v not in form.offered[name]]
        assert not not_offered, (
            f"The form posting to {form.action} offers no {name}={not_offered}, only "
            f"{form.offered[name]}"
        )
        data[name] = values
    with table.commit(execute=True):
        response = client.post(form.action, data, follow=not htmx, headers=HTMX if htmx else None)
    assert all(status == 302 for _, status in getattr(response, "redirect_chain", []))
    refused = refusals_in(response.text)
    shown = {name: values for name, values in data.items() if name != "csrfmiddlewaretoken"}
    why = f"{form.action} refused {shown} ({response.status_code}): {' '.join(refused)}"
    assert response.status_code == 200, why
    assert not refused, why
    return str(response.text)


def reached(
    table: Table, since: int, kingdom: str, kind: str, wanted: Callable[[Any], bool]
) -> None:
    """The decision is in the kingdom's open submission ("" for the results both sides
    agreed on), or the campaign has moved on."""
    given = table.open_decision(kingdom, kind)
    assert table.moved_on(since) or wanted(given), f"{kingdom}'s {kind} is {given!r}"


def equal_to(expected: Any) -> Callable[[Any], bool]:
    return lambda given: bool(given == expected)


def including(entry: Any) -> Callable[[Any], bool]:
    return lambda given: given is not None and entry in given


# --- setup: the setup page ---------------------------------------------------------------------

SLOTS = ("city", "fortress", "village-1", "village-2")


def choose_at_setup(table: Table, kingdom: str, kind: str, decision: Any) -> None:
    """A race, a capital, the four settlements or the first army, chosen on the setup
    page as the player taps them."""
    client, since = table.players[kingdom], table.newest().number
    page = table.page(client, "campaign:setup")
    if kind == "races":
        submit(table, client, the_form(page, table.url("campaign:setup_race")), {"race": decision})
    elif kind in ("capitals", "starting_armies"):
        action = "campaign:setup_capital" if kind == "capitals" else "campaign:setup_army"
        form = the_form(page, table.url(action))
        submit(table, client, form, {"hex": hex_value(decision)})
    else:
        places = [decision["city"], decision["fortress"], *decision["villages"]]
        for slot, place in zip(SLOTS, places, strict=True):
            form = the_form(page, table.url("campaign:setup_settlement"), offering="settlement")
            page = submit(table, client, form, {"settlement": slot, "hex": hex_value(place)})
    reached(table, since, kingdom, kind, equal_to(decision))


def ready_at_setup(table: Table, kingdom: str) -> None:
    client, since = table.players[kingdom], table.newest().number
    page = table.page(client, "campaign:setup")
    submit(table, client, the_form(page, table.url("campaign:setup_ready"), ready="yes"))
    assert table.moved_on(since) or table.ready(kingdom)


# --- summer: the orders page -------------------------------------------------------------------


def give_orders(table: Table, kingdom: str, orders: list[Json], ships: set[str]) -> None:
    """Each unit's order, in the resolution sequence: the player chooses the unit and
    taps a tile or an order's button (a ship's with the army it carries, as htmx sends
    it); then Ready. In the order cycle (ruling O1) an order is final once given and the
    campaign moves on to the next one: the player gives one."""
    client, since = table.players[kingdom], table.newest().number
    cycle = table.campaign.options["orders"] == "cycle"
    for order in orders[:1] if cycle else orders:
        give_order(table, kingdom, order, ship=order["unit"] in ships)
        reached(table, since, kingdom, "orders", including(order))
    if not cycle:
        for unit in still_to_order(table.page(client, "campaign:orders")):
            # an army the bots' ship put ashore (O8): the page asks for its order at once
            page = table.page(client, "campaign:orders", query=f"?unit={unit}")
            submit(table, client, the_form(page, table.url("campaign:orders_give"), unit=unit))
            table.answered["put_ashore"] += 1
        page = table.page(client, "campaign:orders")
        submit(table, client, the_form(page, table.url("campaign:orders_ready"), ready="yes"))
        assert table.moved_on(since) or table.ready(kingdom)
    table.answered["orders"] += 1


def still_to_order(page: str) -> list[str]:
    """The units the orders page lists as not yet ordered."""
    if "<h3>Not yet ordered</h3>" not in page:
        return []
    listed = page.split("<h3>Not yet ordered</h3>", 1)[1].split("</ul>", 1)[0]
    return list(dict.fromkeys(re.findall(r"\?unit=([\w-]+)\"", listed)))


def give_order(table: Table, kingdom: str, order: Json, *, ship: bool) -> None:
    client, unit = table.players[kingdom], order["unit"]
    page = table.page(client, "campaign:orders", query=f"?unit={unit}")
    give = table.url("campaign:orders_give")
    if order["order"] == "move":
        form = the_form(page, give, unit=unit, order="move", to=hex_value(order["to"]))
    else:
        form = the_form(page, give, unit=unit, order=order["order"])
    if ship:  # its forms include the army it carries: hx-include="#carry-choice"
        form.offered["carry"] = read_forms(page).loose.offered["carry"]
        submit(table, client, form, {"carry": order.get("carry", "")}, htmx=True)
    else:
        submit(table, client, form)


# --- summer: the battles ------------------------------------------------------------------------


def choose_next_battle(table: Table, kingdom: str, hex_: list[int], *, naval: bool) -> None:
    """Rulings B2 and B3, on the campaign's battles page: fight at this tile, at sea if
    `naval`."""
    client, since = table.players[kingdom], table.newest().number
    page = table.page(client, "battles:list")
    action = table.url("battles:decide", "choose")
    if naval:
        form = the_form(page, action, hex=hex_value(hex_), naval="on")
    else:
        form = the_form(page, action, hex=hex_value(hex_), without="naval")
    submit(table, client, form)
    reached(table, since, kingdom, "battle_choices", equal_to([hex_]))
    table.answered["battle_choice"] += 1


def decide_last_stand(table: Table, kingdom: str, hex_: list[int], stand: bool) -> None:
    """Ruling B4, on the campaign's battles page: make a Last Stand or concede."""
    client, since = table.players[kingdom], table.newest().number
    page = table.page(client, "battles:list")
    form = the_form(page, table.url("battles:decide", "last-stand"), hex=hex_value(hex_))
    submit(table, client, form, {"stand": "yes" if stand else "no"})
    entry = {"hex": hex_, "last_stand" if stand else "concede": kingdom}
    reached(table, since, kingdom, "battles", including(entry))
    table.answered["last_stand"] += 1


def retreat(table: Table, kingdom: str, unit: str, to: list[int]) -> None:
    """Ruling B10, on the campaign's battles page: where a beaten unit goes."""
    client, since = table.players[kingdom], table.newest().number
    page = table.page(client, "battles:list")
    form = the_form(page, table.url("battles:decide", "retreat"), offering=f"retreat-{unit}")
    submit(table, client, form, {f"retreat-{unit}": hex_value(to)})
    reached(table, since, kingdom, "retreats", lambda given: (given or {}).get(unit) == to)
    table.answered["retreat"] += 1


def report_and_confirm(table: Table, battle: Json, number: int, outcome: str) -> None:
    """The attacker's player reports the tabletop result on the battle's card (a winner's
    kingdom, or "draw"); the defender's player confirms it there."""
    reporter, confirmer = table.players[battle["attacker"]], table.players[battle["defender"]]
    since = table.newest().number
    mine = table.page(reporter, "battles:list", query="?show=mine")
    assert table.url("battles:card", number) in mine, "the battle is not listed"
    page = table.page(reporter, "battles:card", number)
    form = the_form(page, table.url("battles:act", number, "report"), offering="outcome")
    submit(table, reporter, form, {"outcome": outcome})
    report = ResultReport.objects.get(
        battle__campaign=table.campaign, battle__number=number, status=ResultReport.Status.REPORTED
    )
    page = table.page(confirmer, "battles:card", number)
    form = the_form(page, table.url("battles:act", number, "confirm"), report=str(report.pk))
    submit(table, confirmer, form)
    report.refresh_from_db()
    assert report.status == ResultReport.Status.CONFIRMED
    agreed = {"result": "draw"} if outcome == "draw" else {"result": "win", "winner": outcome}
    reached(table, since, "", "battles", including({"hex": battle["hex"], **agreed}))
    table.answered["battle_result"] += 1


def concede_on_the_card(table: Table, battle: Json, number: int, kingdom: str) -> None:
    """Ruling B4: a side concedes the field from the battle's card instead of playing."""
    client, since = table.players[kingdom], table.newest().number
    page = table.page(client, "battles:card", number)
    submit(table, client, the_form(page, table.url("battles:act", number, "concede")))
    entry = {"hex": battle["hex"], "concede": kingdom}
    reached(table, since, kingdom, "battles", including(entry))
    table.answered["concession"] += 1


def settle_at_the_desk(table: Table, battle: Json, number: int) -> None:
    """Rulings B6, B7: gm settles the battle as a simple battle at the battles desk."""
    since = table.newest().number
    page = table.page(table.gm, "battles:admin")
    submit(table, table.gm, the_form(page, table.url("battles:admin_act", number, "simple")))
    reached(table, since, "", "battles", including({"hex": battle["hex"], "resolve": "simple"}))
    table.answered["simple_battle"] += 1


def settle_battles(table: Table, data: Json, decided: Json) -> None:
    """Everything the battles step asks, as the bots decided it: the choices before a
    battle and the retreats after one first, then each tabletop battle's result. Stops
    once the campaign moves on (a result may be applied at once, ruling B11)."""
    since = table.newest().number
    pending = data["pending"]
    given = len((data.get("inputs") or {}).get("battles", []))
    entries = [e for e in decided.get("battles", [])[given:] if "naval" not in e]
    for asked in pending:
        kingdom = asked["kingdom"]
        if asked["kind"] == "battle_choice":
            chosen = decided["battle_choices"][kingdom][0]
            naval = {"hex": chosen, "naval": kingdom} in decided.get("battles", [])
            choose_next_battle(table, kingdom, chosen, naval=naval)
        elif asked["kind"] == "last_stand":
            entry = next(
                e for e in entries
                if e["hex"] == asked["hex"] and kingdom in (e.get("last_stand"), e.get("concede"))
            )  # fmt: skip
            entries.remove(entry)
            decide_last_stand(table, kingdom, asked["hex"], stand="last_stand" in entry)
        elif asked["kind"] == "retreat":
            retreat(table, kingdom, asked["unit"], decided["retreats"][asked["unit"]])
        if table.moved_on(since):
            return
    awaiting = {
        hex_value(b["hex"]): (n, b)
        for n, b in enumerate(data.get("battles", []), 1)
        if b["status"] == "awaiting_result"
    }
    for entry in entries:
        number, battle = awaiting[hex_value(entry["hex"])]
        if "result" in entry:
            report_and_confirm(table, battle, number, entry.get("winner") or "draw")
        elif "concede" in entry:
            concede_on_the_card(table, battle, number, entry["concede"])
        else:
            settle_at_the_desk(table, battle, number)
        if table.moved_on(since):
            return


# --- winter: the winter page ----------------------------------------------------------------------


def winter_lists(table: Table, kingdom: str, kind: str, decision: Any) -> None:
    """The kingdom's tithes, purchases, hungry armies or deployment, written on the winter
    page one line at a time as the player adds them; then Ready."""
    client, since = table.players[kingdom], table.newest().number

    def change(action: str) -> str:
        return table.url("campaign:winter_change", kind, action)

    if kind == "tithes":
        for n, gift in enumerate(decision, 1):
            page = table.page(client, "campaign:winter")
            chosen = {"to": gift["to"]} | {what: "1" for what in ("gold", "food") if gift[what]}
            submit(table, client, the_form(page, change("add")), chosen)
            reached(table, since, kingdom, kind, equal_to(decision[:n]))
    elif kind == "purchases":
        for n, purchase in enumerate(decision, 1):
            page = table.page(client, "campaign:winter")
            submit(table, client, *offered_purchase(page, change("add"), purchase))
            reached(table, since, kingdom, kind, equal_to(decision[:n]))
    elif kind == "feed":
        page = table.page(client, "campaign:winter")
        submit(table, client, the_form(page, change("set")), {"army": decision["disband"]})
        reached(table, since, kingdom, kind, equal_to(decision))
    else:
        deploy(table, kingdom, decision)
    page = table.page(client, "campaign:winter")
    submit(table, client, the_form(page, table.url("campaign:winter_ready"), ready="yes"))
    assert table.moved_on(since) or table.ready(kingdom)
    table.answered[kind] += 1


def offered_purchase(page: str, action: str, purchase: Json) -> tuple[Form, Chosen]:
    """The button of the purchase among those the page offers, and what to type with it:
    the race of an allied army."""
    ally = purchase.get("ally")
    wanted = {**purchase, "ally": "allied"} if ally else purchase
    for form in read_forms(page).forms:
        if form.action == action and json.loads(form.values["purchase"][0]) == wanted:
            return form, ({"ally": ally} if ally else {})
    raise AssertionError(f"The winter page does not offer the purchase {purchase}")


def deploy(table: Table, kingdom: str, placements: list[Json]) -> None:
    """Ruling W7: the page asks for its armies one after another; each goes to the next
    settlement the bot chose (armies fresh from winter are alike)."""
    client, since = table.players[kingdom], table.newest().number
    placed: list[Json] = []
    for placement in placements:
        page = table.page(client, "campaign:winter")
        form = the_form(page, table.url("campaign:winter_change", "deploy", "add"))
        submit(table, client, form, {"hex": hex_value(placement["hex"])})
        placed.append({"army": form.values["army"][0], "hex": placement["hex"]})
        reached(table, since, kingdom, "deploy", equal_to(list(placed)))


# --- the campaign, snapshot after snapshot ------------------------------------------------------

SETUP = {"race", "capital", "settlements", "starting_army"}
WINTER = {"tithes", "purchases", "feed", "deploy"}
BATTLES = {"battle_choice", "last_stand", "battle_result", "retreat"}


def answer(table: Table, data: Json, decided: Json) -> None:
    """Whatever the newest snapshot asks, from each kingdom asked in turn, through the
    pages; the last one ready moves the campaign on."""
    pending = data["pending"]
    if {p["kind"] for p in pending} & BATTLES:
        settle_battles(table, data, decided)
        return
    since = table.newest().number
    ships = {s["id"] for s in data.get("ships", [])}
    for kingdom in sorted(common.owing(data)):
        kinds = {p["kind"] for p in pending if p["kingdom"] == kingdom}
        assert len(kinds) == 1, f"{kingdom} is asked {kinds} at once"
        kind = kinds.pop()
        key = decisions.ANSWERS[kind]
        if kind in SETUP:
            choose_at_setup(table, kingdom, key, decided[key][kingdom])
            ready_at_setup(table, kingdom)
            table.answered[kind] += 1
        elif kind == "orders":
            before = (data.get("inputs") or {}).get("orders", {}).get(kingdom, [])
            give_orders(table, kingdom, decided["orders"][kingdom][len(before) :], ships)
        elif kind in WINTER:
            winter_lists(table, kingdom, key, decided[key][kingdom])
        else:
            raise AssertionError(f"No page answers a pending {kind!r}")
        if table.moved_on(since):
            return


def play_to_the_end(table: Table, rng: random.Random, *, march: bool) -> None:
    hexmap = map_from_json(table.campaign.map)
    for _ in range(MAX_SNAPSHOTS):
        snapshot = table.newest()
        data = snapshot.data
        if data["clock"]["season"] == "ended":
            return
        assert data["pending"], f"Snapshot {snapshot.number} waits for nobody: {data['clock']}"
        decided = bots.decide(data, rng, hexmap)["inputs"]
        if march and data["clock"]["step"] == "orders":
            march_armies(data, decided, hexmap)
        answer(table, data, decided)
        assert table.moved_on(snapshot.number), (
            f"Everything snapshot {snapshot.number} asked was given through the pages, yet "
            f"the campaign did not move on: {data['pending']}"
        )
    raise AssertionError(f"The campaign did not end in {MAX_SNAPSHOTS} snapshots.")


def words_of(page: str) -> str:
    """A page as a reader reads it: its text, without the tags."""
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    return re.sub(r" ([:;,.)])", r"\1", text)


@pytest.mark.parametrize(
    ("orders", "seed", "march", "also_asked"),
    [
        ("sealed", STEERED_SEED, True, {"battle_result"}),
        ("cycle", STEERED_SEED, True, {"battle_result"}),
        ("sealed", FREE_SEED, False, {"put_ashore"}),
    ],
)
def test_a_two_year_campaign_is_played_from_setup_to_its_end_in_the_app(
    orders, seed, march, also_asked, eager, django_capture_on_commit_callbacks
):
    cast = make_cast()
    options = {"years": YEARS, "seed": seed, "orders": orders}
    campaign = new_campaign(cast, "Two Winters", options=options)
    names = {"alice": "Red Elves", "bob": "Blue Dwarfs"}
    table = Table(
        campaign=campaign,
        players={kingdom_of(campaign, cast[n]): signed_in(Client(), cast[n]) for n in names},
        gm=signed_in(Client(), cast["gm"]),
        commit=django_capture_on_commit_callbacks,
    )

    play_to_the_end(table, random.Random(seed), march=march)

    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.ENDED
    final = table.newest().data
    assert final["clock"]["season"] == "ended"
    clocks = [s.data["clock"] for s in campaign.snapshots.all()]
    lived = {(c["year"], c["season"], c["month"]) for c in clocks if c["season"] == "summer"}
    assert lived == {(year, "summer", month) for year in (1, 2) for month in range(1, 7)}
    assert {(1, "winter"), (2, "winter")} <= {(c["year"], c["season"]) for c in clocks}
    advances = campaign.snapshots.filter(reason=Snapshot.Reason.ADVANCE)
    assert advances.count() == campaign.snapshots.count() - 1  # no correction, no undo
    assert not advances.filter(defaults=True).exists()
    assert not advances.exclude(created_by=None).exists()  # nobody pressed "Advance now"
    answered = {"race", "capital", "settlements", "starting_army", "orders", *also_asked}
    assert answered | {"tithes", "purchases", "deploy"} <= set(table.answered), table.answered
    confirmed = ResultReport.objects.filter(
        battle__campaign=campaign, status=ResultReport.Status.CONFIRMED
    )
    assert confirmed.count() == table.answered["battle_result"]

    end = words_of(table.page(table.players[kingdom_of(campaign, cast["alice"])], "campaign:end"))
    assert "The final standings" in end
    for score in final["scores"]:
        player = next(n for n in names if kingdom_of(campaign, cast[n]) == score["kingdom"])
        assert f"{names[player]} ({player}): {score['might']} might" in end
