"""Battle reports with photographs (issue 28): once alice's and bob's battle is resolved,
each side writes its report and adds up to six photographs, kept without what they said of
where they were taken; the author or the admin removes a photograph, the admin hides a
report; every refusal in words, with nothing stored; and a hidden report reaches nobody
who may not see it, on the card, at the photographs' URLs, in the chronicle or at the end."""

import io
import zlib
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image

from accounts.models import User
from battles import photos
from battles.models import Battle, BattlePhoto, BattleReport
from battles.services import battle_reports
from campaign.models import AuditEntry
from campaign.services.common import ServiceError
from campaign.words import names_of
from tests.battles.pictures import (
    GPS_IFD,
    ORIENTATION,
    bomb,
    chunk,
    cut_out,
    declaring,
    declaring_jpeg,
    encoded,
    flat_png,
    noise_png,
    phone_jpeg,
    png,
    scene,
    stored,
    upload,
    webp,
)
from tests.campaign.helpers import signed_in

pytestmark = pytest.mark.django_db


def card_url(battle: Battle) -> str:
    return reverse("battles:card", args=[battle.campaign.slug, battle.number])


def photo_url(photo: BattlePhoto, size: str = "large") -> str:
    battle = photo.report.battle
    return reverse(
        "battles:battle_photo", args=[battle.campaign.slug, battle.number, photo.pk, size]
    )


def add_photo(battle: Battle, user: User, data: bytes, name: str = "photo.jpg") -> BattlePhoto:
    return battle_reports.battle_photo_add(
        battle=battle, user=user, upload=upload(data, name), size=len(data)
    )


def refusal(battle: Battle, user: User, data: bytes, name: str = "photo.jpg") -> str:
    with pytest.raises(ServiceError) as refused:
        add_photo(battle, user, data, name)
    return refused.value.message


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def kept(photo: BattlePhoto, size: str = "large") -> bytes:
    field = photo.large if size == "large" else photo.thumbnail
    with field.open("rb") as file:
        return bytes(file.read())


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    colour = image.getpixel(xy)
    assert isinstance(colour, tuple)
    return colour


# --- writing a report -------------------------------------------------------------------------


def test_each_side_writes_its_report_once_the_battle_is_resolved(cast, resolved):
    alice = battle_reports.battle_report_write(
        battle=resolved, user=cast["alice"], text="We held the ford."
    )
    bob = battle_reports.battle_report_write(
        battle=resolved, user=cast["bob"], text="The river was ours."
    )
    assert (alice.kingdom, alice.text) == ("aldermark", "We held the ford.")
    assert (bob.kingdom, bob.text) == ("brightwater", "The river was ours.")


def test_its_player_edits_the_report_and_a_side_has_one(cast, resolved):
    battle_reports.battle_report_write(battle=resolved, user=cast["alice"], text="First draft.")
    battle_reports.battle_report_write(
        battle=resolved, user=cast["alice"], text="  The whole story.  "
    )
    assert list(BattleReport.objects.values_list("kingdom", "text")) == [
        ("aldermark", "The whole story.")
    ]


def test_no_report_before_the_battle_is_resolved(cast, battle):
    with pytest.raises(ServiceError) as refused:
        battle_reports.battle_report_write(battle=battle, user=cast["alice"], text="Too soon.")
    assert refused.value.message.startswith(
        "A battle report is written once the battle is resolved"
    )
    assert not BattleReport.objects.exists()


@pytest.mark.parametrize("who", ["carol", "gm", "eve"])
def test_only_the_battles_two_players_write_a_report(cast, resolved, who):
    with pytest.raises(ServiceError) as refused:
        battle_reports.battle_report_write(battle=resolved, user=cast[who], text="I was there.")
    assert refused.value.message == "Only this battle's two players may do that."
    assert not BattleReport.objects.exists()


def test_a_report_is_at_most_4000_characters_and_not_empty(cast, resolved):
    with pytest.raises(ServiceError) as refused:
        battle_reports.battle_report_write(battle=resolved, user=cast["alice"], text="x" * 4001)
    assert refused.value.message == "A battle report is at most 4,000 characters: yours has 4,001."
    with pytest.raises(ServiceError) as refused:
        battle_reports.battle_report_write(battle=resolved, user=cast["alice"], text="   ")
    assert refused.value.message == "Write a few words about the battle, or add a photograph."
    assert battle_reports.battle_report_write(battle=resolved, user=cast["alice"], text="x" * 4000)


