"""Every public response is read for protected legal names before it leaves: a name
planted behind every service's back (raw SQL) is withheld from readers on each kind
of public output, and the newsroom is told by address and pseudonym only."""

import gzip
import json
import logging
from urllib.parse import unquote

import pytest
from django.db import connection
from django.http import HttpResponse
from django.urls import reverse

from articles.models import Article, PreviewLink, Status
from audit.models import AuditEvent
from identity.models import Person
from publishing.output_check import OutputCheckMiddleware
from sources.models import Source
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    CorrectionFactory,
    ImageFactory,
    PersonFactory,
    ProtectedPersonFactory,
    SocialPostFactory,
    SuperuserFactory,
)

pytestmark = pytest.mark.django_db

LEGAL = "يوسف المنصوري"
PSEUDONYM = "الشاهد"


@pytest.fixture
def protected():
    return ProtectedPersonFactory(name=LEGAL, public_name=PSEUDONYM)


def plant(row, **columns) -> None:
    """Write `columns` straight into `row`'s table, around every door."""
    table = row._meta.db_table
    with connection.cursor() as cursor:
        for column, value in columns.items():
            cursor.execute(
                f"UPDATE {table} SET {column} = %s WHERE id = %s", [value, row.pk]
            )


def withheld(response) -> bool:
    body = response.content.decode()
    return (
        response.status_code == 503
        and LEGAL not in body
        and "المنصوري" not in body
        and response["Cache-Control"] == "no-store"
    )


def story_page(article: Article) -> str:
    return reverse("articles:detail", args=[article.pk, article.slug_ar or "-"])


def test_an_address_spelling_the_name_is_recorded_without_it(protected, client):
    """The audit event and the log withhold the part of the address that spells
    the name."""
    article = ArticleFactory()
    plant(article, slug_ar="يوسف-المنصوري")
    client.get(story_page(Article.objects.get(pk=article.pk)))
    event = AuditEvent.objects.get(action="withheld")
    assert event.message == f"/ar/news/{article.pk}/…/"


def test_a_clean_page_is_sent(protected, client):
    """The check lets an ordinary story through untouched."""
    article = ArticleFactory()
    assert client.get(story_page(article)).status_code == 200


def test_a_headline_planted_in_sql_withholds_the_story_page(protected, client):
    """The story's own column, written around the services."""
    article = ArticleFactory()
    plant(article, headline_ar=f"لقاء مع {LEGAL}")
    assert withheld(client.get(story_page(article)))


def test_a_summary_planted_in_sql_withholds_the_home_page_and_feed(protected, client):
    """Lists and feeds show the summary: both are withheld."""
    article = ArticleFactory()
    plant(article, summary_ar=f"تحدث {LEGAL} عن الملف")
    assert withheld(client.get(reverse("articles:home")))
    assert withheld(client.get(reverse("articles:feed")))


def test_a_slug_planted_in_sql_withholds_the_sitemaps(protected, client):
    """The address itself holds the name (percent-encoded in the sitemap)."""
    article = ArticleFactory()
    plant(article, slug_ar="يوسف-المنصوري")
    assert withheld(client.get("/sitemap-stories.xml"))
    assert withheld(client.get("/news-sitemap.xml"))


def test_a_redirect_to_an_address_holding_the_name_is_withheld(protected, client):
    """An old address redirects to the story's own: the Location is read too."""
    article = ArticleFactory()
    plant(article, slug_ar="يوسف-المنصوري")
    response = client.get(reverse("articles:detail", args=[article.pk, "old"]))
    assert withheld(response)
    assert "Location" not in response


@pytest.mark.parametrize(
    "plant_row, url",
    [
        (
            lambda a: plant(a.section, name_ar=LEGAL),
            lambda a: reverse("articles:section", args=[a.section.slug]),
        ),
        (
            lambda a: plant(
                CorrectionFactory(article=a), text_ar=f"الصحيح أنه {LEGAL}"
            ),
            story_page,
        ),
        (
            lambda a: plant(SocialPostFactory(article=a), text=f"قال {LEGAL}"),
            story_page,
        ),
        (lambda a: plant(BylineFactory(article=a), name=LEGAL), story_page),
        (lambda a: plant(a.hero_image, alt_text_ar=LEGAL), story_page),
        (
            lambda a: plant(
                ArticlePersonFactory(article=a).person, description_ar=LEGAL
            ),
            lambda a: (
                Person.objects.exclude(identity_protected=True).get().get_absolute_url()
            ),
        ),
        (
            lambda a: plant(AttributionFactory(article=a).source, country=LEGAL),
            lambda a: Source.objects.get().get_absolute_url(),
        ),
    ],
    ids=["section", "correction", "post", "byline", "image-alt", "person", "source"],
)
def test_a_part_planted_in_sql_withholds_the_page_showing_it(
    protected, client, plant_row, url
):
    """Every row a public page shows, each planted around the services."""
    article = ArticleFactory(hero_image=ImageFactory())
    plant_row(article)
    assert withheld(client.get(url(article)))


