"""Letters between kingdoms (issue 28): alice, bob and carol play the Autumn League, gm runs
it, eve plays elsewhere. A letter to some kingdoms is theirs alone (not the admin's, not
the third player's); the herald's is every member's; refusals in words lose nothing; a
letter may be changed for five minutes until it is read; new letters and unread counts
show on the pages that poll, which answer 304 while nothing a viewer may see has changed."""

import html
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Correspondence, Letter
from campaign.services import letters as letters_services
from campaign.services import members, setup
from tests.battles.conftest import make_league
from tests.campaign.helpers import LEAGUE_CAST, make_cast, signed_in
from tests.notifications.notifying import with_addresses

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return with_addresses(make_cast(LEAGUE_CAST))


@pytest.fixture
def league(cast):
    return make_league(cast)


def letters_url(campaign: Campaign) -> str:
    return reverse("campaign:letters", args=[campaign.slug])


def page_of(campaign: Campaign, correspondence: Correspondence | int) -> str:
    number = correspondence if isinstance(correspondence, int) else correspondence.pk
    return reverse("campaign:correspondence", args=[campaign.slug, number])


def write(client: Client, campaign: Campaign, to: list[str], text: str) -> Any:
    url = reverse("campaign:letter_write", args=[campaign.slug])
    return client.post(url, {"to": to, "text": text})


def read(client: Client, url: str) -> str:
    return read_text(client.get(url))


def read_text(response: Any) -> str:
    return html.unescape(response.text)


def test_a_letter_to_bob_is_read_by_bob_alone(league, cast):
    alice = signed_in(Client(), cast["alice"])
    response = write(alice, league, ["brightwater"], "Shall we share the river, neighbour?")
    (letter,) = Letter.objects.all()
    url = page_of(league, letter.correspondence)
    assert response.status_code == 302
    assert response["Location"] == url
    bob = signed_in(Client(), cast["bob"])
    assert "1 unread letter" in read(bob, reverse("campaign:home"))
    campaign_page = read(bob, reverse("campaign:campaign", args=[league.slug]))
    assert 'Letters <strong class="unread">(1 unread)</strong>' in campaign_page
    listed = read(bob, letters_url(league))
    assert "Aldermark, Brightwater" in listed
    assert "1 unread" in listed
    page = read(bob, url)
    assert "Shall we share the river, neighbour?" in page
    assert "unread" not in read(bob, reverse("campaign:home"))  # read, now
    assert "unread" not in read(bob, reverse("campaign:campaign", args=[league.slug]))
    for other in ("carol", "gm", "eve"):  # the third player, the admin, an outsider
        client = signed_in(Client(), cast[other])
        assert client.get(url).status_code == 404
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 404
        assert "Shall we share" not in client.get(letters_url(league)).text
    carol = signed_in(Client(), cast["carol"])
    assert "unread" not in read(carol, reverse("campaign:home"))
    assert "Letters" in (page := read(carol, reverse("campaign:campaign", args=[league.slug])))
    assert "unread" not in page  # the letter between two others is none of hers


def test_the_campaign_page_counts_each_letter_as_it_comes_and_none_once_read(league, cast):
    """The count is kept for what the letters stood at (`unread_of`): each letter written
    and each read changes what it is kept for, so the page never shows an old count."""
    alice = signed_in(Client(), cast["alice"])
    bob = signed_in(Client(), cast["bob"])
    campaign_url = reverse("campaign:campaign", args=[league.slug])
    assert "unread" not in read(bob, campaign_url)
    write(alice, league, ["brightwater"], "Shall we share the river?")
    assert "(1 unread)" in read(bob, campaign_url)
    assert "(1 unread)" in read(bob, campaign_url)  # kept, and still true
    write(alice, league, ["brightwater"], "Answer soon.")
    assert "(2 unread)" in read(bob, campaign_url)
    read(bob, page_of(league, Letter.objects.earliest("pk").correspondence))
    assert "unread" not in read(bob, campaign_url)
    write(alice, league, ["brightwater"], "Well?")
    assert "(1 unread)" in read(bob, campaign_url)


