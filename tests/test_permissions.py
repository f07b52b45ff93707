"""Who may open every page and send every form of the project: the matrix of every URL in
the URL conf (so a new view cannot be forgotten: an URL missing from `MATRIX` fails) for
each kind of visitor: signed out, a player of another campaign, a player of this campaign
who is not concerned, the player of the kingdom concerned, and the campaign's admin."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import User
from battles.models import ArmyList, Battle
from campaign.models import Campaign, Correspondence, KingdomOffer, Letter, correspondence_key
from tests.battles.conftest import hand_off, make_league
from tests.battles.pictures import photo_on
from tests.campaign.helpers import LEAGUE_CAST, make_cast
from tests.conftest import cast_read_again, made_for_the_module, read_again

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "member", "player", "admin")
WHO = {"outsider": "eve", "member": "carol", "player": "alice", "admin": "gm"}


def url_names(patterns: list[Any] | None = None, namespace: str = "") -> Iterator[str]:
    """Every named URL of the project, with its namespace, but the Django admin's."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            inner = ":".join(n for n in (namespace, pattern.namespace or "") if n)
            yield from url_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}:{pattern.name}" if namespace else pattern.name


# What each kind of visitor gets: let in ("open": the page, or a form's answer, which may be
# a refusal in the game's words: 2xx, 400, or a redirect elsewhere than the sign-in page),
# sent to sign in, not found (403 or 404: the page does not exist for them), or 405.
type Outcome = str
OPEN, SIGN_IN, DENIED, NO_METHOD = "open", "sign in", "denied", "405"


def level(**outcomes: Outcome) -> dict[str, Outcome]:
    return {role: outcomes.get(role, outcomes.get("others", OPEN)) for role in ROLES}


PUBLIC = level()
SIGNED_IN = level(anonymous=SIGN_IN)
MEMBERS = level(anonymous=SIGN_IN, outsider=DENIED)
PLAYERS = level(anonymous=SIGN_IN, outsider=DENIED, admin=DENIED)  # gm rules no kingdom
ADMINS = level(anonymous=SIGN_IN, others=DENIED, admin=OPEN)
NOBODY = level(anonymous=SIGN_IN, others=DENIED)
NOT_OFFERED = level(anonymous=SIGN_IN, others=NO_METHOD)
NOT_OFFERED_TO_ANYONE = level(others=NO_METHOD)


@dataclass(frozen=True)
class Door:
    """A URL: what GET and POST give each kind of visitor, and its arguments, from the
    campaign and its battle."""

    get: dict[str, Outcome]
    post: dict[str, Outcome]
    args: Callable[[Campaign, Battle], list[Any]] = lambda c, b: [c.slug]


def _slug_and(*more: Any) -> Callable[[Campaign, Battle], list[Any]]:
    return lambda c, b: [c.slug, *(m(c, b) if callable(m) else m for m in more)]


def _none(c: Campaign, b: Battle) -> list[Any]:
    return []


def _battle(c: Campaign, b: Battle) -> int:
    return b.number


def _offer(c: Campaign, b: Battle) -> list[Any]:
    """A kingdom offered to nobody among the visitors: none may answer it."""
    offer = KingdomOffer.objects.create(campaign=c, kingdom="x", username="dave", reason="x")
    return [offer.pk, "accept"]


def _photo(c: Campaign, b: Battle) -> int:
    """A photograph on bob's report of the battle (Brightwater's), shown to every member:
    only the admin, the last to post, removes it."""
    return photo_on(b, "brightwater").pk


def _told(c: Campaign, b: Battle) -> str:
    """alice's report of the battle, which the admin may hide: her kingdom."""
    return photo_on(b, "aldermark").report.kingdom


def _pact(c: Campaign, b: Battle) -> int:
    """alice's and bob's correspondence (issue 28): theirs alone, not carol's nor the
    admin's."""
    return _pact_letter(c, b).correspondence_id


