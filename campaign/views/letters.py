"""Letters between kingdoms (issue 28): a kingdom's correspondences with their unread
counts and the form to write; one correspondence, which follows new letters as they come
(polled, with the campaign pages' ETags); writing, answering and changing a letter. Only
the kingdoms of a correspondence read it; the herald is every member's."""

from functools import cache, lru_cache
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils.http import quote_etag
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_POST

from campaign.access import membership_for, signed_in_user
from campaign.actions import form_errors, refused
from campaign.models import LETTER_LENGTH, Campaign, Correspondence, Letter, Membership
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.services import common
from campaign.services import letters as letters_services
from campaign.views.freshness import campaign_tag, revalidated


class LetterForm(forms.Form):
    text = forms.CharField(
        label="Your letter",
        max_length=LETTER_LENGTH,
        strip=False,  # the service keeps the words as written, trimmed at the ends
        widget=forms.Textarea(attrs={"rows": 5, "maxlength": LETTER_LENGTH}),
        error_messages={
            "required": "A letter needs some words.",
            "max_length": f"A letter is at most {LETTER_LENGTH:,} characters.",
        },
    )


# The "To" choice of the herald: never a kingdom's id, which is a slug (no "@").
EVERYONE = "@herald"


class WriteForm(LetterForm):
    """To some kingdoms (their ids) or to everyone (`EVERYONE`)."""

    field_order = ("to", "text")
    to = forms.MultipleChoiceField(
        label="To",
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": "Choose whom you write to.",
            "invalid_choice": "You may write only to the kingdoms of this campaign.",
        },
    )

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["to"].choices = choices  # type: ignore[attr-defined]

    def addressed(self) -> dict[str, Any]:
        """The service's `to` and `herald`, from the kingdoms and the herald ticked."""
        to = self.cleaned_data["to"]
        return {"to": [k for k in to if k != EVERYONE], "herald": EVERYONE in to}


def _names(campaign: Campaign) -> dict[str, str]:
    return dict(campaign.memberships.exclude(kingdom="").values_list("kingdom", "kingdom_name"))


def _addressees(membership: Membership, names: dict[str, str]) -> list[tuple[str, str]]:
    """Whom the kingdom may write to: each other kingdom (unless the campaign has only the
    herald), and everyone through the herald."""
    herald = [(EVERYONE, "Everyone, through the herald (public to every member)")]
    if membership.campaign.letters == Campaign.Letters.HERALD:
        return herald
    others = [
        (k, name)
        for k, name in sorted(names.items(), key=lambda i: i[1])
        if k != membership.kingdom
    ]
    return others + herald


def between(correspondence: Correspondence, names: dict[str, str]) -> str:
    """Whom a correspondence is between, in words."""
    if correspondence.herald:
        return "The herald: everyone"
    return ", ".join(names.get(k, k) for k in correspondence.kingdoms)


def _letters_page(
    request: HttpRequest, membership: Membership, form: WriteForm | None = None, status: int = 200
) -> HttpResponse:
    campaign = membership.campaign
    names = _names(campaign)
    conversations = letters_services.conversations_of(campaign, membership.kingdom)
    drawn: SafeString | None = None
    if campaign.letters != Campaign.Letters.NONE:
        if form is not None:
            drawn = form.as_div()
        elif membership.kingdom:
            drawn = _blank_write_form(tuple(_addressees(membership, names)))
    context = {
        "campaign": campaign,
        "membership": membership,
        "conversations": [(c, between(c.correspondence, names)) for c in conversations],
        "form": drawn,
    }
    return render(request, "campaign/letters.html", context, status=status)


# The empty forms are drawn once by each process (for each list of kingdoms one writes to):
# they are the same for every member, and Django draws each checkbox and field through
# templates of its own, which took most of a letters page's time (issue 37).


@lru_cache(maxsize=1024)
def _blank_write_form(addressees: tuple[tuple[str, str], ...]) -> SafeString:
    return WriteForm(choices=list(addressees)).as_div()


@cache
def _blank_letter_form() -> SafeString:
    return LetterForm().as_div()