def test_a_letter_through_the_herald_is_read_by_every_member(league, cast):
    carol = signed_in(Client(), cast["carol"])
    write(carol, league, ["@herald"], "Hear ye: the fair at Carrowmoor is open to all.")
    correspondence = Correspondence.objects.get()
    assert correspondence.herald
    for name in ("alice", "bob", "gm"):
        page = read(signed_in(Client(), cast[name]), page_of(league, correspondence))
        assert "the fair at Carrowmoor is open to all" in page
        assert "The herald: everyone" in page
    assert signed_in(Client(), cast["eve"]).get(page_of(league, correspondence)).status_code == 404


@pytest.mark.parametrize("name", ["Herald", "Draw", "Marauders", "Admin"])
def test_a_kingdom_named_as_a_word_the_app_keeps_gets_another_id(cast, name):
    """Issue 34: a kingdom's id is made from its name; the herald's key, a drawn result,
    the marauders and their general are words the app keeps, never a kingdom's id."""
    campaign = setup.campaign_create(
        name="Winter League", admin=cast["gm"], kingdoms=2, map_name="borderlands"
    )
    joined = members.campaign_join(campaign=campaign, user=cast["alice"], kingdom_name=name)
    assert joined.kingdom_name == name
    assert joined.kingdom == f"{name.lower()}2"


def test_ticking_a_kingdom_named_herald_writes_to_it_alone(cast):
    """Issue 34: with a kingdom "Herald" (carol's) in the campaign, the letters form offers
    it and the herald as two different choices; alice ticking the kingdom alone writes to
    carol alone: bob does not read it, and it is posted nowhere."""
    from notifications.models import DiscordWebhook, Notification

    campaign = setup.campaign_create(
        name="Herald League", admin=cast["gm"], kingdoms=3, map_name="borderlands"
    )
    for user, name in (("alice", "Aldermark"), ("bob", "Brightwater"), ("carol", "Herald")):
        members.campaign_join(campaign=campaign, user=cast[user], kingdom_name=name)
    setup.campaign_start(campaign=campaign, actor=cast["gm"])
    DiscordWebhook.objects.create(
        campaign=campaign, url="https://discord.com/api/webhooks/1/x", herald=True
    )
    alice = signed_in(Client(), cast["alice"])
    form = alice.get(letters_url(campaign)).text
    assert form.count('value="herald2"') == 1  # carol's kingdom
    assert form.count('value="@herald"') == 1  # everyone
    assert write(alice, campaign, ["herald2"], "For the Herald's eyes only.").status_code == 302
    correspondence = Correspondence.objects.get()
    assert correspondence.kingdoms == ["aldermark", "herald2"]
    assert "For the Herald's eyes only." in read(
        signed_in(Client(), cast["carol"]), page_of(campaign, correspondence)
    )
    bob = signed_in(Client(), cast["bob"])
    assert bob.get(page_of(campaign, correspondence)).status_code == 404
    assert "eyes only" not in read(bob, letters_url(campaign))
    assert not Notification.objects.filter(channel="discord").exists()


def test_a_letter_to_the_herald_and_to_a_kingdom_at_once_is_refused(league, cast):
    alice = signed_in(Client(), cast["alice"])
    response = write(alice, league, ["@herald", "brightwater"], "Hear ye, and psst.")
    assert response.status_code == 400
    assert "either to everyone through the herald or to some kingdoms" in read_text(response)
    assert not Letter.objects.exists()


def test_one_correspondence_per_set_of_kingdoms_and_an_answer_goes_to_the_same(league, cast):
    alice = signed_in(Client(), cast["alice"])
    write(alice, league, ["brightwater", "carrowmoor"], "A council of three?")
    bob = signed_in(Client(), cast["bob"])
    write(bob, league, ["carrowmoor", "aldermark"], "Agreed.")
    (correspondence,) = Correspondence.objects.all()
    answer = reverse("campaign:letter_answer", args=[league.slug, correspondence.pk])
    signed_in(Client(), cast["carol"]).post(answer, {"text": "When?"})
    assert [letter.text for letter in correspondence.letters.all()] == [
        "A council of three?",
        "Agreed.",
        "When?",
    ]


def test_a_letter_is_shown_escaped_with_its_links_made_clickable(league, cast):
    alice = signed_in(Client(), cast["alice"])
    write(
        alice, league, ["brightwater"], '<script>alert("x")</script> see https://example.org/list'
    )
    page = signed_in(Client(), cast["bob"]).get(page_of(league, Correspondence.objects.get())).text
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert '<a href="https://example.org/list" rel="nofollow">https://example.org/list</a>' in page


