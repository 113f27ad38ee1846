"""Arabic tags get real slugs, not empty ones (a known django-taggit pitfall)."""

import pytest
from taggit.models import Tag

from tests.factories import ArticleFactory

pytestmark = pytest.mark.django_db


def test_arabic_tag_gets_an_arabic_slug():
    """An Arabic tag's slug keeps its Arabic letters."""
    ArticleFactory().tags.add("حرية الصحافة")
    assert Tag.objects.get(name="حرية الصحافة").slug == "حرية-الصحافة"


def test_distinct_arabic_tags_get_distinct_slugs():
    """Two Arabic tags never collapse onto one empty or numbered slug."""
    ArticleFactory().tags.add("سوريا", "العدالة")
    slugs = set(Tag.objects.values_list("slug", flat=True))
    assert slugs == {"سوريا", "العدالة"}
