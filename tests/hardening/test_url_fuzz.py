"""A few hundred odd addresses against the real URLconf: none answers a server error.

Huge and negative ids, NUL bytes, overlong and broken slugs, traversal, 100 KB query
strings, bad page numbers and dates, odd unicode, in both editions, on every kind
of public page (home, story, section, tag, person, source, search, feeds, sitemaps)
and on the admin's pages for a logged-in editor.
"""

from urllib.parse import quote

import pytest
from django.test import Client

from articles.models import ArticlePerson
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    PersonFactory,
    SectionFactory,
    SourceFactory,
    SuperuserFactory,
)

pytestmark = pytest.mark.django_db

HUGE = "9" * 40
ODD_IDS = ["0", "-1", HUGE, "2147483648", "9223372036854775808", "1e9", "0x1", "%00"]
ODD_SLUGS = [
    "%00",
    "a%00b",
    "x" * 5000,
    "..%2f..%2fetc%2fpasswd",
    "%2e%2e%2f%2e%2e",
    "..%5c..%5cwin.ini",
    "%c0%ae%c0%ae",
    "%ff%fe%fd",
    "%e2%80%ae%d8%b3%d9%8a%d8%a7%d8%b3%d8%a9",  # right-to-left override, then Arabic
    "%e2%80%8b",  # zero-width space
    "%f0%9f%92%a5" * 50,
    "%3cscript%3ealert(1)%3c%2fscript%3e",
    "%27%20OR%201%3d1--",
    "%25",
    "%",
    "%%32%65",
    "a%0d%0aSet-Cookie:x=1",
    "%ef%bb%bf",
    "\u0627\u0644\u0640\u0640\u0640",
]
ODD_QUERIES = [
    "page=",
    "page=0",
    "page=-1",
    "page=abc",
    "page=1.5",
    "page=1e309",
    f"page={HUGE}",
    "page=9223372036854775808",
    "page=NaN",
    "page=%00",
    "page=1&page=2",
    "page[]=1",
    "before=",
    "before=abc",
    "before=-1",
    f"before={HUGE}",
    "before=2025-02-30",
    "before=%00",
    "q=" + "a" * 100_000,
    "&".join(f"f{i}=1" for i in range(5000)),
    "q=%ff%fe",
    "q=%00",
    "q=%e2%80%ae",
    "from=2025-02-30&to=9999-99-99",
    "from=-1&to=" + "9" * 30,
    "section=%00",
    "section=" + "x" * 5000,
    "language=xx",
    "p=abc",
    "p=-1",
    f"p={HUGE}",
]
# A server error, a debug page or an unexpected redirect loop would show up here;
# anything else (200, redirects, 304, 400, 404, 405, 410) is a clean answer.
CLEAN = {200, 301, 302, 304, 400, 403, 404, 405, 410}


@pytest.fixture
def site():
    section = SectionFactory(slug="politics")
    story = ArticleFactory(section=section)
    story.tags.add("الموانئ")
    person = PersonFactory()
    ArticlePersonFactory(article=story, person=person, role=ArticlePerson.Role.QUOTED)
    source = SourceFactory(slug="paper")
    AttributionFactory(article=story, source=source)
    return {"story": story, "person": person, "tag": story.tags.get().slug}


