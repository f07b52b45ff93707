from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from tests.campaign.helpers import PASSWORD, make_cast

SIGN_IN = "/accounts/sign-in/"


@pytest.fixture
def cast() -> dict[str, User]:
    """gm, alice, bob and eve, each with the password PASSWORD; alice has an e-mail address."""
    people = make_cast()
    people["alice"].email = "alice@example.org"
    people["alice"].save(update_fields=["email"])
    return people


def sign_in(client: Client, username: str, password: str = PASSWORD, **extra: Any) -> Any:
    """Posts the sign-in form, as a browser would."""
    return client.post(SIGN_IN, {"username": username, "password": password}, **extra)


def signed_in_as(client: Client) -> int | None:
    """The id of the user the client's session is signed in as, if any."""
    value = client.session.get("_auth_user_id")
    return int(value) if value is not None else None
