from django.urls import path

from . import feeds, views

app_name = "articles"
urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("feed/", feeds.StoryFeed(), name="feed"),
    path("feed/atom/", feeds.AtomStoryFeed(), name="feed-atom"),
    path("news/<int:pk>/", views.ArticleDetailView.as_view(), name="detail-short"),
    path("news/<int:pk>/<str:slug>/", views.ArticleDetailView.as_view(), name="detail"),
    path("section/<str:slug>/", views.SectionView.as_view(), name="section"),
    path("search/", views.SearchView.as_view(), name="search"),
    path("section/<str:slug>/feed/", feeds.SectionFeed(), name="section-feed"),
    path(
        "section/<str:slug>/feed/atom/",
        feeds.AtomSectionFeed(),
        name="section-feed-atom",
    ),
    path("tag/<str:slug>/", views.TagView.as_view(), name="tag"),
    path("tag/<str:slug>/feed/", feeds.TagFeed(), name="tag-feed"),
    path("tag/<str:slug>/feed/atom/", feeds.AtomTagFeed(), name="tag-feed-atom"),
    path("people/<int:pk>/<str:slug>/", views.PersonView.as_view(), name="person"),
    path("people/<int:pk>/<str:slug>/feed/", feeds.PersonFeed(), name="person-feed"),
    path(
        "people/<int:pk>/<str:slug>/feed/atom/",
        feeds.AtomPersonFeed(),
        name="person-feed-atom",
    ),
    path("preview/<str:signed>/", views.SharedPreviewView.as_view(), name="preview"),
]
