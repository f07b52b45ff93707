"""Each player's book of army lists (issue 28): alice writes lists into Aldermark's book,
attaches one of at most her side's points to her battle against bob's Brightwater, and the
card shows it to bob (and to gm, the admin) only once bob has attached his, to carol (a
third player) only once the result is in; the report of the result takes the attached
lists. Every refusal in words, with nothing saved and nothing typed lost; and an unrevealed
list reaches nobody who may not see it, on any page or fragment, attached or in a report of
the result, copied or typed in, whatever became of the report (issue 34)."""

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from battles.models import LISTS_PER_BOOK, ArmyList, AttachedList, Battle, ResultReport
from battles.services import decisions, desk, results
from battles.services import lists as lists_services
from campaign.services import advancing, common, members
from campaign.services.common import ServiceError
from tests.battles.conftest import hand_off
from tests.campaign.helpers import signed_in
from tests.conftest import BASE_DIR

pytestmark = pytest.mark.django_db

SECRET = "Secret Gambit"
SECRET_TEXT = "Horde of Hidden Spearmen [240]\nThe Unseen Dragon [310]"
SECRET_RACE = "Twilight Kin of the Hollow"


def card_url(battle: Battle) -> str:
    return reverse("battles:card", args=[battle.campaign.slug, battle.number])


def book_url(battle: Battle) -> str:
    return reverse("battles:lists", args=[battle.campaign.slug])


def written(
    battle: Battle, user: User, name: str, points: int, text: str = "", race: str = ""
) -> ArmyList:
    return lists_services.army_list_add(
        campaign=battle.campaign, user=user, name=name, points=points, race=race,
        text=text or f"{name}: 20 Spearmen [{points}]",
    )  # fmt: skip


def attached(battle: Battle, user: User, army_list: ArmyList) -> AttachedList:
    return lists_services.battle_list_attach(battle=battle, user=user, army_list_id=army_list.pk)


def refusal(act: Any, **kwargs: Any) -> str:
    with pytest.raises(ServiceError) as refused:
        act(**kwargs)
    return refused.value.message


def words(response: Any) -> str:
    """A page's text as read, its HTML entities decoded."""
    return html.unescape(response.content.decode())


@pytest.fixture
def secret(cast: dict[str, User], battle: Battle) -> AttachedList:
    """alice's list, attached to her battle; bob has attached none."""
    army_list = written(battle, cast["alice"], SECRET, 500, SECRET_TEXT, race=SECRET_RACE)
    return attached(battle, cast["alice"], army_list)


@pytest.fixture
def both(cast: dict[str, User], battle: Battle, secret: AttachedList) -> Battle:
    """alice's and bob's lists, both attached: shown to each other."""
    attached(battle, cast["bob"], written(battle, cast["bob"], "Shield Wall", 500, "Shieldwall x3"))
    return battle


# --- the book --------------------------------------------------------------------------------


def test_a_player_writes_lists_into_their_kingdoms_book(cast, battle):
    kept = written(battle, cast["alice"], "  Fast riders ", 1500, "\r\nKnights [1500]\r\n\r\n")
    assert (kept.kingdom, kept.name, kept.points, kept.text) == (
        "aldermark", "Fast riders", 1500, "Knights [1500]"
    )  # fmt: skip


def test_the_book_page_offers_the_rulebooks_six_sizes_and_shows_the_players_lists(
    client, cast, battle
):
    page = words(signed_in(client, cast["alice"]).get(book_url(battle)))
    assert "Aldermark's book of army lists" in page
    for size in (500, 1000, 1500, 2000, 2500, 3000):
        assert f'<a href="?points={size}#add-title">none yet: write one</a>' in page
    assert 'value="1500"' in words(client.get(book_url(battle) + "?points=1500"))
    written(battle, cast["alice"], "Fast riders", 1500, "Knights <b>[1500]</b>")
    page = client.get(book_url(battle)).content.decode()
    assert "Fast riders" in page
    assert "<strong>1500 points</strong>: 1 list" in page
    assert "Knights &lt;b&gt;[1500]&lt;/b&gt;" in page  # escaped


