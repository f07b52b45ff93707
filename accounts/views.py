from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from accounts.forms import TimeZoneForm
from accounts.models import User


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """The signed-in user's own settings: for now, the time zone deadlines are shown in."""
    user = request.user
    assert isinstance(user, User)  # login_required
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
