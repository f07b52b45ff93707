"""A letter read and changed at once, on PostgreSQL: each thread has its own connection, as
each web request has. A letter is never changed once it was shown as read (issue 34,
finding 6: a read and an edit at once let the edit through twice in 25 tries)."""

import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaign.models import Letter
from campaign.services import common, letters
from tests.battles.conftest import make_league
from tests.campaign.helpers import LEAGUE_CAST, make_cast, signed_in

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def in_a_thread(work: Any) -> tuple[threading.Thread, list[Any]]:
    """`work()` in a thread of its own, with its own connection; what it returns or raises."""
    said: list[Any] = []

    def run() -> None:
        try:
            said.append(work())
        except Exception as error:
            said.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, said


def test_a_letter_being_changed_is_read_as_changed(postgres, monkeypatch):
    """alice changes her letter; bob opens it while her change holds the letter: his page
    waits for her change and shows it, never the first words under a mark that says read."""
    cast = make_cast(LEAGUE_CAST)
    league = make_league(cast)
    # bob wrote first: he has a read mark already (making one would wait on the edit's lock
    # of the correspondence, and hide the race)
    letters.letter_write(campaign=league, user=cast["bob"], to=["aldermark"], text="Where?")
    letter = letters.letter_write(
        campaign=league, user=cast["alice"], to=["brightwater"], text="Meet at the ford."
    )
    holding, go_on = threading.Event(), threading.Event()
    real_checked = letters._checked_text

    def held(text: str) -> str:  # the edit has its lock, and found the letter unread
        holding.set()
        go_on.wait(timeout=10)
        return real_checked(text)

    monkeypatch.setattr(letters, "_checked_text", held)
    editor, edited = in_a_thread(
        lambda: letters.letter_edit(letter=letter, user=cast["alice"], text="Meet at the bridge.")
    )
    assert holding.wait(timeout=10)
    page = reverse("campaign:correspondence", args=[league.slug, letter.correspondence_id])
    reader, read = in_a_thread(lambda: signed_in(Client(), cast["bob"]).get(page).text)
    reader.join(timeout=0.5)  # without the letter's lock, bob's page is drawn by now
    go_on.set()
    editor.join(timeout=10)
    reader.join(timeout=10)

    assert isinstance(edited[0], Letter)
    assert "Meet at the bridge." in read[0]
    assert "Meet at the ford." not in read[0]


def test_a_letter_read_is_not_changed_after(postgres):
    cast = make_cast(LEAGUE_CAST)
    league = make_league(cast)
    letter = letters.letter_write(
        campaign=league, user=cast["alice"], to=["brightwater"], text="Meet at the ford."
    )
    page = reverse("campaign:correspondence", args=[league.slug, letter.correspondence_id])
    assert "Meet at the ford." in signed_in(Client(), cast["bob"]).get(page).text
    with pytest.raises(common.ServiceError) as refused:
        letters.letter_edit(letter=letter, user=cast["alice"], text="Meet at the bridge.")
    assert refused.value.message == "It has been read: a letter read stands as it is."
