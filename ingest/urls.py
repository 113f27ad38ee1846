from django.urls import path

from . import views

app_name = "ingest"
urlpatterns = [
    path("", views.ImportStoryView.as_view(), name="import"),
    path("recognize-post/", views.recognize_post, name="recognize-post"),
]
