"""Library images placed in the body: shown where placed, with renditions, read by
the identity gate, and at a constant cost in queries."""

import pytest
from django.utils import translation

from articles.services import StoryEdit, article_save
from identity.gate import IdentityLeakError
from tests.factories import (
    ArticleFactory,
    ImageFactory,
    ProtectedPersonFactory,
    RenditionFactory,
    SuperuserFactory,
)

from ..publishing.test_article_queries import ARTICLE_PAGE_QUERIES, RENDITIONS_QUERY

pytestmark = pytest.mark.django_db


def story_placing(images, **fields):
    figures = "".join(f'<figure data-image="{i.pk}"></figure>' for i in images)
    article = ArticleFactory(body_ar=f"<p>قبل</p>{figures}<p>بعد</p>", **fields)
    article.tags.add("صور")  # so the related stories are looked up, as usual
    with translation.override("ar"):
        return article, article.get_absolute_url()


def test_a_placed_image_is_shown_where_the_body_places_it(client):
    """The picture, with its renditions, its caption and credit, stands between
    the paragraphs around its place."""
    image = ImageFactory(caption_ar="الجسر عند الغروب", credit="وكالة الصور")
    RenditionFactory(image=image, width=320, height=180)
    _article, url = story_placing([image])
    html = client.get(url).content.decode()
    assert html.index("قبل") < html.index("<picture") < html.index("بعد")
    assert "320w" in html and 'loading="lazy"' in html
    assert "الجسر عند الغروب" in html and "وكالة الصور" in html


def test_a_graphic_placed_image_is_blurred_behind_a_warning(client):
    """A graphic image in the body gets the same warning as a graphic hero."""
    _article, url = story_placing([ImageFactory(is_graphic=True)])
    html = client.get(url).content.decode()
    assert "hero--graphic" in html and "hero__warning" in html


@pytest.mark.parametrize("n", [1, 12])
def test_placed_images_cost_the_same_queries_however_many(
    client, django_assert_num_queries, n
):
    """The images and all their renditions are read together: two queries."""
    images = ImageFactory.create_batch(n)
    for image in images:
        RenditionFactory(image=image)
    _article, url = story_placing(images)
    with django_assert_num_queries(ARTICLE_PAGE_QUERIES + 1 + RENDITIONS_QUERY):
        html = client.get(url).content.decode()
    assert html.count("<picture") == n


def test_a_legal_name_in_a_placed_images_caption_is_refused():
    """The gate reads the images a body places, not only the hero."""
    person = ProtectedPersonFactory()
    image = ImageFactory(caption_ar=f"صورة {person.name}")
    article = ArticleFactory(body_ar="<p>نص</p>")
    article.body_ar = f'<p>نص</p><figure data-image="{image.pk}"></figure>'
    with pytest.raises(IdentityLeakError):
        article_save(edit=StoryEdit(article=article), by=SuperuserFactory())
