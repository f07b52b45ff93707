"""What developing a photograph costs (issue 34): the worst upload the site accepts, of
each kind, makes a process grow by less than 150 MB, and the upload that once took a web
process to 758 MB (a 16-bit RGBA PNG of 6,320 by 6,320 pixels, small as it is mostly one
colour) is refused before a pixel of it is decoded.

Each upload is developed in a process of its own, forked from one that has set Django up
and imported what develops it (`main`, run by `measured_uploads`), so that what is measured
(`ru_maxrss` after, less before) is the growth of developing it alone; a process started
afresh would not do, as it carries its parent's peak (pytest's) in `ru_maxrss`. Each upload
is made in a process of its own too, so nothing of its making is counted."""

import io
import itertools
import json
import os
import resource
import struct
import subprocess
import sys
import time
import traceback
import zlib
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from PIL import Image

from battles import photos
from campaign.services.common import ServiceError
from tests.battles.pictures import ORIENTATION, chunk, encoded, flat_png
from tests.conftest import BASE_DIR

BOUND_MB = 150
RGBA16 = bytes.fromhex("1234567890abcdef")  # a 16-bit RGBA pixel: red, green, blue, alpha
RGBA = bytes.fromhex("20406080")  # an 8-bit one


def the_attack() -> bytes:
    return flat_png((6320, 6320), RGBA16, depth=16)


def rgba16_at_the_cap() -> bytes:
    """3,590 by 3,590 pixels, 8 bytes each as they are inflated (Pillow keeps 4): 98 MB of
    the cap's 100."""
    return flat_png((3590, 3590), RGBA16, depth=16)


def rgba_reduced_by_two() -> bytes:
    """The largest RGBA picture reduced by 2 only: its copy reduced is the largest."""
    return flat_png((4799, 4799), RGBA)


def grey16_of_40_megapixels() -> bytes:
    return flat_png((6320, 6320), b"\x12\x34", depth=16, colour=0)


def webp_at_the_cap() -> bytes:
    """2,540 by 2,540 with transparent parts, 16 bytes a pixel as it is decoded: 98 MB of 100."""
    return encoded(Image.new("RGBA", (2540, 2540), (200, 30, 30, 128)), "WEBP")


def jpeg_of_40_megapixels() -> bytes:
    return encoded(Image.new("RGB", (7300, 5479), "red"), "JPEG", quality=90)


def progressive_jpeg_at_the_cap() -> bytes:
    """Its coefficients held at full size and its pixels at a half: 99 MB of the cap's 100."""
    return encoded(Image.new("RGB", (6240, 4160), "red"), "JPEG", progressive=True)


def exif_of_millions_of_numbers() -> bytes:
    """An EXIF block (10.8 MB) that turns the picture and holds 2.7 million numbers, which
    took 423 MB to write again without its orientation; with pixels to the cap (98 MB)."""
    numbers = 2_700_000
    entries = struct.pack("<HHII", ORIENTATION, 3, 1, 6) + struct.pack(
        "<HHII", 0x9999, 4, numbers, 38
    )
    exif = (
        b"II*\x00"
        + struct.pack("<IH", 8, 2)
        + entries
        + b"\x00" * 4
        + b"\x01\x00\x00\x00" * numbers
    )
    return flat_png((4500, 4500), RGBA, before=chunk(b"eXIf", exif))


def webp_with_11_mb_of_exif() -> bytes:
    """libwebp holds the whole file, and Pillow the EXIF it finds there; with pixels to the
    cap (100 MB with the EXIF counted twice)."""
    exif = Image.Exif()
    exif[0x010F] = "x" * 11_000_000  # Make
    return encoded(Image.new("RGBA", (2270, 2270), (200, 30, 30, 128)), "WEBP", exif=exif)


def png_with_all_the_text_read() -> bytes:
    """4 MB of text, inflated from a few kilobytes, and pixels to the cap (98 MB)."""
    texts = b"".join(
        chunk(b"zTXt", b"note %d\x00\x00" % n + zlib.compress(b"t" * 1_000_000)) for n in range(4)
    )
    return flat_png((5080, 5080), RGBA, before=texts)


