"""The photographs of battle reports, developed from what a player uploads: a JPEG, PNG or
WebP as Pillow reads its content (whatever its name or the browser says it is), at most
12 MB and 40 megapixels, and refused if decoding it would hold more than 100 MB: its pixels
as Pillow keeps them (or a PNG's as they are inflated, 8 bytes a pixel at 16 bits RGBA) and
what its decoder and metadata hold besides, a JPEG counted at the half, quarter or eighth it
is decoded at; all of this is read from its header, before a pixel is decoded. Once decoded
it is reduced, a band at a time, to less than twice the copy kept, and the picture at full
size is let go before anything else is done: turned upright by its EXIF orientation, drawn
again without any of its metadata (EXIF and its GPS position, XMP, comments, colour profile:
the colours are first converted to sRGB), as a copy at most 1,600 pixels on its longer side
and a thumbnail at most 400. Developing any upload accepted grows a process by less than
150 MB (tests/battles/test_photo_memory.py). What was uploaded is not kept. A refusal is a
`ServiceError` in words.

They are kept in Django's default storage (`STORAGES`: files under VAR_DIR by default, an
S3-compatible store in production if it is set: docs/deploy.md); a photograph's files go
with it when it is deleted."""

import io
import logging
import math
import secrets
import struct
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from PIL import ExifTags, Image, ImageCms, ImageMode, JpegImagePlugin, PngImagePlugin

from campaign.services.common import ServiceError

if TYPE_CHECKING:
    from battles.models import BattlePhoto

logger = logging.getLogger(__name__)

MAX_BYTES = 12 * 1024 * 1024
MAX_PIXELS = 40_000_000
LARGE = 1600  # pixels on the longer side of the copy kept
THUMBNAIL = 400
# Read by their content only; "MPO" is the JPEG of a phone that holds a second picture.
FORMATS = ("JPEG", "PNG", "WEBP")
READ_AS = frozenset({*FORMATS, "MPO"})
# What is kept, by its name's ending: an opaque picture as a JPEG, one with transparent
# parts as a WebP. Served with this content type, never another.
CONTENT_TYPES = {"jpg": "image/jpeg", "webp": "image/webp"}
FOLDER = "battle-photos"  # in the default storage
# What decoding a picture may hold at once (`_check_before_decoding`): with the copy
# reduced from it and what the later steps hold, developing one grows a process by less
# than 150 MB (tests/battles/test_photo_memory.py).
MAX_DECODED = 100 * 1024 * 1024
# How a JPEG is coded (its frame marker): baseline, extended and progressive, with Huffman
# or arithmetic codes; those in one pass when their first scan holds every component.
JPEG_FRAMES = frozenset({0xC0, 0xC1, 0xC2, 0xC9, 0xCA})
JPEG_SEQUENTIAL = frozenset({0xC0, 0xC1, 0xC9})
PNG_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # a pixel's samples, by its colour type
STANDALONE_MARKERS = frozenset({0x00, 0x01, *range(0xD0, 0xD9)})  # no length follows
BAND = 1_000_000  # pixels of the decoded picture reduced at a time (a factor wide at least)

# Pillow warns past this many pixels and refuses twice as many; the warning is an error
# here too (`develop`), so a picture that claims more is refused before it is decoded.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS

# A PNG's text (its comments, XMP) is read whole, and a chunk of it can be inflated a
# thousandfold: Pillow's own limit is 64 MB, refused past this.
PngImagePlugin.MAX_TEXT_MEMORY = 4 * 1024 * 1024

# How each EXIF orientation is turned upright.
TURNS = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}

SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))

TOO_MANY_PIXELS = "That picture has too many pixels: at most 40 megapixels."
TOO_LARGE_DECODED = (
    "That picture is too large to open here: send a smaller one, or a JPEG as a phone's "
    "camera saves it (a PNG of at most 25 megapixels, half that at 16 bits a colour; a WebP "
    "of at most 6)."
)
UNREADABLE = (
    "That file is not a photograph this site can read: send a JPEG, PNG or WebP picture, "
    "whole (a file cut short or of another kind is refused)."
)


@dataclass(frozen=True)
class Developed:
    """A photograph as it is kept: the encoded copy and thumbnail, and their sizes."""

    large: bytes
    thumbnail: bytes
    extension: str  # a key of CONTENT_TYPES
    size: tuple[int, int]
    thumbnail_size: tuple[int, int]