def test_the_card_shows_the_report_escaped_with_its_links_clickable(client, cast, resolved):
    text = (
        "We won <script>alert(1)</script> at the ford.\n\nPhotos: https://example.org/ford?a=1&b=2"
    )
    battle_reports.battle_report_write(battle=resolved, user=cast["alice"], text=text)
    page = signed_in(client, cast["carol"]).get(card_url(resolved)).text
    assert "Aldermark's report" in page
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert '<a href="https://example.org/ford?a=1&amp;b=2" rel="nofollow">' in page
    assert "<p>Photos:" in page  # paragraphs kept


def test_the_card_offers_the_report_forms_to_the_battles_players_only(client, cast, battle, won):
    assert "Your report" not in signed_in(client, cast["alice"]).get(card_url(battle)).text
    won(battle, "aldermark")
    for player in ("alice", "bob"):
        page = signed_in(client, cast[player]).get(card_url(battle)).text
        assert "Save my report" in page
        assert "Add this photograph" in page
    for other in ("carol", "gm"):
        page = signed_in(client, cast[other]).get(card_url(battle)).text
        assert "Battle reports" in page
        assert "Save my report" not in page


def test_a_report_is_written_from_the_card_and_a_refusal_is_in_words(client, cast, resolved):
    url = reverse("battles:battle_report_write", args=[resolved.campaign.slug, resolved.number])
    page = signed_in(client, cast["alice"]).post(url, {"text": "We held."}, follow=True).text
    assert "Your report is on the card." in page
    assert "We held." in page
    page = signed_in(client, cast["carol"]).post(url, {"text": "Me too."}, follow=True).text
    assert "Nothing was changed. Only this battle&#x27;s two players may do that." in page
    page = signed_in(client, cast["bob"]).post(url, {"text": "y" * 4001}, follow=True).text
    assert "Nothing was changed. Ensure this value has at most 4000 characters" in page
    assert list(BattleReport.objects.values_list("kingdom", "text")) == [("aldermark", "We held.")]


# --- photographs: what is kept ---------------------------------------------------------------------


def test_a_photograph_is_kept_without_exif_or_gps_at_1600_pixels_with_a_thumbnail(
    cast, resolved, media
):
    taken = phone_jpeg((4000, 3000), comment=b"taken at the club")
    assert opened(taken).getexif().get_ifd(GPS_IFD)  # the phone's photograph says where
    photo = add_photo(resolved, cast["alice"], taken)
    large, thumbnail = kept(photo), kept(photo, "thumbnail")
    for data in (large, thumbnail):
        image = opened(data)
        assert image.format == "JPEG"
        assert not image.getexif()
        assert not image.getexif().get_ifd(GPS_IFD)
        assert {"exif", "icc_profile", "xmp", "comment"}.isdisjoint(image.info)
        assert b"Exif" not in data
        assert b"PhoneMaker" not in data
        assert b"xmpmeta" not in data
        assert b"ICC_PROFILE" not in data
        assert b"taken at the club" not in data
    assert opened(large).size == (1600, 1200) == (photo.width, photo.height)
    assert opened(thumbnail).size == (400, 300)
    assert (photo.thumbnail_width, photo.thumbnail_height) == (400, 300)
    assert len(stored(media)) == 2  # the copy and the thumbnail: not what was uploaded


def test_a_photograph_is_turned_upright_by_its_exif_orientation(cast, resolved, media):
    # Orientation 6: the camera was turned; shown upright, the picture is taller than wide,
    # and the red half (on the left as stored) is at the top.
    photo = add_photo(resolved, cast["alice"], phone_jpeg((2000, 1000), orientation=6))
    image = opened(kept(photo))
    assert image.size == (800, 1600)
    red, blue = pixel(image, (400, 100)), pixel(image, (400, 1500))
    assert red[0] > 200 > red[2]
    assert blue[2] > 200 > blue[0]


