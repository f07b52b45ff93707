"""The battle reports on a resolved battle's card: a side's player writes its report and
adds or removes its photographs, the admin removes a photograph or hides a report (and
shows it again), and the photographs are served, only to those who may see the report
(`battles.access`). Each form is checked for shape here and acted on by
`battles.services`; a refusal is a message on the card, and nothing changes."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import UploadedFile
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.http import require_GET, require_POST

from battles import photos
from battles.access import battle_for, reports_seen, sees, side_for
from battles.forms import BattleReportForm, PhotoForm, ReasonForm
from battles.models import PHOTOS_PER_REPORT, Battle, BattlePhoto, BattleReport
from battles.services import battle_reports, common
from campaign.access import admin_for, signed_in_user
from campaign.actions import carry_out
from campaign.models import Membership
from config.uploads import body_limit

type Json = dict[str, Any]


# --- on the card -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Told:
    """A side's battle report as the card shows it to the viewer."""

    report: BattleReport
    side: str  # the kingdom's name
    photos: list[BattlePhoto]
    removable: bool  # the viewer may remove its photographs


def on_the_card(battle: Battle, membership: Membership, names: Mapping[str, str]) -> Json:
    """The battle reports of a resolved battle that the viewer may see, and for one of its
    two players the forms to write theirs and add photographs. Two queries."""
    if battle.awaiting:
        return {}
    mine = side_for(battle, membership)
    reports = list(reports_seen(battle.battle_reports.prefetch_related("photos"), membership))
    told = [
        Told(
            report=report,
            side=names.get(report.kingdom, report.kingdom),
            photos=list(report.photos.all()),
            removable=membership.is_admin or report.kingdom == mine,
        )
        for report in reports
    ]
    found: Json = {"battle_reports": [t for t in told if t.report.text or t.photos]}
    if mine:
        own = next((t for t in told if t.report.kingdom == mine), None)
        photos_left = PHOTOS_PER_REPORT - (len(own.photos) if own else 0)
        found |= {
            "battle_report_form": BattleReportForm(
                initial={"text": own.report.text if own else ""}
            ),
            "photo_form": PhotoForm() if photos_left > 0 else None,
            "photos_left": photos_left,
        }
    return found


def _photo_seen(membership: Membership, battle: Battle, photo: int) -> BattlePhoto:
    """The battle's photograph, if the member may see its report; 404 otherwise."""
    found = (
        BattlePhoto.objects.select_related("report").filter(pk=photo, report__battle=battle).first()
    )
    if found is None or not sees(found.report, membership):
        raise Http404("No such photograph.")
    return found


# --- the players' reports ----------------------------------------------------------------------


