from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.messages.views import SuccessMessageMixin
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts.forms import (
    CurrentPasswordForm,
    DisplayNameForm,
    EmailChangeForm,
    SignUpForm,
    TimeZoneForm,
)
from accounts.models import User
from accounts.services import AccountError, account_close, campaigns_only_run_by

SIGN_IN_BACKEND = "accounts.backends.UsernameOrEmailBackend"


def _signed_in(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required
    return user


def _posted(request: HttpRequest) -> QueryDict | None:
    """The form's data when one was sent, else None (an unbound form)."""
    return request.POST if request.method == "POST" else None


def _safe_next(request: HttpRequest) -> str:
    """`next` if it is a page of this site, else ""."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if safe else ""


def _go_on(next_url: str) -> HttpResponse:
    return HttpResponseRedirect(next_url) if next_url else redirect("campaign:home")


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    """A new account; its owner is signed in at once and sent on to `next`."""
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return _go_on(next_url)
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            try:
                with transaction.atomic():
                    user = form.save()
            except IntegrityError:  # the same name or e-mail signed up a moment ago
                form.add_error(None, "That username or e-mail was just taken: choose another.")
            else:
                login(request, user, backend=SIGN_IN_BACKEND)
                messages.success(request, f"Welcome, {user.get_username()}: your account is ready.")
                return _go_on(next_url)
    else:
        form = SignUpForm()
    return render(
        request,
        "accounts/sign_up.html",
        {"form": form, "next": next_url},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """The signed-in user's own settings: the time zone deadlines are shown in, and links
    to change the rest of the account."""
    user = _signed_in(request)
    if request.method == "POST":
        form = TimeZoneForm(request.POST, instance=user)
        if form.is_valid():
            form.save(commit=False).save(update_fields=["time_zone"])
            messages.success(request, f"Saved: deadlines are now shown in {user.time_zone} time.")
            return redirect("accounts:settings")
    else:
        form = TimeZoneForm(instance=user)
    return render(
        request,
        "accounts/settings.html",
        {"form": form, "now": timezone.now(), "guess_zone": user.time_zone == "UTC"},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def display_name(request: HttpRequest) -> HttpResponse:
    user = _signed_in(request)
    form = DisplayNameForm(_posted(request), instance=user)
    if form.is_valid():
        form.save(commit=False).save(update_fields=["display_name"])
        messages.success(request, "Saved your display name.")
        return redirect("accounts:settings")
    return render(
        request,
        "accounts/display_name.html",
        {"form": form},
        status=400 if form.is_bound else 200,
    )


@login_required
@sensitive_post_parameters("password")
@require_http_methods(["GET", "POST"])
def change_email(request: HttpRequest) -> HttpResponse:
    user = _signed_in(request)
    current = user.email
    form = EmailChangeForm(user, _posted(request), request=request)
    if form.is_valid():
        form.save()
        messages.success(request, f"Saved: your e-mail address is now {user.email}.")
        return redirect("accounts:settings")
    return render(
        request,
        "accounts/change_email.html",
        {"form": form, "current": current},
        status=400 if form.is_bound else 200,
    )


class PasswordChangeView(SuccessMessageMixin, auth_views.PasswordChangeView):  # type: ignore[type-arg]
    """Django's own, back to the settings page with a word that it worked."""

    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:settings")
    success_message = "Your password is changed."


@login_required
@sensitive_post_parameters("password")
@require_http_methods(["GET", "POST"])
def close_account(request: HttpRequest) -> HttpResponse:
    """Closes the account once its password is typed (accounts.services.account_close)."""
    user = _signed_in(request)
    form = CurrentPasswordForm(user, _posted(request), request=request)
    refused = ""
    if form.is_valid():
        try:
            account_close(user=user)
        except AccountError as error:
            refused = error.message
        else:
            logout(request)
            messages.success(
                request, "Your account is closed. Your kingdoms' stories stay in their campaigns."
            )
            return redirect("campaign:home")
    return render(
        request,
        "accounts/close_account.html",
        {"form": form, "refused": refused, "stranded": campaigns_only_run_by(user)},
        status=409 if refused else 400 if form.is_bound else 200,
    )
