from battles import report_views, views

app_name = "battles"

# The battle reports' URLs first: `views`' `<number>/<action>/` would take theirs.
urlpatterns = report_views.urlpatterns + views.urlpatterns
