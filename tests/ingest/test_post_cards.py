"""An imported post's card: it links to the post where its embed code says where it
is, its links and hashtags never run together, and its pictures are offered once."""

import pytest

from articles.services import article_publish
from core.roles import EDITORS
from core.text import separate_tokens, social_tokens
from ingest.parse import parse_story
from ingest.services import story_import
from publishing.rendering import social_text_html
from tests.factories import member_of

from .conftest import sample

EMBED = "24_ar_x_embed_code.txt"  # X embed code: the post's URL is in its date link
COPIED = "21_ar_old_breaking_post.txt"  # X's copied text: no URL, a glued link
POST_URL = "https://x.com/city_council/status/1766000000000000001"


def card_of(client, name: str) -> str:
    """The public page's post card for the sample, imported and published."""
    editor = member_of(EDITORS)
    article = story_import(by=editor, text=sample(name)).article
    article_publish(article=article, by=editor)
    content = client.get(article.get_absolute_url()).content.decode()
    start = content.index('<figure class="social-card')
    return content[start : content.index("</figure>", start)]


# ---------------------------------------------------------------- the tokens


def test_a_hashtag_glued_to_a_link_is_a_token_of_its_own():
    """ "https://t.co/abc#وسم" is a link and a hashtag."""
    assert social_tokens("https://t.co/Ab12#وسم") == [
        ("url", "https://t.co/Ab12"),
        ("hashtag", "#وسم"),
    ]


def test_tokens_running_into_each_other_are_set_apart_by_a_space():
    """A word, a link and a hashtag read from embed code without its markup."""
    assert separate_tokens("السياراتhttps://t.co/Ab12#وسم") == (
        "السيارات https://t.co/Ab12 #وسم"
    )


def test_punctuation_beside_a_token_is_left_alone():
    """Brackets and commas already separate: nothing is added."""
    assert separate_tokens("(#عاجل) نص @حساب، https://a.example/b.") == (
        "(#عاجل) نص @حساب، https://a.example/b."
    )


def test_the_card_sets_a_glued_link_and_hashtag_apart():
    """Stored text written before the importer spaced it still renders apart."""
    html = social_text_html("https://t.co/Ab12#وسم")
    assert '</a></bdi> <bdi class="hashtag">#وسم</bdi>' in html


def test_a_listed_media_address_is_left_out_of_the_text():
    """pic.twitter.com/… is offered once, under the text, not in it as well."""
    html = social_text_html(
        "صورة اليوم pic.twitter.com/Zx9", ["https://pic.twitter.com/Zx9"]
    )
    assert "pic.twitter.com" not in html and html == "صورة اليوم"


def test_a_media_address_not_listed_stays_a_link():
    """A media address the post does not list is still a working link."""
    html = social_text_html("صورة pic.twitter.com/Zx9")
    assert 'href="https://pic.twitter.com/Zx9"' in html


# ---------------------------------------------------------------- the importer


def test_the_importer_stores_a_posts_text_with_its_tokens_apart():
    """Embed code read as text glued the words to the link and the hashtag."""
    (post,) = parse_story(sample(EMBED)).posts
    assert post.text == (
        "السوق القديم يستقبل زواره من جديد https://t.co/Mn4Bv5Cx6Z #السوق_القديم "
        "pic.twitter.com/Lk8Jh7Gf6D"
    )
    assert post.url == POST_URL


# ---------------------------------------------------------------- the public card


@pytest.mark.django_db
def test_a_card_links_to_the_post_its_embed_code_named(client, newsroom_sources):
    """The date link of X's embed code is the post's address: the card links it."""
    card = card_of(client, EMBED)
    assert f'class="social-card__original" href="{POST_URL}"' in card


@pytest.mark.django_db
def test_a_card_shows_links_and_hashtags_apart(client, newsroom_sources):
    """The copied post's t.co link and hashtag are two tokens with a space."""
    card = card_of(client, COPIED)
    assert 'Qw3rTy7UiO</a></bdi> <bdi class="hashtag">#جسر_الوادي</bdi>' in card


@pytest.mark.django_db
def test_a_card_offers_its_media_once(client, newsroom_sources):
    """The picture's address appears once: as the listed media, not in the text."""
    card = card_of(client, COPIED)
    assert card.count("pic.twitter.com/Zx9Cv8Bn7M") == 1
    assert 'href="https://pic.twitter.com/Zx9Cv8Bn7M"' in card
