from django.urls import path

from . import feeds
from .views import sources as views

app_name = "sources"
urlpatterns = [
    path("<str:slug>/", views.SourceView.as_view(), name="detail"),
    path("<str:slug>/feed/", feeds.SourceFeed(), name="feed"),
    path("<str:slug>/feed/atom/", feeds.AtomSourceFeed(), name="feed-atom"),
]
