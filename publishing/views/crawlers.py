"""Site-wide answers for crawlers: robots.txt and the Google News sitemap."""

from django.conf import settings
from django.contrib.sitemaps.views import sitemap
from django.urls import reverse
from django.views.generic import TemplateView

from publishing.sitemaps import NewsSitemap

from ..page_cache import reads_query


class RobotsView(TemplateView):
    """robots.txt: keep crawlers out of the admin and point them at the sitemaps."""

    template_name = "robots.txt"
    content_type = "text/plain; charset=utf-8"
    query_parameters = ()

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            sitemap_urls=[
                self.request.build_absolute_uri(reverse(name))
                for name in ("sitemap", "news-sitemap")
            ],
            **kwargs,
        )


# Django's sitemap view reads `?p=`, the page of a long sitemap.
@reads_query("p")
def news_sitemap(request):
    """The Google News sitemap: the last 48 hours, under the newsroom's name."""
    response = sitemap(
        request,
        {"news": NewsSitemap()},
        template_name="sitemaps/news_sitemap.xml",
    )
    response.context_data["publication_name"] = settings.NEWSROOM_NAME
    return response
