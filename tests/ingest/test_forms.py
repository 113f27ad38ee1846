"""Pasting a post into the social-post inline fills its fields."""

import pytest

from ingest.forms import SocialPostPasteForm

pytestmark = pytest.mark.django_db

TWEET = (
    '<blockquote class="twitter-tweet"><p lang="ar" dir="rtl">افتتاح الجسر الجديد '
    '<a href="https://t.co/Br1dge">https://t.co/Br1dge</a> #جسر</p>'
    "&mdash; بلدية المدينة "
    '(@city_hall) <a href="https://twitter.com/city_hall/status/1700000000000000000">'
    "September 14, 2023</a></blockquote> "
    '<script async src="https://platform.twitter.com/widgets.js"></script>'
)
INSTAGRAM = (
    '<blockquote class="instagram-media" data-instgrm-permalink='
    '"https://www.instagram.com/reel/C9xYz12AbCd/?utm_source=ig_embed"><div>'
    "<p>A post shared by Desert Café (@desert_cafe)</p></div></blockquote>"
    '<script async src="//www.instagram.com/embed.js"></script>'
)


def filled(paste):
    form = SocialPostPasteForm(data={"paste": paste, "platform": "x"})
    assert form.is_valid(), form.errors
    return form.instance


def test_tweet_embed_fills_the_fields():
    """The tweet's URL, author, handle, date, text, links and tags are filled."""
    post = filled(TWEET)
    assert post.url == "https://x.com/city_hall/status/1700000000000000000"
    assert (post.author_name, post.handle) == ("بلدية المدينة", "city_hall")
    assert post.posted_on.year == 2023 and post.posted_at is None
    assert post.text.startswith("افتتاح الجسر")
    assert post.links == ["https://t.co/Br1dge"] and post.hashtags == ["جسر"]
    assert "script" not in post.text


def test_youtube_url_fills_platform_and_url():
    """A youtu.be link becomes a YouTube post with its watch URL."""
    post = filled("https://youtu.be/dQw4w9WgXcQ?t=42")
    assert post.platform == "youtube"
    assert post.url == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"


def test_instagram_embed_fills_platform_handle_and_url():
    """Instagram embed code gives the reel's URL, author and handle."""
    post = filled(INSTAGRAM)
    assert post.platform == "instagram"
    assert post.url == "https://www.instagram.com/reel/C9xYz12AbCd/"
    assert (post.author_name, post.handle) == ("Desert Café", "desert_cafe")


def test_unrecognized_paste_is_a_field_error():
    """Text that holds no post is refused on the paste field."""
    form = SocialPostPasteForm(
        data={"paste": "just words", "platform": "x", "position": 0}
    )
    assert not form.is_valid()
    assert "paste" in form.errors


def test_saving_the_form_stores_the_pasted_post():
    """The filled instance saves with the article the inline gives it."""
    from tests.factories import DraftArticleFactory

    form = SocialPostPasteForm(data={"paste": TWEET, "platform": "x"})
    assert form.is_valid(), form.errors
    form.instance.article = DraftArticleFactory()
    post = form.save()
    post.refresh_from_db()
    assert post.handle == "city_hall"