def test_the_form_to_write_a_list_offers_the_kingdoms_race(client, cast, battle):
    kingdoms = common.latest_snapshot(battle.campaign).data["kingdoms"]
    race = next(k["race"] for k in kingdoms if k["id"] == "aldermark")
    assert race
    page = words(signed_in(client, cast["alice"]).get(book_url(battle)))
    assert f'name="race" value="{race}"' in page


def test_the_campaign_page_links_the_players_book(client, cast, battle):
    campaign_page = reverse("campaign:campaign", args=[battle.campaign.slug])
    link = f'<a href="{book_url(battle)}">My lists</a>'
    assert link in signed_in(client, cast["alice"]).get(campaign_page).text
    assert link not in signed_in(client, cast["gm"]).get(campaign_page).text  # rules none


def test_a_list_is_written_changed_and_deleted_from_the_book_page(client, cast, battle):
    slug = battle.campaign.slug
    signed_in(client, cast["alice"])
    form = {"name": "Riders", "points": "1000", "race": "Elves", "text": "Knights\r\nKnights"}
    page = words(client.post(reverse("battles:list_add", args=[slug]), form, follow=True))
    assert "Riders is in your book." in page
    kept = ArmyList.objects.get()
    assert (kept.name, kept.points, kept.race, kept.text) == (
        "Riders",
        1000,
        "Elves",
        "Knights\nKnights",
    )
    assert 'value="Riders"' in words(client.get(f"{book_url(battle)}?edit={kept.pk}"))
    edit = reverse("battles:list_edit", args=[slug, kept.pk])
    page = words(client.post(edit, {**form, "name": "Swift riders"}, follow=True))
    assert "Your list is changed." in page
    assert ArmyList.objects.get().name == "Swift riders"
    delete = reverse("battles:list_delete", args=[slug, kept.pk])
    assert "Swift riders is out of your book." in words(client.post(delete, follow=True))
    assert not ArmyList.objects.exists()


GOOD = {"name": "Riders", "points": "1000", "race": "Elves", "text": "Knights [1000]"}
BAD = {
    "no name": ({"name": ""}, "Give the list a name."),
    "a name of 81 characters": (
        {"name": "n" * 81},
        "A list's name is at most 80 characters: yours has 81.",
    ),
    "no points": ({"points": ""}, "Give the list's points."),
    "0 points": ({"points": "0"}, "A list's points are a whole number from 1 to 10,000."),
    "10,001 points": ({"points": "10001"}, "A list's points are a whole number from 1 to 10,000."),
    "points not a number": (
        {"points": "lots"},
        "A list's points are a whole number from 1 to 10,000.",
    ),
    "points with a fraction": (
        {"points": "1.5"},
        "A list's points are a whole number from 1 to 10,000.",
    ),
    "a race of 61 characters": (
        {"race": "r" * 61},
        "A list's race is at most 60 characters: yours has 61.",
    ),
    "no list": ({"text": ""}, "Paste the list itself"),
    "a list of blanks": ({"text": " \r\n \r\n"}, "Paste the list itself"),
    "a list of 20,001 characters": (
        {"text": "x" * 20_001},
        "A list is at most 20,000 characters: yours has 20,001.",
    ),
}


@pytest.mark.parametrize("bad", list(BAD))
def test_a_refused_list_is_told_in_words_and_what_was_typed_is_shown_again(
    client, cast, battle, bad
):
    change, why = BAD[bad]
    sent = {**GOOD, "text": "Knights [1000] typed with care", **change}
    response = signed_in(client, cast["alice"]).post(
        reverse("battles:list_add", args=[battle.campaign.slug]), sent
    )
    assert response.status_code == 400
    page = words(response)
    assert why in page
    for field in ("name", "race"):
        if sent[field]:
            assert f'value="{sent[field]}"' in page
    if sent["text"].strip():
        assert sent["text"] in page
    assert not ArmyList.objects.exists()


