"""The dashboard's invitations and people: the invitation link to share (and a new one in
its place), invitations by e-mail (queued in the outbox, sent by the worker), more admins
(and stepping down), removing a player before the start and handing a kingdom over after
it. Only an admin may do any of it."""

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import timezone
from django.utils.html import strip_tags

from accounts.models import User
from campaign.models import AuditEntry, Campaign, InvitationsSent, KingdomOffer, Membership
from campaign.services import common, members, setup, submissions
from notifications import outbox
from notifications.models import Notification
from tests.campaign.helpers import (
    PASSWORD,
    action_url,
    dashboard_url,
    new_campaign,
    seen_now,
    signed_in,
    turned_away,
)
from tests.conftest import campaign_made_once, read_again

pytestmark = pytest.mark.django_db


def join_url(code: str) -> str:
    return reverse("campaign:join", args=[code])


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def who_plays(campaign: Campaign) -> tuple[Any, ...]:
    """Everything an action on the people could change."""
    fresh = Campaign.objects.get(pk=campaign.pk)
    return (
        fresh.join_code,
        fresh.barred,
        fresh.status,
        sorted(
            Membership.objects.filter(campaign=campaign).values_list(
                "user__username", "kingdom", "kingdom_name", "is_admin"
            )
        ),
        AuditEntry.objects.filter(campaign=campaign).count(),
    )


def spring_league(cast: dict[str, User]) -> Campaign:
    """gm runs it; alice and bob have joined; one kingdom of three is free."""
    campaign = setup.campaign_create(
        name="Spring League", admin=cast["gm"], kingdoms=3, map_name="borderlands"
    )
    members.campaign_join(campaign=campaign, user=cast["alice"], kingdom_name="Red Elves")
    members.campaign_join(campaign=campaign, user=cast["bob"], kingdom_name="Blue Dwarfs")
    return campaign


# The cast and a campaign just started (`running`), made once for the module.
made, cast, running = campaign_made_once(new_campaign, name="running")


@pytest.fixture(scope="module")
def made_open(made: tuple[dict[str, User], Campaign], django_db_blocker: Any) -> Campaign:
    """`spring_league`, made once for the module (in its transaction)."""
    with django_db_blocker.unblock():
        return spring_league(made[0])


@pytest.fixture
def open_campaign(made_open: Campaign) -> Campaign:
    """gm runs it; alice and bob have joined; one kingdom of three is free."""
    return read_again(made_open)


# --- the invitation link ----------------------------------------------------------------------


def test_the_dashboard_shows_the_whole_invitation_link_with_a_copy_button(
    client, cast, open_campaign
):
    page = signed_in(client, cast["gm"]).get(dashboard_url(open_campaign)).text
    link = f"http://testserver{join_url(open_campaign.join_code)}"
    assert f'<input id="invitation-link" class="invitation-link" value="{link}" readonly>' in page
    assert 'data-copy="#invitation-link">Copy</button>' in page
    assert "/static/js/copy.js" in page
    assert "2 of 3 kingdoms have joined" in page
    assert "The campaign can start when every kingdom has joined: 1 more to come." in page


def test_a_running_campaign_offers_no_invitation(client, cast, running):
    response = signed_in(client, cast["gm"]).get(dashboard_url(running))
    assert response.status_code == 200
    page = response.text
    assert f"<h1>Dashboard: {running.name}</h1>" in page
    assert '<h2 id="people-title">People</h2>' in page
    assert "invitation-link" not in page


def test_a_new_link_replaces_the_old_one(client, cast, open_campaign):
    old = open_campaign.join_code
    signed_in(client, cast["gm"])
    response = client.post(action_url(open_campaign, "new-code"), follow=True)
    assert "A new invitation link is made: the old one no longer works." in messages_of(response)
    new = Campaign.objects.get(pk=open_campaign.pk).join_code
    assert new != old
    assert f"http://testserver{join_url(new)}" in response.text
    assert AuditEntry.objects.filter(campaign=open_campaign, action="new-code").exists()
    signed_in(client, cast["eve"])
    stale = client.get(join_url(old))
    assert stale.status_code == 404
    assert "This invitation is no longer valid" in stale.text
    assert client.get(join_url(new)).status_code == 200


# --- invitations by e-mail ---------------------------------------------------------------------


