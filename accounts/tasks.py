"""The account's background work: a password reset's e-mail, sent by the worker so that the
page answers alike, and as fast, whether or not an account has the address."""

from celery import shared_task
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm

RESET_SUBJECT = "accounts/password_reset_subject.txt"
RESET_EMAIL = "accounts/password_reset_email.txt"


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_password_reset(email: str, domain: str, use_https: bool) -> None:
    """Django's own reset e-mail to each active account with `email` (none if nobody has
    it), its link on `domain`."""
    form = PasswordResetForm({"email": email})
    if form.is_valid():
        form.save(
            domain_override=domain,
            use_https=use_https,
            subject_template_name=RESET_SUBJECT,
            email_template_name=RESET_EMAIL,
            from_email=settings.DEFAULT_FROM_EMAIL,
        )