def refused(why: str, code: str) -> ServiceError:
    return ServiceError(why, code=code, field="photo")


def develop(upload: IO[bytes], size: int) -> Developed:
    """The photograph kept from an upload of `size` bytes; refused in words if it is too
    large or not a picture this site reads. Pillow's decoders raise many kinds of error on
    a hostile file (OSError, SyntaxError, ValueError, struct.error, …): each is a refusal."""
    if size > MAX_BYTES:
        megabytes = math.ceil(size / 1024 / 1024 * 10) / 10  # over 12: 12.1 at least
        raise refused(f"That photograph is {megabytes} MB: at most 12 MB each.", "too-large")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            # A corrupt EXIF block is of no matter: the EXIF is dropped.
            warnings.filterwarnings("ignore", category=UserWarning, module="PIL")
            reduced, kept = _decoded(upload, size)
            return _developed(reduced, kept)
    except ServiceError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise refused(TOO_MANY_PIXELS, "too-many-pixels") from None
    except Exception:
        raise refused(UNREADABLE, "unreadable") from None


def _decoded(upload: IO[bytes], size: int) -> tuple[Image.Image, tuple[int, int]]:
    """The picture checked, decoded and reduced (`_reduced`), and the size of the copy
    kept. The picture at full size is let go as this returns, before any other step:
    leaving `with` closes its file, not its pixels, which go with its last reference."""
    with Image.open(upload, formats=FORMATS) as image:
        kept = fitted(image.size, LARGE)
        _check_before_decoding(image, upload, size, kept)
        image.load()
        return _reduced(image), kept


def fitted(size: tuple[int, int], longest: int) -> tuple[int, int]:
    """The size of the same shape at most `longest` pixels on its longer side, its shorter
    side rounded to the nearest pixel (at least one); the size itself if it is no larger."""
    width, height = size
    if max(width, height) <= longest:
        return size
    if width >= height:
        return longest, max(1, round(height * longest / width))
    return max(1, round(width * longest / height)), longest


def _check_before_decoding(
    image: Image.Image, upload: IO[bytes], size: int, kept: tuple[int, int]
) -> None:
    """Refuse a picture of `size` bytes, opened but not yet decoded, that is not of a kind
    read here, has too many pixels, or would take too much memory to decode: its pixels as
    Pillow keeps them and what its decoder and its metadata hold besides. A JPEG is set to
    be decoded at a half, a quarter or an eighth (`draft`) if that is still no smaller than
    the copy kept."""
    width, height = image.size
    if image.format not in READ_AS:
        raise refused(UNREADABLE, "unreadable")
    if width * height > MAX_PIXELS:
        raise refused(TOO_MANY_PIXELS, "too-many-pixels")
    # Its metadata (EXIF, XMP, colour profile, comments) is read from the file: at most its
    # size, held about twice over as it is read and parsed.
    held = 2 * size
    if image.format == "WEBP":
        # libwebp decodes the whole frame, keeps it twice, and hands Pillow a copy.
        held += 3 * pixel_bytes(image.mode, image.size)
    elif isinstance(image, JpegImagePlugin.JpegImageFile):  # an MPO too
        held += _jpeg_coefficients(image, upload)
        image.draft("RGB", kept)
    decoded = pixel_bytes(image.mode, image.size)
    if image.format == "PNG":
        decoded = max(decoded, _png_inflated(image, upload))
    if held + decoded > MAX_DECODED:
        raise refused(TOO_LARGE_DECODED, "too-large-decoded")


def pixel_bytes(mode: str, size: tuple[int, int]) -> int:
    """What Pillow holds for a picture of this mode and size: 1 byte a pixel for a bilevel,
    grey or palette picture, 2 for 16-bit grey, 4 for 32-bit and for every mode of several
    8-bit bands (RGB too: Pillow keeps room for a fourth)."""
    described = ImageMode.getmode(mode)
    depth = 4 if len(described.bands) > 1 else int(described.typestr[-1])
    return size[0] * size[1] * depth


