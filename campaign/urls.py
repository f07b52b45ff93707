from campaign.views import (
    campaign,
    dashboard,
    health,
    new,
    orders,
    rules,
    setup,
    story,
    winter,
)

app_name = "campaign"

urlpatterns = [
    *campaign.urlpatterns,
    *health.urlpatterns,
    *new.urlpatterns,
    *orders.urlpatterns,
    *setup.urlpatterns,
    *dashboard.urlpatterns,
    *rules.urlpatterns,
    *winter.urlpatterns,
    *story.urlpatterns,
]
