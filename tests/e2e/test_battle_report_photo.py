"""On a phone, a battle report with a photograph (issue 28): alice has won her battle
against bob; on its card she writes how it went and adds a photograph from her phone's
file picker, a JPEG with the camera's EXIF and a GPS position. The card shows it to carol
too, the chronicle links it with its first photograph, and the picture served has no EXIF
and no GPS left, at most 1,600 pixels wide."""

import io

import pytest
from PIL import Image
from playwright.sync_api import expect
from pytest_django import Settings

from accounts.models import User
from battles.models import Battle
from battles.services import results
from tests.battles.conftest import hand_off, make_league
from tests.battles.pictures import phone_jpeg
from tests.campaign.helpers import LEAGUE_CAST, make_cast
from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_cast(LEAGUE_CAST, password="demo")


def won_by_alice(cast: dict[str, User]) -> Battle:
    """alice's and bob's battle, played at the tabletop: alice won, bob confirmed it."""
    league = make_league(cast)
    battle = hand_off(league, cast)
    assert battle is not None
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    results.battle_confirm(report=report, user=cast["bob"])
    battle.refresh_from_db()
    assert battle.status == Battle.Status.RESOLVED
    return battle


def test_the_winner_adds_a_report_with_a_photograph_from_her_phone(
    browser, live_server, cast, eager, screenshot
):
    battle = won_by_alice(cast)
    card = f"{live_server.url}/c/{battle.campaign.slug}/battles/{battle.number}/"

    alice = sign_in(browser, live_server, "alice")
    alice.goto(card)
    mine = alice.locator(".my-battle-report")
    mine.get_by_label("Your report").fill("The elves held the hill until the last turn.")
    mine.get_by_role("button", name="Save my report").click()
    expect(alice.locator("ul.messages")).to_contain_text("report")
    with alice.expect_file_chooser() as chosen:
        alice.locator('.my-battle-report input[type="file"]').click()
    picture = phone_jpeg()
    chosen.value.set_files({"name": "IMG_2041.jpg", "mimeType": "image/jpeg", "buffer": picture})
    alice.get_by_role("button", name="Add this photograph").click()
    photo = alice.locator("ul.photos img").first
    expect(photo).to_be_visible()
    screenshot(alice, "battle-report-photo")

    # the picture served: no EXIF, no GPS, at most 1,600 pixels on its longer side
    large = alice.locator("ul.photos a").first.get_attribute("href")
    assert large is not None
    served = alice.request.get(f"{live_server.url}{large}")
    assert served.headers["content-type"] == "image/jpeg"
    kept = Image.open(io.BytesIO(served.body()))
    assert max(kept.size) <= 1600
    assert dict(kept.getexif()) == {}
    assert b"GPS" not in served.body()
    assert "exif" not in kept.info

    # carol reads it on the card, and the chronicle links it with its photograph
    carol = sign_in(browser, live_server, "carol")
    carol.goto(card)
    expect(carol.locator("body")).to_contain_text("The elves held the hill until the last turn.")
    expect(carol.locator("ul.photos img")).to_have_count(1)
    carol.goto(f"{live_server.url}/c/{battle.campaign.slug}/story/chronicle/")
    link = carol.locator("a.battle-report-link").first
    expect(link).to_contain_text("Aldermark's report")
    expect(link.locator("img")).to_be_visible()
    screenshot(carol, "battle-report-in-the-chronicle")
