"""Army lists (issue 28): a kingdom's book of lists in a campaign, its player's alone (the
rulebook asks for lists of 500 to 3,000 points written in advance), and the list each side
attaches to a battle before it is played, shown on the card by `battles.access.sees_list`'s
rule. Each form is checked for shape here and acted on by `battles.services`; a refusal
is told in words, the book's forms shown again with what was typed."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_GET, require_POST

from battles.access import battle_for, sees_list, side_for
from battles.forms import ArmyListForm, AttachForm
from battles.models import RULEBOOK_SIZES, ArmyList, AttachedList, Battle, ResultReport
from battles.services import common, lists
from campaign.access import player_for, signed_in_user
from campaign.actions import carry_out, refused
from campaign.forms import whole_number
from campaign.models import Membership
from campaign.services.common import ServiceError

type Json = dict[str, Any]


# --- on the card ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SideList:
    """A side's list as the card shows it to the viewer."""

    kingdom: str
    side: str  # the kingdom's name
    points: int  # what the side brings: its list's most
    attached: bool
    shown: AttachedList | None  # the list itself, if the viewer may see it


def lists_on_the_card(
    battle: Battle,
    membership: Membership,
    names: Mapping[str, str],
    reports: list[ResultReport],
    *,
    result_in: bool,
) -> Json:
    """Each side's list as the viewer may see it, the sides whose list is hidden from them
    (attached or not: a report's copy of it is hidden too), and for one of the battle's two
    players the lists of their book to attach. Two queries."""
    by_side = {a.kingdom: a for a in battle.attached_lists.all() if a.kingdom in battle.kingdoms}
    seen = {
        kingdom: by_side.get(kingdom)
        for kingdom in battle.kingdoms
        if sees_list(battle, kingdom, membership, attached=by_side, result_in=result_in)
    }
    side_lists = [
        SideList(
            kingdom=kingdom,
            side=names.get(kingdom, kingdom),
            points=battle.points_of(kingdom),
            attached=kingdom in by_side,
            shown=seen.get(kingdom),
        )
        for kingdom in battle.kingdoms
    ]
    mine = side_for(battle, membership)
    if mine:
        why = "you see it once yours is attached too"
    elif membership.is_admin:
        why = "you see it once both sides have attached theirs"
    else:
        why = "every member sees it once the result is in"
    found: Json = {
        "side_lists": side_lists,
        "lists_shown": any(seen.values()),
        "lists_revealed": result_in or not battle.awaiting or len(by_side) == 2,
        "hidden_lists": [kingdom for kingdom in battle.kingdoms if kingdom not in seen],
        "list_hidden_why": why,
        "lists_result_in": result_in,
    }
    if not mine or result_in:
        return found
    reported = any(r.is_open or r.status == ResultReport.Status.CONFIRMED for r in reports)
    if len(by_side) == 2:
        found["lists_closed"] = "Both sides have attached their lists: neither can change now."
    elif reported:
        found["lists_closed"] = (
            "The result is reported: a list is attached before the game, not after it."
        )
    else:
        limit = battle.points_of(mine)
        book = list(
            ArmyList.objects.filter(campaign=battle.campaign, kingdom=mine)
            .order_by("-points", "name", "pk")
            .only("pk", "name", "points", "race")
        )
        found |= {
            "my_limit": limit,
            "my_fitting": [a for a in book if a.points <= limit],
            "my_too_big": sum(1 for a in book if a.points > limit),
            "my_attached": by_side.get(mine),
        }
    return found


