from battles import views

app_name = "battles"

urlpatterns = views.urlpatterns