def test_a_png_is_turned_upright_by_the_orientation_in_its_exif_too(cast, resolved, media):
    exif = Image.Exif()
    exif[ORIENTATION] = 6
    photo = add_photo(resolved, cast["alice"], encoded(scene((200, 100)), "PNG", exif=exif))
    image = opened(kept(photo))
    assert image.size == (100, 200)
    assert pixel(image, (50, 10))[0] > 200 > pixel(image, (50, 10))[2]  # red, at the top


def test_a_small_photograph_is_kept_at_its_own_size(cast, resolved, media):
    photo = add_photo(resolved, cast["alice"], png((640, 480)), "table.png")
    assert opened(kept(photo)).size == (640, 480)
    assert opened(kept(photo, "thumbnail")).size == (400, 300)


def test_its_content_decides_not_its_name_a_png_called_jpg_is_kept(cast, resolved, media):
    photo = add_photo(resolved, cast["alice"], png(), "photo.jpg")
    assert opened(kept(photo)).format == "JPEG"


def test_a_picture_with_transparent_parts_is_kept_as_webp(client, cast, resolved, media):
    photo = add_photo(resolved, cast["alice"], cut_out(), "cut-out.png")
    assert str(photo.large.name).endswith(".webp")
    response = signed_in(client, cast["carol"]).get(photo_url(photo))
    assert response["Content-Type"] == "image/webp"
    image = opened(response.content)
    assert image.mode == "RGBA"
    assert pixel(image, (10, 10))[3] == 255  # the red half
    assert pixel(image, (290, 10))[3] == 0  # nothing


def test_a_webp_and_a_phones_mpo_are_read(cast, resolved, media):
    add_photo(resolved, cast["alice"], webp(), "photo.webp")
    mpo = encoded(scene((800, 600)), "MPO", save_all=True, append_images=[scene((800, 600))])
    assert opened(mpo).format == "MPO"
    add_photo(resolved, cast["alice"], mpo)
    assert BattlePhoto.objects.count() == 2


# --- photographs refused: in words, with nothing stored -------------------------------------------

