from django.urls import path

from . import views

app_name = "live"
urlpatterns = [
    path("news/<int:pk>/live/updates/", views.updates, name="updates"),
    path("news/<int:pk>/live/older/", views.older, name="older"),
    path("news/<int:pk>/live/feed/", views.live_updates_feed, name="feed"),
]
