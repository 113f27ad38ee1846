"""The identity audit reads every public page for protected legal names."""

import json
from io import StringIO
from unittest.mock import Mock
from urllib.parse import unquote

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation
from taggit.models import Tag

from articles.models import Article, PreviewLink, Section
from distribution.models import Delivery, Event, Partner, Release, WebhookEndpoint
from distribution.webhooks.services import webhook_save
from publishing.management.commands.audit_identities import sitemap_paths
from publishing.public_urls import public_urls
from publishing.views import PAGE_SIZE, HomeView
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    CorrectionFactory,
    DraftArticleFactory,
    ImageFactory,
    ProtectedPersonFactory,
    SectionFactory,
    SuperuserFactory,
    release_of,
)

pytestmark = pytest.mark.django_db

LEGAL_NAME = "يوسف المنصوري"
PSEUDONYM = "الشاهد"
COMMAND = "publishing.management.commands.audit_identities"


def audit() -> tuple[str, str]:
    """Run the audit; return what it wrote to stdout and stderr."""
    out, err = StringIO(), StringIO()
    call_command("audit_identities", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def failing_audit() -> str:
    """Run an audit expected to fail; return everything it said, error included."""
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError) as failure:
        call_command("audit_identities", stdout=out, stderr=err)
    return "\n".join([out.getvalue(), err.getvalue(), str(failure.value)])


def url(obj, language: str = "ar") -> str:
    """The object's public address in `language`, as the audit prints it."""
    with translation.override(language):
        return unquote(obj.get_absolute_url())


def story(**fields) -> Article:
    """A published story in both languages that names the protected person."""
    article = ArticleFactory(headline_en="Prison testimony", **fields)
    ArticlePersonFactory(article=article, person=ProtectedPersonFactory())
    return article


def test_clean_newsroom_passes_and_counts_the_pages():
    """With only pseudonyms in print, the audit passes and says how much it read."""
    story(body_ar=f"<p>قال {PSEUDONYM} إن السجن كان مكتظا.</p>")
    pages = len(list(public_urls()))

    out, err = audit()

    assert (
        f"Checked {pages} public pages, 2 API documents, 0 webhook deliveries for "
        "1 protected person"
    ) in out
    assert err == ""


def test_legal_name_written_around_the_gate_fails_naming_only_the_pseudonym():
    """A legal name in a published story fails the audit; the report gives the
    page and the pseudonym, never the legal name."""
    article = story()
    Article.objects.filter(pk=article.pk).update(body_ar=f"<p>{LEGAL_NAME}</p>")

    report = failing_audit()

    assert f"{url(article)}: {PSEUDONYM}" in report
    assert LEGAL_NAME not in report


def test_legal_name_in_a_correction_fails_naming_only_the_pseudonym():
    """A correction written around the gate is read at the end of its story."""
    article = story()
    CorrectionFactory(article=article, text_ar=f"الصحيح أن المصدر {LEGAL_NAME}.")

    report = failing_audit()

    assert f"{url(article)}: {PSEUDONYM}" in report
    assert LEGAL_NAME not in report


def test_legal_name_in_a_section_name_is_found_on_every_page():
    """A section named with a legal name leaks through the menu of every page."""
    article = story()
    Section.objects.filter(pk=article.section_id).update(name_ar=LEGAL_NAME)

    report = failing_audit()

    assert f"/ar/: {PSEUDONYM}" in report
    assert f"{url(article)}: {PSEUDONYM}" in report


def test_draft_holding_a_legal_name_is_not_read():
    """A draft is not public, so a legal name in it does not fail the audit."""
    story()
    DraftArticleFactory(body_ar=f"<p>{LEGAL_NAME}</p>")

    out, _err = audit()

    assert "no legal name found" in out


def test_address_spelling_a_legal_name_is_printed_withheld():
    """A slug holding a legal name is found in links and withheld in the report."""
    article = story()
    Article.objects.filter(pk=article.pk).update(slug_ar="يوسف-المنصوري")

    report = failing_audit()

    assert f"/ar/news/{article.pk}/…/: {PSEUDONYM}" in report
    assert "يوسف" not in report


def test_missing_page_is_a_warning_not_a_failure(monkeypatch):
    """A listed page that does not answer 200 is reported on stderr; the audit
    still passes."""
    story()
    monkeypatch.setattr(COMMAND + ".public_urls", lambda: ["/ar/", "/ar/tag/none/"])

    out, err = audit()

    assert "/ar/tag/none/: status 404, not checked" in err
    assert "Checked 1 public page, " in out


def test_server_error_fails_the_audit(monkeypatch):
    """A page that answers with a server error fails the audit."""
    story()
    monkeypatch.setattr(COMMAND + ".public_urls", lambda: ["/ar/"])
    monkeypatch.setattr(HomeView, "get_queryset", Mock(side_effect=RuntimeError))

    report = failing_audit()

    assert "/ar/: server error 500" in report