def test_a_refused_change_shows_the_lists_form_again_with_what_was_typed(client, cast, battle):
    kept = written(battle, cast["alice"], "Riders", 1000, "Knights")
    url = reverse("battles:list_edit", args=[battle.campaign.slug, kept.pk])
    sent = {**GOOD, "points": "20000", "text": "Knights, changed with care"}
    response = signed_in(client, cast["alice"]).post(url, sent)
    assert response.status_code == 400
    page = words(response)
    assert "A list's points are a whole number from 1 to 10,000." in page
    assert "Knights, changed with care" in page
    assert 'value="20000"' in page
    kept.refresh_from_db()
    assert (kept.points, kept.text) == (1000, "Knights")


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"name": " "}, "Give the list a name."),
        ({"name": "n" * 81}, "A list's name is at most 80 characters: yours has 81."),
        ({"points": 0}, "A list's points are a whole number from 1 to 10,000."),
        ({"points": 10_001}, "A list's points are a whole number from 1 to 10,000."),
        ({"race": "r" * 61}, "A list's race is at most 60 characters: yours has 61."),
        ({"text": "\n \n"}, "Paste the list itself: its units, as your list builder writes them."),
        ({"text": "x" * 20_001}, "A list is at most 20,000 characters: yours has 20,001."),
    ],
)
def test_the_service_refuses_a_bad_list_in_words_too(cast, battle, fields, why):
    sent = {"name": "Riders", "points": 1000, "race": "", "text": "Knights", **fields}
    assert (
        refusal(lists_services.army_list_add, campaign=battle.campaign, user=cast["alice"], **sent)
        == why
    )
    assert not ArmyList.objects.exists()


def test_a_list_of_20000_characters_is_kept_its_line_breaks_counted_once(cast, battle):
    text = "\r\n".join(["x" * 99] * 200)  # 19,999 characters once each CRLF is one
    assert len(written(battle, cast["alice"], "Long", 3000, text).text) == 19_999


def test_a_book_holds_60_lists(cast, battle):
    for n in range(LISTS_PER_BOOK):
        written(battle, cast["alice"], f"List {n}", 500)
    why = refusal(
        lists_services.army_list_add, campaign=battle.campaign, user=cast["alice"], name="One more",
        points=500, text="x",
    )  # fmt: skip
    assert why == "Your book has its 60 lists: delete one to write another."
    assert ArmyList.objects.count() == LISTS_PER_BOOK


def test_a_book_is_its_players_alone(client, cast, battle):
    kept = written(battle, cast["alice"], SECRET, 500, SECRET_TEXT)
    slug = battle.campaign.slug
    carols = words(signed_in(client, cast["carol"]).get(book_url(battle)))
    assert "Carrowmoor's book" in carols
    assert SECRET not in carols
    assert SECRET_TEXT.splitlines()[0] not in carols
    # carol sending changes to alice's list is refused in words.
    for url in (
        reverse("battles:list_edit", args=[slug, kept.pk]),
        reverse("battles:list_delete", args=[slug, kept.pk]),
    ):
        page = words(client.post(url, {**GOOD, "name": "Mine now"}, follow=True))
        assert "Nothing was changed. That list is not in your book." in page
        assert SECRET not in page
    assert ArmyList.objects.get().name == SECRET
    # The admin, who rules no kingdom, and a player of another campaign have no book here.
    for who in ("gm", "eve"):
        assert signed_in(client, cast[who]).get(book_url(battle)).status_code == 404
    for act in (lists_services.army_list_edit, lists_services.army_list_delete):
        extra = (
            {"name": "Mine", "points": 500, "text": "x"}
            if act is lists_services.army_list_edit
            else {}
        )
        assert refusal(act, army_list=kept, user=cast["carol"], **extra) == (
            "That list is not in your book."
        )
        assert refusal(act, army_list=kept, user=cast["gm"], **extra) == (
            "Only a kingdom's player keeps a book of lists."
        )
    assert ArmyList.objects.get().name == SECRET


def test_a_kingdom_handed_over_keeps_its_book(client, cast, battle):
    written(battle, cast["alice"], "Riders", 1000)
    dave = User.objects.create_user("dave")
    offer = members.campaign_hand_over(
        campaign=battle.campaign, actor=cast["gm"], kingdom="aldermark", username="dave",
        reason="alice moved away",
    )  # fmt: skip
    members.offer_accept(offer_id=offer.pk, user=dave)
    assert "Riders" in words(signed_in(client, dave).get(book_url(battle)))
    assert signed_in(client, cast["alice"]).get(book_url(battle)).status_code == 404


# --- attaching a list ----------------------------------------------------------------------


