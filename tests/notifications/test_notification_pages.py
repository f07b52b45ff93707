"""The notification pages: a user's choices at /notifications/, the unsubscribe link of every
e-mail (signed out; GET changes nothing; a forged token is refused in words), and the
campaign's notifications desk, which the dashboard loads: the Discord webhook, set, replaced
and removed by the admin, refused unless it is Discord's in production, and never shown back
whole; and how the messages stand."""

import email.policy
import re
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from campaign.models import Campaign
from notifications import choices, outbox
from notifications.discord import webhook_refusal, webhook_set
from notifications.models import DiscordWebhook, Notification, NotificationChoices
from tests.campaign.helpers import new_campaign, signed_in
from tests.notifications.notifying import rows, sent_to

pytestmark = pytest.mark.django_db

CHOICES = reverse("notifications:choices")
WEBHOOK = "https://discord.com/api/webhooks/1234567890/Secret-Token_abcdefGHIJ"


def choices_of(user: User) -> NotificationChoices:
    return choices.choices_of(user)


# --- the choices page -------------------------------------------------------------------------


def test_the_choices_page_offers_every_kind_on_and_one_email_each_by_default(client, people):
    page = signed_in(client, people["alice"]).get(CHOICES).text

    assert page.count('type="checkbox"') == len(choices.EMAIL_KINDS)
    assert page.count("checked") == len(choices.EMAIL_KINDS) + 1  # and "each"
    assert "E-mails go to <strong>alice@example.org</strong>" in page


def test_a_user_turns_kinds_off_and_takes_a_digest(client, people):
    signed_in(client, people["alice"])
    answer = client.post(CHOICES, {"email_on": ["step", "battle", "report"], "how": "digest"})

    assert answer.status_code == 302
    choices = choices_of(people["alice"])
    assert choices.email_off == ["reminder", "dispute", "month", "ended", "letter"]
    assert choices.digest
    page = client.get(CHOICES).text
    assert "Your choices are saved." in page
    assert page.count("checked") == 4


def test_a_bad_choice_is_refused_and_changes_nothing(client, people):
    answer = signed_in(client, people["alice"]).post(CHOICES, {"email_on": ["spam"]})

    assert answer.status_code == 400
    assert not NotificationChoices.objects.exists()


def test_the_page_says_when_there_is_no_address_to_write_to(client, people):
    people["bob"].email = ""
    people["bob"].save()
    page = signed_in(client, people["bob"]).get(CHOICES).text
    assert "Your account has no e-mail address" in page


def test_the_settings_page_links_to_the_choices(client, people):
    page = signed_in(client, people["alice"]).get(reverse("accounts:settings")).text
    assert f'href="{CHOICES}"' in page


# --- unsubscribing ----------------------------------------------------------------------------


def unsubscribe_link(message: mail.EmailMessage) -> str:
    found = re.search(r"https://testserver(/notifications/unsubscribe/[^/\s]+/)", str(message.body))
    assert found is not None
    return found[1]


@pytest.fixture
def alices_email(people: dict[str, User]) -> mail.EmailMessage:
    new_campaign(people)
    outbox.sweep(timezone.now() + timedelta(minutes=1))
    (message,) = sent_to("alice@example.org")
    return message


def test_every_email_carries_its_unsubscribe_link_in_its_text_and_headers(alices_email):
    link = unsubscribe_link(alices_email)
    assert alices_email.extra_headers["List-Unsubscribe"] == f"<https://testserver{link}>"
    assert alices_email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # As the SMTP backend writes it: the address whole on one line, not in encoded words.
    wire = alices_email.message(policy=email.policy.SMTP).as_bytes().decode()
    assert f"\r\nList-Unsubscribe: <https://testserver{link}>\r\n" in wire
    assert "Stop e-mails when a step opens for you, or it is your turn:" in alices_email.body


def test_the_unsubscribe_link_asks_first_when_opened_signed_out_and_changes_nothing(
    alices_email, people
):
    page = Client().get(unsubscribe_link(alices_email))

    assert page.status_code == 200
    assert (
        "Stop e-mails when a step opens for you, or it is your turn for <strong>alice</strong>?"
        in page.text
    )
    assert "Yes, stop them" in page.text
    assert choices_of(people["alice"]).email_off == []


