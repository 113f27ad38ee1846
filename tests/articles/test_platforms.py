"""Each social platform is one entry of the registry, read by every part of the site."""

import pytest

from articles import platforms
from articles.models import Platform
from ingest.embeds import recognize_paste
from sources.models import SocialAccount


@pytest.mark.parametrize(
    ("url", "platform", "canonical", "handle"),
    [
        (
            "https://twitter.com/aawsat_News/status/1867",
            "x",
            "https://x.com/aawsat_News/status/1867",
            "aawsat_News",
        ),
        (
            "https://www.instagram.com/p/Cx1/?igsh=1",
            "instagram",
            "https://www.instagram.com/p/Cx1/",
            "",
        ),
        (
            "https://youtu.be/AbCdEfGhIjK",
            "youtube",
            "https://www.youtube.com/watch?v=AbCdEfGhIjK",
            "",
        ),
        (
            "https://www.tiktok.com/@city/video/72",
            "tiktok",
            "https://www.tiktok.com/@city/video/72",
            "city",
        ),
        ("https://t.me/s/channel/5", "telegram", "https://t.me/channel/5", "channel"),
        (
            "https://www.threads.net/@city.hall/post/C9x",
            "threads",
            "https://www.threads.net/@city.hall/post/C9x",
            "city.hall",
        ),
        (
            "https://bsky.app/profile/news.example/post/3k",
            "bluesky",
            "https://bsky.app/profile/news.example/post/3k",
            "news.example",
        ),
    ],
)
def test_a_post_url_is_read_by_its_platform_entry(url, platform, canonical, handle):
    """Each platform's entry reads its post URLs into one canonical form."""
    assert platforms.post_from_url(url) == platforms.PostRef(
        platform, canonical, handle
    )


def test_other_links_and_broken_hosts_are_not_posts():
    """A news site, a profile page and a malformed host are not posts."""
    for url in ("https://24.ae/article/1", "https://x.com/aawsat_News", "http://[::1"):
        assert platforms.post_from_url(url) is None


def test_model_choices_come_from_the_registry():
    """Posts and accounts offer exactly the registry's platforms, then "other"."""
    keys = [spec.key for spec in platforms.PLATFORMS] + ["other"]
    assert list(Platform.values) == keys
    assert [c[0] for c in SocialAccount._meta.get_field("platform").choices] == keys


def test_embed_code_of_a_newer_platform_is_recognized():
    """A Threads embed is read through its entry's class and permalink attribute."""
    code = (
        '<blockquote class="text-post-media" data-text-post-permalink='
        '"https://www.threads.net/@city.hall/post/C9x"><a href="https://www.threads.'
        'net/@city.hall/post/C9x">Roads reopen at noon</a></blockquote>'
        '<script async src="https://www.threads.net/embed.js"></script>'
    )
    post, problems = recognize_paste(code)
    assert (post.platform, post.handle, post.text) == (
        "threads",
        "city.hall",
        "Roads reopen at noon",
    )
    assert problems == []


def test_profile_address_comes_from_the_entry():
    """The card's profile link for a handle is the entry's template."""
    assert (
        platforms.BY_KEY["x"].profile_url("@aawsat_News") == "https://x.com/aawsat_News"
    )
