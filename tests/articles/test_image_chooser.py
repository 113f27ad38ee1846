"""The body editor's image chooser searches the whole library on the server: words
folded as Arabic is, a page at a time, each image with a thumbnail, for those who
may read the library only."""

import json

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from core.roles import EDITORS, REPORTERS
from tests.factories import (
    ArticleFactory,
    ImageFactory,
    RenditionFactory,
    UserFactory,
    member_of,
)

pytestmark = pytest.mark.django_db

SEARCH = reverse("admin:images_image_autocomplete")
# What the editor's chooser sends besides the words and the page (editor.py).
FIELD = {"app_label": "articles", "model_name": "article", "field_name": "hero_image"}


@pytest.fixture
def reporter(client):
    client.force_login(member_of(REPORTERS))
    return client


def found(client, term: str = "", page: int = 1) -> dict:
    response = client.get(SEARCH, {**FIELD, "term": term, "page": page})
    assert response.status_code == 200
    return response.json()


def titles(answer: dict) -> list[str]:
    return [result["text"] for result in answer["results"]]


def ids(answer: dict) -> list[int]:
    return [int(result["id"]) for result in answer["results"]]


def editor_config(client, url: str) -> dict:
    """The Arabic body editor's StoryEmbed configuration on a story form."""
    form = client.get(url).context["adminform"].form
    attrs = form["body_ar"].field.widget.get_context("body_ar", "", {})["widget"]
    config = json.loads(attrs["attrs"]["data-django-prose-editor-configurable"])
    return config["extensions"]["StoryEmbed"]


def test_the_chooser_finds_an_image_older_than_the_newest_sixty(reporter):
    """An image uploaded before 65 others is found by a word of its title."""
    ImageFactory(title_ar="جسر الملك فهد")
    ImageFactory.create_batch(65)
    assert titles(found(reporter, "جسر")) == ["جسر الملك فهد"]


def test_the_editor_is_not_handed_a_list_of_recent_images(reporter):
    """The story form lists only the images its body places; the chooser asks the
    library's search, whose address it is given."""
    placed, _other = ImageFactory(), ImageFactory()
    story = ArticleFactory(
        body_ar=f'<p>نص</p><figure data-image="{placed.pk}"></figure>'
    )
    config = editor_config(
        reporter, reverse("admin:articles_article_change", args=[story.pk])
    )
    assert [image["id"] for image in config["images"]] == [placed.pk]
    assert config["image_search"].startswith(SEARCH + "?")
    assert (
        editor_config(reporter, reverse("admin:articles_article_add"))["images"] == []
    )


@pytest.mark.parametrize(
    ("stored", "typed"),
    [
        ({"title_ar": "تمثال الأسد"}, "الاسد"),  # hamza on alef
        ({"caption_ar": "مسؤول الميناء"}, "مسئول"),  # hamza on another seat
        ({"caption_ar": "مدرسة البنات"}, "مدرسه"),  # ta marbuta typed as ha
        ({"alt_text_ar": "مستشفى الشفاء"}, "مستشفي"),  # alef maqsura as ya
        ({"title_ar": "مُهرِّب في الميناء"}, "مهرب"),  # tashkeel
        ({"credit": "رويترز"}, "رويترز"),
        ({"source": "وكالة الأنباء"}, "الانباء"),
        ({"title_ar": "ميناء 12"}, "١٢"),  # Arabic-Indic digits
    ],
)
def test_the_search_folds_arabic_as_the_library_does(reporter, stored, typed):
    """Titles, captions, alt texts, credits and sources are matched folded."""
    wanted = ImageFactory(**{"title_ar": "صورة", **stored})
    ImageFactory(title_ar="غيرها", alt_text_ar="", credit="", source="")
    assert ids(found(reporter, typed)) == [wanted.pk]


@pytest.mark.parametrize("piece", ["name", "address"])
def test_the_search_finds_an_image_by_its_file_name(reporter, piece):
    """Part of the stored file name, or the image's whole address pasted, finds it."""
    wanted, _other = ImageFactory(), ImageFactory()
    term = {
        "name": wanted.file.name.rsplit("/", 1)[1][:12],
        "address": "https://example.org" + wanted.file.url,
    }[piece]
    assert ids(found(reporter, term)) == [wanted.pk]


def test_a_short_number_is_not_looked_for_in_file_names(reporter):
    """ "12" finds the picture whose words say 12, not random names holding it."""
    wanted = ImageFactory(title_ar="ميناء 12")
    ImageFactory.create_batch(10, title_ar="غيرها")
    assert ids(found(reporter, "12")) == [wanted.pk]


def test_each_image_comes_with_its_smallest_jpeg_or_else_its_original(reporter):
    """A thumbnail for every result: the smallest JPEG rendition, or the original
    (shown scaled down) while renditions are not made yet."""
    with_renditions = ImageFactory(title_ar="مع نسخ")
    small = RenditionFactory(image=with_renditions, width=320)
    RenditionFactory(image=with_renditions, width=640, height=360)
    without = ImageFactory(title_ar="بلا نسخ")
    thumbs = {int(r["id"]): r["thumb"] for r in found(reporter)["results"]}
    assert thumbs == {with_renditions.pk: small.file.url, without.pk: without.file.url}


def test_the_library_comes_a_page_at_a_time(reporter):
    """Twenty images a page, newest first, and whether more follow."""
    images = ImageFactory.create_batch(25)
    first, second = found(reporter, page=1), found(reporter, page=2)
    assert len(first["results"]) == 20 and first["pagination"]["more"]
    assert len(second["results"]) == 5 and not second["pagination"]["more"]
    shown = ids(first) + ids(second)
    assert shown == [image.pk for image in reversed(images)]


@pytest.mark.parametrize("count", [3, 20])
def test_a_page_costs_the_same_queries_however_many_images(
    reporter, django_assert_num_queries, count
):
    """The session and the user (read, and the session's expiry written in a
    savepoint), the user's permissions, then the count, the page and all its
    renditions: a fixed number for a page, however many images it holds."""
    for image in ImageFactory.create_batch(count):
        RenditionFactory(image=image)
    with django_assert_num_queries(10):
        answer = found(reporter)
    assert len(answer["results"]) == count


def test_an_editor_may_search_too(client):
    """Editors place images as reporters do."""
    ImageFactory(title_ar="جسر")
    client.force_login(member_of(EDITORS))
    assert titles(found(client, "جسر")) == ["جسر"]


def test_an_anonymous_visitor_is_sent_to_log_in(client):
    """Nobody signed out reads the library."""
    response = client.get(SEARCH, {**FIELD, "term": "جسر"})
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_staff_who_may_not_read_the_library_are_refused(client):
    """Staff without permission to view images get 403."""
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="view_article"))
    client.force_login(user)
    assert client.get(SEARCH, {**FIELD, "term": "جسر"}).status_code == 403