def test_the_unsubscribe_button_turns_that_kind_off_signed_out(alices_email, people):
    browser = Client(enforce_csrf_checks=True)
    page = browser.post(unsubscribe_link(alices_email))

    assert page.status_code == 200
    assert "alice gets no more e-mails when a step opens for you" in page.text
    assert choices_of(people["alice"]).email_off == ["step"]


def test_a_mail_clients_one_click_unsubscribe_works_too(alices_email, people):
    Client(enforce_csrf_checks=True).post(
        unsubscribe_link(alices_email), {"List-Unsubscribe": "One-Click"}
    )
    assert choices_of(people["alice"]).email_off == ["step"]


@pytest.mark.parametrize(
    "token",
    [
        "not-a-token",
        signing.dumps([1, "step"], salt="another-salt"),
        signing.Signer(salt=choices.UNSUBSCRIBE_SALT).sign_object([1, "all"]) + "x",
    ],
    ids=["not-a-token", "another-salt", "tampered"],  # the same in every pytest-xdist worker
)
def test_a_forged_unsubscribe_link_is_refused_with_a_message(people, token):
    url = reverse("notifications:unsubscribe", args=[token])
    for answer in (Client().get(url), Client().post(url)):
        assert answer.status_code == 400
        assert "This unsubscribe link is not valid" in answer.text
    assert not NotificationChoices.objects.exists()


def test_a_token_for_a_kind_that_does_not_exist_is_refused(people):
    token = choices.unsubscribe_token(people["alice"], "everything-forever")
    answer = Client().post(reverse("notifications:unsubscribe", args=[token]))
    assert answer.status_code == 400


def test_the_digests_link_stops_every_email(people):
    choices.unsubscribe(user=people["alice"], kind=choices.ALL)
    assert choices_of(people["alice"]).email_off == list(choices.EMAIL_KINDS)


# --- the desk's Discord webhook ---------------------------------------------------------------


def dashboard(campaign: Campaign) -> str:
    return reverse("campaign:dashboard", args=[campaign.slug])


def desk(campaign: Campaign) -> str:
    return reverse("notifications:desk", args=[campaign.slug])


def act(campaign: Campaign, action: str) -> str:
    return reverse("notifications:desk_action", args=[campaign.slug, action])


def test_the_dashboard_loads_the_desk_into_its_notifications_section(client, people):
    campaign = new_campaign(people)
    page = signed_in(client, people["gm"]).get(dashboard(campaign)).text

    assert f'hx-get="{desk(campaign)}" hx-trigger="load"' in page
    assert f'<a href="{desk(campaign)}">' in page  # and a link, without JavaScript
    fragment = client.get(desk(campaign), headers={"HX-Request": "true"}).text
    assert fragment.lstrip().startswith('<div id="notification-desk"')
    assert "No Discord webhook is set." in fragment
    assert "<html" not in fragment


def test_the_admin_sets_a_webhook_and_sees_only_its_last_four_characters(client, people):
    campaign = new_campaign(people)
    signed_in(client, people["gm"])

    answer = client.post(act(campaign, "discord"), {"url": WEBHOOK}, follow=True)

    assert DiscordWebhook.objects.get(campaign=campaign).url == WEBHOOK
    assert "The Discord webhook ending GHIJ is set" in answer.text
    assert "its address ends in <code>…GHIJ</code>" in answer.text
    pages = [
        answer.text,
        client.get(dashboard(campaign)).text,
        client.get(dashboard(campaign), headers={"HX-Request": "true"}).text,
        client.get(desk(campaign)).text,
        client.get(desk(campaign), headers={"HX-Request": "true"}).text,
        client.get(reverse("campaign:campaign", args=[campaign.slug])).text,
        client.get(reverse("battles:admin", args=[campaign.slug])).text,
    ]
    for page in pages:
        assert "Secret-Token" not in page
        assert "1234567890" not in page
    assert "set the Discord webhook; ending: GHIJ" in pages[1]


def test_the_admin_chooses_whether_the_herald_s_letters_are_posted(client, people):
    """Issue 28: only if the admin ticks it are letters through the herald posted."""
    campaign = new_campaign(people)
    signed_in(client, people["gm"])
    page = client.post(act(campaign, "discord"), {"url": WEBHOOK}, follow=True).text
    assert DiscordWebhook.objects.get(campaign=campaign).herald is False
    assert "No letter is posted there." in page
    page = client.post(act(campaign, "discord"), {"url": WEBHOOK, "herald": "on"}, follow=True).text
    assert DiscordWebhook.objects.get(campaign=campaign).herald is True
    assert "Letters through the herald are posted there, with their words." in page


