from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("battles.urls")),
    path("", include("notifications.urls")),
    path("", include("campaign.urls")),
]

handler500 = "config.errors.server_error"  # a 503 while the database does not answer