def test_a_tag_planted_in_sql_withholds_its_page_and_feed(protected, client):
    """A tag renamed in the database: its page and feed are withheld."""
    article = ArticleFactory()
    article.tags.add("وسم")
    tag = article.tags.get()
    plant(tag, name=LEGAL)
    assert withheld(client.get(reverse("articles:tag", args=[tag.slug])))
    assert withheld(client.get(reverse("articles:tag-feed", args=[tag.slug])))


def test_search_results_holding_the_name_are_withheld(protected, client):
    """A search whose results show a planted headline."""
    article = ArticleFactory(headline_ar="افتتاح الجسر الجديد")
    plant(article, headline_ar=f"افتتاح الجسر الجديد {LEGAL}")
    assert withheld(client.get(reverse("articles:search"), {"q": "الجسر"}))


def test_a_share_link_of_a_planted_draft_is_not_shown(protected, client):
    """The preview of a draft is public: it never shows the name."""
    article = ArticleFactory(status=Status.DRAFT, published_at=None)
    link = PreviewLink.objects.create(article=article, created_by=SuperuserFactory())
    plant(article, headline_ar=LEGAL)
    response = client.get(link.get_absolute_url())
    assert response.status_code != 200
    assert LEGAL not in response.content.decode()


def test_a_withheld_page_is_recorded_by_address_and_pseudonym(
    protected, client, caplog
):
    """An audit event and an error log name the page and the pseudonym only."""
    article = ArticleFactory()
    plant(article, headline_ar=LEGAL)
    with caplog.at_level(logging.ERROR, logger="publishing.output_check"):
        client.get(story_page(article))
    event = AuditEvent.objects.get(action="withheld")
    assert (event.object_id, event.message) == (
        str(protected.pk),
        unquote(story_page(article)),
    )
    assert PSEUDONYM in event.object_repr and LEGAL not in event.object_repr
    (record,) = [r for r in caplog.records if r.name == "publishing.output_check"]
    assert PSEUDONYM in record.getMessage()
    assert LEGAL not in record.getMessage()


def test_a_withheld_page_is_not_kept_by_the_page_cache(protected, client, settings):
    """Once the row is mended (with a new version, as a save gives it), the next
    reader gets the page."""
    settings.PAGE_CACHE = True
    article = ArticleFactory(headline_ar="عنوان سليم")
    plant(article, headline_ar=LEGAL)
    assert withheld(client.get(story_page(article)))
    plant(article, headline_ar="عنوان سليم", version=article.version + 1)
    assert client.get(story_page(article)).status_code == 200


def test_protecting_someone_takes_effect_on_the_next_response(client):
    """The same page, byte for byte, is withheld once the person it names is
    protected: what was read before is read again under the new gate."""
    person = PersonFactory(name=LEGAL)
    article = ArticleFactory(headline_ar=f"لقاء مع {LEGAL}")
    assert client.get(story_page(article)).status_code == 200
    person.identity_protected = True
    person.public_name = PSEUDONYM
    person.save()
    assert withheld(client.get(story_page(article)))


def test_the_admin_is_not_the_public_check(protected, client):
    """Editors' pages have rules of their own; the public check leaves them."""
    client.force_login(SuperuserFactory())
    person_admin = reverse("admin:identity_person_change", args=[protected.pk])
    assert client.get(person_admin).status_code == 200


def _answering(body: bytes, **headers):
    def view(request):
        response = HttpResponse(body, content_type="application/json")
        for name, value in headers.items():
            response[name] = value
        return response

    return OutputCheckMiddleware(view)


def test_a_compressed_body_is_read_as_the_reader_reads_it(protected, rf):
    """A view that compresses its own answer (the partners' API, gzip_page) is
    read decompressed."""
    body = gzip.compress(json.dumps({"headline": f"لقاء مع {LEGAL}"}).encode())
    check = _answering(body, **{"Content-Encoding": "gzip"})
    assert withheld(check(rf.get("/api/ninjs/")))


def test_a_body_in_an_encoding_the_check_cannot_read_is_withheld(protected, rf):
    """Not sent unread: withheld, as a body holding a name would be."""
    check = _answering(b"\x8b\x00\x01", **{"Content-Encoding": "br"})
    assert check(rf.get("/api/ninjs/")).status_code == 503


def test_a_compressed_body_naming_nobody_is_sent(protected, rf):
    body = gzip.compress(json.dumps({"headline": "لقاء مع الشاهد"}).encode())
    check = _answering(body, **{"Content-Encoding": "gzip"})
    assert check(rf.get("/api/ninjs/")).content == body
