from django.urls import path

from campaign import dashboard_views, order_views, rules_views, setup_views, views

app_name = "campaign"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("c/<slug:slug>/", views.campaign_page, name="campaign"),
    path("c/<slug:slug>/kingdom/", views.kingdom_page, name="kingdom"),
    path("c/<slug:slug>/report/<int:number>/", views.report_page, name="report"),
    *order_views.urlpatterns,
    *setup_views.urlpatterns,
    *dashboard_views.urlpatterns,
    *rules_views.urlpatterns,
]