def test_nobody_protected_passes_without_rendering(django_assert_num_queries):
    """With no protected person the audit only asks who is protected, and passes."""
    ArticleFactory()

    with django_assert_num_queries(1):
        out, _err = audit()

    assert "Nobody's identity is protected" in out


def test_audit_leaves_the_active_language_as_it_was():
    """Reading the English edition does not switch the caller's language."""
    story()

    with translation.override("ar"):
        audit()
        assert translation.get_language() == "ar"


def test_public_urls_lists_every_kind_of_page_in_both_languages():
    """Home, story, tag, person, section and source pages are listed in both
    languages; a draft's page is not."""
    article = story()
    article.tags.add("سجون")
    source = AttributionFactory(article=article).source
    person = article.people_named.get().person
    draft = DraftArticleFactory()

    urls = {unquote(address) for address in public_urls()}

    for code in ("ar", "en"):
        assert {
            f"/{code}/",
            url(article, code),
            f"/{code}/tag/سجون/",
            url(person, code),
            url(article.section, code),
            url(source, code),
        } <= urls
        assert url(draft, code) not in urls


def test_public_urls_lists_only_pages_that_answer(client):
    """Every listed page answers 200, further list pages included, and no list
    page past the last is listed."""
    section = SectionFactory()
    ArticleFactory.create_batch(PAGE_SIZE + 1, section=section)
    ArticleFactory(headline_ar="", headline_en="English only", language="en")
    DraftArticleFactory(section=section).tags.add("قريبا")

    urls = [unquote(address) for address in public_urls()]

    assert {"/ar/?page=2", f"{url(section)}?page=2"} <= set(urls)
    assert "/ar/?page=3" not in urls
    assert not [address for address in urls if address.endswith("/en/?page=2")]
    with translation.override("ar"):  # requests activate their page's language
        statuses = {address: client.get(address).status_code for address in urls}
    assert statuses == dict.fromkeys(urls, 200)


def test_public_urls_reads_a_fixed_number_of_queries():
    """Listing the site costs the same number of queries for one story or many."""
    story().tags.add("سجون")
    with CaptureQueriesContext(connection) as one:
        list(public_urls())
    for _ in range(3):
        story().tags.add("حرية", "سجون")
        AttributionFactory()

    with CaptureQueriesContext(connection) as many:
        list(public_urls())

    assert len(many) == len(one)


def is_feed_or_sitemap(address: str) -> bool:
    return "/feed/" in address or address.endswith((".xml", ".txt"))


def test_public_urls_lists_feeds_and_sitemaps():
    """Every feed, both sitemaps with each sitemap of the index, and robots.txt are
    public addresses, so the audit reads them too."""
    article = story()
    article.tags.add("سجون")
    source = AttributionFactory(article=article).source
    person = article.people_named.get().person

    urls = {unquote(address) for address in public_urls()}

    for code in ("ar", "en"):
        for page in (f"/{code}/", url(article.section, code), url(source, code)):
            assert {f"{page}feed/", f"{page}feed/atom/"} <= urls
        assert {f"/{code}/tag/سجون/feed/", f"{url(person, code)}feed/"} <= urls
    assert {
        "/robots.txt",
        "/sitemap.xml",
        "/sitemap-stories.xml",
        "/sitemap-people.xml",
        "/news-sitemap.xml",
    } <= urls


def test_feeds_and_sitemaps_never_show_a_protected_legal_name(client):
    """A story naming a protected person by pseudonym shows the pseudonym in the
    person's feed, and the legal name in no feed or sitemap, however encoded."""
    article = story(body_ar=f"<p>قال {PSEUDONYM} إن السجن كان مكتظا.</p>")
    article.tags.add("سجون")
    AttributionFactory(article=article)
    person = article.people_named.get().person
    addresses = [a for a in public_urls() if is_feed_or_sitemap(a)]

    with translation.override("ar"):  # requests activate their page's language
        responses = {address: client.get(address) for address in addresses}

    assert {a: r.status_code for a, r in responses.items()} == dict.fromkeys(
        addresses, 200
    )
    for response in responses.values():
        content = response.content.decode()
        assert LEGAL_NAME not in content
        assert LEGAL_NAME not in unquote(content)
        assert "يوسف" not in unquote(content)
    assert PSEUDONYM in responses[f"{person.get_absolute_url()}feed/"].content.decode()


