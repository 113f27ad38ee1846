"""Recognizing the parts of pasted stories, without the database."""

from datetime import date
from pathlib import Path

import pytest

from ingest.decode import text_from_bytes
from ingest.parse import parse_story

from .conftest import sample, sample_bytes


def parsed(name):
    text, _warnings = text_from_bytes(sample_bytes(name))
    return parse_story(text)


def test_headline_and_paragraphs_are_recognized():
    """The first line is the headline; blocks after it are paragraphs."""
    story = parsed("01_ar_afp_dateline.txt")
    assert story.headline.startswith("افتتاح أكبر مكتبة")
    assert len(story.paragraphs) == 3
    assert story.paragraph_lines == [3, 5, 7]
    assert story.language == "ar"


def test_agency_dateline_is_an_attribution_candidate():
    """ "دبي - (أ ف ب):" at the start of the story credits the agency."""
    story = parsed("01_ar_afp_dateline.txt")
    assert [(a.name, a.kind, a.line) for a in story.attributions] == [
        ("أ ف ب", "dateline", 3)
    ]


def test_two_x_posts_in_text_form_with_arabic_dates():
    """Both posts are found, with Arabic-Indic digits and a Levantine month."""
    story = parsed("02_ar_reuters_two_posts.txt")
    first, second = story.posts
    assert (first.handle, first.posted_at, first.position) == (
        "meteo_center",
        date(2024, 12, 12),
        2,
    )
    assert first.links == ["https://t.co/Ab12Cd34Ef"]
    assert first.hashtags == ["طقس", "تنبيه"]
    assert (second.handle, second.posted_at) == ("civil_defence", date(2024, 12, 3))
    assert second.media_urls == ["https://pic.twitter.com/Xy98Zt76"]
    assert len(story.paragraphs) == 4


def test_instagram_embed_and_youtube_url_become_posts():
    """Instagram embed code and a bare youtu.be link are posts at their places."""
    story = parsed("03_ar_instagram_youtube.txt")
    instagram, youtube = story.posts
    assert instagram.platform == "instagram"
    assert instagram.url == "https://www.instagram.com/p/C1aBcDeFgHi/"
    assert instagram.handle == "heritage_fest"
    assert instagram.posted_at == date(2024, 11, 20)
    assert instagram.text == "قوارب تقليدية في افتتاح المهرجان #تراث_بحري"
    assert youtube.url == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    assert (instagram.position, youtube.position) == (1, 2)


def test_english_story_with_kicker_embed_and_source_line():
    """An English story keeps its kicker, its X embed and both credits."""
    story = parsed("04_en_story.txt")
    assert story.language == "en"
    assert story.kicker == "Exclusive"
    assert story.headline.startswith("City opens")
    (post,) = story.posts
    assert post.url == "https://x.com/city_transport/status/1234567890123456789"
    assert post.author_name == "City Transport"
    assert post.posted_at == date(2024, 3, 4)
    assert post.media_urls == ["https://pic.twitter.com/PicLink1"]
    assert [a.name for a in story.attributions] == ["Reuters", "The National"]


def test_story_without_attribution_has_none_and_hashtag_line_is_tags():
    """No credit line means no candidates; a line of hashtags becomes tags."""
    story = parsed("05_ar_kicker_no_attribution.txt")
    assert story.attributions == []
    assert story.kicker == "عاجل"
    assert story.tags == ["كهرباء", "صيانة"]
    assert len(story.paragraphs) == 2


def test_hostile_embed_keeps_no_script_and_reports_it():
    """Scripts, event handlers and javascript: links are dropped and named."""
    story = parsed("07_ar_hostile_embed.txt")
    everything = repr([story.paragraphs, story.posts])
    for bad in ("<script", "alert(", "onerror", "javascript:", "cookie"):
        assert bad not in everything
    messages = " ".join(p.message for p in story.problems)
    assert "script" in messages and "onerror" in messages and "javascript:" in messages
    assert story.posts[0].handle == "unknown_acc"


def test_bom_crlf_and_trailing_spaces_are_cleaned():
    """A BOM, Windows line ends and trailing junk do not reach the story."""
    story = parsed("08_ar_bom_crlf.txt")
    assert story.headline == "سوق جديد للمزارعين يفتح أبوابه كل جمعة"
    assert len(story.paragraphs) == 2
    assert story.attributions[0].url == "https://www.24.ae/article/12345"


def test_windows_1256_file_is_converted_with_a_warning():
    """Arabic saved by old Windows set-ups is read, and the editor is told."""
    text, warnings = text_from_bytes(sample_bytes("09_ar_windows1256.txt"))
    assert parse_story(text).headline == "معرض للكتاب المستعمل في الساحة العامة"
    assert "Windows-1256" in warnings[0].message