@login_required
@require_POST
def battle_report_write(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A side's player writes its report of the battle, or edits it."""
    _, battle = battle_for(request, slug, number)
    user = signed_in_user(request)

    def write(data: Json) -> str:
        report = battle_reports.battle_report_write(battle=battle, user=user, text=data["text"])
        return "Your report is on the card." if report.text else "Your report's text is removed."

    carry_out(request, BattleReportForm(request.POST), write)
    return HttpResponseRedirect(common.card_url(battle, "battle-reports-title"))


# A photograph's post: the photograph, and the few fields of its form.
PHOTO_POST_LIMIT = photos.MAX_BYTES + settings.DATA_UPLOAD_MAX_MEMORY_SIZE


@body_limit(PHOTO_POST_LIMIT, "A photograph may be at most 12 MB.")
@login_required
@require_POST
def battle_photo_add(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A side's player adds a photograph to its report."""
    _, battle = battle_for(request, slug, number)
    user = signed_in_user(request)

    def add(data: Json) -> str:
        upload: UploadedFile[bytes] = data["photo"]
        battle_reports.battle_photo_add(
            battle=battle, user=user, upload=upload, size=upload.size or 0
        )
        return "Your photograph is on your report, without what it said of where it was taken."

    carry_out(request, PhotoForm(request.POST, request.FILES), add)
    return HttpResponseRedirect(common.card_url(battle, "battle-reports-title"))


@login_required
@require_POST
def battle_photo_remove(request: HttpRequest, slug: str, number: int, photo: int) -> HttpResponse:
    """The side's player, or the admin, takes a photograph off a report."""
    membership, battle = battle_for(request, slug, number)
    user = signed_in_user(request)
    found = _photo_seen(membership, battle, photo)

    def remove(data: Json) -> str:
        battle_reports.battle_photo_remove(photo=found, user=user, reason=data["reason"])
        return "The photograph is removed."

    carry_out(request, ReasonForm(request.POST), remove)
    return HttpResponseRedirect(common.card_url(battle, "battle-reports-title"))


# --- the admin -----------------------------------------------------------------------------------

HIDING = {"hide": True, "show": False}


@login_required
@require_POST
def battle_report_hide(
    request: HttpRequest, slug: str, number: int, kingdom: str, action: str
) -> HttpResponse:
    """The admin hides a side's report, or shows it again."""
    membership, actor = admin_for(request, slug)
    battle = get_object_or_404(Battle, campaign=membership.campaign, number=number)
    report = get_object_or_404(BattleReport, battle=battle, kingdom=kingdom)
    if action not in HIDING:
        raise Http404("No such action.")
    hidden = HIDING[action]

    def hide(data: Json) -> str:
        battle_reports.battle_report_hide(
            report=report, actor=actor, hidden=hidden, reason=data["reason"]
        )
        if hidden:
            return "The report is hidden: only you and its side's player see it."
        return "The report is shown again to every member."

    carry_out(request, ReasonForm(request.POST), hide)
    return HttpResponseRedirect(common.card_url(battle, "battle-reports-title"))


# --- the photographs themselves ------------------------------------------------------------------

SIZES = ("large", "thumbnail")


@login_required
@require_GET
def battle_photo(
    request: HttpRequest, slug: str, number: int, photo: int, size: str
) -> HttpResponse:
    """A photograph, as it was kept (a JPEG or a WebP, never anything a browser would run),
    to those who may see its report: the card's rule, and a hidden report's only to the
    admin and its side's player."""
    membership, battle = battle_for(request, slug, number)
    found = _photo_seen(membership, battle, photo)
    if size not in SIZES:
        raise Http404("No such size.")
    name = (found.large.name if size == "large" else found.thumbnail.name) or ""
    extension = name.rpartition(".")[2]
    content_type = photos.CONTENT_TYPES.get(extension)
    if not name or content_type is None:
        raise Http404("No such photograph.")
    etag = f'"{found.pk}-{size}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        try:
            with default_storage.open(name, "rb") as file:
                data = file.read()
        except OSError:  # gone from the storage
            raise Http404("No such photograph.") from None
        response = HttpResponse(data, content_type=content_type)
        response["Content-Disposition"] = (
            f'inline; filename="battle-{battle.number}-photograph-{found.pk}.{extension}"'
        )
        response["ETag"] = etag
    response["X-Content-Type-Options"] = "nosniff"
    # Asked again each time it is shown: a report hidden since is no longer served.
    patch_cache_control(response, private=True, no_cache=True)
    return response


urlpatterns: list[URLPattern] = [
    path(
        "c/<slug:slug>/battles/<int:number>/battle-report/",
        battle_report_write,
        name="battle_report_write",
    ),
    path(
        "c/<slug:slug>/battles/<int:number>/battle-report/photos/",
        battle_photo_add,
        name="battle_photo_add",
    ),
    path(
        "c/<slug:slug>/battles/<int:number>/battle-report/photos/<int:photo>/remove/",
        battle_photo_remove,
        name="battle_photo_remove",
    ),
    path(
        "c/<slug:slug>/battles/<int:number>/battle-report/photos/<int:photo>/<slug:size>/",
        battle_photo,
        name="battle_photo",
    ),
    path(
        "c/<slug:slug>/battles/<int:number>/battle-report/<slug:kingdom>/<slug:action>/",
        battle_report_hide,
        name="battle_report_hide",
    ),
]
