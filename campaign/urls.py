from campaign.views import campaign, dashboard, health, orders, rules, setup, winter

app_name = "campaign"

urlpatterns = [
    *campaign.urlpatterns,
    *health.urlpatterns,
    *orders.urlpatterns,
    *setup.urlpatterns,
    *dashboard.urlpatterns,
    *rules.urlpatterns,
    *winter.urlpatterns,
]