@pytest.mark.parametrize(
    "address",
    [
        "https://example.org/\u202egro.live",  # a right-to-left override: reads "evil.org"
        "https://\u0430pple.com/login",  # a Cyrillic a
        "https://bank.example@evil.example/",  # goes to evil.example
        "www.bank.example@evil.example",
        "https://exa\u200bmple.org/",  # a zero-width space
        "ops@\u0430pple.com",
    ],
)
def test_a_letters_address_that_may_not_go_where_it_reads_is_not_a_link(league, cast, address):
    """Issue 34: letter links showed right-to-left overrides and look-alike domains as
    written, and linked them. Such an address stays text, escaped, as it was written."""
    write(signed_in(Client(), cast["alice"]), league, ["brightwater"], f"Our list: {address} !")
    page = signed_in(Client(), cast["bob"]).get(page_of(league, Correspondence.objects.get())).text
    letter = page[page.index('<div class="letter-text">') :]
    letter = letter[: letter.index("</div>")]
    assert "<a " not in letter
    assert f"Our list: {address} !" in html.unescape(letter)


def test_a_letters_honest_addresses_are_links(league, cast):
    write(
        signed_in(Client(), cast["alice"]), league, ["brightwater"],
        "Lists at https://example.org/lists?army=elves, www.example.net and ops@example.com.",
    )  # fmt: skip
    page = signed_in(Client(), cast["bob"]).get(page_of(league, Correspondence.objects.get())).text
    assert (
        '<a href="https://example.org/lists?army=elves" rel="nofollow">'
        "https://example.org/lists?army=elves</a>"
    ) in page
    assert '<a href="https://www.example.net" rel="nofollow">www.example.net</a>' in page
    assert '<a href="mailto:ops@example.com">ops@example.com</a>' in page


@pytest.mark.parametrize(
    ("to", "text", "said"),
    [
        (["brightwater"], "   ", "A letter needs some words."),
        (["brightwater"], "x" * 4001, "A letter is at most 4,000 characters"),
        ([], "Hello", "Choose whom you write to."),
        (["evermore"], "Hello", "You may write only to the kingdoms of this campaign."),
        (["aldermark"], "Hello", "You may write only to the kingdoms of this campaign."),
    ],
)
def test_a_letter_refused_is_said_in_words_keeps_its_text_and_saves_nothing(
    league, cast, to, text, said
):
    alice = signed_in(Client(), cast["alice"])
    response = write(alice, league, to, text)
    assert response.status_code == 400
    page = html.unescape(response.text)
    assert said in page
    if text.strip() and len(text) < 100:
        assert f"{text}</textarea>" in page  # the words are kept on the page
    assert not Letter.objects.exists()
    assert not Correspondence.objects.exists()


def test_in_a_campaign_with_the_herald_only_a_private_letter_is_refused(cast):
    campaign = make_league(cast)
    Campaign.objects.filter(pk=campaign.pk).update(letters=Campaign.Letters.HERALD)
    alice = signed_in(Client(), cast["alice"])
    page = read(alice, letters_url(campaign))
    assert "every letter goes through the herald" in page
    assert 'value="brightwater"' not in page
    response = write(alice, campaign, ["brightwater"], "Psst.")
    assert response.status_code == 400
    assert not Letter.objects.exists()
    assert write(alice, campaign, ["@herald"], "Hear ye.").status_code == 302


def test_in_a_campaign_without_letters_nobody_writes(cast):
    campaign = make_league(cast)
    Campaign.objects.filter(pk=campaign.pk).update(letters=Campaign.Letters.NONE)
    alice = signed_in(Client(), cast["alice"])
    assert "played without letters" in read(alice, letters_url(campaign))
    assert "Letters" not in read(alice, reverse("campaign:campaign", args=[campaign.slug]))
    assert write(alice, campaign, ["@herald"], "Hear ye.").status_code == 400
    assert not Letter.objects.exists()