def _pact_letter(c: Campaign, b: Battle) -> Letter:
    """alice's letter to bob, which only she may change."""
    correspondence, _ = Correspondence.objects.get_or_create(
        campaign=c, key=correspondence_key(["aldermark", "brightwater"])
    )
    found = correspondence.letters.first()
    return found or Letter.objects.create(
        correspondence=correspondence, kingdom="aldermark", text="A pact?"
    )


PACT = level(anonymous=SIGN_IN, others=DENIED, player=OPEN)


def _army_list(c: Campaign, b: Battle) -> int:
    """A list of alice's book (issue 28): hers alone to change; carol, who keeps a book
    too, is refused in words."""
    found, _ = ArmyList.objects.get_or_create(
        campaign=c, kingdom="aldermark", name="Riders", defaults={"points": 500, "text": "x"}
    )
    return found.pk


def _newest(c: Campaign, b: Battle) -> int:
    return c.snapshots.order_by("-number").values_list("number", flat=True)[0]


# Every URL of the project. The campaign stands at a battle between alice's kingdom and
# bob's; carol plays in it too; gm runs it and rules no kingdom; eve plays elsewhere.
MATRIX: dict[str, Door] = {
    "accounts:settings": Door(SIGNED_IN, SIGNED_IN, _none),
    "accounts:sign_in": Door(PUBLIC, PUBLIC, _none),
    "accounts:sign_out": Door(NOT_OFFERED_TO_ANYONE, PUBLIC, _none),
    # Signing up and resetting a password are for anyone (a signed-in visitor is sent home).
    "accounts:sign_up": Door(PUBLIC, PUBLIC, _none),
    "accounts:password_reset": Door(PUBLIC, PUBLIC, _none),
    "accounts:password_reset_sent": Door(PUBLIC, NOT_OFFERED_TO_ANYONE, _none),
    "accounts:password_reset_confirm": Door(PUBLIC, PUBLIC, lambda c, b: ["MQ", "no-token"]),
    "accounts:password_reset_complete": Door(PUBLIC, NOT_OFFERED_TO_ANYONE, _none),
    "accounts:display_name": Door(SIGNED_IN, SIGNED_IN, _none),
    "accounts:change_email": Door(SIGNED_IN, SIGNED_IN, _none),
    "accounts:password_change": Door(SIGNED_IN, SIGNED_IN, _none),
    "accounts:close_account": Door(SIGNED_IN, SIGNED_IN, _none),
    "battles:mine": Door(SIGNED_IN, NOT_OFFERED, _none),
    "battles:list": Door(MEMBERS, NOT_OFFERED),
    "battles:card": Door(MEMBERS, NOT_OFFERED, _slug_and(_battle)),
    # Any member may try; only the battle's players are heard (tests/battles/test_views.py).
    "battles:act": Door(NOT_OFFERED, MEMBERS, _slug_and(_battle, "confirm")),
    "battles:decide": Door(NOT_OFFERED, MEMBERS, _slug_and("retreat")),
    "battles:admin": Door(ADMINS, NOT_OFFERED),
    "battles:admin_act": Door(NOT_OFFERED, ADMINS, _slug_and(_battle, "extend")),
    # Battle reports (issue 28): any member may try; only the battle's players write one
    # and add photographs, only its side's player or the admin removes one, and the
    # photographs are for the members (tests/battles/test_battle_reports.py).
    "battles:battle_report_write": Door(NOT_OFFERED, MEMBERS, _slug_and(_battle)),
    "battles:battle_photo_add": Door(NOT_OFFERED, MEMBERS, _slug_and(_battle)),
    "battles:battle_photo_remove": Door(NOT_OFFERED, MEMBERS, _slug_and(_battle, _photo)),
    "battles:battle_photo": Door(MEMBERS, NOT_OFFERED, _slug_and(_battle, _photo, "large")),
    "battles:battle_report_hide": Door(NOT_OFFERED, ADMINS, _slug_and(_battle, _told, "hide")),
    # Army lists (issue 28): a book is its kingdom's player's (the admin, who rules no
    # kingdom, has none); another's list is refused in words; any member may try to attach
    # a list, only the battle's two players are heard (tests/battles/test_army_lists.py).
    "battles:lists": Door(PLAYERS, NOT_OFFERED),
    "battles:list_add": Door(NOT_OFFERED, PLAYERS),
    "battles:list_edit": Door(NOT_OFFERED, PLAYERS, _slug_and(_army_list)),
    "battles:list_delete": Door(NOT_OFFERED, PLAYERS, _slug_and(_army_list)),
    "battles:list_attach": Door(NOT_OFFERED, MEMBERS, _slug_and(_battle)),
    "battles:list_withdraw": Door(NOT_OFFERED, MEMBERS, _slug_and(_battle)),
    "campaign:home": Door(PUBLIC, NOT_OFFERED_TO_ANYONE, _none),
    "campaign:healthz": Door(PUBLIC, NOT_OFFERED_TO_ANYONE, _none),
    "campaign:rules": Door(PUBLIC, NOT_OFFERED_TO_ANYONE, _none),
    # Starting a campaign and joining one: for anyone signed in (an invitation to a
    # campaign under way says so, and a post is refused in words).
    "campaign:new": Door(SIGNED_IN, SIGNED_IN, _none),
    "campaign:new_preview": Door(SIGNED_IN, NOT_OFFERED, _none),
    "campaign:map_thumbnail": Door(PUBLIC, NOT_OFFERED_TO_ANYONE, lambda c, b: ["borderlands"]),
    "campaign:join_with_code": Door(PUBLIC, NOT_OFFERED_TO_ANYONE, _none),
    # Only the person a kingdom is offered to answers (tests/campaign/views/test_dashboard_people.py).
    "campaign:offer_answer": Door(NOT_OFFERED, NOBODY, _offer),
    "campaign:join": Door(SIGNED_IN, SIGNED_IN, lambda c, b: [c.join_code]),
    "campaign:campaign": Door(MEMBERS, NOT_OFFERED),
    "campaign:report": Door(MEMBERS, NOT_OFFERED, _slug_and(_newest)),
    "campaign:moved_on": Door(MEMBERS, NOT_OFFERED),
    "campaign:might": Door(MEMBERS, NOT_OFFERED),
    "campaign:chronicle": Door(MEMBERS, NOT_OFFERED),
    "campaign:end": Door(
        NOBODY, NOT_OFFERED
    ),  # the campaign has not ended (tests/campaign/views/test_end.py)
    "campaign:kingdom": Door(PLAYERS, NOT_OFFERED),
    # Issue 35: a player names their own units (tests/campaign/views/test_names.py).
    "campaign:unit_name": Door(NOT_OFFERED, PLAYERS),
    # Option glory (issue 39): a player orders their own kingdom's secret honour wishes
    # (tests/campaign/views/test_glory_pages.py).
    "campaign:honour_wishes": Door(NOT_OFFERED, PLAYERS),
    # Letters (issue 28): every member reads the herald and writes (the admin, who rules no
    # kingdom, is refused in words); a correspondence is its kingdoms' alone
    # (tests/campaign/views/test_letters.py).
    "campaign:letters": Door(MEMBERS, NOT_OFFERED),
    "campaign:letter_write": Door(NOT_OFFERED, MEMBERS),
    "campaign:correspondence": Door(PACT, NOT_OFFERED, _slug_and(_pact)),
    "campaign:letter_answer": Door(NOT_OFFERED, PACT, _slug_and(_pact)),
    "campaign:letter_edit": Door(NOT_OFFERED, PACT, _slug_and(lambda c, b: _pact_letter(c, b).pk)),
    "campaign:dashboard": Door(ADMINS, NOT_OFFERED),
    "campaign:dashboard_action": Door(NOT_OFFERED, ADMINS, _slug_and("pause")),
    "campaign:orders": Door(PLAYERS, NOT_OFFERED),
    "campaign:orders_status": Door(PLAYERS, NOT_OFFERED),
    **{
        f"campaign:orders_{action}": Door(NOT_OFFERED, PLAYERS)
        for action in ("give", "withdraw", "sequence", "ready")
    },
    # The admin sees the setup's progress; a choice from them is refused by the services.
    "campaign:setup": Door(MEMBERS, NOT_OFFERED),
    **{
        f"campaign:setup_{action}": Door(NOT_OFFERED, MEMBERS)
        for action in ("race", "capital", "settlement", "army", "ready")
    },
    "campaign:winter": Door(PLAYERS, NOT_OFFERED),
    "campaign:winter_ready": Door(NOT_OFFERED, PLAYERS),
    "campaign:winter_change": Door(NOT_OFFERED, PLAYERS, _slug_and("tithes", "add")),
    # A user's own choices; the unsubscribe link works signed out, and a token not made
    # here is refused in words (tests/notifications/test_notification_pages.py).
    "notifications:choices": Door(SIGNED_IN, SIGNED_IN, _none),
    "notifications:unsubscribe": Door(PUBLIC, PUBLIC, lambda c, b: ["not-a-token"]),
    # The admin's desk in the dashboard: the Discord webhook and the outbox.
    "notifications:desk": Door(ADMINS, NOT_OFFERED),
    "notifications:desk_action": Door(NOT_OFFERED, ADMINS, _slug_and("discord-remove")),
}


