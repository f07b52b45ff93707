"""Carrying out what a posted form asks, the one way for every page: the form checked, the
service called, and the user told in words what happened or, with nothing changed, why
not (Django's messages, shown on the next page drawn)."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from campaign.services.common import ServiceError

NOTHING_CHANGED = "Nothing was changed."


def form_errors(form: forms.Form) -> str:
    """Every error of a refused form, in one line."""
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def refused(request: HttpRequest, why: str, *, changed: bool = False) -> None:
    """Told why not; `changed`: the words say themselves what did change."""
    messages.error(request, why if changed else f"{NOTHING_CHANGED} {why}")


def carry_out(request: HttpRequest, form: forms.Form, act: Callable[[dict[str, Any]], str]) -> bool:
    """Check the form and `act` on what it holds (a service call that returns what happened,
    in words); tell the user. Whether it was done."""
    if not form.is_valid():
        refused(request, form_errors(form))
        return False
    try:
        messages.success(request, act(form.cleaned_data))
    except ServiceError as error:
        refused(request, error.message, changed=error.changed)
        return False
    return True