def test_a_letter_may_be_changed_for_five_minutes_until_it_is_read(league, cast):
    alice = signed_in(Client(), cast["alice"])
    write(alice, league, ["brightwater"], "Meet at the ford.")
    letter = Letter.objects.get()
    edit = reverse("campaign:letter_edit", args=[league.slug, letter.pk])
    assert "Change it" in alice.get(page_of(league, letter.correspondence)).text
    alice.post(edit, {"text": "Meet at the bridge."})
    letter.refresh_from_db()
    assert (letter.text, letter.edited_at is not None) == ("Meet at the bridge.", True)
    # bob may not change it: for him there is no such letter
    assert signed_in(Client(), cast["bob"]).post(edit, {"text": "No."}).status_code == 404
    read(signed_in(Client(), cast["bob"]), page_of(league, letter.correspondence))  # read
    refused = html.unescape(alice.post(edit, {"text": "Meet at dawn."}, follow=True).text)
    assert "It has been read: a letter read stands as it is." in refused
    letter.refresh_from_db()
    assert letter.text == "Meet at the bridge."
    assert "Change it" not in alice.get(page_of(league, letter.correspondence)).text


def test_a_letter_older_than_five_minutes_is_not_changed(league, cast):
    alice = signed_in(Client(), cast["alice"])
    write(alice, league, ["carrowmoor"], "Our pact holds.")
    Letter.objects.update(written_at=timezone.now() - timedelta(minutes=6))
    letter = Letter.objects.get()
    edit = reverse("campaign:letter_edit", args=[league.slug, letter.pk])
    refused = html.unescape(alice.post(edit, {"text": "Our pact is over."}, follow=True).text)
    assert "for five minutes after it is written" in refused
    letter.refresh_from_db()
    assert letter.text == "Our pact holds."


def test_a_kingdom_handed_over_brings_its_letters(league, cast):
    write(signed_in(Client(), cast["alice"]), league, ["brightwater"], "A secret pact.")
    offer = members.campaign_hand_over(
        campaign=league, actor=cast["gm"], kingdom="brightwater", username="eve", reason="moved"
    )
    assert offer is not None
    from campaign.models import KingdomOffer

    members.offer_accept(offer_id=KingdomOffer.objects.get().pk, user=cast["eve"])
    eve = signed_in(Client(), cast["eve"])
    assert "A secret pact." in read(eve, page_of(league, Correspondence.objects.get()))
    assert (
        signed_in(Client(), cast["bob"])
        .get(page_of(league, Correspondence.objects.get()))
        .status_code
        == 404
    )


def test_the_players_written_to_are_told_by_e_mail_without_the_letters_words(
    league, cast, django_capture_on_commit_callbacks, eager_celery
):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        write(signed_in(Client(), cast["alice"]), league, ["brightwater"], "Our secret plan.")
    told = [m for m in mail.outbox if "Aldermark wrote to you" in m.subject]
    assert [m.to for m in told] == [["bob@example.org"]]
    assert "Our secret plan" not in told[0].body
    assert page_of(league, Correspondence.objects.get()) in told[0].body


def test_a_poll_of_the_letters_answers_304_until_a_letter_comes(league, cast):
    bob = signed_in(Client(), cast["bob"])
    write(signed_in(Client(), cast["alice"]), league, ["brightwater"], "First.")
    url = page_of(league, Correspondence.objects.get())
    poll = {"HX-Request": "true"}
    first = bob.get(url, headers=poll)
    tag = first["ETag"]
    assert bob.get(url, headers={**poll, "If-None-Match": tag}).status_code == 304
    write(signed_in(Client(), cast["carol"]), league, ["aldermark"], "Not for bob.")
    assert bob.get(url, headers={**poll, "If-None-Match": tag}).status_code == 304
    write(signed_in(Client(), cast["alice"]), league, ["brightwater"], "Second.")
    fresh = bob.get(url, headers={**poll, "If-None-Match": tag})
    assert fresh.status_code == 200
    assert "Second." in fresh.text


def test_any_tag_asked_of_letters_or_a_report_that_do_not_exist_is_a_404(league, cast):
    """Issue 34: `If-None-Match: *` was answered 304 for a number that does not exist:
    whether a page exists is told only by the view, after who may see it."""
    alice = signed_in(Client(), cast["alice"])
    write(alice, league, ["brightwater"], "Hello.")
    letters = page_of(league, Correspondence.objects.get())
    missing = (page_of(league, 99999), reverse("campaign:report", args=[league.slug, 99999]))
    for url in missing:
        assert alice.get(url, headers={"If-None-Match": "*"}).status_code == 404
        assert alice.get(url, headers={"If-None-Match": '"*"'}).status_code == 404
    carol = signed_in(Client(), cast["carol"])  # not in alice's and bob's letters
    assert carol.get(letters, headers={"If-None-Match": "*"}).status_code == 404
    shown = alice.get(letters, headers={"If-None-Match": "*"})
    assert shown.status_code == 200
    assert "Hello." in shown.text