def test_each_side_attaches_a_list_of_at_most_its_own_points(
    cast, campaign, eager_celery, django_capture_on_commit_callbacks
):
    """alice's one army makes a Last Stand against bob's two (ruling B4): 500 points
    against 1,000."""
    assert hand_off(campaign, cast, armies=2, isolated=True) is None
    asked = next(
        p for p in common.latest_snapshot(campaign).data["pending"]
        if p["kind"] == "last_stand"
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        decisions.battle_last_stand(
            campaign=campaign, user=cast["alice"], hex=asked["hex"], stand=True
        )
    battle = Battle.objects.get(campaign=campaign)
    assert battle.awaiting
    assert (battle.points_of("aldermark"), battle.points_of("brightwater")) == (500, 1000)
    alices = written(battle, cast["alice"], "Big", 1000)
    assert refusal(
        lists_services.battle_list_attach, battle=battle, user=cast["alice"], army_list_id=alices.pk
    ) == (
        "Big is a list of 1,000 points, and your side brings 500 to this battle: attach a "
        "list of at most 500 points."
    )
    assert not AttachedList.objects.exists()
    bobs = attached(battle, cast["bob"], written(battle, cast["bob"], "Two armies", 1000))
    assert (bobs.kingdom, bobs.points) == ("brightwater", 1000)
    smaller = attached(battle, cast["alice"], written(battle, cast["alice"], "Small", 450))
    assert (smaller.kingdom, smaller.points) == ("aldermark", 450)


def test_an_attached_list_is_a_copy_that_later_changes_to_the_book_leave_alone(cast, battle):
    kept = written(battle, cast["alice"], "Riders", 500, "Knights")
    attached(battle, cast["alice"], kept)
    lists_services.army_list_edit(
        army_list=kept, user=cast["alice"], name="Other", points=400, text="Foot"
    )
    lists_services.army_list_delete(army_list=kept, user=cast["alice"])
    copy = AttachedList.objects.get()
    assert (copy.name, copy.points, copy.text) == ("Riders", 500, "Knights")


def test_a_list_is_replaced_or_withdrawn_until_the_other_side_has_attached_theirs(
    cast, battle, secret
):
    other = attached(battle, cast["alice"], written(battle, cast["alice"], "Plan B", 500))
    assert list(AttachedList.objects.values_list("kingdom", "name")) == [("aldermark", "Plan B")]
    lists_services.battle_list_withdraw(battle=battle, user=cast["alice"])
    assert not AttachedList.objects.exists()
    assert refusal(lists_services.battle_list_withdraw, battle=battle, user=cast["alice"]) == (
        "You have attached no list to this battle."
    )
    attached(battle, cast["alice"], ArmyList.objects.get(name="Plan B"))
    attached(battle, cast["bob"], written(battle, cast["bob"], "Shields", 500))
    locked = (
        "Both sides have attached their lists and each sees the other's: yours can't be "
        "changed now."
    )
    for who in ("alice", "bob"):
        assert refusal(lists_services.battle_list_withdraw, battle=battle, user=cast[who]) == locked
        kingdom = battle.campaign.memberships.get(user=cast[who]).kingdom
        mine = ArmyList.objects.filter(kingdom=kingdom).first()
        assert mine is not None
        assert (
            refusal(
                lists_services.battle_list_attach,
                battle=battle,
                user=cast[who],
                army_list_id=mine.pk,
            )
            == locked
        )
    assert sorted(AttachedList.objects.values_list("kingdom", "name")) == [
        ("aldermark", other.name),
        ("brightwater", "Shields"),
    ]


@pytest.mark.parametrize("who", ["carol", "gm", "eve"])
def test_nobody_but_the_battles_two_players_attaches_a_list(cast, battle, who):
    alices = written(battle, cast["alice"], "Riders", 500)
    for act, extra in (
        (lists_services.battle_list_attach, {"army_list_id": alices.pk}),
        (lists_services.battle_list_withdraw, {}),
    ):
        assert refusal(act, battle=battle, user=cast[who], **extra) == (
            "Only this battle's two players may do that."
        )
    assert not AttachedList.objects.exists()


def test_a_list_of_another_players_book_is_not_attached(cast, battle):
    bobs = written(battle, cast["bob"], "Bob's own", 500)
    carols = written(battle, cast["carol"], "Carol's own", 500)
    for found in (bobs, carols):
        assert refusal(
            lists_services.battle_list_attach,
            battle=battle,
            user=cast["alice"],
            army_list_id=found.pk,
        ) == ("That list is not in your book: attach one of your own lists.")
    assert not AttachedList.objects.exists()


def test_no_list_is_attached_once_the_result_is_reported_or_the_battle_resolved(cast, battle, won):
    alices = written(battle, cast["alice"], "Riders", 500)
    report = results.battle_report(battle=battle, user=cast["bob"], result="draw")
    assert refusal(
        lists_services.battle_list_attach, battle=battle, user=cast["alice"], army_list_id=alices.pk
    ) == (
        "The result of this battle is reported: a list is attached before the game, not after it."
    )
    results.battle_withdraw(report=report, user=cast["bob"])
    attached(battle, cast["alice"], alices)  # the report withdrawn, it may be again
    won(battle, "aldermark")
    battle.refresh_from_db()
    for act, extra in (
        (lists_services.battle_list_attach, {"army_list_id": alices.pk}),
        (lists_services.battle_list_withdraw, {}),
    ):
        assert (
            refusal(act, battle=battle, user=cast["alice"], **extra)
            == "This battle is settled already."
        )
    assert AttachedList.objects.count() == 1


def test_a_list_is_attached_from_the_card_and_a_refusal_is_in_words(client, cast, battle):
    url = reverse("battles:list_attach", args=[battle.campaign.slug, battle.number])
    signed_in(client, cast["alice"])
    page = words(client.get(card_url(battle)))
    assert "Your book has no list of at most 500 points" in page
    assert f'href="{book_url(battle)}">My lists</a>' in page
    big = written(battle, cast["alice"], "Big", 1000)
    riders = written(battle, cast["alice"], "Riders", 500, "Knights [500]")
    page = words(client.get(card_url(battle)))
    assert f'<option value="{riders.pk}">Riders: 500 points</option>' in page
    assert f'<option value="{big.pk}">' not in page  # too big for the side
    assert "Not offered: 1 of yours, which costs more." in page
    page = words(client.post(url, {"army_list": big.pk}, follow=True))
    assert "Nothing was changed. Big is a list of 1,000 points" in page
    page = words(client.post(url, {"army_list": "many"}, follow=True))
    assert "Nothing was changed. Choose one of your lists to attach." in page
    assert not AttachedList.objects.exists()
    page = words(client.post(url, {"army_list": riders.pk}, follow=True))
    assert "Riders is attached to the battle" in page
    assert "Knights [500]" in page
    assert "Only you see it until your opponent has attached theirs." in page
    withdraw = reverse("battles:list_withdraw", args=[battle.campaign.slug, battle.number])
    assert "Your list is taken off the battle." in words(client.post(withdraw, follow=True))
    assert not AttachedList.objects.exists()
    page = words(signed_in(client, cast["carol"]).post(url, {"army_list": riders.pk}, follow=True))
    assert "Nothing was changed. Only this battle's two players may do that." in page
    assert not AttachedList.objects.exists()


def test_the_book_lists_the_battles_waiting_for_a_list(client, cast, battle, secret):
    page = words(signed_in(client, cast["alice"]).get(book_url(battle)))
    assert f'{card_url(battle)}#lists-title">Battle {battle.number}' in page
    assert f"you attached {SECRET} (500 points)" in page
    page = words(signed_in(client, cast["bob"]).get(book_url(battle)))
    assert "attach one of your lists on its card" in page
    assert SECRET not in page


# --- who sees an attached list ----------------------------------------------------------------


def test_the_opponent_sees_a_list_only_once_both_are_attached(client, cast, battle, secret):
    page = words(signed_in(client, cast["bob"]).get(card_url(battle)))
    assert "Aldermark's list" in page
    assert "A list is attached: you see it once yours is attached too." in page
    assert SECRET not in page
    attached(battle, cast["bob"], written(battle, cast["bob"], "Shield Wall", 500, "Shieldwall x3"))
    page = words(client.get(card_url(battle)))
    assert SECRET in page
    assert SECRET_TEXT in page
    assert "Shieldwall x3" in page
    assert "Both sides have attached their lists: neither can change now." in page
    page = words(signed_in(client, cast["alice"]).get(card_url(battle)))
    assert "Shieldwall x3" in page


def test_a_list_is_shown_escaped(client, cast, battle):
    text = "<script>alert(1)</script> Spearmen"
    attached(battle, cast["alice"], written(battle, cast["alice"], "<b>Bold</b>", 500, text))
    attached(battle, cast["bob"], written(battle, cast["bob"], "Shields", 500))
    page = signed_in(client, cast["bob"]).get(card_url(battle)).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Spearmen" in page
    assert "&lt;b&gt;Bold&lt;/b&gt;" in page


def test_the_admin_sees_the_lists_once_both_are_attached_carol_once_the_result_is_in(
    client, cast, both, won
):
    gm = signed_in(Client(), cast["gm"])
    carol = signed_in(Client(), cast["carol"])
    assert SECRET_TEXT in words(gm.get(card_url(both)))
    page = words(carol.get(card_url(both)))
    assert SECRET not in page
    assert "A list is attached: every member sees it once the result is in." in page
    won(both, "aldermark")
    both.refresh_from_db()
    for browser in (gm, carol):
        page = words(browser.get(card_url(both)))
        assert SECRET_TEXT in page
        assert "Shieldwall x3" in page


def test_a_confirmed_result_shows_a_list_attached_by_one_side_alone(cast, battle, secret, client):
    """Confirmed, the result waits for the advance: the result is in."""
    report = results.battle_report(
        battle=battle, user=cast["bob"], result="win", winner="brightwater"
    )
    assert SECRET_TEXT not in words(signed_in(client, cast["bob"]).get(card_url(battle)))
    results.battle_confirm(report=report, user=cast["alice"])
    battle.refresh_from_db()
    assert battle.awaiting
    for who in ("bob", "carol", "gm"):
        assert SECRET_TEXT in words(signed_in(client, cast[who]).get(card_url(battle)))


def _ended(battle: Battle) -> None:
    """The campaign at its end, the battle still waiting (a correction by the admin)."""
    latest = common.latest_snapshot(battle.campaign)
    data = {**latest.data, "clock": {**latest.data["clock"], "season": "ended"}}
    advancing.store_snapshot(
        campaign=battle.campaign, number=latest.number + 1, data=data, reason="correction"
    )


def pages_of(battle: Battle, who: str) -> dict[str, str]:
    """Every page and fragment a member opens that shows or might show a battle."""
    slug = battle.campaign.slug
    pages = {
        "card": card_url(battle),
        "battles": reverse("battles:list", args=[slug]),
        "my battles": reverse("battles:mine"),
        "campaign": reverse("campaign:campaign", args=[slug]),
        "chronicle": reverse("campaign:chronicle", args=[slug]),
        "end": reverse("campaign:end", args=[slug]),
        "book": book_url(battle),
        "letters": reverse("campaign:letters", args=[slug]),
    }
    if who == "gm":
        pages |= {
            "battle desk": reverse("battles:admin", args=[slug]),
            "dashboard": reverse("campaign:dashboard", args=[slug]),
        }
    return pages


@pytest.mark.parametrize("who", ["bob", "carol", "gm", "eve"])
def test_an_unrevealed_list_reaches_nobody_who_may_not_see_it(client, cast, battle, secret, who):
    """alice's list, attached, and bob's not: on no page or htmx fragment for bob, carol, gm
    or eve, even once alice has reported the result with it (the report holds a copy) and
    the campaign has ended."""
    results.battle_report(battle=battle, user=cast["alice"], result="win", winner="aldermark")
    report = ResultReport.objects.get()
    role = "attacker" if battle.attacker == "aldermark" else "defender"
    assert getattr(report, f"{role}_list") == SECRET_TEXT
    _ended(battle)
    signed_in(client, cast[who])
    seen = 0
    for name, url in pages_of(battle, who).items():
        for htmx in ({}, {"HX-Request": "true"}):
            response = client.get(url, headers=htmx)
            assert response.status_code < 500, name
            seen += response.status_code == 200
            page = words(response)
            for secret_words in (SECRET, *SECRET_TEXT.splitlines(), SECRET_RACE):
                assert secret_words not in page, f"{name} shows {secret_words!r} to {who}"
    assert seen >= (0 if who == "eve" else 10)
    for url in (
        reverse("battles:list_attach", args=[battle.campaign.slug, battle.number]),
        reverse("battles:list_withdraw", args=[battle.campaign.slug, battle.number]),
    ):
        assert SECRET not in words(client.post(url, {"army_list": secret.pk}, follow=True))
    assert AttachedList.objects.count() == 1


def test_alice_sees_her_own_list_on_the_card_and_in_her_report(client, cast, battle, secret):
    results.battle_report(battle=battle, user=cast["alice"], result="win", winner="aldermark")
    page = words(signed_in(client, cast["alice"]).get(card_url(battle)))
    assert page.count("Horde of Hidden Spearmen") == 2  # in Lists, and in her report


def _field_of(battle: Battle, kingdom: str) -> str:
    """The report's field that holds the kingdom's side's list."""
    return "attacker_list" if battle.attacker == kingdom else "defender_list"


def _typed(battle: Battle, kingdom: str, text: str) -> dict[str, Any]:
    """A report's details with the side's list typed in."""
    return {_field_of(battle, kingdom): text}


def _opened_by(battle: Battle, cast: dict[str, User], who: str) -> list[str]:
    """Every page and htmx fragment the member opens, in words."""
    client = signed_in(Client(), cast[who])
    return [
        words(client.get(url, headers=htmx))
        for url in pages_of(battle, who).values()
        for htmx in ({}, {"HX-Request": "true"})
    ]


def _on_any(pages: list[str], *secret_words: str) -> bool:
    """Whether any of the words is on any of the pages."""
    return any(secret in page for page in pages for secret in secret_words)


def _shown_to(battle: Battle, cast: dict[str, User], who: str, *secret_words: str) -> bool:
    """Whether any of the words is on any page or htmx fragment the member opens."""
    return _on_any(_opened_by(battle, cast, who), *secret_words)


SECRET_LINES = (SECRET, *SECRET_TEXT.splitlines(), SECRET_RACE)


@pytest.mark.parametrize("reporter", ["alice", "bob"])
def test_a_list_taken_off_after_its_report_is_withdrawn_stays_hidden_from_the_other_side(
    cast, battle, secret, reporter
):
    """Issue 34: alice attaches her list, a side reports (the report copies her list) and
    withdraws the report, then alice takes her list off. The withdrawn report keeps the
    copy; bob has attached none, so it is alice's alone."""
    report = results.battle_report(battle=battle, user=cast[reporter], result="draw")
    assert getattr(report, _field_of(battle, "aldermark")) == SECRET_TEXT
    results.battle_withdraw(report=report, user=cast[reporter])
    lists_services.battle_list_withdraw(battle=battle, user=cast["alice"])
    assert not AttachedList.objects.exists()
    for who in ("bob", "carol", "gm"):
        assert not _shown_to(battle, cast, who, *SECRET_LINES), who
    assert _shown_to(battle, cast, "alice", SECRET_TEXT)


TYPED = "Trebuchets of the Typed Host [120]"
TYPED_BY_BOB = "Bob's Scribbled Shieldwall [200]"


def test_a_list_typed_into_a_report_is_hidden_from_the_other_side_until_the_result_is_in(
    cast, battle
):
    """No list attached: alice types hers into her report. bob, carol and gm see it only
    once bob has confirmed."""
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark",
        **_typed(battle, "aldermark", TYPED),
    )  # fmt: skip
    assert _shown_to(battle, cast, "alice", TYPED)
    for who in ("bob", "carol", "gm"):
        assert not _shown_to(battle, cast, who, TYPED), who
    results.battle_confirm(report=report, user=cast["bob"])
    for who in ("alice", "bob", "carol", "gm"):
        assert _shown_to(battle, cast, who, TYPED), who


