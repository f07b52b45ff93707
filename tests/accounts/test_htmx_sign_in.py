"""An expired session inside an open page (issue 37): a request htmx makes there is sent
to sign in as the whole page, and back to that page after, never answered with the sign-in
page to swap into a section of it."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.campaign.helpers import make_cast, new_campaign, signed_in

pytestmark = pytest.mark.django_db


def htmx_from(page: str) -> dict[str, str]:
    """The headers htmx sends with a request made inside `page`."""
    return {"HX-Request": "true", "HX-Current-URL": f"http://testserver{page}"}


@pytest.mark.parametrize(
    ("fragment", "page"),
    [
        (lambda slug: reverse("battles:mine"), lambda slug: "/"),
        (
            lambda slug: reverse("battles:admin", args=[slug]),
            lambda slug: reverse("campaign:dashboard", args=[slug]),
        ),
        (
            lambda slug: reverse("campaign:orders_status", args=[slug]),
            lambda slug: reverse("campaign:orders", args=[slug]),
        ),
    ],
    ids=["my battles on the home page", "the dashboard's battles", "the orders poll"],
)
def test_htmx_without_a_session_sends_the_page_to_sign_in_and_back(client, fragment, page):
    campaign = new_campaign(make_cast())
    slug = campaign.slug

    answer = client.get(fragment(slug), headers=htmx_from(page(slug)))

    assert answer.status_code == 200
    assert answer.content == b""
    sign_in = reverse("accounts:sign_in")
    assert answer["HX-Redirect"] == f"{sign_in}?next={page(slug)}"


def test_a_whole_page_without_a_session_is_redirected_as_django_does(client: Client) -> None:
    answer = client.get(reverse("battles:mine"))
    assert answer.status_code == 302
    assert answer["Location"] == f"{reverse('accounts:sign_in')}?next=/battles/mine/"
    assert "HX-Redirect" not in answer


def test_a_signed_in_htmx_request_is_answered_as_ever(client: Client) -> None:
    cast = make_cast()
    signed_in(client, cast["alice"])
    answer = client.get(reverse("battles:mine"), headers=htmx_from("/"))
    assert answer.status_code == 200
    assert "My battles" in answer.text
    assert "HX-Redirect" not in answer
