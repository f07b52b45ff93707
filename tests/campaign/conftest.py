import pytest

from tests.campaign.helpers import make_cast
from tests.campaign.notifying import discord_stand_in, with_addresses


@pytest.fixture
def cast():
    return make_cast()


@pytest.fixture
def people(cast):
    """The cast, each with an e-mail address."""
    return with_addresses(cast)


@pytest.fixture
def discord(settings, monkeypatch):
    """The stand-in for Discord, on 127.0.0.1, allowed as a webhook in the tests only."""
    settings.NOTIFICATIONS_ANY_WEBHOOK = True
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    with discord_stand_in() as stand_in:
        yield stand_in
