from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path(
        "sign-in/",
        auth_views.LoginView.as_view(template_name="accounts/sign_in.html"),
        name="sign_in",
    ),
    path("sign-out/", auth_views.LogoutView.as_view(), name="sign_out"),
    path("settings/", views.settings_page, name="settings"),
]
