from battles import list_views, report_views, views

app_name = "battles"

# The battle reports' and the army lists' URLs first: `views`' `<number>/<action>/` would
# take theirs.
urlpatterns = report_views.urlpatterns + list_views.urlpatterns + views.urlpatterns