@login_required
@require_POST
def list_attach(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A side's player attaches one of the lists of their book to the battle."""
    _, battle = battle_for(request, slug, number)
    user = signed_in_user(request)

    def attach(data: Json) -> str:
        attached = lists.battle_list_attach(
            battle=battle, user=user, army_list_id=data["army_list"]
        )
        return (
            f"{attached.name} is attached to the battle: your opponent sees it once theirs is "
            "attached too."
        )

    carry_out(request, AttachForm(request.POST), attach)
    return HttpResponseRedirect(common.card_url(battle, "lists-title"))


@login_required
@require_POST
def list_withdraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A side's player takes their list off the battle."""
    _, battle = battle_for(request, slug, number)
    user = signed_in_user(request)

    def withdraw(data: Json) -> str:
        lists.battle_list_withdraw(battle=battle, user=user)
        return "Your list is taken off the battle."

    carry_out(request, forms.Form(request.POST), withdraw)
    return HttpResponseRedirect(common.card_url(battle, "lists-title"))


# --- the book ------------------------------------------------------------------------------


def _race_of(membership: Membership) -> str:
    """The kingdom's race in the newest snapshot (chosen at the setup), or ""."""
    kingdoms = (
        membership.campaign.snapshots.order_by("-number")
        .values_list("state__kingdoms", flat=True)
        .first()
    )
    found: dict[str, Any] = next(
        (k for k in kingdoms or [] if k.get("id") == membership.kingdom), {}
    )
    return str(found.get("race") or "")


def _book_page(
    request: HttpRequest,
    membership: Membership,
    *,
    form: ArmyListForm | None = None,
    editing: ArmyListForm | None = None,
    edited: int | None = None,
    status: int = 200,
) -> HttpResponse:
    """The book: its lists by points, the rulebook's sizes it has lists for, the battles
    waiting for a list, the form to write another; one list's form to change it
    (`edited`)."""
    campaign = membership.campaign
    kingdom = membership.kingdom
    book = list(ArmyList.objects.filter(campaign=campaign, kingdom=kingdom))
    being = next((a for a in book if a.pk == edited), None)
    if being is None:
        editing = None
    elif editing is None:
        fields = ("name", "points", "race", "text")
        editing = ArmyListForm(
            initial={f: getattr(being, f) for f in fields}, auto_id=f"list-{being.pk}-%s"
        )
    if form is None:
        points = whole_number(request.GET.get("points"))
        form = ArmyListForm(initial={"points": points, "race": _race_of(membership)})
    battles = (
        Battle.objects.filter(campaign=campaign, status=Battle.Status.AWAITING)
        .filter(Q(attacker=kingdom) | Q(defender=kingdom))
        .prefetch_related("attached_lists")
        .order_by("number")
    )
    waiting = [
        {
            "battle": battle,
            "points": battle.points_of(kingdom),
            "attached": next(
                (a for a in battle.attached_lists.all() if a.kingdom == kingdom), None
            ),
        }
        for battle in battles
    ]
    context = {
        "campaign": campaign,
        "membership": membership,
        "book": book,
        "sizes": [(size, sum(1 for a in book if a.points == size)) for size in RULEBOOK_SIZES],
        "rulebook_sizes": RULEBOOK_SIZES,
        "waiting": waiting,
        "form": form,
        "editing": editing,
        "edited": being.pk if being is not None else None,
    }
    return render(request, "battles/lists.html", context, status=status)


@login_required
@require_GET
def army_lists(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's own book of lists (`?edit=<list>`: with that list's form to change
    it; `?points=<n>`: the form to write one of that size)."""
    return _book_page(
        request, player_for(request, slug), edited=whole_number(request.GET.get("edit"))
    )


def _told_on(form: ArmyListForm, error: ServiceError) -> None:
    """A service's refusals, each on its field of the form shown again."""
    for each in error.every:
        form.add_error(each.field if each.field in form.fields else None, each.message)


def _to_the_list(slug: str, army_list: ArmyList) -> HttpResponse:
    return HttpResponseRedirect(f"{reverse('battles:lists', args=[slug])}#list-{army_list.pk}")


@login_required
@require_POST
def list_add(request: HttpRequest, slug: str) -> HttpResponse:
    """A list written into the book; refused, the form again with what was typed."""
    membership = player_for(request, slug)
    form = ArmyListForm(request.POST)
    if not form.is_valid():
        return _book_page(request, membership, form=form, status=400)
    try:
        added = lists.army_list_add(
            campaign=membership.campaign, user=signed_in_user(request), **form.cleaned_data
        )
    except ServiceError as error:
        _told_on(form, error)
        return _book_page(request, membership, form=form, status=400)
    messages.success(request, f"{added.name} is in your book.")
    return _to_the_list(slug, added)


def _own(request: HttpRequest, membership: Membership, number: int) -> ArmyList | None:
    """The list of the player's book, or None, told why."""
    found = ArmyList.objects.filter(
        campaign=membership.campaign, kingdom=membership.kingdom, pk=number
    ).first()
    if found is None:
        refused(request, "That list is not in your book.")
    return found


@login_required
@require_POST
def list_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A list of the book changed; refused, its form again with what was typed."""
    membership = player_for(request, slug)
    found = _own(request, membership, number)
    if found is None:
        return HttpResponseRedirect(reverse("battles:lists", args=[slug]))
    form = ArmyListForm(request.POST, auto_id=f"list-{number}-%s")
    if form.is_valid():
        try:
            lists.army_list_edit(army_list=found, user=signed_in_user(request), **form.cleaned_data)
        except ServiceError as error:
            _told_on(form, error)
        else:
            messages.success(
                request, "Your list is changed. A copy attached to a battle stays as it was."
            )
            return _to_the_list(slug, found)
    return _book_page(request, membership, editing=form, edited=number, status=400)


@login_required
@require_POST
def list_delete(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A list taken out of the book."""
    membership = player_for(request, slug)
    found = _own(request, membership, number)
    if found is not None:
        user = signed_in_user(request)

        def delete(data: Json) -> str:
            lists.army_list_delete(army_list=found, user=user)
            return f"{found.name} is out of your book. A copy attached to a battle stays."

        carry_out(request, forms.Form(request.POST), delete)
    return HttpResponseRedirect(reverse("battles:lists", args=[slug]))


urlpatterns: list[URLPattern] = [
    path("c/<slug:slug>/lists/", army_lists, name="lists"),
    path("c/<slug:slug>/lists/add/", list_add, name="list_add"),
    path("c/<slug:slug>/lists/<int:number>/edit/", list_edit, name="list_edit"),
    path("c/<slug:slug>/lists/<int:number>/delete/", list_delete, name="list_delete"),
    path("c/<slug:slug>/battles/<int:number>/army-list/", list_attach, name="list_attach"),
    path(
        "c/<slug:slug>/battles/<int:number>/army-list/withdraw/",
        list_withdraw,
        name="list_withdraw",
    ),
]