def test_every_url_of_the_project_is_in_the_matrix():
    assert sorted(set(url_names()) - set(MATRIX)) == []
    assert sorted(set(MATRIX) - set(url_names())) == []


def outcome(response: Any) -> Outcome:
    status = response.status_code
    assert status < 500, f"{response.request['PATH_INFO']} answered {status}"
    if status in (403, 404):
        return DENIED
    if status == 405:
        return NO_METHOD
    if status in (301, 302) and "/accounts/sign-in/" in response["Location"]:
        return SIGN_IN
    return OPEN


@pytest.fixture(scope="module")
def seated(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[tuple[Campaign, Battle, dict[str, User]]]:
    """The campaign at its battle and its cast, made once for the module
    (tests/conftest.py's `made_for_the_module`)."""
    with made_for_the_module(django_db_blocker):
        cast = make_cast(LEAGUE_CAST)
        campaign = make_league(cast)
        battle = hand_off(campaign, cast)
        assert battle is not None
        yield campaign, battle, cast


@pytest.fixture
def league(
    seated: tuple[Campaign, Battle, dict[str, User]],
) -> tuple[Campaign, Battle, dict[str, Client]]:
    """The module's campaign at its battle, read again, and a new browser for each kind of
    visitor (a test's posts may sign one out)."""
    campaign, battle, cast = seated
    return read_again(campaign), read_again(battle), browsers(cast_read_again(cast))


def seated_league() -> tuple[Campaign, Battle, dict[str, Client]]:
    """The campaign at its battle, and a browser for each kind of visitor."""
    cast = make_cast(LEAGUE_CAST)
    campaign = make_league(cast)
    battle = hand_off(campaign, cast)
    assert battle is not None
    return campaign, battle, browsers(cast)


def browsers(cast: dict[str, User]) -> dict[str, Client]:
    """A browser for each kind of visitor, signed in as its member of the cast."""
    clients = {"anonymous": Client()}
    for role, name in WHO.items():
        clients[role] = Client()
        clients[role].force_login(cast[name])
    return clients


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_who_may_open_each_url_and_send_each_form(name, league):
    campaign, battle, clients = league
    door = MATRIX[name]
    url = reverse(name, args=door.args(campaign, battle))
    got = {
        method: {role: outcome(getattr(clients[role], method)(url)) for role in ROLES}
        for method in ("get", "post")
    }
    assert got == {"get": door.get, "post": door.post}
