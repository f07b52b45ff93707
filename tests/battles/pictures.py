"""Pictures for the battle reports' tests, made here with Pillow: photographs as phones take
them (with EXIF, a GPS position, an orientation, a colour profile), and the hostile files a
site taking uploads meets (cut short, lying about their kind, decompression bombs,
polyglots)."""

import io
import random
import struct
import zlib
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageCms

from accounts.models import User
from battles import photos
from battles.models import Battle, BattlePhoto, BattleReport

# A GPS position in EXIF's own shape: degrees, minutes, seconds.
GPS_IFD = 0x8825
ORIENTATION = 0x0112
PARIS = {1: "N", 2: (48.0, 51.0, 24.0), 3: "E", 4: (2.0, 21.0, 3.0)}


def encoded(image: Image.Image, kind: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, kind, **options)
    return out.getvalue()


def scene(size: tuple[int, int] = (2400, 1800), mode: str = "RGB") -> Image.Image:
    """A picture with something in it: its left half red, its right half blue (whichever
    way up it is shown, which side is which says how it was turned)."""
    image = Image.new(mode, size, "blue")
    image.paste(Image.new(mode, (size[0] // 2, size[1]), "red"), (0, 0))
    return image


def phone_jpeg(
    size: tuple[int, int] = (4000, 3000), *, orientation: int | None = None, comment: bytes = b""
) -> bytes:
    """A JPEG as a phone takes it: EXIF with the camera, the time and a GPS position, XMP,
    a colour profile, and a comment."""
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0132] = "2026:11:27 10:00:00"  # DateTime
    exif.get_ifd(GPS_IFD).update(PARIS)
    if orientation is not None:
        exif[ORIENTATION] = orientation
    profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    xmp = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>'
    return encoded(
        scene(size), "JPEG", exif=exif, icc_profile=profile, xmp=xmp, comment=comment or b"hi"
    )


def png(size: tuple[int, int] = (800, 600), mode: str = "RGB") -> bytes:
    return encoded(scene(size, mode), "PNG")


def webp(size: tuple[int, int] = (800, 600), mode: str = "RGB") -> bytes:
    return encoded(scene(size, mode), "WEBP")


def cut_out(size: tuple[int, int] = (300, 200)) -> bytes:
    """A PNG with transparent parts: a red half on nothing."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    image.paste(Image.new("RGBA", (size[0] // 2, size[1]), "red"), (0, 0))
    return encoded(image, "PNG")


def noise_png(bytes_wanted: int) -> bytes:
    """A PNG of random pixels, which do not compress: about `bytes_wanted` bytes."""
    side = int((bytes_wanted / 3) ** 0.5)
    pixels = random.Random(1).randbytes(side * side * 3)
    return encoded(Image.frombytes("RGB", (side, side), pixels), "PNG", compress_level=1)


def declaring(data: bytes, width: int, height: int) -> bytes:
    """A PNG whose header says it is `width` by `height`, its pixels left as they were:
    a decompression bomb, if the header is believed and the pixels decoded."""
    assert data[12:16] == b"IHDR"
    header = struct.pack(">II", width, height) + data[24:29]
    crc = struct.pack(">I", zlib.crc32(b"IHDR" + header))
    return data[:16] + header + crc + data[33:]


def declaring_jpeg(
    data: bytes, width: int, height: int, *, frame: int | None = None, one_by_one: bool = False
) -> bytes:
    """A JPEG whose frame header says it is `width` by `height` (coded as `frame` says, its
    marker 0xC0 to 0xCF, if given), its scan cut down to its first component if
    `one_by_one`, as a JPEG scanned a component at a time begins: all that is read before
    it is decoded. Made from Pillow's JPEG, whose markers follow each other."""
    at, out = 2, bytearray(data[:2])
    while data[at + 1] != 0xDA:
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        segment = bytearray(data[at : at + 2 + length])
        if 0xC0 <= segment[1] <= 0xCF and segment[1] not in (0xC4, 0xC8, 0xCC):
            segment[5:9] = struct.pack(">HH", height, width)
            segment[1] = frame or segment[1]
        out += segment
        at += 2 + length
    length = struct.unpack(">H", data[at + 2 : at + 4])[0]
    scan = data[at + 4 : at + 2 + length]
    if one_by_one:
        scan = b"\x01" + scan[1:3] + scan[-3:]  # the first component's tables; the bands
    return bytes(
        out + b"\xff\xda" + struct.pack(">H", len(scan) + 2) + scan + data[at + 2 + length :]
    )


def bomb(width: int = 20_000, height: int = 20_000) -> bytes:
    """A small PNG that declares 20,000 by 20,000 pixels (400 megapixels): decoding what it
    says would take more than a gigabyte."""
    return declaring(png((16, 16)), width, height)


def chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: its length, kind, data and checksum."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def flat_png(
    size: tuple[int, int], pixel: bytes, *, depth: int = 8, colour: int = 6, before: bytes = b""
) -> bytes:
    """A PNG of one colour written by hand, quick to make and small however many pixels it
    has (its rows deflated a megabyte at a time, each block alike): `pixel` is one pixel's
    bytes for PNG's colour type `colour` (0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6
    RGBA) at `depth` bits a sample; `before` holds chunks to put before its pixels."""
    width, height = size
    row = b"\x00" + pixel * width  # each row unfiltered
    rows = max(1, (1 << 20) // len(row))
    blocks, rest = divmod(height, rows)

    def deflated(count: int, flush: int) -> bytes:
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw: no header, no checksum
        return compressor.compress(row * count) + compressor.flush(flush)

    checksum, block = 1, row * rows
    for _ in range(blocks):
        checksum = zlib.adler32(block, checksum)
    checksum = zlib.adler32(row * rest, checksum)
    # A full flush ends a block on a byte and starts the next afresh: blocks alike can follow.
    pixels = deflated(rows, zlib.Z_FULL_FLUSH) * blocks + deflated(rest, zlib.Z_FINISH)
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + before
        + chunk(b"IDAT", b"\x78\xda" + pixels + struct.pack(">I", checksum))
        + chunk(b"IEND", b"")
    )


def upload(
    data: bytes, name: str = "photo.jpg", content_type: str = "image/jpeg"
) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def stored(root: Path) -> list[Path]:
    """Every file in the storage's folder."""
    return sorted(p for p in root.rglob("*") if p.is_file())


def photo_on(battle: Battle, kingdom: str, user: User | None = None) -> BattlePhoto:
    """A photograph on the kingdom's report of the battle, stored as the service stores
    one, whatever the battle's state (the permission matrix's battle waits for its result)."""
    report, _ = BattleReport.objects.get_or_create(
        battle=battle, kingdom=kingdom, defaults={"written_by": user, "text": "We held."}
    )
    developed = photos.develop(io.BytesIO(png((120, 90))), 0)
    large, thumbnail = photos.keep(developed)
    return BattlePhoto.objects.create(
        report=report, large=large, thumbnail=thumbnail, width=120, height=90,
        thumbnail_width=120, thumbnail_height=90, added_by=user,
    )  # fmt: skip
