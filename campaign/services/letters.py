"""Letters between kingdoms (issue 28): a player writes to a set of kingdoms (one
correspondence per set, private to them) or to everyone through the herald; the campaign's
`letters` choice says which of these it allows. A kingdom reads a correspondence it is in
(whoever rules it); nobody else does, the admins included, but the herald is every
member's. A letter may be edited for five minutes, and never once another kingdom has read
it. How far each kingdom has read is kept, for its unread counts."""

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import (
    Count,
    F,
    FilteredRelation,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce, Concat
from django.utils import timezone

from accounts.models import User
from campaign.display.mapcache import kept
from campaign.models import (
    HERALD,
    LETTER_LENGTH,
    Campaign,
    Correspondence,
    Letter,
    LettersRead,
    Membership,
    correspondence_key,
)
from campaign.services.common import ServiceError
from campaign.signals import letter_written

EDITABLE_FOR = timedelta(minutes=5)
POSTED = (
    "It was posted to the campaign's channel as written, where it can't be changed: it stands "
    "as it is here too."
)


def writer_of(campaign: Campaign, user: User) -> Membership:
    """The user's membership, as a kingdom that may write; refused to anyone else."""
    membership = campaign.memberships.filter(user=user).exclude(kingdom="").first()
    if membership is None:
        raise ServiceError("Only a kingdom's player writes letters.", code="no-kingdom")
    if campaign.letters == Campaign.Letters.NONE:
        raise ServiceError("This campaign is played without letters.", code="no-letters")
    return membership


def visible_to(kingdom: str) -> Q:
    """The correspondences a kingdom reads: the herald's and those it is in."""
    return Q(key=HERALD) | Q(key__contains=f",{kingdom},") if kingdom else Q(key=HERALD)


@dataclass(frozen=True)
class Opened:
    """A correspondence as a member opens it, with how far it is read."""

    correspondence: Correspondence
    read_up_to: int  # how far the member's kingdom has read it
    others_read_up_to: int  # how far any other kingdom has read it, the furthest


def correspondence_for(membership: Membership, pk: int) -> Opened | None:
    """The correspondence, if the member (`membership`, the signed-in user's, as the page
    read it) may read it: the herald for every member, another only for the players of its
    kingdoms. With how far its kingdoms have read it (two plain queries: the ORM takes
    longer to compile one with subqueries than the database to answer both)."""
    campaign = membership.campaign
    if campaign.letters == Campaign.Letters.NONE:
        return None
    kingdom = membership.kingdom
    found = campaign.correspondences.filter(visible_to(kingdom), pk=pk).first()
    if found is None:
        return None
    reads = dict(found.reads.values_list("kingdom", "up_to"))
    mine = reads.pop(kingdom, 0) if kingdom else 0
    return Opened(found, read_up_to=mine, others_read_up_to=max(reads.values(), default=0))


@transaction.atomic
def letter_write(
    *, campaign: Campaign, user: User, to: Iterable[str] = (), herald: bool = False, text: str
) -> Letter:
    """The user's kingdom writes `text` to the kingdoms `to` (their correspondence with it,
    made if it is the first letter), or with `herald` to everyone. Kingdoms and the herald
    are told apart by the caller, never by a kingdom's id (issue 34: a kingdom "Herald")."""
    membership = writer_of(campaign, user)
    text = _checked_text(text)
    key = _key_of(campaign, membership.kingdom, set(to), herald=herald)
    correspondence, _ = Correspondence.objects.get_or_create(campaign=campaign, key=key)
    letter = Letter.objects.create(
        correspondence=correspondence, kingdom=membership.kingdom, writer=user, text=text
    )
    _mark_read(correspondence, membership.kingdom, letter.pk)
    answers = letter_written.send(sender=Letter, campaign=campaign, letter=letter)
    if any(posted for _, posted in answers):
        letter.posted = True
        letter.save(update_fields=["posted"])
    return letter


def _key_of(campaign: Campaign, kingdom: str, to: set[str], *, herald: bool) -> str:
    if herald and to:
        raise ServiceError(
            "Write either to everyone through the herald or to some kingdoms, not both.",
            code="herald-and-kingdoms",
            field="to",
        )
    if herald:
        return HERALD
    if campaign.letters == Campaign.Letters.HERALD:
        raise ServiceError(
            "In this campaign every letter goes through the herald, to everyone.",
            code="herald-only",
        )
    kingdoms = set(campaign.memberships.exclude(kingdom="").values_list("kingdom", flat=True))
    to.discard(kingdom)
    if not to:
        raise ServiceError("Choose whom you write to.", code="no-one", field="to")
    if not to <= kingdoms:
        raise ServiceError(
            "You may write only to the kingdoms of this campaign.", code="not-a-kingdom", field="to"
        )
    return correspondence_key({kingdom, *to})


def _checked_text(text: str) -> str:
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise ServiceError("A letter needs some words.", code="empty", field="text")
    if len(text) > LETTER_LENGTH:
        raise ServiceError(
            f"A letter is at most {LETTER_LENGTH:,} characters: this one has {len(text):,}.",
            code="too-long",
            field="text",
        )
    return text


@transaction.atomic
def letter_edit(*, letter: Letter, user: User, text: str) -> Letter:
    """The writer's kingdom changes its letter, within five minutes and before another
    kingdom has read it."""
    letter = Letter.objects.select_for_update().select_related("correspondence").get(pk=letter.pk)
    campaign = letter.correspondence.campaign
    membership = writer_of(campaign, user)
    if membership.kingdom != letter.kingdom:
        raise ServiceError("Only its writer changes a letter.", code="not-yours")
    refusal = edit_refusal(letter)
    if refusal:
        raise ServiceError(refusal, code="not-editable")
    letter.text, letter.edited_at = _checked_text(text), timezone.now()
    letter.save(update_fields=["text", "edited_at"])
    return letter


def edit_refusal(letter: Letter, *, others_read_up_to: int | None = None) -> str:
    """Why the letter may no longer be changed ("" if it may). `others_read_up_to`: how far
    the other kingdoms have read its correspondence, if known (else asked)."""
    if letter.posted:
        return POSTED
    if timezone.now() - letter.written_at > EDITABLE_FOR:
        return "A letter may be changed for five minutes after it is written: this one no longer."
    if read_by_others(letter) if others_read_up_to is None else others_read_up_to >= letter.pk:
        return "It has been read: a letter read stands as it is."
    return ""


def read_by_others(letter: Letter) -> bool:
    return (
        letter.correspondence.reads.exclude(kingdom=letter.kingdom)
        .filter(up_to__gte=letter.pk)
        .exists()
    )


def editable(opened: Opened, letters: Iterable[Letter], kingdom: str) -> set[int]:
    """The kingdom's own letters of the correspondence opened that it may still change."""
    return {
        letter.pk
        for letter in letters
        if kingdom
        and letter.kingdom == kingdom
        and not edit_refusal(letter, others_read_up_to=opened.others_read_up_to)
    }


def opened_read(opened: Opened, kingdom: str, letters: list[Letter]) -> int | None:
    """`correspondence_read` for a correspondence as it was opened, its `letters` fetched
    since: how far the kingdom had read and the newest letter are known, so neither is
    asked again; nothing at all is asked when the kingdom had read the newest already."""
    if not kingdom or not letters or letters[-1].pk <= opened.read_up_to:
        return None
    return _read(opened.correspondence, kingdom, after=opened.read_up_to, up_to=letters[-1].pk)


def correspondence_read(correspondence: Correspondence, kingdom: str) -> int | None:
    """The kingdom has read every letter of the correspondence so far: the newest letter,
    if that read one it had not; None if it read nothing new."""
    newest = correspondence.letters.order_by("-pk").values_list("pk", flat=True).first()
    if not kingdom or newest is None:
        return None
    read = LettersRead.objects.filter(correspondence=correspondence, kingdom=kingdom)
    up_to = read.values_list("up_to", flat=True).first() or 0
    return _read(correspondence, kingdom, after=up_to, up_to=newest)


@transaction.atomic
def _read(correspondence: Correspondence, kingdom: str, *, after: int, up_to: int) -> int | None:
    """The kingdom reads the letters after `after` up to `up_to`: `up_to` if that read one
    it had not, else None. The other kingdoms' letters it reads are locked as an edit locks
    them (`letter_edit`), so an edit under way ends before they are read, and one that
    comes after finds them read: a letter is never changed once it was shown as read
    (issue 34)."""
    taken_in = correspondence.letters.filter(pk__gt=after, pk__lte=up_to).exclude(kingdom=kingdom)
    list(taken_in.select_for_update().order_by("pk").values_list("pk", flat=True))
    return up_to if _mark_read(correspondence, kingdom, up_to) else None


def _mark_read(correspondence: Correspondence, kingdom: str, up_to: int) -> bool:
    mark, _ = LettersRead.objects.get_or_create(correspondence=correspondence, kingdom=kingdom)
    if mark.up_to >= up_to:
        return False
    return bool(LettersRead.objects.filter(pk=mark.pk, up_to__lt=up_to).update(up_to=up_to))


@dataclass(frozen=True)
class Conversation:
    """A correspondence as a kingdom's list shows it."""

    correspondence: Correspondence
    letters: int
    unread: int


def conversations_of(campaign: Campaign, kingdom: str) -> list[Conversation]:
    """The correspondences the kingdom reads, the newest first, with how many letters each
    holds and how many it has not read: one query (`_read_by`)."""
    found = (
        _read_by(campaign, kingdom)
        .annotate(
            letter_count=Count("letters"),
            unread=_unread(kingdom),
            newest=Coalesce(Max("letters__pk"), 0),
        )
        .order_by("-newest")
    )
    return [Conversation(c, c.letter_count, c.unread if kingdom else 0) for c in found]


def unread_of(campaign: Campaign, kingdom: str, *, letters_seen: str = "") -> int:
    """How many letters the kingdom has not read in the campaign (none if letters are off),
    counted as `conversations_of` counts them, in one plain query (its campaign page's).
    With `letters_seen`, what the letters the kingdom reads and how far it read them stood
    at (`access.PageRead`), the count is kept under it: a letter written or changed and a
    letter read each change it."""
    if not kingdom or campaign.letters == Campaign.Letters.NONE:
        return 0

    def counted() -> int:
        found = _read_by(campaign, kingdom).aggregate(unread=_unread(kingdom))
        return int(found["unread"] or 0)

    if not letters_seen:
        return counted()
    seen = hashlib.sha256(letters_seen.encode()).hexdigest()[:32]
    started = campaign.created_at.timestamp()
    return kept(f"unread:{campaign.pk}:{started}:{kingdom}:{seen}", counted)


def _read_by(campaign: Campaign, kingdom: str) -> QuerySet[Correspondence]:
    """The correspondences the kingdom reads, with how far it has read each joined as
    `mine` (one row at most), not asked in subqueries, which the ORM compiles slowly."""
    mine = FilteredRelation("reads", condition=Q(reads__kingdom=kingdom))
    return campaign.correspondences.filter(visible_to(kingdom)).alias(mine=mine)


def _unread(kingdom: str) -> Count:
    """Over `_read_by`: the letters of the other kingdoms after how far the kingdom read."""
    read = Q(letters__pk__gt=Coalesce("mine__up_to", 0)) & ~Q(letters__kingdom=kingdom)
    return Count("letters", filter=read)


def unread_letters(memberships: QuerySet[Membership]) -> dict[int, int]:
    """By campaign: how many letters the user's kingdoms have not read, in one query."""
    kingdom = OuterRef(OuterRef("kingdom"))
    read = LettersRead.objects.filter(correspondence=OuterRef("correspondence"), kingdom=kingdom)
    mine = Concat(Value(","), OuterRef("kingdom"), Value(","))
    unread = (
        Letter.objects.filter(correspondence__campaign=OuterRef("campaign"))
        .filter(Q(correspondence__key=HERALD) | Q(correspondence__key__contains=mine))
        .exclude(kingdom=OuterRef("kingdom"))
        .annotate(seen=Coalesce(Subquery(read.values("up_to")[:1]), 0))
        .filter(pk__gt=F("seen"))
        .values("correspondence__campaign")
        .annotate(n=Count("pk"))
        .values("n")
    )
    counted = (
        memberships.exclude(kingdom="")
        .exclude(campaign__letters=Campaign.Letters.NONE)
        .annotate(unread=Coalesce(Subquery(unread[:1]), 0))
        .values_list("campaign_id", "unread")
    )
    return {campaign: n for campaign, n in counted if n}