def test_lists_typed_into_disputed_reports_are_hidden_until_the_admin_decides(cast, battle):
    """alice reports with her list typed in, bob disputes it and reports with his: each
    side sees its own, the admin neither, until the admin decides; then all three see
    both."""
    alices = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark",
        **_typed(battle, "aldermark", TYPED),
    )  # fmt: skip
    results.battle_dispute(report=alices, user=cast["bob"], reason="It was a draw")
    results.battle_report(
        battle=battle, user=cast["bob"], result="draw",
        **_typed(battle, "brightwater", TYPED_BY_BOB),
    )  # fmt: skip
    alice, bob = _opened_by(battle, cast, "alice"), _opened_by(battle, cast, "bob")
    assert _on_any(alice, TYPED)
    assert not _on_any(alice, TYPED_BY_BOB)
    assert _on_any(bob, TYPED_BY_BOB)
    assert not _on_any(bob, TYPED)
    assert not _shown_to(battle, cast, "gm", TYPED, TYPED_BY_BOB)
    desk.battle_decide(battle=battle, actor=cast["gm"], result="draw")
    for who in ("alice", "bob", "gm"):
        pages = _opened_by(battle, cast, who)  # each opened once, for both lists
        for typed in (TYPED, TYPED_BY_BOB):
            assert _on_any(pages, typed), (who, typed)


