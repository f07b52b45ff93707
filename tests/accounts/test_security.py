"""The site's Content Security Policy, and production settings that pass Django's
deployment check with sign-in throttling and the policy on."""

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.campaign.helpers import new_campaign
from tests.test_settings import PRODUCTION_KEY, django_setting, django_settings, run_manage

POLICY = (
    "default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self'; "
    "style-src-attr 'unsafe-inline'; img-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": PRODUCTION_KEY,
    "ALLOWED_HOSTS": "kingdoms.example.org",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_PRELOAD": "1",
    "EMAIL_HOST": "smtp.example.org",
}


def policy_of(response: Any) -> str:
    policy: str = response.headers["Content-Security-Policy"]
    return policy


@pytest.mark.django_db
def test_every_page_has_the_policy_with_a_fresh_nonce(client):
    first = policy_of(client.get(reverse("campaign:home")))
    second = policy_of(client.get(reverse("accounts:sign_in")))
    nonce = re.search(r"'nonce-([^']+)'", first)
    assert nonce
    assert first == POLICY.format(nonce=nonce.group(1))
    assert first != second


@pytest.mark.django_db
def test_scripts_may_not_be_inline_or_evaluated(client):
    policy = policy_of(client.get(reverse("campaign:home")))
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    assert "unsafe-inline" not in directives["script-src"]
    assert "unsafe-eval" not in policy
    assert "unsafe-inline" not in directives["style-src"]


@pytest.mark.django_db
def test_htmx_is_told_not_to_inject_styles_or_evaluate_code(client):
    page = client.get(reverse("campaign:home")).text
    assert (
        """<meta name="htmx-config" content='{"includeIndicatorStyles": false, "allowEval": false, "historyCacheSize": 0}'>"""
        in page
    )


@pytest.mark.django_db
def test_a_lockout_page_has_the_policy_too(client, cast):
    for _ in range(5):
        response = client.post(reverse("accounts:sign_in"), {"username": "bob", "password": "x"})
    assert response.status_code == 429
    assert "script-src 'self'" in policy_of(response)


SCRIPT = re.compile(r"<script\b[^>]*>", re.IGNORECASE)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "page"),
    [
        (None, "campaign:home"),
        (None, "accounts:sign_in"),
        (None, "accounts:sign_up"),
        (None, "accounts:password_reset"),
        ("alice", "campaign:home"),
        ("alice", "accounts:settings"),
        ("alice", "accounts:change_email"),
        ("alice", "accounts:close_account"),
        ("alice", "campaign:campaign"),
        ("alice", "campaign:kingdom"),
        ("alice", "campaign:orders"),
    ],
)
def test_no_page_has_an_inline_script_without_the_nonce(client, cast, who, page):
    campaign = new_campaign(cast)
    if who:
        client.force_login(cast[who])
    args = [campaign.slug] if page.startswith("campaign:") and page != "campaign:home" else []
    response = client.get(reverse(page, args=args))
    assert response.status_code == 200
    nonce = re.search(r"'nonce-([^']+)'", policy_of(response))
    for tag in SCRIPT.findall(response.text):
        assert "src=" in tag or (nonce and f'nonce="{nonce.group(1)}"' in tag), tag
    assert "<style" not in response.text


def test_production_settings_pass_the_deployment_check_with_no_warning():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_throttle_sign_ins_and_send_the_policy():
    backend, limit, cooloff, default_src = django_settings(
        "AUTHENTICATION_BACKENDS[0]",
        "AXES_FAILURE_LIMIT",
        "AXES_COOLOFF_TIME",
        "SECURE_CSP['default-src'][0]",
        **PRODUCTION,
    )  # one process for the four
    assert backend == "axes.backends.AxesStandaloneBackend"
    assert limit == "5"
    assert cooloff == "0:15:00"
    assert default_src == "'self'"


def test_with_debug_and_no_mail_server_mail_is_printed_to_the_console():
    backend = django_setting("MAILERS['default']['BACKEND']", DEBUG="1", EMAIL_HOST="")
    assert backend == "django.core.mail.backends.console.EmailBackend"
