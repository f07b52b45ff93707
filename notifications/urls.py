from notifications import views

app_name = "notifications"

urlpatterns = views.urlpatterns
