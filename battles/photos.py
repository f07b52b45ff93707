"""The photographs of battle reports, developed from what a player uploads: a JPEG, PNG or
WebP as Pillow reads its content (whatever its name or the browser says it is), at most
12 MB and 40 megapixels (the size read from its header, before a pixel is decoded), turned
upright by its EXIF orientation and drawn again without any of its metadata (EXIF and its
GPS position, XMP, comments, colour profile: the colours are first converted to sRGB), as a
copy at most 1,600 pixels on its longer side and a thumbnail at most 400. What was uploaded
is not kept. A refusal is a `ServiceError` in words.

They are kept in Django's default storage (`STORAGES`: files under VAR_DIR by default, an
S3-compatible store in production if it is set: docs/deploy.md); a photograph's files go
with it when it is deleted."""

import io
import logging
import math
import secrets
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from PIL import Image, ImageCms, ImageOps

from campaign.services import ServiceError

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

# Pillow warns past this many pixels and refuses twice as many; the warning is an error
# here too (`develop`), so a picture that claims more is refused before it is decoded.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS

SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))

TOO_MANY_PIXELS = "That picture has too many pixels: at most 40 megapixels."
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
            with Image.open(upload, formats=FORMATS) as image:
                return _developed(image)
    except ServiceError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise refused(TOO_MANY_PIXELS, "too-many-pixels") from None
    except Exception:
        raise refused(UNREADABLE, "unreadable") from None


def _developed(image: Image.Image) -> Developed:
    """From a picture opened but not yet decoded: its size checked first."""
    width, height = image.size
    if image.format not in READ_AS:
        raise refused(UNREADABLE, "unreadable")
    if width * height > MAX_PIXELS:
        raise refused(TOO_MANY_PIXELS, "too-many-pixels")
    if image.format in ("JPEG", "MPO"):
        image.draft("RGB", (LARGE, LARGE))  # decoded at a half, quarter or eighth if it can be
    image.load()
    upright = _in_srgb(_upright(image))
    large = _plain(upright)
    large.thumbnail((LARGE, LARGE), Image.Resampling.LANCZOS)
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
    """The picture turned as its EXIF orientation says; as it is if that can't be read."""
    try:
        return ImageOps.exif_transpose(image)
    except (OSError, ValueError, TypeError, KeyError, SyntaxError):
        return image


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