@pytest.mark.parametrize(
    "moment",
    [
        "campaign.services.letters.opened_read",
        "campaign.views.letters.campaign_tag",
        "campaign.views.letters._correspondence_page",
    ],
)
def test_a_letter_written_while_a_poll_is_drawn_reaches_the_open_page(
    league, cast, monkeypatch, moment
):
    """alice answers while bob's poll is being drawn, at any moment of it: bob's open page
    shows her answer by the next poll at the latest, then is answered 304, and the answer is
    read (CI once saw a page kept under a tag that counted a letter it did not show)."""
    alice, bob = signed_in(Client(), cast["alice"]), signed_in(Client(), cast["bob"])
    write(alice, league, ["brightwater"], "First.")
    url = page_of(league, Correspondence.objects.get())
    poll = {"HX-Request": "true"}
    tag = bob.get(url, headers=poll)["ETag"]
    module, name = moment.rsplit(".", 1)
    step = __import__(module, fromlist=[name]).__dict__[name]

    def answered_meanwhile(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.undo()
        if name == "_correspondence_page":
            drawn = step(*args, **kwargs)
            write(alice, league, ["brightwater"], "An answer, meanwhile.")
            return drawn
        write(alice, league, ["brightwater"], "An answer, meanwhile.")
        return step(*args, **kwargs)

    write(alice, league, ["brightwater"], "Second.")
    monkeypatch.setattr(moment, answered_meanwhile)
    shown = []
    for _ in range(3):
        response = bob.get(url, headers={**poll, "If-None-Match": tag})
        if response.status_code == 304:
            break
        shown.append(response.text)
        tag = response["ETag"]
    assert response.status_code == 304
    assert "An answer, meanwhile." in shown[-1]
    assert [c.unread for c in letters_services.conversations_of(league, "brightwater")] == [0]


@pytest.mark.parametrize("herald_posted", [True, False])
def test_only_the_heralds_letters_go_to_discord_and_only_if_the_campaign_asks(
    league, cast, herald_posted
):
    """Never a private letter's words in a Discord channel; the herald's, if the admin
    asked for them when setting the webhook."""
    from notifications.models import DiscordWebhook, Notification

    DiscordWebhook.objects.create(
        campaign=league, url="https://discord.com/api/webhooks/1/x", herald=herald_posted
    )
    alice = signed_in(Client(), cast["alice"])
    write(alice, league, ["brightwater"], "Our secret plan.")
    write(alice, league, ["@herald"], "Hear ye: peace in the valley.")
    posts = list(Notification.objects.filter(channel="discord").values_list("body", flat=True))
    assert not any("secret plan" in body for body in posts)
    heralded = [body for body in posts if "peace in the valley" in body]
    assert len(heralded) == (1 if herald_posted else 0)


@pytest.mark.parametrize("herald_posted", [True, False])
def test_a_heralds_letter_posted_to_discord_is_not_changed_after(league, cast, herald_posted):
    """Issue 34, finding 7: a herald's letter queued for Discord was changed on the site
    and kept its first words in the channel. Posted, it stands as written, and its writer
    is told so; not posted, it may be changed as any other."""
    from notifications.models import DiscordWebhook, Notification

    DiscordWebhook.objects.create(
        campaign=league, url="https://discord.com/api/webhooks/1/x", herald=herald_posted
    )
    alice = signed_in(Client(), cast["alice"])
    sent = read_text(alice.post(
        reverse("campaign:letter_write", args=[league.slug]),
        {"to": ["@herald"], "text": "Hear ye: peace in the valley."}, follow=True,
    ))  # fmt: skip
    posted = "It is posted to the campaign's channel as written: it can't be changed now."
    assert (posted in sent) == herald_posted
    assert ("Change it" in sent) != herald_posted
    letter = Letter.objects.get()
    edit = reverse("campaign:letter_edit", args=[league.slug, letter.pk])
    answer = read_text(alice.post(edit, {"text": "Hear ye: war in the valley."}, follow=True))
    letter.refresh_from_db()
    if herald_posted:
        assert "It was posted to the campaign's channel as written" in answer
        assert letter.text == "Hear ye: peace in the valley."
        (post,) = Notification.objects.filter(channel="discord").values_list("body", flat=True)
        assert "peace in the valley" in post
    else:
        assert letter.text == "Hear ye: war in the valley."


def test_a_kingdom_reading_the_herald_redraws_only_the_page_of_its_writer(league, cast):
    """bob reads carol's proclamation: alice's campaign page, polled, stays as it was (304);
    carol's page of the herald no longer offers to change it (a letter read stands)."""
    carol, alice = signed_in(Client(), cast["carol"]), signed_in(Client(), cast["alice"])
    write(carol, league, ["@herald"], "Hear ye: a tourney at Carrowmoor!")
    herald = page_of(league, Correspondence.objects.get(key="herald"))
    campaign_page = reverse("campaign:campaign", args=[league.slug])
    poll = {"HX-Request": "true"}
    alices = alice.get(campaign_page, headers=poll)["ETag"]
    carol.get(herald)  # the answer to her letter: the page, with "Your letter is sent."
    carols = carol.get(herald, headers=poll)
    assert "Change it" in carols.text
    assert carol.get(herald, headers={**poll, "If-None-Match": carols["ETag"]}).status_code == 304

    signed_in(Client(), cast["bob"]).get(herald)

    assert alice.get(campaign_page, headers={**poll, "If-None-Match": alices}).status_code == 304
    redrawn = carol.get(herald, headers={**poll, "If-None-Match": carols["ETag"]})
    assert redrawn.status_code == 200
    assert "Change it" not in redrawn.text


def test_a_letter_draws_the_campaign_page_again_and_not_the_orders_board(league, cast):
    """The orders page shows nothing of the letters: a letter to the herald leaves bob's
    orders page, its board and its status, asked again with their tags, as they were (304),
    where his campaign page, which counts his unread letters, is drawn again."""
    bob = signed_in(Client(), cast["bob"])
    orders = reverse("campaign:orders", args=[league.slug])
    status = reverse("campaign:orders_status", args=[league.slug])
    campaign_page = reverse("campaign:campaign", args=[league.slug])
    poll = {"HX-Request": "true"}
    asked = [(orders, {}), (orders, poll), (status, poll), (campaign_page, {})]
    tags = []
    for url, headers in asked:
        drawn = bob.get(url, headers=headers)
        assert drawn.status_code == 200
        tags.append(drawn["ETag"])

    write(signed_in(Client(), cast["alice"]), league, ["@herald"], "Hear ye: a tourney!")

    answers = [
        bob.get(url, headers={**headers, "If-None-Match": tag})
        for (url, headers), tag in zip(asked, tags, strict=True)
    ]
    assert [a.status_code for a in answers] == [304, 304, 304, 200]
    assert 'Letters <strong class="unread">(1 unread)</strong>' in read_text(answers[-1])


def test_a_letters_time_is_shown_in_the_readers_zone_and_says_which(league, cast):
    """Issue 35: a letter said "UTC" beside a Berlin time."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(pk=cast["bob"].pk).update(time_zone="Europe/Berlin")
    write(signed_in(Client(), cast["alice"]), league, ["brightwater"], "Hello, neighbour.")
    letter = Letter.objects.get()
    page = signed_in(Client(), cast["bob"]).get(page_of(league, letter.correspondence)).text
    berlin = timezone.localtime(letter.written_at, ZoneInfo("Europe/Berlin"))
    assert f"{berlin:%H:%M} {berlin.tzname()}</time>" in page  # CET, or CEST in summer
    assert f'<time datetime="{berlin.replace(microsecond=0).isoformat()}">' in page
    assert " UTC" not in page
    # The same moment drawn again for alice, whose zone is UTC: in hers, not in bob's.
    page = signed_in(Client(), cast["alice"]).get(page_of(league, letter.correspondence)).text
    assert f"{timezone.localtime(letter.written_at, ZoneInfo('UTC')):%H:%M} UTC</time>" in page