JPEG = phone_jpeg((800, 600))
PNG = png()
UNREADABLE = photos.UNREADABLE
HOSTILE = {
    "a JPEG cut short": (JPEG[: len(JPEG) // 2], "photo.jpg", UNREADABLE),
    "a PNG cut short": (PNG[: len(PNG) // 2], "photo.png", UNREADABLE),
    "its first bytes only": (JPEG[:200], "photo.jpg", UNREADABLE),
    "empty": (b"", "photo.jpg", UNREADABLE),
    "text called photo.jpg": (b"Just some words about the battle.\n" * 20, "photo.jpg", UNREADABLE),
    "HTML called photo.jpg": (
        b"<!doctype html><html><script>alert(document.cookie)</script></html>",
        "photo.jpg",
        UNREADABLE,
    ),
    "SVG called photo.jpg": (
        b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>',
        "photo.jpg",
        UNREADABLE,
    ),
    "a GIF": (encoded(scene((80, 60)), "GIF"), "photo.gif", UNREADABLE),
    "a GIF called photo.jpg": (encoded(scene((80, 60)), "GIF"), "photo.jpg", UNREADABLE),
    "a BMP": (encoded(scene((80, 60)), "BMP"), "photo.bmp", UNREADABLE),
    "a TIFF": (encoded(scene((80, 60)), "TIFF"), "photo.tiff", UNREADABLE),
    "a JPEG header followed by HTML": (
        JPEG[:20] + b"<html><script>alert(1)</script></html>" * 50,
        "photo.jpg",
        UNREADABLE,
    ),
    "a GIF that is also HTML": (
        b"GIF89a<html><script>alert(1)</script></html>",
        "photo.gif",
        UNREADABLE,
    ),
    "a decompression bomb (20,000 by 20,000)": (
        bomb(),
        "photo.png",
        "That picture has too many pixels: at most 40 megapixels.",
    ),
    "45 megapixels": (
        declaring(png((16, 16)), 9000, 5000),
        "photo.png",
        "That picture has too many pixels: at most 40 megapixels.",
    ),
    "a broken PNG of a believable size": (
        declaring(png((16, 16)), 1000, 800),
        "photo.png",
        UNREADABLE,
    ),
    # Issue 34: what decoding would hold, refused before it is decoded.
    "a 16-bit RGBA PNG of 6,320 by 6,320, 480 KB as it is one colour": (
        flat_png((6320, 6320), bytes(range(8)), depth=16),
        "photo.png",
        photos.TOO_LARGE_DECODED,
    ),
    "a 16-bit RGBA PNG of 3,700 by 3,700: 8 bytes a pixel inflated": (
        flat_png((3700, 3700), bytes(range(8)), depth=16),
        "photo.png",
        photos.TOO_LARGE_DECODED,
    ),
    "a progressive JPEG of 40 megapixels": (
        declaring_jpeg(encoded(scene((64, 48)), "JPEG", progressive=True), 7300, 5479),
        "photo.jpg",
        photos.TOO_LARGE_DECODED,
    ),
    "a JPEG of 40 megapixels scanned a component at a time": (
        declaring_jpeg(encoded(scene((64, 48)), "JPEG"), 7300, 5479, one_by_one=True),
        "photo.jpg",
        photos.TOO_LARGE_DECODED,
    ),
    "a lossless JPEG": (
        declaring_jpeg(encoded(scene((64, 48)), "JPEG"), 64, 48, frame=0xC3),
        "photo.jpg",
        UNREADABLE,
    ),
    "a PNG of 5 MB of text, inflated from a few KB": (
        flat_png(
            (64, 48),
            b"\x10\x20\x30",
            colour=2,
            before=b"".join(
                chunk(b"zTXt", b"note %d\x00\x00" % n + zlib.compress(b"t" * 1_000_000))
                for n in range(5)
            ),
        ),
        "photo.png",
        UNREADABLE,
    ),
}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_hostile_file_is_refused_in_words_and_nothing_is_stored(cast, resolved, media, kind):
    data, name, words = HOSTILE[kind]
    assert refusal(resolved, cast["alice"], data, name) == words
    assert not BattlePhoto.objects.exists()
    assert stored(media) == []


def test_a_photograph_over_12_mb_is_refused_before_it_is_read(cast, resolved, media):
    data = b"\xff\xd8" + b"\x00" * (photos.MAX_BYTES - 1)
    assert (
        refusal(resolved, cast["alice"], data) == "That photograph is 12.1 MB: at most 12 MB each."
    )
    assert stored(media) == []


def test_what_follows_a_whole_jpeg_is_not_kept(client, cast, resolved, media):
    """A polyglot that is a whole JPEG and then HTML: the picture is drawn again, and only
    the picture is kept."""
    photo = add_photo(resolved, cast["alice"], JPEG + b"<html><script>alert(1)</script></html>")
    assert b"<script>" not in kept(photo)
    assert b"<script>" not in signed_in(client, cast["carol"]).get(photo_url(photo)).content


def test_a_seventh_photograph_is_refused_in_words(cast, resolved, media):
    for _ in range(6):
        add_photo(resolved, cast["alice"], PNG, "photo.png")
    message = refusal(resolved, cast["alice"], PNG, "photo.png")
    assert message == "Your report has its 6 photographs: remove one to add another."
    assert BattlePhoto.objects.count() == 6
    assert len(stored(media)) == 12
    add_photo(resolved, cast["bob"], PNG, "photo.png")  # bob's report has room


def test_a_photograph_on_a_battle_not_resolved_is_refused(cast, battle, media):
    assert refusal(battle, cast["alice"], JPEG).startswith(
        "A battle report is written once the battle is resolved"
    )
    assert stored(media) == []


@pytest.mark.parametrize("who", ["carol", "gm", "eve"])
def test_a_photograph_by_someone_not_in_the_battle_is_refused(cast, resolved, media, who):
    assert refusal(resolved, cast[who], JPEG) == "Only this battle's two players may do that."
    assert stored(media) == []


def test_the_files_of_a_photograph_not_saved_are_deleted(cast, resolved, media, monkeypatch):
    def broken(**_: Any) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(BattlePhoto.objects, "create", broken)
    with pytest.raises(RuntimeError):
        add_photo(resolved, cast["alice"], JPEG)
    assert stored(media) == []


# --- what a photograph may cost (issue 34) ----------------------------------------------------------
# What each upload costs a process is measured in tests/battles/test_photo_memory.py.


@pytest.mark.parametrize(
    ("mode", "each"),
    [("1", 1), ("L", 1), ("P", 1), ("I;16", 2), ("I;16B", 2), ("I", 4), ("F", 4)]
    + [(mode, 4) for mode in ("LA", "PA", "RGB", "RGBA", "RGBa", "CMYK", "YCbCr")],
)
def test_pillow_holds_a_pixel_of_each_mode_in_so_many_bytes(mode, each):
    assert photos.pixel_bytes(mode, (3000, 2000)) == 3000 * 2000 * each


def test_a_webp_is_counted_at_16_bytes_a_pixel_and_refused_past_6_megapixels(cast, resolved, media):
    large = encoded(Image.new("RGB", (2600, 2600), "red"), "WEBP", lossless=True)
    assert refusal(resolved, cast["alice"], large, "photo.webp") == photos.TOO_LARGE_DECODED
    assert stored(media) == []


def test_a_screenshot_of_12_megapixels_is_kept(cast, resolved, media):
    photo = add_photo(
        resolved, cast["alice"], flat_png((4000, 3000), b"\x20\x40\x60", colour=2), "a.png"
    )
    assert (photo.width, photo.height) == (1600, 1200)


@pytest.mark.parametrize("turned", [False, True])
def test_a_panorama_is_reduced_a_band_at_a_time_each_in_its_place(cast, resolved, media, turned):
    """Its left half red, its right blue (its top and bottom if turned a quarter); sizes
    that are no multiple of the factor it is reduced by (5)."""
    picture = scene((8003, 499))
    if turned:
        picture = picture.transpose(Image.Transpose.ROTATE_90)
    photo = add_photo(resolved, cast["alice"], encoded(picture, "PNG"), "panorama.png")
    image = opened(kept(photo))
    first, last = (1, 50), (1598, 50)
    if turned:
        assert image.size == (100, 1600)
        first, last = (50, 1598), (50, 1)  # the left half turned is at the bottom
    else:
        assert image.size == (1600, 100)
    assert pixel(image, first)[0] > 200 > pixel(image, first)[2]
    assert pixel(image, last)[2] > 200 > pixel(image, last)[0]


def test_a_large_picture_with_transparent_parts_keeps_them_through_its_reduction(
    cast, resolved, media
):
    photo = add_photo(resolved, cast["alice"], cut_out((3300, 1700)), "cut-out.png")
    image = opened(kept(photo))
    assert (image.format, image.size) == ("WEBP", (1600, 824))
    red, nothing = pixel(image, (10, 10)), pixel(image, (1590, 10))
    assert red[3] == 255
    assert red[0] > 200 > red[2]  # no colour of what cannot be seen at its edge
    assert nothing[3] == 0


# --- photographs on the card, and served ----------------------------------------------------


def photo_post(client: Client, battle: Battle, data: bytes, name: str = "photo.jpg") -> Any:
    url = reverse("battles:battle_photo_add", args=[battle.campaign.slug, battle.number])
    return client.post(url, {"photo": upload(data, name)}, follow=True)


def test_a_photograph_added_from_the_card_shows_there_linked_to_its_large_copy(
    client, cast, resolved, media
):
    page = photo_post(signed_in(client, cast["alice"]), resolved, phone_jpeg()).text
    assert "Your photograph is on your report" in page
    photo = BattlePhoto.objects.get()
    assert f'<a href="{photo_url(photo)}"><img src="{photo_url(photo, "thumbnail")}"' in page
    assert 'width="400" height="300"' in page


def test_a_refused_photograph_from_the_card_is_told_in_words(client, cast, resolved, media):
    page = photo_post(signed_in(client, cast["alice"]), resolved, b"<svg/>", "photo.jpg").text
    assert "Nothing was changed. That file is not a photograph this site can read" in page
    page = photo_post(signed_in(client, cast["carol"]), resolved, JPEG).text
    assert "Nothing was changed. Only this battle&#x27;s two players may do that." in page
    url = reverse("battles:battle_photo_add", args=[resolved.campaign.slug, resolved.number])
    page = client.post(url, {}, follow=True).text
    assert "Nothing was changed. Choose a photograph to add." in page
    assert stored(media) == []


def test_a_photograph_of_nearly_12_mb_is_taken_on_the_photograph_url(client, cast, resolved, media):
    data = photos_of_size(photos.MAX_BYTES - 200_000)
    page = photo_post(signed_in(client, cast["alice"]), resolved, data, "big.png").text
    assert "Your photograph is on your report" in page
    assert len(stored(media)) == 2


def photos_of_size(size: int) -> bytes:
    data = noise_png(size)
    assert size - 300_000 < len(data) <= size
    return data


def test_a_photograph_over_the_limit_is_refused_in_words(client, cast, resolved, media):
    over = b"\x89PNG" + b"\x00" * (photos.MAX_BYTES + 10)  # read by the view, refused
    page = photo_post(signed_in(client, cast["alice"]), resolved, over, "big.png").text
    assert "Nothing was changed. That photograph is 12.1 MB: at most 12 MB each." in page
    far_over = over + b"\x00" * 300_000  # more than the URL takes: refused before it is read
    response = photo_post(client, resolved, far_over, "big.png")
    assert response.status_code == 400
    assert "more than this page takes, so it was not saved. A photograph may be at most 12 MB." in (
        response.text
    )
    assert stored(media) == []


def test_a_photograph_is_served_as_an_image_never_anything_else(client, cast, resolved, media):
    photo = add_photo(resolved, cast["alice"], JPEG)
    for size in ("large", "thumbnail"):
        response = signed_in(client, cast["carol"]).get(photo_url(photo, size))
        assert response.status_code == 200
        assert response["Content-Type"] == "image/jpeg"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Content-Disposition"].startswith("inline;")
        assert "private" in response["Cache-Control"]
        assert opened(response.content).format == "JPEG"
    seen = client.get(photo_url(photo))
    again = client.get(photo_url(photo), headers={"If-None-Match": seen["ETag"]})
    assert again.status_code == 304


def test_a_photographs_url_is_for_the_campaigns_members(client, cast, resolved, media):
    photo = add_photo(resolved, cast["alice"], JPEG)
    assert Client().get(photo_url(photo)).status_code == 302  # to sign in
    assert signed_in(client, cast["eve"]).get(photo_url(photo)).status_code == 404
    for member in ("alice", "bob", "carol", "gm"):
        assert signed_in(client, cast[member]).get(photo_url(photo)).status_code == 200
    other = reverse(
        "battles:battle_photo",
        args=[resolved.campaign.slug, resolved.number + 1, photo.pk, "large"],
    )
    assert signed_in(client, cast["alice"]).get(other).status_code == 404  # not that battle's
    odd = reverse(
        "battles:battle_photo", args=[resolved.campaign.slug, resolved.number, photo.pk, "svg"]
    )
    assert client.get(odd).status_code == 404


def test_a_photograph_gone_from_the_storage_is_not_found(client, cast, resolved, media):
    photo = add_photo(resolved, cast["alice"], JPEG)
    photo.large.storage.delete(str(photo.large.name))
    assert signed_in(client, cast["carol"]).get(photo_url(photo)).status_code == 404


# --- removing a photograph ------------------------------------------------------------------------


def remove_url(photo: BattlePhoto) -> str:
    battle = photo.report.battle
    return reverse(
        "battles:battle_photo_remove", args=[battle.campaign.slug, battle.number, photo.pk]
    )


def test_its_author_removes_a_photograph_and_its_files_go(
    client, cast, resolved, media, django_capture_on_commit_callbacks
):
    photo = add_photo(resolved, cast["alice"], JPEG)
    with django_capture_on_commit_callbacks(execute=True):
        page = signed_in(client, cast["alice"]).post(remove_url(photo), follow=True).text
    assert "The photograph is removed." in page
    assert not BattlePhoto.objects.exists()
    assert stored(media) == []
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.BATTLE_PHOTO_REMOVED).exists()


def test_the_admin_removes_a_photograph_audited(
    client, cast, resolved, media, django_capture_on_commit_callbacks
):
    photo = add_photo(resolved, cast["alice"], JPEG)
    with django_capture_on_commit_callbacks(execute=True):
        signed_in(client, cast["gm"]).post(remove_url(photo), {"reason": "a face in it"})
    assert stored(media) == []
    entry = AuditEntry.objects.get(action=AuditEntry.Action.BATTLE_PHOTO_REMOVED)
    assert (entry.actor, entry.reason) == (cast["gm"], "a face in it")
    assert entry.details == {"battle": resolved.number, "hex": resolved.hex, "kingdom": "aldermark"}


@pytest.mark.parametrize("who", ["bob", "carol"])
def test_nobody_else_removes_a_photograph(client, cast, resolved, media, who):
    photo = add_photo(resolved, cast["alice"], JPEG)
    page = signed_in(client, cast[who]).post(remove_url(photo), follow=True).text
    assert "Nothing was changed. Only the player of the side whose report it is" in page
    assert BattlePhoto.objects.filter(pk=photo.pk).exists()
    assert len(stored(media)) == 2


def test_the_photographs_files_go_with_their_battle(
    cast, resolved, media, django_capture_on_commit_callbacks
):
    """An undo that takes the battle back deletes its row, its reports and photographs."""
    add_photo(resolved, cast["alice"], JPEG)
    with django_capture_on_commit_callbacks(execute=True):
        resolved.delete()
    assert stored(media) == []


# --- hiding a report ---------------------------------------------------------------------------


def hide_url(battle: Battle, kingdom: str, action: str = "hide") -> str:
    return reverse(
        "battles:battle_report_hide", args=[battle.campaign.slug, battle.number, kingdom, action]
    )


@pytest.fixture
def told(cast: dict[str, User], resolved: Battle, media: Path) -> BattlePhoto:
    """alice's report of the battle, with a photograph."""
    battle_reports.battle_report_write(
        battle=resolved, user=cast["alice"], text="The ford is ours."
    )
    return add_photo(resolved, cast["alice"], JPEG)


def test_the_admin_hides_a_report_and_shows_it_again_audited(client, cast, resolved, told):
    page = (
        signed_in(client, cast["gm"])
        .post(hide_url(resolved, "aldermark"), {"reason": "not for the table"}, follow=True)
        .text
    )
    assert "The report is hidden: only you and its side&#x27;s player see it." in page
    assert BattleReport.objects.get().hidden
    page = client.post(hide_url(resolved, "aldermark", "show"), follow=True).text
    assert "The report is shown again to every member." in page
    assert not BattleReport.objects.get().hidden
    log = AuditEntry.objects.filter(campaign=resolved.campaign).order_by("pk")
    assert [(e.action, e.reason) for e in log][-2:] == [
        (AuditEntry.Action.BATTLE_REPORT_HIDDEN, "not for the table"),
        (AuditEntry.Action.BATTLE_REPORT_SHOWN, ""),
    ]
    page = client.post(hide_url(resolved, "aldermark", "show"), follow=True).text
    assert "Nothing was changed. This report is shown already." in page


@pytest.mark.parametrize("who", ["alice", "bob", "carol"])
def test_only_the_admin_hides_a_report(client, cast, resolved, told, who):
    assert signed_in(client, cast[who]).post(hide_url(resolved, "aldermark")).status_code == 404
    assert not BattleReport.objects.get().hidden


@pytest.fixture
def hidden(cast: dict[str, User], resolved: Battle, told: BattlePhoto) -> BattlePhoto:
    battle_reports.battle_report_hide(
        report=told.report, actor=cast["gm"], hidden=True, reason="not for the table"
    )
    return told


def test_a_hidden_report_reaches_nobody_else(client, cast, resolved, hidden):
    """carol, a third player, sees neither its text nor its photographs, on the card or in
    the chronicle, and its photographs' URLs are not found for her; bob neither."""
    chronicle = reverse("campaign:chronicle", args=[resolved.campaign.slug])
    for who in ("carol", "bob"):
        signed_in(client, cast[who])
        for page in (client.get(card_url(resolved)).text, client.get(chronicle).text):
            assert "The ford is ours." not in page
            assert "Aldermark's report" not in page
            assert f"/photos/{hidden.pk}/" not in page
        for size in ("large", "thumbnail"):
            assert client.get(photo_url(hidden, size)).status_code == 404
        assert client.post(remove_url(hidden)).status_code == 404
    assert signed_in(client, cast["eve"]).get(photo_url(hidden)).status_code == 404


@pytest.mark.parametrize("who", ["alice", "gm"])
def test_a_hidden_report_is_still_seen_by_its_author_and_the_admin(
    client, cast, resolved, hidden, who
):
    page = signed_in(client, cast[who]).get(card_url(resolved)).text
    assert "The ford is ours." in page
    assert "Hidden by the campaign's admin" in page
    assert client.get(photo_url(hidden)).status_code == 200


def test_a_hidden_report_shown_again_reaches_everyone(client, cast, resolved, hidden):
    battle_reports.battle_report_hide(report=hidden.report, actor=cast["gm"], hidden=False)
    page = signed_in(client, cast["carol"]).get(card_url(resolved)).text
    assert "The ford is ours." in page
    assert client.get(photo_url(hidden)).status_code == 200


def test_a_report_stays_hidden_when_its_author_edits_it(cast, resolved, hidden):
    battle_reports.battle_report_write(battle=resolved, user=cast["alice"], text="Edited.")
    assert BattleReport.objects.get().hidden


# --- in the chronicle and at the end ----------------------------------------------------------


def test_the_chronicle_links_each_battles_report_with_its_first_photograph(
    client, cast, resolved, told
):
    second = add_photo(resolved, cast["alice"], png(), "second.png")
    chronicle = reverse("campaign:chronicle", args=[resolved.campaign.slug])
    page = signed_in(client, cast["carol"]).get(chronicle).text
    link = f"{card_url(resolved)}#battle-report-aldermark"
    assert (
        f'<a class="battle-report-link" href="{link}"><img src="{photo_url(told, "thumbnail")}"'
        in page
    )
    assert f"/photos/{second.pk}/" not in page
    assert page.count('class="battle-report-link"') == 1  # on its result, not its hand-off
    assert 'alt=""> Aldermark\'s report</a>' in page


def test_a_public_campaigns_visitors_see_no_report_in_the_chronicle(client, cast, resolved, told):
    resolved.campaign.public = True
    resolved.campaign.save()
    page = Client().get(reverse("campaign:chronicle", args=[resolved.campaign.slug])).text
    assert "The chronicle" in page
    assert "battle-report-link" not in page


def test_the_chronicle_takes_the_same_queries_however_many_reports(client, cast, resolved, told):
    chronicle = reverse("campaign:chronicle", args=[resolved.campaign.slug])
    signed_in(client, cast["carol"]).get(chronicle)
    with CaptureQueriesContext(connection) as one:
        client.get(chronicle)
    battle_reports.battle_report_write(battle=resolved, user=cast["bob"], text="Next time.")
    add_photo(resolved, cast["bob"], JPEG)
    for n in range(2, 8):
        copy = Battle.objects.get(pk=resolved.pk)
        copy.pk, copy.number = None, n
        copy.save()
        report = BattleReport.objects.create(battle=copy, kingdom="aldermark", text=f"Battle {n}")
        BattlePhoto.objects.create(
            report=report, large=told.large.name, thumbnail=told.thumbnail.name,
            width=1, height=1, thumbnail_width=1, thumbnail_height=1,
        )  # fmt: skip
    with CaptureQueriesContext(connection) as many:
        response = client.get(chronicle)
    assert response.status_code == 200
    assert "Brightwater's report" in response.text
    assert len(many) == len(one), [q["sql"] for q in many.captured_queries]


def test_the_ends_best_moments_link_each_kingdoms_reports(client, cast, resolved, told):
    """The end page, once the campaign has ended: each kingdom's best moments list its
    battle reports, each with its first photograph; a hidden one only to its author and
    the admin."""
    from campaign.services import advancing, common

    latest = common.latest_snapshot(resolved.campaign)
    data = {**latest.data, "clock": {**latest.data["clock"], "season": "ended"}}
    advancing.store_snapshot(
        campaign=resolved.campaign, number=latest.number + 1, data=data, reason="correction"
    )
    end = reverse("campaign:end", args=[resolved.campaign.slug])
    page = signed_in(client, cast["carol"]).get(end).text
    gazetteer = resolved.campaign.gazetteer
    where = names_of(latest.data, gazetteer).at(resolved.hex)
    assert f"Aldermark's report of the battle {where} (year 1, month 1)</a>" in page
    assert photo_url(told, "thumbnail") in page
    battle_reports.battle_report_hide(report=told.report, actor=cast["gm"], hidden=True)
    assert photo_url(told, "thumbnail") not in client.get(end).text
    assert photo_url(told, "thumbnail") in signed_in(client, cast["alice"]).get(end).text
