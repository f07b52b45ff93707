"""The notification pages.

- A signed-in user's choices: which e-mails, and each as it comes or a daily digest.
- The unsubscribe link every e-mail carries, which works signed out. Its GET only shows what
  it would turn off, with a button: a mail client's link prefetcher changes nothing. Its
  POST turns it off: the button, or a mail client's one-click unsubscribe (RFC 8058, from
  the List-Unsubscribe header), so it takes no CSRF token: the signed token in the address
  is what authorises it.
- The campaign admin's desk, loaded into the dashboard's Notifications section (and a page
  of its own without JavaScript): the Discord webhook (a secret never shown back whole) and
  how the campaign's messages stand. Only the campaign's admins may read it or change it."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from campaign.access import admin_for
from campaign.actions import carry_out, form_errors, refused
from campaign.models import Campaign, Membership
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.services.common import ServiceError
from notifications import choices, digest, discord
from notifications.choices import EMAIL_KINDS, KIND_WORDS
from notifications.digest import DIGEST_HOUR
from notifications.models import DiscordWebhook
from notifications.outbox import outbox_of

EACH, DIGEST = "each", "digest"


# --- a user's choices, and unsubscribing ------------------------------------------------------


class ChoicesForm(forms.Form):
    email_on = forms.MultipleChoiceField(
        label="E-mail me",
        choices=[
            (kind, KIND_WORDS[kind][:1].upper() + KIND_WORDS[kind][1:]) for kind in KIND_WORDS
        ],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    how = forms.ChoiceField(
        label="How",
        choices=[
            (EACH, "Each e-mail as it comes"),
            (DIGEST, f"One e-mail a day, from {DIGEST_HOUR:02d}:00 your time, of all of them"),
        ],
        widget=forms.RadioSelect,
    )


@login_required
@require_http_methods(["GET", "POST"])
def notification_choices(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    form = ChoicesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        on = set(form.cleaned_data["email_on"])
        digest.choices_save(
            user=user,
            email_off=[kind for kind in EMAIL_KINDS if kind not in on],
            digest=form.cleaned_data["how"] == DIGEST,
        )
        messages.success(request, "Your choices are saved.")
        return redirect("notifications:choices")
    if request.method == "GET":
        chosen = choices.choices_of(user)
        form = ChoicesForm(
            initial={
                "email_on": [kind for kind in EMAIL_KINDS if kind not in chosen.email_off],
                "how": DIGEST if chosen.digest else EACH,
            }
        )
    status = 400 if form.is_bound else 200
    return render(request, "notifications/choices.html", {"form": form}, status=status)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user, kind = choices.unsubscribe_from(token)
    except ServiceError as error:
        refusal = {"refusal": error.message}
        return render(request, "notifications/unsubscribe.html", refusal, status=400)
    if request.method == "POST":
        choices.unsubscribe(user=user, kind=kind)
    context: dict[str, object] = {
        "username": user.get_username(),
        "stops": choices.kind_words(kind),
        "done": request.method == "POST",
    }
    return render(request, "notifications/unsubscribe.html", context)


# --- the campaign admin's desk ----------------------------------------------------------------


class DiscordForm(forms.Form):
    """The webhook's address: a password field, so that what was typed is never shown back."""

    url = forms.URLField(
        label="Discord webhook URL",
        max_length=500,
        assume_scheme="https",
        widget=forms.PasswordInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        help_text="The channel's settings, Integrations, Webhooks, Copy Webhook URL.",
    )
    herald = forms.BooleanField(
        required=False,
        label="Post letters through the herald in the channel, with their words",
        help_text="They are public to every member. No other letter is ever posted.",
    )

    def clean_url(self) -> str:
        url: str = self.cleaned_data["url"]
        refusal = discord.webhook_refusal(url)
        if refusal:
            raise forms.ValidationError(refusal)
        return url


class NothingForm(forms.Form):
    """A button and nothing else (its CSRF token is checked by the middleware)."""


DESK = "notifications/desk.html"


def _render_desk(
    request: HtmxHttpRequest,
    membership: Membership,
    *,
    form: forms.Form | None = None,
    status: int = 200,
) -> HttpResponse:
    campaign = membership.campaign
    context = {
        "campaign": campaign,
        "membership": membership,
        "webhook": DiscordWebhook.objects.filter(campaign=campaign).first(),
        "outbox": outbox_of(campaign),
        "form": form or DiscordForm(auto_id="discord-%s"),
    }
    return page_or_fragment(request, DESK, context, fragment="desk", status=status)


@login_required
@require_GET
def desk(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership, _ = admin_for(request, slug)
    return _render_desk(request, membership)


def _discord(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    url = form["url"]
    webhook = discord.webhook_set(campaign=campaign, actor=actor, url=url, herald=form["herald"])
    return f"The Discord webhook ending {webhook.ending} is set: the campaign's news goes there."


def _discord_remove(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    discord.webhook_remove(campaign=campaign, actor=actor)
    return "The Discord webhook is removed: no more news goes to the channel."


type DeskAction = Callable[[Campaign, User, dict[str, Any]], str]

DESK_ACTIONS: dict[str, tuple[type[forms.Form], DeskAction]] = {
    "discord": (DiscordForm, _discord),
    "discord-remove": (NothingForm, _discord_remove),
}


@login_required
@require_POST
def desk_action(request: HtmxHttpRequest, slug: str, action: str) -> HttpResponse:
    """Check the form, call the service; tell the admin what happened or why not. A form
    refused is the desk again with its errors (what was typed is never shown back); else
    back to the desk, which htmx swaps into the dashboard."""
    membership, actor = admin_for(request, slug)
    if action not in DESK_ACTIONS:
        raise Http404("No such action.")
    form_class, act = DESK_ACTIONS[action]
    form = form_class(request.POST, auto_id=f"{action}-%s")
    if not form.is_valid():
        refused(request, form_errors(form))
        shown = form if action == "discord" else None
        return _render_desk(request, membership, form=shown, status=200 if request.htmx else 400)
    carry_out(request, form, lambda given: act(membership.campaign, actor, given))
    return redirect("notifications:desk", slug=slug)


urlpatterns: list[URLPattern] = [
    path("notifications/", notification_choices, name="choices"),
    path("notifications/unsubscribe/<str:token>/", unsubscribe, name="unsubscribe"),
    path("c/<slug:slug>/notifications/", desk, name="desk"),
    path("c/<slug:slug>/notifications/<slug:action>/", desk_action, name="desk_action"),
]
