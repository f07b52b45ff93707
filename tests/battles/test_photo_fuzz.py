"""Uploads fuzzed (issue 28): real pictures of every kind the site reads and some it does
not, cut short, with bytes changed, spliced into one another or behind another file's
first bytes, under any name and content type. Developing one either keeps a JPEG or WebP
no bigger than 1,600 pixels, or refuses it in words (a `ServiceError`); posted to the card,
it never makes a server error, and a photograph refused leaves no file in the storage.

The Hypothesis profile (tests/conftest.py) sets the examples: ten times its examples for
the files developed, its examples for the posts."""

import io
from functools import cache

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from battles import photos
from battles.models import Battle, BattlePhoto
from campaign.services.common import ServiceError
from tests.battles.pictures import (
    bomb,
    cut_out,
    encoded,
    phone_jpeg,
    png,
    scene,
    stored,
    upload,
    webp,
)

EXAMPLES = settings().max_examples
FUZZ = settings(
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
    database=None,
)


@cache
def originals() -> tuple[bytes, ...]:
    """Small pictures of every kind read, and of kinds refused."""
    small = scene((96, 64))
    return (
        phone_jpeg((96, 64), orientation=6),
        encoded(small, "JPEG", progressive=True),
        png((96, 64)),
        png((96, 64), "L"),
        encoded(small.convert("P"), "PNG"),
        cut_out((96, 64)),
        webp((96, 64)),
        encoded(small, "WEBP", lossless=True),
        encoded(small, "GIF"),
        encoded(small, "BMP"),
        encoded(small, "TIFF"),
        bomb(),
        b"<svg xmlns='http://www.w3.org/2000/svg'/>",
        b"<!doctype html><script>alert(1)</script>",
    )


@st.composite
def hostile(draw: st.DrawFn) -> bytes:
    """A picture, maybe cut short, with bytes changed, behind another's first bytes, or
    followed by another file."""
    data = bytearray(draw(st.sampled_from(originals())))
    for _ in range(draw(st.integers(0, 4))):
        if data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    how = draw(st.sampled_from(["as it is", "cut", "behind", "followed"]))
    if how == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    elif how == "behind":
        data = bytearray(draw(st.sampled_from(originals()))[: draw(st.integers(1, 40))]) + data
    elif how == "followed":
        data += draw(st.sampled_from(originals()))
    return bytes(data)


@settings(FUZZ, max_examples=10 * EXAMPLES)
@given(data=hostile())
def test_a_file_is_developed_into_a_plain_picture_or_refused_in_words(data):
    refused = None
    try:
        developed = photos.develop(io.BytesIO(data), len(data))
    except ServiceError as error:
        refused = error
    if refused is not None:
        assert refused.message in {
            photos.UNREADABLE,
            photos.TOO_MANY_PIXELS,
            photos.TOO_LARGE_DECODED,
        }
        assert refused.field == "photo"
        return
    for kept, longest in ((developed.large, 1600), (developed.thumbnail, 400)):
        image = Image.open(io.BytesIO(kept))
        image.load()
        assert image.format == {"jpg": "JPEG", "webp": "WEBP"}[developed.extension]
        assert max(image.size) <= longest
        assert not image.getexif()


NAMES = st.sampled_from(["photo.jpg", "photo.png", "photo.webp", "photo.svg", "photo.html", "x"])
TYPES = st.sampled_from(["image/jpeg", "image/png", "text/html", "image/svg+xml", ""])


@pytest.mark.django_db
def test_no_upload_makes_a_server_error_or_leaves_a_file_behind(
    cast, resolved, media, django_capture_on_commit_callbacks
):
    url = reverse("battles:battle_photo_add", args=[resolved.campaign.slug, resolved.number])
    players = {"alice": Client(), "carol": Client()}
    for name, client in players.items():
        client.force_login(cast[name])

    @settings(FUZZ, max_examples=EXAMPLES)
    @given(data=hostile(), name=NAMES, content_type=TYPES)
    def post(data: bytes, name: str, content_type: str) -> None:
        for client in players.values():
            response = client.post(url, {"photo": upload(data, name, content_type)})
            assert response.status_code == 302, response.status_code
            assert len(stored(media)) == 2 * BattlePhoto.objects.count()
            with django_capture_on_commit_callbacks(execute=True):
                BattlePhoto.objects.all().delete()  # room for the next, and its files go
        assert stored(media) == []

    post()
    assert Battle.objects.filter(pk=resolved.pk).exists()