@login_required
@require_GET
@revalidated
def letters_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The kingdom's correspondences, the newest first, each with its unread letters; the
    form to write to a set of kingdoms or to everyone."""
    return _letters_page(request, membership_for(request, slug))


@login_required
@require_POST
def letter_write(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request, slug)
    names = _names(membership.campaign)
    form = WriteForm(request.POST, choices=_addressees(membership, names))
    if not form.is_valid():
        return _letters_page(request, membership, form, status=400)
    try:
        letter = letters_services.letter_write(
            campaign=membership.campaign, user=signed_in_user(request),
            text=form.cleaned_data["text"], **form.addressed(),
        )  # fmt: skip
    except common.ServiceError as error:
        form.add_error("to" if error.field == "to" else None, error.message)
        return _letters_page(request, membership, form, status=400)
    _sent(request, letter)
    return redirect("campaign:correspondence", slug=slug, number=letter.correspondence_id)


def _correspondence(
    request: HttpRequest, slug: str, number: int
) -> tuple[Membership, letters_services.Opened]:
    membership = membership_for(request, slug)
    found = letters_services.correspondence_for(membership, number)
    if found is None:
        raise Http404("No such letters.")
    return membership, found


def _correspondence_page(
    request: HttpRequest,
    membership: Membership,
    opened: letters_services.Opened,
    form: LetterForm | None = None,
    status: int = 200,
    letters: list[Letter] | None = None,
) -> HttpResponse:
    names = _names(membership.campaign)
    correspondence = opened.correspondence
    if letters is None:
        letters = list(correspondence.letters.all())
    may_write = bool(membership.kingdom) and membership.campaign.letters != Campaign.Letters.NONE
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "correspondence": correspondence,
        "between": between(correspondence, names),
        "letters": [(letter, names.get(letter.kingdom, letter.kingdom)) for letter in letters],
        "editable": letters_services.editable(opened, letters, membership.kingdom),
        "form": (form.as_div() if form else _blank_letter_form()) if may_write else None,
    }
    return page_or_fragment(
        request, "campaign/correspondence.html", context, fragment="letters", status=status
    )


@login_required
@require_GET
@revalidated
def correspondence_page(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    """The letters of one correspondence, oldest first; read by the kingdom as it is shown.
    Its list follows new letters without a reload (htmx polls it)."""
    membership, opened = _correspondence(request, slug, number)
    # Its letters are read as it is shown (nothing to do if the kingdom had read them all).
    # If that read new ones, the tag is taken again, with them read, and the letters after
    # it, so that the page shows at least what the tag counts; it is the page's only if the
    # page shows no letter newer than those read. Then the next poll, with nothing new, is
    # answered 304, and a letter written meanwhile is never left out of the page under its
    # tag.
    letters = list(opened.correspondence.letters.all())
    read_up_to = letters_services.opened_read(opened, membership.kingdom, letters)
    tag = None
    if read_up_to:
        tag = campaign_tag(request, slug)
        letters = list(opened.correspondence.letters.all())
    response = _correspondence_page(request, membership, opened, letters=letters)
    if tag is not None and letters[-1].pk == read_up_to:
        response["ETag"] = quote_etag(tag)
    return response


@login_required
@require_POST
def letter_answer(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A letter to the same kingdoms (or, on the herald, to everyone)."""
    membership, opened = _correspondence(request, slug, number)
    correspondence = opened.correspondence
    form = LetterForm(request.POST)
    if not form.is_valid():
        return _correspondence_page(request, membership, opened, form, status=400)
    try:
        letter = letters_services.letter_write(
            campaign=membership.campaign,
            user=signed_in_user(request),
            to=correspondence.kingdoms,
            herald=correspondence.herald,
            text=form.cleaned_data["text"],
        )
    except common.ServiceError as error:
        form.add_error(None, error.message)
        return _correspondence_page(request, membership, opened, form, status=400)
    _sent(request, letter)
    return redirect("campaign:correspondence", slug=slug, number=number)


def _sent(request: HttpRequest, letter: Letter) -> None:
    posted = " It is posted to the campaign's channel as written: it can't be changed now."
    messages.success(request, "Your letter is sent." + (posted if letter.posted else ""))


@login_required
@require_POST
def letter_edit(request: HttpRequest, slug: str, letter: int) -> HttpResponse:
    """The writer changes a letter, within five minutes and before it is read."""
    membership = membership_for(request, slug)
    found = get_object_or_404(
        Letter.objects.select_related("correspondence"),
        pk=letter, correspondence__campaign=membership.campaign, kingdom=membership.kingdom or None,
    )  # fmt: skip
    form = LetterForm(request.POST)
    if not form.is_valid():
        refused(request, form_errors(form))
    else:
        try:
            letters_services.letter_edit(
                letter=found, user=signed_in_user(request), text=form.cleaned_data["text"]
            )
            messages.success(request, "Your letter is changed.")
        except common.ServiceError as error:
            refused(request, error.message)
    return redirect("campaign:correspondence", slug=slug, number=found.correspondence_id)


urlpatterns: list[URLPattern] = [
    path("c/<slug:slug>/letters/", letters_page, name="letters"),
    path("c/<slug:slug>/letters/write/", letter_write, name="letter_write"),
    path("c/<slug:slug>/letters/<int:number>/", correspondence_page, name="correspondence"),
    path("c/<slug:slug>/letters/<int:number>/answer/", letter_answer, name="letter_answer"),
    path("c/<slug:slug>/letters/edit/<int:letter>/", letter_edit, name="letter_edit"),
]