def test_the_admin_replaces_and_removes_the_webhook(client, people):
    campaign = new_campaign(people)
    signed_in(client, people["gm"])
    client.post(act(campaign, "discord"), {"url": WEBHOOK})
    client.post(act(campaign, "discord"), {"url": WEBHOOK.replace("GHIJ", "WXYZ")})
    assert DiscordWebhook.objects.get(campaign=campaign).ending == "WXYZ"

    page = client.post(act(campaign, "discord-remove"), follow=True).text

    assert not DiscordWebhook.objects.exists()
    assert "No Discord webhook is set." in page


@pytest.mark.parametrize(
    "url",
    [
        "http://discord.com/api/webhooks/1/abc",  # not https
        "https://example.org/api/webhooks/1/abc",  # not Discord
        "https://discord.com.example.org/api/webhooks/1/abc",
        "https://discord.com/channels/1/2",  # Discord, not a webhook
        "https://user@discord.com/api/webhooks/1/abc",
        "https://127.0.0.1:8080/api/webhooks/1/abc",
    ],
)
def test_in_production_the_dashboard_refuses_what_is_not_a_discord_webhook(
    client, people, settings, url
):
    settings.DEBUG = False
    campaign = new_campaign(people)
    answer = signed_in(client, people["gm"]).post(act(campaign, "discord"), {"url": url})

    assert answer.status_code == 400
    assert "Give the address of a Discord webhook" in answer.text
    assert url not in answer.text  # what was typed is not shown back either
    assert not DiscordWebhook.objects.exists()


def test_the_older_discordapp_address_is_a_discord_webhook_too():
    assert webhook_refusal("https://discordapp.com/api/webhooks/1/abc") == ""
    assert webhook_refusal("https://ptb.discord.com/api/webhooks/1/abc") == ""


def test_with_debug_on_any_web_address_will_do_for_a_local_stand_in(settings):
    settings.DEBUG = True
    assert webhook_refusal("http://127.0.0.1:9000/hook") == ""
    assert webhook_refusal("ftp://127.0.0.1/hook") != ""


def test_only_the_admin_sets_the_webhook_or_reads_the_desk(client, people):
    campaign = new_campaign(people)
    signed_in(client, people["alice"])
    answer = client.post(act(campaign, "discord"), {"url": WEBHOOK})

    assert answer.status_code == 404
    assert not DiscordWebhook.objects.exists()
    assert client.get(desk(campaign)).status_code == 404


# --- the desk's outbox ------------------------------------------------------------------------


def test_the_dashboard_tells_how_the_messages_stand_and_the_newest_failures(client, people):
    campaign = new_campaign(people)
    alices = rows(campaign, user=people["alice"])[0]
    Notification.objects.filter(pk=alices.pk).update(
        attempts=3, last_error="SMTPServerDisconnected: gone"
    )
    page = signed_in(client, people["gm"]).get(desk(campaign)).text

    assert "Messages: 0 sent, 2 waiting." in page
    assert "SMTPServerDisconnected: gone; next try" in page


def test_the_desks_queries_do_not_grow_with_the_number_of_notifications(client, people):
    campaign = new_campaign(people)
    webhook_set(campaign=campaign, actor=people["gm"], url=WEBHOOK)
    signed_in(client, people["gm"])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(desk(campaign)).status_code == 200
        return len(captured.captured_queries)

    few = queries()
    Notification.objects.bulk_create(
        Notification(
            campaign=campaign, user=people[name], channel="email", kind="step", subject="s",
            body="b", link="https://testserver/", dedupe_key=f"many:{n}:{name}",
            last_error="refused" if n % 2 else "", given_up_at=timezone.now() if n % 3 else None,
        )
        for n in range(40)
        for name in ("alice", "bob", "gm")
    )  # fmt: skip
    assert queries() == few


def test_the_sites_superuser_reads_the_outbox_in_the_django_admin(client, cast, people):
    campaign = new_campaign(cast)
    assert rows(campaign), "starting the campaign told its players"
    root = User.objects.create_superuser("root", password="a-long-test-password")
    page = signed_in(client, root).get("/admin/notifications/notification/").text
    assert rows(campaign)[0].subject in page
    assert "Add notification" not in page