def test_legal_name_in_a_tag_is_found_in_the_feeds():
    """A tag spelling a legal name, written around the gate, fails the audit on
    the feeds that list it as a category, naming only the pseudonym."""
    article = story()
    article.tags.add("سجون")
    Tag.objects.filter(name="سجون").update(name=LEGAL_NAME)

    report = failing_audit()

    assert f"/ar/feed/: {PSEUDONYM}" in report
    assert f"/ar/feed/atom/: {PSEUDONYM}" in report
    assert LEGAL_NAME not in report


def test_the_walk_searches_each_public_name_of_the_protected(client):
    """The searches a reader would make for the pseudonym and aliases are read."""
    ProtectedPersonFactory(aliases="الشاهد\nThe Witness")
    urls = {unquote(address) for address in public_urls()}
    assert f"/ar/search/?q={PSEUDONYM}" in urls
    assert "/en/search/?q=The+Witness" in urls


def test_the_walk_reads_every_open_share_link():
    """A draft's share link is a public address while it is open."""
    link = PreviewLink.objects.create(
        article=DraftArticleFactory(), created_by=SuperuserFactory()
    )
    # Signed with the time: compare what the signature carries, the token.
    opened = [
        PreviewLink.objects.get_signed(unquote(address).split("/")[-2])
        for address in public_urls()
        if "/preview/" in address
    ]
    assert opened == [link, link]  # one address per edition
    PreviewLink.objects.filter(pk=link.pk).update(revoked_at=timezone.now())
    assert not any("/preview/" in address for address in public_urls())


def test_addresses_a_sitemap_lists_are_read_with_their_alternates():
    """Locations and hreflang alternates are taken as paths to read."""
    response = Mock(
        charset="utf-8",
        content=(
            b"<url><loc>https://example.com/ar/news/1/a/</loc>"
            b'<xhtml:link rel="alternate" hreflang="en" '
            b'href="https://example.com/en/news/1/b/?page=2&amp;x=1"/></url>'
        ),
    )
    assert sitemap_paths(response) == ["/ar/news/1/a/", "/en/news/1/b/?page=2&x=1"]


# ------------------------------------------------------------ the other exits


def delivery(article, status, body: str, *, language: str = "ar") -> Delivery:
    """A stored webhook body for `article`, to a partner's one endpoint."""
    endpoint = (
        WebhookEndpoint.objects.first()
        or webhook_save(
            endpoint=WebhookEndpoint(
                partner=Partner.objects.create(name="Gulf Daily"),
                url="https://p.example/in",
            ),
            by=SuperuserFactory(),
            events=[Event.PUBLISHED],
        )[0]
    )
    # A release per version: the second is a later change told again.
    release = release_of(
        article, language=language, version=Release.objects.count() + 1
    )
    return Delivery.objects.create(
        endpoint=endpoint,
        release=release,
        event=Event.PUBLISHED,
        message_id=f"msg_{Delivery.objects.count()}",
        body=body,
        status=status,
    )


def test_an_api_document_holding_a_name_in_a_caption_fails_the_audit():
    """A picture's caption and credit, read together as the document prints
    them, hold the name written around the gate."""
    article = story()
    Article.objects.filter(pk=article.pk).update(headline_en="")
    hero = ImageFactory(caption_ar="يوسف", credit="المنصوري")
    Article.objects.filter(pk=article.pk).update(hero_image=hero)
    report = failing_audit()
    assert f"/api/ninjs/{article.pk}/ar: {PSEUDONYM} (withheld)" in report
    assert "يوسف" not in report and "المنصوري" not in report


def test_a_webhook_body_a_partner_holds_fails_the_audit():
    article = story(body_ar=f"<p>{PSEUDONYM}</p>")
    held = delivery(
        article, Delivery.Status.DELIVERED, json.dumps({"body_html": LEGAL_NAME})
    )
    report = failing_audit()
    assert f"webhook delivery #{held.pk} to Gulf Daily: {PSEUDONYM}" in report
    assert "Send again sends its tombstone" in report


def test_a_webhook_body_a_later_delivery_superseded_is_history():
    """The partner was told again since (the story withdrawn, say)."""
    article = story(body_ar=f"<p>{PSEUDONYM}</p>")
    delivery(article, Delivery.Status.DELIVERED, json.dumps({"x": LEGAL_NAME}))
    delivery(article, Delivery.Status.DELIVERED, json.dumps({"pubStatus": "withheld"}))
    out, _err = audit()
    assert "2 API documents, 1 webhook deliveries" in out


def test_a_waiting_webhook_body_is_reported_and_passes():
    """Checked again as it leaves: its tombstone is what will be sent."""
    article = story(body_ar=f"<p>{PSEUDONYM}</p>")
    waiting = delivery(article, Delivery.Status.PENDING, json.dumps({"x": LEGAL_NAME}))
    out, _err = audit()
    assert f"webhook delivery #{waiting.pk} to Gulf Daily: {PSEUDONYM} (waiting" in out