def _png_inflated(image: Image.Image, upload: IO[bytes]) -> int:
    """The bytes of a PNG's pixels as they are inflated and unfiltered, each sample at its
    own depth (a 16-bit RGBA pixel is 8 of them, which Pillow keeps in 4): decoding it
    takes its time over each. The upload is left where it was."""
    where = upload.tell()
    upload.seek(24)  # its header's bit depth and colour type
    depth, colour = upload.read(2)
    upload.seek(where)
    row = math.ceil(image.width * PNG_SAMPLES.get(colour, 4) * depth / 8)
    return row * image.height


def _jpeg_coefficients(image: JpegImagePlugin.JpegImageFile, upload: IO[bytes]) -> int:
    """What libjpeg holds besides the picture for a JPEG it reads in several passes
    (progressive, or a scan for each component): every 8 by 8 block of every component,
    64 coefficients of 2 bytes, at full size however reduced it is drawn; 0 for a JPEG
    read in one pass. A JPEG coded another way (lossless, hierarchical) is refused."""
    frame, components = _jpeg_first_scan(upload)
    if frame not in JPEG_FRAMES:
        raise refused(UNREADABLE, "unreadable")
    if frame in JPEG_SEQUENTIAL and components == len(image.layer):
        return 0
    width, height = image.size
    most_across = max(across for _, across, _, _ in image.layer)
    most_down = max(down for _, _, down, _ in image.layer)
    blocks = 0
    for _, across, down, _ in image.layer:
        columns = math.ceil(math.ceil(width * across / most_across) / 8)
        rows = math.ceil(math.ceil(height * down / most_down) / 8)
        blocks += columns * rows
    return blocks * 64 * 2


def _jpeg_first_scan(upload: IO[bytes]) -> tuple[int, int]:
    """A JPEG's frame marker (0xC0 to 0xCF: how it is coded) and how many components its
    first scan holds, from its markers read as Pillow reads them (other bytes between them
    skipped); 0 for what is not found. The upload is left where it was."""
    where = upload.tell()
    upload.seek(2)  # past the start of image
    frame = 0
    try:
        while byte := upload.read(1):
            if byte != b"\xff":
                continue
            marker = upload.read(1)
            while marker == b"\xff":  # bytes that fill the space before a marker
                marker = upload.read(1)
            if not marker or marker[0] in STANDALONE_MARKERS:
                continue
            (length,) = struct.unpack(">H", upload.read(2))
            if marker[0] == 0xDA:  # the start of a scan
                return frame, upload.read(1)[0]
            if 0xC0 <= marker[0] <= 0xCF and marker[0] not in (0xC4, 0xC8, 0xCC):
                frame = marker[0]
            upload.seek(length - 2, io.SEEK_CUR)
        return frame, 0
    finally:
        upload.seek(where)


