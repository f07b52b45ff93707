"""The notification pages: a signed-in user's choices (which e-mails, and each as it comes or
a daily digest), and the unsubscribe link every e-mail carries, which works signed out. Its
GET only shows what it would turn off, with a button: a mail client's link prefetcher
changes nothing. Its POST turns it off: the button, or a mail client's one-click
unsubscribe (RFC 8058, from the List-Unsubscribe header), so it takes no CSRF token: the
signed token in the address is what authorises it."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import User
from campaign import notifications
from campaign.notifications import DIGEST_HOUR, EMAIL_KINDS, KIND_WORDS
from campaign.services import ServiceError

EACH, DIGEST = "each", "digest"


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
        notifications.choices_save(
            user=user,
            email_off=[kind for kind in EMAIL_KINDS if kind not in on],
            digest=form.cleaned_data["how"] == DIGEST,
        )
        messages.success(request, "Your choices are saved.")
        return redirect("campaign:notifications")
    if request.method == "GET":
        choices = notifications.choices_of(user)
        form = ChoicesForm(
            initial={
                "email_on": [kind for kind in EMAIL_KINDS if kind not in choices.email_off],
                "how": DIGEST if choices.digest else EACH,
            }
        )
    status = 400 if form.is_bound else 200
    return render(request, "campaign/notifications.html", {"form": form}, status=status)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user, kind = notifications.unsubscribe_from(token)
    except ServiceError as error:
        refusal = {"refusal": error.message}
        return render(request, "campaign/unsubscribe.html", refusal, status=400)
    if request.method == "POST":
        notifications.unsubscribe(user=user, kind=kind)
    context: dict[str, object] = {
        "username": user.get_username(),
        "stops": notifications.kind_words(kind),
        "done": request.method == "POST",
    }
    return render(request, "campaign/unsubscribe.html", context)


urlpatterns: list[URLPattern] = [
    path("notifications/", notification_choices, name="notifications"),
    path("notifications/unsubscribe/<str:token>/", unsubscribe, name="unsubscribe"),
]