def test_revealed_lists_print_with_the_card(client, cast, both):
    page = signed_in(client, cast["bob"]).get(card_url(both)).content.decode()
    section = re.search(
        r'<section aria-labelledby="lists-title" class="([^"]*)">(.*?)</section>', page, re.S
    )
    assert section is not None
    assert "no-print" not in section.group(1)  # printed, from a page of its own
    lists = section.group(2)
    assert lists.count('<pre class="list-text">') == 2
    before = lists[: lists.index('<pre class="list-text">')]
    assert "<details" not in before  # not printed
    assert "<form" not in before
    css = (BASE_DIR / "static" / "css" / "battles.css").read_text()
    assert ".army-lists { break-before: page; }" in css


def test_nothing_of_the_lists_prints_while_none_is_shown(client, cast, battle, secret):
    page = signed_in(client, cast["carol"]).get(card_url(battle)).content.decode()
    assert '<section aria-labelledby="lists-title" class="army-lists no-print">' in page


# --- the report of the result -----------------------------------------------------------------


def test_the_report_form_does_not_ask_again_for_an_attached_list(client, cast, battle, secret):
    role = "attacker" if battle.attacker == "aldermark" else "defender"
    other = "defender" if role == "attacker" else "attacker"
    for who in ("alice", "bob"):
        page = words(signed_in(client, cast[who]).get(card_url(battle)))
        assert f'name="{role}_list"' not in page
        assert f'name="{other}_list"' in page
        assert "Aldermark's list: the one attached to this battle" in page


