from django.urls import path

from . import views

app_name = "articles"
urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("news/<int:pk>/", views.ArticleDetailView.as_view(), name="detail-short"),
    path("news/<int:pk>/<str:slug>/", views.ArticleDetailView.as_view(), name="detail"),
    path("section/<str:slug>/", views.SectionView.as_view(), name="section"),
    path("search/", views.SearchView.as_view(), name="search"),
    path("tag/<str:slug>/", views.TagView.as_view(), name="tag"),
    path("people/<int:pk>/<str:slug>/", views.PersonView.as_view(), name="person"),
    path("preview/<str:signed>/", views.SharedPreviewView.as_view(), name="preview"),
]
