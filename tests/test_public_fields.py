"""What public pages print is what the identity gate reads: a field a template shows
but no model declares public would carry a protected name past the gate unchecked.

Every text field of every row a story's pages show is filled with a sentinel of its
own; each sentinel found in a public page, feed or sitemap must be in the public
text (`public_fields`, through identity.exposure.public_texts) of some row.
"""

import itertools

import pytest
from django.db import models
from django.urls import reverse

from articles.exposure import story_rows
from articles.models import Article
from identity.exposure import public_texts
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    CorrectionFactory,
    ImageFactory,
    PersonFactory,
    SocialAccountFactory,
    SocialPostFactory,
    SourceFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

_numbers = itertools.count(1)


def _sentinel(field: models.Field) -> object:
    token = f"zq{next(_numbers):03d}x"
    if isinstance(field, models.URLField):
        return f"https://{token}.example/{token}"
    if isinstance(field, models.JSONField):
        return [token]
    return token


def fill(row: models.Model, sentinels: dict[str, str], *, skip=()) -> models.Model:
    """Put a sentinel in each free-text field of `row` and save it."""
    for field in row._meta.concrete_fields:
        if (
            not field.editable
            or field.choices
            or field.name in skip
            or not isinstance(field, models.CharField | models.TextField)
            and not isinstance(field, models.JSONField)
        ):
            continue
        value = _sentinel(field)
        setattr(row, field.attname, value)
        token = value[0] if isinstance(value, list) else value
        sentinels[token.split("//")[-1].split(".")[0]] = (
            f"{type(row).__name__}.{field.attname}"
        )
    row.save()
    return row


@pytest.fixture
def printed(client):
    """(sentinel → where it was written, the rows, the text of the public pages)."""
    sentinels: dict[str, str] = {}
    source = fill(SourceFactory(), sentinels, skip=("domains",))
    fill(SocialAccountFactory(source=source), sentinels)
    article = ArticleFactory(hero_image=fill(ImageFactory(), sentinels))
    fill(article.section, sentinels)
    # The slugs and language keep their shape: they make the page's address.
    fill(article, sentinels, skip=("slug", "slug_ar", "slug_en"))
    staff = fill(UserFactory(), sentinels, skip=("password", "username", "email"))
    fill(BylineFactory(article=article, name="", user=staff), sentinels)
    fill(BylineFactory(article=article), sentinels)
    person = fill(PersonFactory(), sentinels)
    fill(ArticlePersonFactory(article=article, person=person), sentinels)
    fill(SocialPostFactory(article=article), sentinels)
    fill(AttributionFactory(article=article, source=source), sentinels)
    fill(CorrectionFactory(article=article), sentinels)
    article.tags.add("zq999x")
    sentinels["zq999x"] = "Tag.name"
    article = Article.objects.for_detail().get(pk=article.pk)
    person.refresh_from_db()
    pages = []
    for language in ("ar", "en"):
        for url in (
            article.get_absolute_url(),
            reverse("articles:home"),
            reverse("articles:feed"),
            reverse("articles:section", args=[article.section.slug]),
            source.get_absolute_url(),
            reverse("sources:feed", args=[source.slug]),
            person.get_absolute_url(),
            "/sitemap-stories.xml",
            "/sitemap-sources.xml",
            "/news-sitemap.xml",
        ):
            url = url.replace("/ar/", f"/{language}/", 1)
            response = client.get(url, follow=True)
            assert response.status_code == 200, url
            pages.append(response.content.decode())
    rows = [*story_rows(article), source, person]
    return sentinels, rows, "\n".join(pages)


def test_every_field_a_public_page_prints_is_read_by_the_gate(printed):
    """A sentinel on a public page is in the public text of some row."""
    sentinels, rows, pages = printed
    checked = "\n".join(text for row in rows for _field, text in public_texts(row))
    unchecked = sorted(
        where
        for token, where in sentinels.items()
        if token in pages and token not in checked
    )
    assert unchecked == []


def test_the_sentinels_reach_the_pages(printed):
    """The test sees the pages: the story's headline, a post and a correction."""
    sentinels, _rows, pages = printed
    shown = {where for token, where in sentinels.items() if token in pages}
    assert {"Article.headline_ar", "SocialPost.text", "Correction.text_ar"} <= shown
