from django.urls import path

from . import views

app_name = "sources"
urlpatterns = [
    path("<str:slug>/", views.SourceView.as_view(), name="detail"),
]
