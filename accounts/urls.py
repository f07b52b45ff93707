from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views
from accounts.forms import QueuedPasswordResetForm, SignInForm

app_name = "accounts"

urlpatterns = [
    path(
        "sign-in/",
        auth_views.LoginView.as_view(
            template_name="accounts/sign_in.html", authentication_form=SignInForm
        ),
        name="sign_in",
    ),
    path("sign-out/", auth_views.LogoutView.as_view(), name="sign_out"),
    path("sign-up/", views.sign_up, name="sign_up"),
    # Password reset by e-mail: Django's own four steps.
    path(
        "password-reset/",
        auth_views.PasswordResetView.as_view(
            form_class=QueuedPasswordResetForm,
            template_name="accounts/password_reset.html",
            success_url=reverse_lazy("accounts:password_reset_sent"),
        ),
        name="password_reset",
    ),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_sent.html"),
        name="password_reset_sent",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="accounts/password_reset_confirm.html",
            success_url=reverse_lazy("accounts:password_reset_complete"),
            # Signed in at once, which also ends a pause of django-axes after failures.
            post_reset_login=True,
            post_reset_login_backend="accounts.backends.UsernameOrEmailBackend",
        ),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path("settings/", views.settings_page, name="settings"),
    path("settings/name/", views.display_name, name="display_name"),
    path("settings/email/", views.change_email, name="change_email"),
    path("settings/password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("settings/close/", views.close_account, name="close_account"),
]
