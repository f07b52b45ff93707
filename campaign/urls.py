from campaign.views import campaign, dashboard, health, orders, rules, setup

app_name = "campaign"

urlpatterns = [
    *campaign.urlpatterns,
    *health.urlpatterns,
    *orders.urlpatterns,
    *setup.urlpatterns,
    *dashboard.urlpatterns,
    *rules.urlpatterns,
]
