from campaign.views import (
    campaign,
    dashboard,
    health,
    letters,
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
    *letters.urlpatterns,
    *new.urlpatterns,
    *orders.urlpatterns,
    *setup.urlpatterns,
    *dashboard.urlpatterns,
    *rules.urlpatterns,
    *winter.urlpatterns,
    *story.urlpatterns,
]
