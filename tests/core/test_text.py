"""One rule per text pattern, read alike by the post model, the importer and the
renderer (core.text)."""

import pytest

from articles.models import SocialPost
from core.text import hashtags, trim_url
from ingest.text import analyse_post_text
from publishing.rendering import social_text_html
from tests.factories import ArticleFactory

NUMBERED = "المرتبة #1 في #دبي_اليوم"


def test_a_tag_of_digits_only_is_not_a_hashtag():
    """ "#1" is a number; "#دبي_اليوم" is a tag."""
    assert hashtags(NUMBERED) == ["دبي_اليوم"]


def test_digits_with_letters_make_a_hashtag():
    """A year followed by a word is a tag."""
    assert hashtags("#2024عاجل") == ["2024عاجل"]


@pytest.mark.django_db
def test_the_post_model_reads_hashtags_by_the_same_rule():
    """A saved post's hashtags leave out the number."""
    post = SocialPost.objects.create(article=ArticleFactory(), text=NUMBERED)
    assert post.hashtags == ["دبي_اليوم"]


def test_the_importer_reads_hashtags_by_the_same_rule():
    """The importer's analysis of a post leaves out the number."""
    _links, _media, tags = analyse_post_text(NUMBERED)
    assert tags == ["دبي_اليوم"]


def test_the_renderer_marks_only_real_hashtags():
    """On the card, "#1" stays plain text; the tag is marked as one."""
    html = social_text_html(NUMBERED)
    assert '<bdi class="hashtag">#دبي_اليوم</bdi>' in html
    assert '<bdi class="hashtag">#1</bdi>' not in html


def test_arabic_punctuation_after_a_link_is_not_part_of_it():
    """The Arabic comma and question mark end the sentence, not the link."""
    assert trim_url("https://example.com/a،") == "https://example.com/a"
    assert trim_url("https://example.com/a؟") == "https://example.com/a"


def test_a_closing_bracket_stays_when_the_link_opened_it():
    """Wikipedia-style links keep their brackets."""
    assert trim_url("https://en.wikipedia.org/wiki/Dubai_(city)") == (
        "https://en.wikipedia.org/wiki/Dubai_(city)"
    )
