"""The sitemap of source pages, which exist in every edition."""

from articles.sitemaps import EditionSitemap

from .models import Source


class SourceSitemap(EditionSitemap):
    changefreq = "daily"

    def items(self):
        return Source.objects.only("pk", "slug")
