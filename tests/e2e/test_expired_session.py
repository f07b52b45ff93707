"""A session that expires while a page is open (issue 37): the next request htmx makes in
the page (here the fragments the home page and the dashboard load) takes the browser to
the sign-in page, and signing in brings the player back to the page. Before, the sign-in
page was swapped into a section of the page."""

import re
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse
from playwright.sync_api import Page, Route, expect

from accounts.sessions import SessionStore as CachedSessionStore
from campaign.models import Campaign
from tests.campaign.helpers import make_cast, new_campaign
from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def expire_before(page: Page, fragment: str) -> None:
    """The page's session is ended (as by its expiry) just as its htmx request for
    `fragment` leaves the browser."""

    def end_the_session(route: Route) -> None:
        key = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
        for store in (SessionStore, CachedSessionStore):
            store(session_key=key).delete()
        route.continue_()

    page.route(re.compile(re.escape(fragment) + "$"), end_the_session)


def sign_in_again(page: Page) -> None:
    page.get_by_label("Username").fill("gm")
    page.get_by_label("Password").fill("demo")
    page.get_by_role("button", name="Sign in").click()


def test_an_expired_session_under_the_home_page_and_the_dashboard_signs_in_and_comes_back(
    browser: Any, live_server: Any
) -> None:
    campaign: Campaign = new_campaign(make_cast(password="demo"))
    gm = sign_in(browser, live_server, "gm")
    sign_in_page = reverse("accounts:sign_in")

    expire_before(gm, reverse("battles:mine"))
    gm.goto(f"{live_server.url}/")
    expect(gm).to_have_url(f"{live_server.url}{sign_in_page}?next=/")
    expect(gm.get_by_role("heading", name="My campaigns")).to_have_count(0)
    gm.unroute_all()
    sign_in_again(gm)
    expect(gm).to_have_url(f"{live_server.url}/")
    expect(gm.get_by_role("heading", name="My campaigns")).to_be_visible()

    dashboard = reverse("campaign:dashboard", args=[campaign.slug])
    expire_before(gm, reverse("notifications:desk", args=[campaign.slug]))
    gm.goto(f"{live_server.url}{dashboard}")
    expect(gm).to_have_url(f"{live_server.url}{sign_in_page}?next={dashboard}")
    gm.unroute_all()
    sign_in_again(gm)
    expect(gm).to_have_url(f"{live_server.url}{dashboard}")
    expect(gm.locator("#notifications")).to_contain_text("Discord")
