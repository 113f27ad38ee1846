from django.views.generic import TemplateView


class HomeView(TemplateView):
    template_name = "articles/home.html"


ArticleDetailView = SectionView = TagView = PersonView = HomeView