# What each upload is, how it is made, and what becomes of it: "kept" or a refusal's code.
UPLOADS: dict[str, tuple[Callable[[], bytes], str]] = {
    "the attack: a 16-bit RGBA PNG of 6,320 by 6,320": (the_attack, "too-large-decoded"),
    "a 16-bit RGBA PNG of 3,590 by 3,590, at the cap": (rgba16_at_the_cap, "kept"),
    "an RGBA PNG of 4,799 by 4,799, reduced by 2": (rgba_reduced_by_two, "kept"),
    "a 16-bit grey PNG of 40 megapixels": (grey16_of_40_megapixels, "kept"),
    "a WebP of 2,540 by 2,540 with transparent parts, at the cap": (webp_at_the_cap, "kept"),
    "a JPEG of 40 megapixels": (jpeg_of_40_megapixels, "kept"),
    "a progressive JPEG of 6,240 by 4,160, at the cap": (progressive_jpeg_at_the_cap, "kept"),
    "a PNG turned by an EXIF of millions of numbers, at the cap": (
        exif_of_millions_of_numbers,
        "kept",
    ),
    "a WebP with 11 MB of EXIF, at the cap": (webp_with_11_mb_of_exif, "kept"),
    "a PNG with all the text that is read, at the cap": (png_with_all_the_text_read, "kept"),
}


# --- measured in processes of their own --------------------------------------------------------


def started(work: Callable[[], bytes]) -> Callable[[], bytes]:
    """`work` started in a process forked from this one; what this returns waits for it
    and returns what `work` did."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        status = 0
        try:
            with os.fdopen(write, "wb") as answer:
                answer.write(work())
        except BaseException:
            traceback.print_exc()
            status = 1
        os._exit(status)
    os.close(write)

    def finished() -> bytes:
        with os.fdopen(read, "rb") as answer:
            result = answer.read()
        _, status = os.waitpid(pid, 0)
        assert status == 0, f"the process that did {work} failed"
        return result

    return finished


def peak_mb() -> float:
    """The most this process has held, in MB (`ru_maxrss` is in kilobytes on Linux, in bytes
    on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 / (1024 if sys.platform == "darwin" else 1)


def developed(make: Callable[[], bytes]) -> bytes:
    """How much developing the upload `make` makes grows this process, how long it takes,
    and what becomes of the upload; as JSON."""
    data = started(make)()
    upload = io.BytesIO(data)
    before, began = peak_mb(), time.perf_counter()
    try:
        photos.develop(upload, len(data))
        outcome = "kept"
    except ServiceError as refusal:
        outcome = refusal.code
    seconds = time.perf_counter() - began
    grew = peak_mb() - before
    return json.dumps(
        {"grew_mb": round(grew, 1), "seconds": round(seconds, 2), "outcome": outcome}
    ).encode()


def main() -> None:
    """Each upload developed in a process of its own, two at a time (CI has two cores): a
    line of JSON each."""
    for pair in itertools.batched(UPLOADS, 2):
        running = {name: started(partial(developed, UPLOADS[name][0])) for name in pair}
        for name, finished in running.items():
            print(json.dumps({"upload": name, **json.loads(finished())}), flush=True)


# --- the tests ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def measured_uploads() -> dict[str, dict[str, Any]]:
    program = (
        "import django; django.setup(); from tests.battles.test_photo_memory import main; main()"
    )
    ran = subprocess.run(
        [sys.executable, "-c", program],
        cwd=BASE_DIR, env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    lines = [json.loads(line) for line in ran.stdout.splitlines()]
    return {line.pop("upload"): line for line in lines}


@pytest.mark.parametrize("upload", list(UPLOADS))
def test_developing_the_worst_uploads_grows_a_process_by_less_than_150_mb(measured_uploads, upload):
    measured = measured_uploads[upload]
    assert measured["outcome"] == UPLOADS[upload][1]
    assert measured["grew_mb"] < BOUND_MB, measured


def test_the_attack_is_refused_before_it_is_decoded(measured_uploads):
    """Refused as it is opened: a few megabytes at most, where decoding it took 758 MB."""
    measured = measured_uploads["the attack: a 16-bit RGBA PNG of 6,320 by 6,320"]
    assert measured["outcome"] == "too-large-decoded"
    assert measured["grew_mb"] < 10, measured
