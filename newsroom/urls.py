from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.conf.urls.static import static
from django.contrib import admin
from django.contrib.sitemaps import views as sitemap_views
from django.core.exceptions import PermissionDenied
from django.urls import include, path
from django_rq import stats_views
from django_rq.urls import get_admin_urlpatterns

from accounts.views import two_factor
from core import faults
from core.ratelimit import rate_limited
from distribution.api import api as partner_api
from edge.keys import SITEMAPS, marked
from newsroom.i18n import set_language
from publishing.page_cache import reads_query
from publishing.sitemaps import (
    PersonSitemap,
    SectionSitemap,
    SourceSitemap,
    StorySitemap,
    TagSitemap,
)
from publishing.views import crawlers as views

sitemaps = {
    "stories": StorySitemap(),
    "sections": SectionSitemap(),
    "tags": TagSitemap(),
    "people": PersonSitemap(),
    "sources": SourceSitemap(),
}


def superusers_only(view):
    """The task queue's pages (jobs' arguments, tracebacks, re-queue and delete
    buttons) are for administrators: signed in through the admin, superusers."""

    def guarded(request, *args, **kwargs):
        if not request.user.is_superuser:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return admin.site.admin_view(guarded)


# django-rq's dashboard: queues, workers, and failed jobs with their tracebacks.
# Its JSON view is behind the same door (no API token is configured).
task_queue_urls = [
    *get_admin_urlpatterns(view_wrapper=superusers_only),
    path("stats.json", superusers_only(stats_views.stats_json), name="home_json"),
]

# A database outage answers 503 with a plain page instead of a server error.
handler500 = faults.server_error

urlpatterns = [
    path("healthz", faults.healthz, name="healthz"),
    path("admin/two-factor/", admin.site.admin_view(two_factor), name="two-factor"),
    # Login attempts per address, across user names (the lockout counts per name).
    path(
        "admin/login/",
        rate_limited("login", methods=("POST",))(admin.site.login),
        name="rate-limited-login",
    ),
    path("admin/rq/", include((task_queue_urls, "django_rq"))),
    path("admin/", admin.site.urls),
    # Django's language switch, bounding the address it returns to (newsroom/i18n.py).
    path("i18n/setlang/", set_language, name="set_language"),
    # The partners' content API (distribution/api.py), keyed, never cached shared.
    path("api/", partner_api.urls),
    path("robots.txt", views.RobotsView.as_view(), name="robots"),
    path(
        "sitemap.xml",
        marked(SITEMAPS)(reads_query()(sitemap_views.index)),
        {"sitemaps": sitemaps, "sitemap_url_name": "sitemap-section"},
        name="sitemap",
    ),
    path(
        "sitemap-<section>.xml",
        # `?p=` is the page of a long sitemap; the index links to each.
        marked(SITEMAPS)(reads_query("p")(sitemap_views.sitemap)),
        {"sitemaps": sitemaps},
        name="sitemap-section",
    ),
    path("news-sitemap.xml", marked(SITEMAPS)(views.news_sitemap), name="news-sitemap"),
]
urlpatterns += i18n_patterns(
    path("sources/", include("publishing.source_urls")),
    path("", include("live.urls")),
    path("", include("publishing.urls")),
    prefix_default_language=True,
)
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