def test_a_report_takes_the_attached_list_and_keeps_a_written_one_for_the_other_side(
    client, cast, battle, secret
):
    role = "attacker" if battle.attacker == "aldermark" else "defender"
    other = "defender" if role == "attacker" else "attacker"
    latest = common.latest_snapshot(battle.campaign)
    url = reverse("battles:act", args=[battle.campaign.slug, battle.number, "report"])
    sent = {
        "seen": latest.number, "outcome": "brightwater",
        f"{role}_list": "Something else entirely", f"{other}_list": "Bob's list, as written",
    }  # fmt: skip
    page = words(signed_in(client, cast["bob"]).post(url, sent, follow=True))
    assert "Your report is in" in page
    report = ResultReport.objects.get()
    assert getattr(report, f"{role}_list") == SECRET_TEXT
    assert getattr(report, f"{other}_list") == "Bob's list, as written"
    assert SECRET_TEXT.splitlines()[0] not in page  # bob has not attached his: not for him
    assert "Bob's list, as written" in page


def test_both_attached_lists_are_taken_by_the_report(cast, both):
    report = results.battle_report(battle=both, user=cast["alice"], result="draw", note="Close")
    assert {report.attacker_list, report.defender_list} == {SECRET_TEXT, "Shieldwall x3"}


# --- a battle re-stated (ruling B11) ---------------------------------------------------------------


def test_a_battle_restated_takes_off_a_list_above_its_sides_new_points(cast, battle, both):
    latest = common.latest_snapshot(battle.campaign)
    data = {**latest.data, "battles": [dict(b) for b in latest.data["battles"]]}
    entry = data["battles"][battle.number - 1]
    entry["sides"] = [
        {**side, "points": 400} if side["kingdom"] == "aldermark" else side
        for side in entry["sides"]
    ]
    advancing.store_snapshot(
        campaign=battle.campaign, number=latest.number + 1, data=data, reason="correction"
    )
    assert list(AttachedList.objects.values_list("kingdom", flat=True)) == ["brightwater"]