def test_invitations_by_e_mail_are_queued_then_land_one_each_with_the_link(
    client, cast, open_campaign, eager, django_capture_on_commit_callbacks
):
    signed_in(client, cast["gm"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            action_url(open_campaign, "invite"),
            {"emails": "carol@example.org\n\n  dave@example.org \ncarol@example.org\n"},
            follow=True,
        )
        assert mail.outbox == []  # nothing is sent while the request waits
    assert (
        "The invitation to carol@example.org, dave@example.org is queued: it goes out by "
        "e-mail in a moment (see Notifications below)."
    ) in messages_of(response)
    link = f"http://testserver{join_url(open_campaign.join_code)}"
    assert [m.to for m in mail.outbox] == [["carol@example.org"], ["dave@example.org"]]
    for message in mail.outbox:
        assert "Spring League" in message.subject
        assert link in message.body
        assert "3 kingdoms (2 joined so far)" in message.body
    sent = Notification.objects.filter(campaign=open_campaign, kind="invitation")
    assert sorted(sent.values_list("address", flat=True)) == [
        "carol@example.org",
        "dave@example.org",
    ]
    assert all(row.sent_at and row.user is None for row in sent)
    entry = AuditEntry.objects.get(campaign=open_campaign, action="invited")
    assert entry.actor == cast["gm"]
    assert entry.details == {"to": ["carol@example.org", "dave@example.org"]}
    assert "sent invitations by e-mail; to: carol@example.org, dave@example.org" in (response.text)


@pytest.mark.parametrize(
    ("emails", "error"),
    [
        ("carol@example.org\nnot-an-address", "Not an e-mail address: not-an-address."),
        ("", "This field is required."),
        ("\n".join(f"p{n}@example.org" for n in range(31)), "At most 30 addresses at a time."),
    ],
)
def test_a_bad_address_sends_nothing(client, cast, open_campaign, emails, error):
    before = who_plays(open_campaign)
    response = signed_in(client, cast["gm"]).post(
        action_url(open_campaign, "invite"), {"emails": emails}
    )
    assert response.status_code == 400
    assert error in response.text
    assert mail.outbox == []
    assert not Notification.objects.filter(kind="invitation").exists()
    assert who_plays(open_campaign) == before


def test_a_started_campaign_sends_no_invitation(client, cast, running):
    response = signed_in(client, cast["gm"]).post(
        action_url(running, "invite"), {"emails": "carol@example.org"}, follow=True
    )
    assert "Nothing was changed. This campaign has already started." in messages_of(response)
    assert mail.outbox == []
    assert not Notification.objects.filter(kind="invitation").exists()


def invite(campaign: Campaign, gm: User, *emails: str) -> list[str]:
    link = f"http://testserver{join_url(campaign.join_code)}"
    return members.campaign_invite_by_email(campaign=campaign, actor=gm, emails=emails, link=link)


def test_a_mail_server_that_refuses_is_retried_and_shown_on_the_desk(
    client, cast, open_campaign, monkeypatch
):
    real_send = EmailMessage.send

    def refuse(self, *args, **kwargs):
        if self.to == ["dave@example.org"]:
            raise ConnectionRefusedError("Connection refused")
        return real_send(self, *args, **kwargs)

    monkeypatch.setattr(EmailMessage, "send", refuse)
    queued = invite(open_campaign, cast["gm"], "Carol@example.org", "dave@example.org")
    assert queued == ["carol@example.org", "dave@example.org"]

    assert outbox.sweep(timezone.now() + timedelta(minutes=1)) == 1
    assert [m.to for m in mail.outbox] == [["carol@example.org"]]
    daves = Notification.objects.get(address="dave@example.org")
    assert (daves.sent_at, daves.attempts) == (None, 1)
    assert daves.last_error == "ConnectionRefusedError: Connection refused"
    desk = reverse("notifications:desk", args=[open_campaign.slug])
    page = signed_in(client, cast["gm"]).get(desk).text
    assert "<td>dave@example.org</td>" in page
    assert "ConnectionRefusedError: Connection refused; next try" in page

    monkeypatch.setattr(EmailMessage, "send", real_send)
    assert outbox.sweep(timezone.now() + timedelta(minutes=3)) == 1
    assert [m.to for m in mail.outbox] == [["carol@example.org"], ["dave@example.org"]]


def test_a_mail_servers_refusal_shown_on_the_desk_names_no_address(
    client, cast, open_campaign, monkeypatch
):
    """Issue 26, point 7: an SMTP refusal printed the player's e-mail address."""
    import smtplib

    def refuse(self, *args, **kwargs):
        raise smtplib.SMTPRecipientsRefused(
            {self.to[0]: (550, f"5.1.1 <{self.to[0]}>: Recipient address rejected".encode())}
        )

    monkeypatch.setattr(EmailMessage, "send", refuse)
    invite(open_campaign, cast["gm"], "Carol@example.org")
    outbox.sweep(timezone.now() + timedelta(minutes=1))
    refused = Notification.objects.get(address="carol@example.org")
    assert "carol@example.org" not in refused.last_error
    assert "(the address)" in refused.last_error
    desk = reverse("notifications:desk", args=[open_campaign.slug])
    page = signed_in(client, cast["gm"]).get(desk).text
    assert "Recipient address rejected" in page
    assert page.count("carol@example.org") == 1  # the invitation's own row, typed by the admin


def test_an_invitation_whose_link_was_replaced_or_whose_campaign_started_is_not_sent(
    cast, open_campaign
):
    invite(open_campaign, cast["gm"], "carol@example.org")
    members.campaign_new_code(campaign=open_campaign, actor=cast["gm"])
    assert outbox.sweep(timezone.now() + timedelta(minutes=1)) == 0
    (stale,) = Notification.objects.filter(kind="invitation")
    assert stale.given_up_at is not None
    assert stale.last_error == "The invitation link was replaced by a new one."

    open_campaign.refresh_from_db()
    invite(open_campaign, cast["gm"], "dave@example.org")
    members.campaign_join(campaign=open_campaign, user=cast["eve"], kingdom_name="Green Orcs")
    setup.campaign_start(campaign=open_campaign, actor=cast["gm"])
    assert outbox.send(Notification.objects.get(address="dave@example.org").pk) == "dropped"
    assert mail.outbox == []


# --- several admins ---------------------------------------------------------------------------------


def addresses(n: int, start: int = 0) -> str:
    return "\n".join(f"person{i}@example.org" for i in range(start, start + n))


def test_a_burst_of_invitations_from_a_new_account_stops_at_its_days_cap(
    client, cast, open_campaign, settings
):
    """Issue 26, point 1: 3 posts of 30 addresses sent 90 e-mails. An account younger than
    a day invites at most INVITATIONS_PER_NEW_ACCOUNT a day; past it, nothing more is
    queued, and the page says so. Nothing is sent inside the request."""
    settings.INVITATIONS_PER_NEW_ACCOUNT = 10
    signed_in(client, cast["gm"])  # joined today
    told = [
        messages_of(
            client.post(
                action_url(open_campaign, "invite"), {"emails": addresses(6, 6 * i)}, follow=True
            )
        )
        for i in range(3)
    ]
    assert "is queued" in told[0][-1]
    assert (
        "Nothing was changed. At most 10 invitations and offers a day go out for your account, "
        "and 4 are left today: nothing was sent. Share the invitation link instead, or wait a "
        "day."
    ) in told[1]
    queued = Notification.objects.filter(campaign=open_campaign, kind="invitation")
    assert queued.count() == 6
    assert mail.outbox == []


def test_a_campaign_sends_at_most_its_days_invitations_whoever_sends_them(
    client, cast, open_campaign, settings
):
    settings.INVITATIONS_PER_CAMPAIGN = 20
    User.objects.filter(pk=cast["gm"].pk).update(date_joined=timezone.now() - timedelta(days=30))
    gm = User.objects.get(pk=cast["gm"].pk)
    assert len(invite(open_campaign, gm, *addresses(20).split())) == 20
    with pytest.raises(common.ServiceError) as refused:
        invite(open_campaign, gm, "one.more@example.org")
    assert refused.value.code == "too-many-invitations"
    assert "At most 20 invitations and offers a day go out for this campaign, and 0 are left" in (
        refused.value.message
    )
    InvitationsSent.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    assert invite(open_campaign, gm, "tomorrow@example.org") == ["tomorrow@example.org"]


def test_deleting_a_campaign_gives_its_admin_no_new_invitations(client, cast, settings):
    """Issue 34, finding 5: the day's count was read from the audit log, which a campaign's
    deletion takes with it: an admin who deleted a campaign could invite as many again."""
    settings.INVITATIONS_PER_NEW_ACCOUNT = 10
    first = setup.campaign_create(
        name="First League", admin=cast["gm"], kingdoms=2, map_name="borderlands"
    )
    assert len(invite(first, cast["gm"], *addresses(10).split())) == 10
    setup.campaign_delete(campaign=first, actor=cast["gm"])
    second = setup.campaign_create(
        name="Second League", admin=cast["gm"], kingdoms=2, map_name="borderlands"
    )
    with pytest.raises(common.ServiceError) as refused:
        invite(second, cast["gm"], "one.more@example.org")
    assert refused.value.code == "too-many-invitations"
    assert "for your account, and 0 are left today" in refused.value.message
    assert not Notification.objects.filter(address="one.more@example.org").exists()


def test_an_invitations_subject_never_carries_a_link(
    client, cast, open_campaign, eager, django_capture_on_commit_callbacks
):
    Campaign.objects.filter(pk=open_campaign.pk).update(
        name="Free gold at https://evil.example/claim and www.evil.example"
    )
    open_campaign.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        invite(open_campaign, cast["gm"], "carol@example.org")
    (message,) = mail.outbox
    assert message.subject == "gm invites you to Free gold at and, a Mighty Kingdoms campaign"


def test_an_admin_makes_another_member_an_admin(client, cast, running):
    signed_in(client, cast["gm"])
    response = client.post(action_url(running, "make-admin"), {"member": "alice"}, follow=True)
    assert "alice runs the campaign with you now." in messages_of(response)
    alice = Membership.objects.get(campaign=running, user=cast["alice"])
    assert alice.is_admin
    assert alice.kingdom == "red-elves"  # she plays on
    assert AuditEntry.objects.get(action="admin-added").details == {"admin": "alice"}
    # She runs it: the dashboard, its actions, and her own kingdom's pages.
    signed_in(client, cast["alice"])
    assert client.get(dashboard_url(running)).status_code == 200
    assert client.get(reverse("campaign:kingdom", args=[running.slug])).status_code == 200
    response = client.post(action_url(running, "pause"), {**seen_now(running), "reason": "tea"})
    assert response.status_code == 302
    assert Campaign.objects.get(pk=running.pk).status == Campaign.Status.PAUSED


def test_only_members_who_are_not_admins_can_be_made_admins(client, cast, running):
    before = who_plays(running)
    signed_in(client, cast["gm"])
    for member in ("gm", "eve", "nobody"):
        response = client.post(action_url(running, "make-admin"), {"member": member})
        assert response.status_code == 400
        assert "Select a valid choice." in response.text
    assert who_plays(running) == before


def test_the_only_admin_can_not_step_down(client, cast, running):
    before = who_plays(running)
    signed_in(client, cast["gm"])
    assert "Step down as admin" not in client.get(dashboard_url(running)).text
    response = client.post(action_url(running, "step-down"), follow=True)
    assert (
        "Nothing was changed. You are its only admin: make another member an admin first."
        in messages_of(response)
    )
    assert who_plays(running) == before


def test_an_admin_steps_down_when_another_remains(client, cast, running):
    members.campaign_make_admin(campaign=running, actor=cast["gm"], username="alice")
    signed_in(client, cast["gm"])
    assert "Step down as admin" in client.get(dashboard_url(running)).text
    response = client.post(action_url(running, "step-down"))
    assert response.status_code == 302
    assert response.url == reverse("campaign:campaign", args=[running.slug])
    gm = Membership.objects.get(campaign=running, user=cast["gm"])
    assert not gm.is_admin  # still in the campaign, following it
    assert client.get(dashboard_url(running)).status_code == 404
    assert client.get(response.url).status_code == 200
    assert AuditEntry.objects.filter(action="stepped-down", actor=cast["gm"]).exists()
    # alice runs it alone now: she may not step down.
    with pytest.raises(common.ServiceError):
        members.campaign_step_down(campaign=running, actor=cast["alice"])


def test_stepping_down_with_htmx_leaves_the_dashboard(client, cast, running):
    members.campaign_make_admin(campaign=running, actor=cast["gm"], username="alice")
    response = signed_in(client, cast["alice"]).post(
        action_url(running, "step-down"), headers={"HX-Request": "true"}
    )
    assert response["HX-Redirect"] == reverse("campaign:campaign", args=[running.slug])
    assert not Membership.objects.get(campaign=running, user=cast["alice"]).is_admin


# --- removing a player before the start ----------------------------------------------------------


def test_the_admin_removes_a_player_before_the_start(client, cast, open_campaign):
    signed_in(client, cast["gm"])
    response = client.post(
        action_url(open_campaign, "remove"), {"player": "bob", "reason": "moved away"}, follow=True
    )
    assert "bob is removed: their kingdom is free for someone else." in messages_of(response)
    assert not Membership.objects.filter(campaign=open_campaign, user=cast["bob"]).exists()
    assert "1 of 3 kingdoms have joined" in response.text
    entry = AuditEntry.objects.get(action="player-removed")
    assert (entry.reason, entry.details) == (
        "moved away",
        {"player": "bob", "kingdom": "Blue Dwarfs"},
    )
    # His kingdom's name is free; he may not come back through the same link.
    members.campaign_join(campaign=open_campaign, user=cast["eve"], kingdom_name="Blue Dwarfs")
    signed_in(client, cast["bob"])
    page = client.get(join_url(open_campaign.join_code)).text
    assert "You were removed from this campaign" in page
    assert 'name="kingdom_name"' not in page
    response = client.post(
        join_url(open_campaign.join_code),
        {"kingdom_name": "Bob's Return", "colour": "#123456", "heraldry": "Q"},
    )
    assert response.status_code == 400
    assert "You were removed from this campaign" in response.text
    assert not Membership.objects.filter(campaign=open_campaign, user=cast["bob"]).exists()
    # A new link lets him.
    code = members.campaign_new_code(campaign=open_campaign, actor=cast["gm"]).join_code
    response = client.post(
        join_url(code), {"kingdom_name": "Bob's Return", "colour": "#123456", "heraldry": "Q"}
    )
    assert response.status_code == 302
    assert Membership.objects.get(campaign=open_campaign, user=cast["bob"]).kingdom_name == (
        "Bob's Return"
    )


def test_an_admin_who_played_and_is_removed_stays_an_admin(cast, open_campaign):
    members.campaign_join(campaign=open_campaign, user=cast["gm"], kingdom_name="Grey Wardens")
    members.campaign_remove_player(campaign=open_campaign, actor=cast["gm"], username="gm")
    gm = Membership.objects.get(campaign=open_campaign, user=cast["gm"])
    assert (gm.is_admin, gm.kingdom, gm.kingdom_name) == (True, "", "")
    assert Campaign.objects.get(pk=open_campaign.pk).barred == []


def test_nobody_is_removed_after_the_start(client, cast, running):
    before = who_plays(running)
    signed_in(client, cast["gm"])
    assert "Remove a player" not in client.get(dashboard_url(running)).text
    response = client.post(action_url(running, "remove"), {"player": "bob"}, follow=True)
    [message] = messages_of(response)
    assert message.startswith("Nothing was changed. Players are removed only before the start")
    assert who_plays(running) == before


# --- handing a kingdom over after the start -------------------------------------------------------


def offer_url(offer: KingdomOffer, answer: str) -> str:
    return reverse("campaign:offer_answer", args=[offer.pk, answer])


def offered(campaign: Campaign, username: str, kingdom: str = "red-elves") -> KingdomOffer:
    return members.campaign_hand_over(
        campaign=campaign, actor=User.objects.get(username="gm"), kingdom=kingdom,
        username=username, reason="alice moved away",
    )  # fmt: skip


def test_a_kingdom_changes_hands_only_when_the_person_offered_it_accepts(client, people, running):
    """Issue 26, point 7: a hand-over is an offer; the receiver is told on their home page
    and by e-mail, and the kingdom is theirs only once they accept."""
    cast = people
    submissions.submission_save(campaign=running, user=cast["alice"], kind="races", payload="Elves")
    before = who_plays(running)[:4]
    signed_in(client, cast["gm"])
    response = client.post(
        action_url(running, "hand-over"),
        {"kingdom": "red-elves", "member": "", "username": "eve", "reason": "alice moved away"},
        follow=True,
    )
    assert messages_of(response) == [
        "Red Elves is offered to eve: if they have an account here, the offer waits on their "
        "home page and they are told by e-mail. It changes hands when they accept it."
    ]
    assert "Red Elves to eve" in response.text  # waiting for an answer, on the dashboard
    assert who_plays(running)[:4] == before  # alice still rules it
    (letter,) = Notification.objects.filter(user=cast["eve"])
    assert letter.subject == "[Autumn League] You are offered the kingdom of Red Elves"
    assert "It becomes yours only if you accept it" in letter.body
    assert letter.link.endswith(reverse("campaign:home"))

    signed_in(client, cast["eve"])
    home = client.get(reverse("campaign:home")).text
    assert "Offered to you" in home
    assert "offers you the kingdom of <strong>Red Elves</strong> in Autumn League" in home
    offer = KingdomOffer.objects.get(campaign=running)
    response = client.post(offer_url(offer, "accept"), follow=True)
    assert "You rule Red Elves from now on." in messages_of(response)
    eve = Membership.objects.get(campaign=running, user=cast["eve"])
    assert (eve.kingdom, eve.kingdom_name, eve.colour, eve.heraldry, eve.is_admin) == (
        "red-elves",
        "Red Elves",
        "#aa0000",
        "R",
        False,
    )
    assert not Membership.objects.filter(campaign=running, user=cast["alice"]).exists()
    entry = AuditEntry.objects.get(action="handed-over")
    assert (entry.actor, entry.reason) == (cast["gm"], "alice moved away")
    assert entry.details == {"kingdom": "Red Elves", "from": "alice", "to": "eve"}
    assert "Offered to you" not in client.get(reverse("campaign:home")).text
    # eve rules it: its pages, its draft, its decisions; alice sees none of it.
    kingdom_url = reverse("campaign:kingdom", args=[running.slug])
    setup_url = reverse("campaign:setup", args=[running.slug])
    assert client.get(kingdom_url).status_code == 200
    assert "Elves" in client.get(setup_url).text
    submissions.submission_set_ready(campaign=running, user=cast["eve"])
    signed_in(client, cast["alice"])
    assert client.get(kingdom_url).status_code == 404
    assert client.get(reverse("campaign:campaign", args=[running.slug])).status_code == 404
    with pytest.raises(common.ServiceError):
        submissions.submission_save(
            campaign=running, user=cast["alice"], kind="races", payload="Orcs"
        )


def test_an_offer_to_a_username_nobody_has_reads_like_any_other(client, cast, running):
    """Issue 26, point 7: "There is no user called …" told an admin which usernames exist."""
    signed_in(client, cast["gm"])
    said = {}
    for username in ("eve", "nobody"):
        response = client.post(
            action_url(running, "hand-over"),
            {"kingdom": "red-elves", "username": username, "reason": "x"},
            follow=True,
        )
        (said[username],) = messages_of(response)
        assert f"Red Elves to {username}" in response.text
    assert said["nobody"] == said["eve"].replace("eve", "nobody")
    offer = KingdomOffer.objects.get(username="nobody")
    assert offer.to_user is None
    assert KingdomOffer.objects.get(username="eve").status == "withdrawn"  # the newer stands


def test_offers_count_under_the_invitations_caps_whoever_is_named(
    client, people, running, settings
):
    """Issue 34, finding 4: a day-old account sent 12 offers, each an e-mail with its own
    words, to one person in seconds. Offers count with invitations, and an offer to a
    username nobody has counts the same, so the refusal tells nothing either."""
    settings.INVITATIONS_PER_NEW_ACCOUNT = 3
    signed_in(client, people["gm"])  # joined today
    told = []
    for username in ("eve", "nobody", "eve", "eve", "nobody"):
        response = client.post(
            action_url(running, "hand-over"),
            {"kingdom": "red-elves", "username": username, "reason": "Read this: evil.example"},
            follow=True,
        )
        (message,) = messages_of(response)
        told.append(message.replace(username, "someone"))
    assert told[3] == told[4]
    assert told[3].startswith(
        "Nothing was changed. At most 3 invitations and offers a day go out for your account"
    )
    assert KingdomOffer.objects.count() == 3
    assert Notification.objects.filter(user=people["eve"]).count() == 2


def test_the_notifications_desk_counts_the_same_for_an_offer_to_anyone(client, people, running):
    """Issue 34, finding 4: the desk's count of the campaign's messages went up for an offer
    to a username someone has, and not for one nobody has."""
    signed_in(client, people["gm"])
    desk = reverse("notifications:desk", args=[running.slug])
    counts = []
    for username in ("nobody", "eve"):
        client.post(
            action_url(running, "hand-over"),
            {"kingdom": "red-elves", "username": username, "reason": "x"},
            follow=True,  # its message read
        )
        page = client.get(desk)
        assert page.status_code == 200
        assert "Notifications" in page.text
        counts.append(re.sub(r"\s+", " ", strip_tags(page.text)))
    assert counts[0] == counts[1]
    assert Notification.objects.filter(user=people["eve"]).count() == 1  # eve is told


def test_only_the_person_offered_a_kingdom_may_answer(client, cast, running):
    offer = offered(running, "eve")
    before = who_plays(running)
    for visitor in ("gm", "alice", "bob"):
        signed_in(client, cast[visitor])
        assert "Offered to you" not in client.get(reverse("campaign:home")).text
        for answer in ("accept", "decline"):
            assert client.post(offer_url(offer, answer)).status_code == 404
    client.logout()
    response = client.post(offer_url(offer, "accept"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:sign_in"))
    signed_in(client, cast["eve"])
    assert client.post(offer_url(offer, "seize")).status_code == 404
    assert client.get(offer_url(offer, "accept")).status_code == 405
    assert who_plays(running) == before
    assert KingdomOffer.objects.get(pk=offer.pk).status == "open"


def test_the_person_offered_a_kingdom_may_decline_it(client, cast, running):
    offer = offered(running, "eve")
    before = who_plays(running)[:4]
    signed_in(client, cast["eve"])
    response = client.post(offer_url(offer, "decline"), follow=True)
    assert "You declined Red Elves in Autumn League." in messages_of(response)
    assert who_plays(running)[:4] == before
    assert AuditEntry.objects.filter(action="offer-declined", actor=cast["eve"]).exists()
    response = client.post(offer_url(offer, "accept"), follow=True)
    assert "Nothing was changed. This offer is declined already." in messages_of(response)
    assert who_plays(running)[:4] == before
    page = signed_in(client, cast["gm"]).get(dashboard_url(running)).text
    assert "declined a kingdom offered" in page
    assert "Red Elves to eve" not in page


def test_an_offer_accepted_while_ruling_another_kingdom_is_refused(client, cast, running):
    offer = offered(running, "eve")
    other = offered(running, "eve", kingdom="blue-dwarfs")
    members.offer_accept(offer_id=other.pk, user=cast["eve"])
    signed_in(client, cast["eve"])
    response = client.post(offer_url(offer, "accept"), follow=True)
    assert "Nothing was changed. eve rules Blue Dwarfs in this campaign already." in (
        messages_of(response)
    )
    assert Membership.objects.get(campaign=running, kingdom="red-elves").user == cast["alice"]


def test_a_kingdom_goes_at_once_to_the_admin_who_takes_it_and_who_stays_admin(
    client, cast, running
):
    signed_in(client, cast["gm"])
    response = client.post(
        action_url(running, "hand-over"),
        {"kingdom": "blue-dwarfs", "member": "gm", "username": "", "reason": "bob left"},
        follow=True,
    )
    assert "You rule Blue Dwarfs from now on." in messages_of(response)
    gm = Membership.objects.get(campaign=running, user=cast["gm"])
    assert (gm.kingdom, gm.is_admin) == ("blue-dwarfs", True)
    assert client.get(reverse("campaign:kingdom", args=[running.slug])).status_code == 200
    assert client.get(dashboard_url(running)).status_code == 200


def test_a_kingdom_of_an_admin_who_played_leaves_them_admin(cast, running):
    members.campaign_make_admin(campaign=running, actor=cast["gm"], username="alice")
    members.offer_accept(offer_id=offered(running, "eve").pk, user=cast["eve"])
    alice = Membership.objects.get(campaign=running, user=cast["alice"])
    assert (alice.kingdom, alice.is_admin) == ("", True)


@pytest.mark.parametrize(
    ("post", "error"),
    [
        ({"kingdom": "red-elves", "username": "eve", "reason": ""}, "Say why."),
        ({"kingdom": "red-elves", "reason": "x"}, "Say who rules the kingdom from now on."),
        (
            {"kingdom": "red-elves", "member": "gm", "username": "eve", "reason": "x"},
            "Choose a member or type a username, not both.",
        ),
        ({"kingdom": "atlantis", "username": "eve", "reason": "x"}, "Select a valid choice."),
        ({"kingdom": "red-elves", "member": "bob", "reason": "x"}, "Select a valid choice."),
    ],
)
def test_a_bad_hand_over_is_a_form_error(client, cast, running, post, error):
    before = who_plays(running)
    response = signed_in(client, cast["gm"]).post(action_url(running, "hand-over"), post)
    assert response.status_code == 400
    assert error in response.text
    assert who_plays(running) == before
    assert not KingdomOffer.objects.exists()


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("bob", "bob rules Blue Dwarfs in this campaign already."),
        ("alice", "alice rules that kingdom already."),
    ],
)
def test_a_hand_over_the_service_refuses_changes_nothing(client, cast, running, username, message):
    before = who_plays(running)
    response = signed_in(client, cast["gm"]).post(
        action_url(running, "hand-over"),
        {"kingdom": "red-elves", "username": username, "reason": "x"},
        follow=True,
    )
    assert f"Nothing was changed. {message}" in messages_of(response)
    assert who_plays(running) == before
    assert not KingdomOffer.objects.exists()


def test_no_hand_over_before_the_start(client, cast, open_campaign):
    before = who_plays(open_campaign)
    with pytest.raises(common.ServiceError) as refused:
        offered(open_campaign, "eve")
    assert refused.value.code == "not-running"
    page = signed_in(client, cast["gm"]).get(dashboard_url(open_campaign)).text
    assert "Hand a kingdom over" not in page
    assert who_plays(open_campaign) == before


# --- nobody else may act ------------------------------------------------------------------------

POSTS = {
    "invite": {"emails": "carol@example.org"},
    "new-code": {},
    "remove": {"player": "bob"},
    "make-admin": {"member": "bob"},
    "step-down": {},
    "hand-over": {"kingdom": "red-elves", "username": "eve", "reason": "x"},
}
OPEN_ONLY = {"invite", "new-code", "remove"}


@pytest.mark.parametrize("action", POSTS)
@pytest.mark.parametrize("visitor", ["gm", "alice", "eve", None])
def test_only_an_admin_may_change_who_plays(client, cast, action, visitor):
    """Each POST changes the campaign when its admin makes it, and is a 404 to a player,
    to eve, and sends a signed-out visitor to sign in: nothing changes, no mail goes."""
    campaign = new_campaign(cast, start=action not in OPEN_ONLY)
    if action == "step-down":
        Membership.objects.filter(campaign=campaign, user=cast["bob"]).update(is_admin=True)
    before = who_plays(campaign)
    if visitor is not None:
        signed_in(client, cast[visitor])
    response = client.post(action_url(campaign, action), POSTS[action])
    if visitor == "gm":
        assert response.status_code == 302
        assert who_plays(campaign) != before
        return
    turned_away(response, visitor)
    assert who_plays(campaign) == before
    assert mail.outbox == []


def test_a_member_and_an_admin_at_once_sees_both_sides(client, cast):
    """Admins may also play: alice and bob run the campaign and each rules a kingdom."""
    campaign = setup.campaign_create(
        name="Own Game", admin=cast["alice"], kingdoms=2, map_name="borderlands"
    )
    members.campaign_join(campaign=campaign, user=cast["alice"], kingdom_name="Red Elves")
    members.campaign_join(campaign=campaign, user=cast["bob"], kingdom_name="Blue Dwarfs")
    members.campaign_make_admin(campaign=campaign, actor=cast["alice"], username="bob")
    setup.campaign_start(campaign=campaign, actor=cast["bob"])
    signed_in(client, cast["alice"])
    page = client.get(reverse("campaign:campaign", args=[campaign.slug])).text
    assert "My kingdom: Red Elves" in page
    assert "Admin dashboard" in page
    assert "choose your race" in page
    assert client.get(dashboard_url(campaign)).status_code == 200


def test_the_people_are_listed_with_their_kingdoms_and_roles(client, cast, running):
    User.objects.create_user("zed", password=PASSWORD)
    page = signed_in(client, cast["gm"]).get(dashboard_url(running)).text
    assert "<td>gm (you)</td>" in page
    assert "Red Elves" in page
    assert page.count('name="member" value="') == 2  # alice and bob may be made admins


def test_a_kingdom_whose_player_s_account_is_gone_is_handed_over(cast, running):
    cast["bob"].delete()
    members.offer_accept(offer_id=offered(running, "eve", "blue-dwarfs").pk, user=cast["eve"])
    eve = Membership.objects.get(campaign=running, user=cast["eve"])
    assert (eve.kingdom, eve.kingdom_name, eve.heraldry) == ("blue-dwarfs", "Blue Dwarfs", "B")
    assert AuditEntry.objects.get(action="handed-over").details["from"] is None


def test_a_kingdom_is_not_handed_to_a_closed_account(cast, running):
    """An offer to a closed account is made like one to nobody, and cannot be accepted."""
    User.objects.filter(pk=cast["eve"].pk).update(is_active=False)
    offer = offered(running, "eve")
    assert offer.to_user is None
    with pytest.raises(common.ServiceError) as refused:
        members.offer_accept(offer_id=offer.pk, user=cast["eve"])
    assert refused.value.code == "not-yours"
    assert Membership.objects.get(campaign=running, kingdom="red-elves").user == cast["alice"]