def test_tiktok_telegram_and_agencies_line():
    """TikTok and Telegram embeds, a t.me link and "وكالات" are recognized."""
    story = parsed("10_ar_tiktok_telegram_agencies.txt")
    assert [(p.platform, p.handle) for p in story.posts] == [
        ("tiktok", "nature_watch"),
        ("telegram", "wildlife_news"),
        ("telegram", "wildlife_news"),
    ]
    assert story.posts[0].text == "طائر نادر يظهر للمرة الأولى منذ سنوات #طبيعة"
    assert story.attributions[0].name == "وكالات"


def test_facebook_iframe_becomes_a_facebook_post():
    """The post URL is read out of the plugin iframe's href parameter."""
    story = parsed("11_ar_facebook_unknown_source.txt")
    assert story.posts[0].platform == "facebook"
    assert story.posts[0].url.endswith("/citymunicipality/posts/pfbid02abc123")


def test_impossible_date_is_an_error_with_its_line():
    """February 30 is refused, naming the date and the line."""
    story = parsed("12_en_impossible_date.txt")
    (problem,) = [p for p in story.problems if p.is_error]
    assert problem.line == 7
    assert "February 30, 2024" in problem.message


def test_unknown_embed_becomes_a_link_card():
    """An embed the importer does not know is kept as a link card, with a warning."""
    story = parsed("14_en_unknown_embed.txt")
    (card,) = story.posts
    assert card.link_card and card.platform == "other"
    assert card.url.startswith("https://player.vimeo.com/video/123456789")
    assert any("link card" in p.message for p in story.problems)
    assert [(a.name, a.role) for a in story.attributions] == [
        ("AFP", "via"),
        ("Reuters", "via"),
    ]


def test_html_page_is_read_for_headline_paragraphs_and_embeds():
    """An uploaded .html page gives its h1, paragraphs, tweet and credit."""
    story = parsed("15_en_page.html")
    assert story.headline == "New harbour ferry cuts crossing time in half"
    assert len(story.paragraphs) == 2
    assert story.posts[0].handle == "harbour_ferries"
    assert story.attributions[0].name == "Reuters"
    assert "tracker" not in repr(story)


def test_headline_only_is_an_error():
    """A story needs paragraphs after its headline."""
    story = parse_story("عنوان وحده")
    assert any(p.is_error and "no paragraphs" in p.message for p in story.problems)


def _seed_file() -> Path | None:
    here = Path(__file__).resolve()
    for folder in (
        here.parents[2] / ".." / "shared" / "seed",
        Path("/work/shared/seed"),
    ):
        found = sorted(folder.glob("*.txt")) if folder.is_dir() else []
        if found:
            return found[0]
    return None


SEED = _seed_file()


@pytest.mark.skipif(SEED is None, reason="the shared seed story is not present")
def test_seed_story_is_recognized():
    """The reference story: headline, 8 paragraphs, the X post and its credit."""
    text, _warnings = text_from_bytes(SEED.read_bytes())
    story = parse_story(text)
    assert story.headline.startswith("مهرّب أرشيف التعذيب السوري")
    assert len(story.paragraphs) == 8
    (post,) = story.posts
    assert (post.handle, post.author_name) == ("aawsat_News", "صحيفة الشرق الأوسط")
    assert post.posted_at == date(2024, 12, 12)
    assert post.links == ["https://t.co/8cUb28HP1K"]
    assert post.media_urls == ["https://pic.twitter.com/kLAWsxPnlJ"]
    assert post.hashtags == ["عاجل", "خاص_الشرق_الأوسط", "صحيفة_العرب_الأولى"]
    assert post.position == 7
    assert [a.name for a in story.attributions] == ["موقع 24"]
    assert not [p for p in story.problems if p.is_error]


def test_sample_text_helper_reads_utf8():
    """The samples are UTF-8 except the deliberately Windows-1256 one."""
    assert sample("01_ar_afp_dateline.txt").startswith("افتتاح")


def test_text_after_an_embed_in_a_page_is_read_once():
    """The words between an embed and the next paragraph appear once, in order."""
    page = (
        "<html><body><h1>Roads reopen in the north</h1><p>Crews worked all night.</p>"
        '<blockquote class="twitter-tweet"><p>Open now</p>&mdash; City (@city) '
        '<a href="https://twitter.com/city/status/9">May 2, 2024</a></blockquote>'
        "More crews arrive today.<p>Traffic is light.</p></body></html>"
    )
    story = parse_story(page)
    assert story.paragraphs == [
        "Crews worked all night.",
        "More crews arrive today.",
        "Traffic is light.",
    ]
    assert [post.handle for post in story.posts] == ["city"]