def _reduced(image: Image.Image) -> Image.Image:
    """The decoded picture reduced by a whole factor to less than twice the copy kept
    (Pillow's `reduce`: the average of each square of pixels), a band across its longer
    side at a time so that it is never copied whole; with its `info` (EXIF, colour profile,
    XMP), in a mode that the later steps read as they would the picture's own."""
    width, height = image.size
    factor = max(1, max(width, height) // LARGE)
    mode = _working_mode(image)
    reduced = Image.new(mode, (-(-width // factor), -(-height // factor)))
    across = width >= height
    longer, shorter = (width, height) if across else (height, width)
    step = factor * max(1, BAND // (factor * shorter))
    for start in range(0, longer, step):
        end = min(longer, start + step)
        band = image.crop((start, 0, end, height) if across else (0, start, width, end))
        if mode == "RGBa":
            band = band.convert("RGBA")  # a transparent colour becomes an alpha band first
        at = (start // factor, 0) if across else (0, start // factor)
        reduced.paste(band.convert(mode).reduce(factor), at)
    # Its transparency is in its alpha band now (16-bit grey's, which never matched
    # `_plain`'s 8-bit pixels, is dropped as it was before).
    reduced.info = {key: value for key, value in image.info.items() if key != "transparency"}
    return reduced


def _working_mode(image: Image.Image) -> str:
    """A mode Pillow reduces and resizes, keeping what `_plain` makes of the picture:
    transparent pictures premultiplied by their alpha (as Pillow's own resize does, so that
    the colour of what cannot be seen does not bleed into what can), 16-bit grey in 32 bits,
    bilevel as grey, a palette's colours."""
    if image.mode.startswith("I;16"):
        return "I"
    if image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info:
        return "RGBa"
    return {"1": "L", "P": "RGB"}.get(image.mode, image.mode)


def _developed(reduced: Image.Image, kept: tuple[int, int]) -> Developed:
    """From the reduced picture: resized to the copy kept, turned upright, in sRGB, drawn
    again without metadata, with a thumbnail."""
    large = _plain(_in_srgb(_upright(reduced.resize(kept, Image.Resampling.LANCZOS))))
    small = large.copy()
    small.thumbnail((THUMBNAIL, THUMBNAIL), Image.Resampling.LANCZOS)
    extension = "webp" if large.mode == "RGBA" else "jpg"
    return Developed(
        large=_encoded(large, extension),
        thumbnail=_encoded(small, extension),
        extension=extension,
        size=large.size,
        thumbnail_size=small.size,
    )


def _upright(image: Image.Image) -> Image.Image:
    """The picture turned as its EXIF orientation says; as it is if that can't be read.
    Only that tag is read: `ImageOps.exif_transpose` writes the EXIF again without it, which
    decodes every value, and a file of 10 MB can hold millions of them."""
    try:
        orientation = image.getexif().get(ExifTags.Base.Orientation)
    except (OSError, ValueError, TypeError, KeyError, SyntaxError):
        return image
    turn = TURNS.get(orientation) if isinstance(orientation, int) else None
    return image.transpose(turn) if turn is not None else image


def _in_srgb(image: Image.Image) -> Image.Image:
    """The picture's colours in sRGB, if it carries a colour profile that can be read (a
    phone's wide-gamut photograph would look dull once its profile is dropped)."""
    profile = image.info.get("icc_profile")
    if not profile or image.mode not in ("RGB", "CMYK"):
        return image
    try:
        converted = ImageCms.profileToProfile(
            image, ImageCms.ImageCmsProfile(io.BytesIO(profile)), SRGB, outputMode="RGB"
        )
    except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
        return image  # a profile that can't be read: the colours as they are
    return converted if converted is not None else image


def _plain(image: Image.Image) -> Image.Image:
    """The pixels alone, in RGB (RGBA if some are transparent), with none of the file's
    metadata: `convert` copies `info` (EXIF, XMP, comments, profile), and some encoders
    write what they find there."""
    transparent = image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or ("transparency" in image.info)
    if image.mode in ("I", "I;16", "I;16B", "I;16L", "I;16N", "F"):
        image = image.convert("I").point(lambda value: value / 256).convert("L")
    plain = image.convert("RGBA" if transparent else "RGB")
    if transparent and plain.getchannel("A").getextrema()[0] == 255:
        plain = plain.convert("RGB")  # said to have transparency, but every pixel is opaque
    plain.info = {}
    return plain


def _encoded(image: Image.Image, extension: str) -> bytes:
    out = io.BytesIO()
    if extension == "jpg":
        image.save(out, "JPEG", quality=85, optimize=True, progressive=True)
    else:
        image.save(out, "WEBP", quality=85, method=4)
    return out.getvalue()


# --- where they are kept ---------------------------------------------------------------


def keep(developed: Developed) -> tuple[str, str]:
    """Write the copy and the thumbnail to the default storage, under names nobody can
    guess; their names as the storage kept them."""
    token = secrets.token_urlsafe(18)
    names = []
    try:
        for suffix, data in (("", developed.large), ("-thumbnail", developed.thumbnail)):
            name = f"{FOLDER}/{token}{suffix}.{developed.extension}"
            names.append(default_storage.save(name, ContentFile(data)))
    except BaseException:
        forget(names)
        raise
    return names[0], names[1]


def forget(names: Iterable[str]) -> None:
    """Delete files from the storage: a photograph's once it is removed, or those written
    for one that was not saved after all. A file already gone is no error."""
    for name in names:
        try:
            default_storage.delete(name)
        except OSError as error:
            logger.warning("A photograph's file %s could not be deleted: %s", name, error)


def forget_when_deleted(*, instance: "BattlePhoto", **_: object) -> None:
    """`post_delete` of a photograph (removed, or with its report's battle): its files go
    once the deletion is committed, never before."""
    names = instance.files()
    transaction.on_commit(lambda: forget(names))