def public_paths(site) -> list[str]:
    story, person = site["story"], site["person"]
    tag = quote(site["tag"])
    paths = ["/", "/robots.txt", "/sitemap.xml", "/news-sitemap.xml"]
    paths += [f"/sitemap-{name}.xml" for name in ("stories", "tags", "nope", "%00")]
    for language in ("ar", "en"):
        root = f"/{language}"
        real = [
            f"{root}/",
            f"{root}/feed/",
            f"{root}/feed/atom/",
            f"{root}/search/?q=x",
            f"{root}/news/{story.pk}/",
            f"{root}/news/{story.pk}/{quote(story.slug)}/",
            f"{root}/section/politics/",
            f"{root}/section/politics/feed/",
            f"{root}/tag/{tag}/",
            f"{root}/tag/{tag}/feed/atom/",
            f"{root}/people/{person.pk}/{quote(person.slug)}/",
            f"{root}/people/{person.pk}/{quote(person.slug)}/feed/",
            f"{root}/sources/paper/",
            f"{root}/sources/paper/feed/",
        ]
        paths += real
        for odd in ODD_IDS:
            paths += [
                f"{root}/news/{odd}/",
                f"{root}/news/{odd}/{quote(story.slug)}/",
                f"{root}/people/{odd}/x/",
                f"{root}/people/{odd}/x/feed/",
            ]
        for odd in ODD_SLUGS:
            paths += [
                f"{root}/news/{story.pk}/{odd}/",
                f"{root}/section/{odd}/",
                f"{root}/section/{odd}/feed/atom/",
                f"{root}/tag/{odd}/",
                f"{root}/tag/{odd}/feed/",
                f"{root}/people/{person.pk}/{odd}/",
                f"{root}/sources/{odd}/",
                f"{root}/sources/{odd}/feed/",
                f"{root}/preview/{odd}/",
                f"{root}/{odd}/",
            ]
        listing = [f"{root}/", f"{root}/search/", f"{root}/section/politics/"]
        listing += [f"{root}/tag/{tag}/", f"{root}/sources/paper/"]
        for page in listing:
            paths += [f"{page}?{query}" for query in ODD_QUERIES[:18]]
        paths += [f"{root}/search/?{query}" for query in ODD_QUERIES[18:]]
        paths += [f"{root}/feed/?{query}" for query in ODD_QUERIES[18:21]]
    paths += ["/sitemap-stories.xml?" + q for q in ODD_QUERIES[-3:]]
    paths += ["/static/..%2f..%2fnewsroom%2fsettings%2fbase.py", "/media/..%2f..%2f"]
    paths += ["/i18n/setlang/?next=%00", "/xx/", "/ar/ar/ar/", "//evil.example/"]
    return paths


def admin_paths(site) -> list[str]:
    story = site["story"]
    models = ["articles/article", "identity/person", "articles/section", "taggit/tag"]
    models += ["sources/source", "audit/auditevent", "auth/user"]
    paths = ["/admin/", "/admin/two-factor/?next=%00"]
    for model in models:
        paths += [f"/admin/{model}/?{query}" for query in ODD_QUERIES[:12]]
        paths += [f"/admin/{model}/?q=%00", f"/admin/{model}/?o=99&p=abc"]
        for odd in ODD_IDS:
            paths += [f"/admin/{model}/{odd}/change/", f"/admin/{model}/{odd}/history/"]
    paths += [
        f"/admin/articles/article/{odd}/revisions/?a={odd}&b={odd}" for odd in ODD_IDS
    ]
    paths += [f"/admin/articles/article/{story.pk}/revisions/?a=-1&b={HUGE}"]
    paths += [f"/admin/articles/article/{odd}/preview/" for odd in ODD_IDS]
    paths += [f"/admin/autocomplete/?term={quote(s)}" for s in ODD_SLUGS[:6]]
    return paths


def fetch_all(client: Client, paths: list[str]) -> dict[int, list[str]]:
    seen: dict[int, list[str]] = {}
    for path in paths:
        response = client.get(path)
        seen.setdefault(response.status_code, []).append(path[:120])
    return seen


def unclean(seen: dict[int, list[str]]) -> dict[int, list[str]]:
    return {status: paths for status, paths in seen.items() if status not in CLEAN}


def test_odd_public_addresses_never_answer_a_server_error(site, settings):
    """Every odd public address answers cleanly (about 900 requests, both editions)."""
    settings.RATE_LIMITS_ENABLED = False
    paths = public_paths(site)
    seen = fetch_all(Client(raise_request_exception=False), paths)
    print(
        f"{len(paths)} public paths:",
        {status: len(found) for status, found in sorted(seen.items())},
    )
    assert len(paths) >= 300
    assert unclean(seen) == {}


def test_odd_admin_addresses_never_answer_a_server_error(site, settings):
    """An editor's odd admin addresses answer cleanly too."""
    client = Client(raise_request_exception=False)
    client.force_login(SuperuserFactory(username="fuzzer"))
    paths = admin_paths(site)
    seen = fetch_all(client, paths)
    print(
        f"{len(paths)} admin paths:",
        {status: len(found) for status, found in sorted(seen.items())},
    )
    assert len(paths) >= 150
    assert unclean(seen) == {}


def test_odd_admin_addresses_send_anonymous_visitors_to_the_login(site):
    """Logged out, no odd admin address answers anything but the way to the login."""
    paths = admin_paths(site)
    seen = fetch_all(Client(raise_request_exception=False), paths)
    assert unclean(seen) == {}
    assert set(seen) <= {302, 404}
