from django.urls import path

from campaign import views

app_name = "campaign"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("c/<slug:slug>/", views.campaign_page, name="campaign"),
    path("c/<slug:slug>/kingdom/", views.kingdom_page, name="kingdom"),
]
