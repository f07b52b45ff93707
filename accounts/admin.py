from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class TimeZoneUserAdmin(UserAdmin[User]):
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Preferences", {"fields": ("display_name", "time_zone")}),
    )
