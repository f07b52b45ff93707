from campaign.views import campaign, dashboard, health, orders, rules, setup, story, winter

app_name = "campaign"

urlpatterns = [
    *campaign.urlpatterns,
    *health.urlpatterns,
    *orders.urlpatterns,
    *setup.urlpatterns,
    *dashboard.urlpatterns,
    *rules.urlpatterns,
    *winter.urlpatterns,
    *story.urlpatterns,
]
