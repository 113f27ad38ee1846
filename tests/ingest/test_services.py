"""Importing stories as drafts: matching, writing, refusing and exporting."""

import pytest
from django.utils import translation

from articles.body import embed_reference, split_blocks
from articles.models import Article, SocialPost, Status
from ingest.decode import text_from_bytes
from ingest.problems import StoryImportError
from ingest.result import Confirmation
from ingest.services import story_export, story_import, story_recognize
from sources.models import Attribution, Source
from tests.factories import SuperuserFactory

from .conftest import sample_bytes
from .test_parse import SEED

pytestmark = pytest.mark.django_db


def chief():
    """The editor who imports (a superuser, as the admin tests log in)."""
    return SuperuserFactory(username="chief")


def text_of(name):
    return text_from_bytes(sample_bytes(name))[0]


def test_import_creates_a_draft_with_posts_and_credits(newsroom_sources):
    """The draft has its headline, body, posts, matched credit and tags."""
    result = story_import(by=chief(), text=text_of("02_ar_reuters_two_posts.txt"))
    article = result.article
    assert article.status == Status.DRAFT and article.published_at is None
    assert article.headline_ar.startswith("أمطار غزيرة")
    assert article.body_ar.count("<p>") == 4
    posts = list(article.social_posts.all())
    assert [p.handle for p in posts] == ["meteo_center", "civil_defence"]
    blocks = split_blocks(article.body_ar)
    placed = {i: embed_reference(b) for i, b in enumerate(blocks) if embed_reference(b)}
    # After the second paragraph, and after the third (the first post counts too).
    assert placed == {2: ("post", posts[0].pk), 4: ("post", posts[1].pk)}
    # Only the day is known: no time of day is invented for it.
    assert posts[0].posted_on.isoformat() == "2024-12-12" and posts[0].posted_at is None
    assert [a.source for a in article.attributions.all()] == [
        newsroom_sources["reuters"]
    ]
    # The posts' hashtags stay on the posts; the article gets no tag unconfirmed.
    assert [p.hashtags for p in posts][0] == ["طقس", "تنبيه"]
    assert list(article.tags.names()) == []


def test_english_story_goes_in_the_english_fields(newsroom_sources):
    """An English story fills headline_en/body_en and is marked English."""
    article = story_import(by=chief(), text=text_of("04_en_story.txt")).article
    assert article.language == "en"
    assert article.headline_en.startswith("City opens")
    assert article.kicker_en == "Exclusive"
    assert not article.headline_ar
    assert {a.source.name_en for a in article.attributions.all()} == {
        "Reuters",
        "The National",
    }


def test_agency_alias_matches_with_normalization(newsroom_sources):
    """ "أ ف ب" in the dateline is AFP, found by its alias."""
    result = story_recognize(text=text_of("01_ar_afp_dateline.txt"))
    (match,) = result.sources
    assert match.source == newsroom_sources["afp"]
    assert match.how == "alias"


def test_generic_word_is_ignored_and_alias_wam_matches(newsroom_sources):
    """ "المصدر: وام" credits the Emirates News Agency."""
    result = story_recognize(text=text_of("03_ar_instagram_youtube.txt"))
    assert result.sources[0].source == newsroom_sources["wam"]


def test_source_url_matches_by_domain(newsroom_sources):
    """ "Source: https://www.24.ae/…" credits the outlet that owns the domain."""
    result = story_import(by=chief(), text=text_of("08_ar_bom_crlf.txt"))
    (attribution,) = result.article.attributions.all()
    assert attribution.source == newsroom_sources["24"]
    assert attribution.original_url == "https://www.24.ae/article/12345"


def test_the_originals_date_on_its_credit_line_is_kept(newsroom_sources):
    """ "المصدر: وام، 12 ديسمبر 2024": the date is when the original appeared (it
    goes into the story's NewsArticle data), not a second outlet."""
    text = (
        "افتتاح معرض الكتاب في موعده\n\nافتتح المعرض أبوابه صباح اليوم للزوار.\n\n"
        "المصدر: وام، 12 ديسمبر 2024"
    )
    result = story_import(by=chief(), text=text)
    (attribution,) = result.article.attributions.all()
    assert attribution.source == newsroom_sources["wam"]
    assert attribution.original_published_on.isoformat() == "2024-12-12"
    assert not result.unknown_sources


def test_unknown_source_is_proposed_not_created_and_kept_in_the_body(newsroom_sources):
    """An unknown outlet is reported, never created, and its line stays in the copy."""
    sources_before = Source.objects.count()
    result = story_import(by=chief(), text=text_of("11_ar_facebook_unknown_source.txt"))
    assert [m.candidate.name for m in result.unknown_sources] == ["صحيفة الغد المسائية"]
    assert Source.objects.count() == sources_before
    assert not result.article.attributions.exists()
    assert "المصدر: صحيفة الغد المسائية" in result.article.body_ar
    assert any("Unknown source" in p.message and p.line == 9 for p in result.warnings)


def test_confirmed_unknown_source_is_created_and_credited(newsroom_sources):
    """When the editor confirms it, the unknown outlet is created and credited."""
    result = story_import(
        by=chief(),
        text=text_of("11_ar_facebook_unknown_source.txt"),
        confirm_sources=["صحيفة الغد المسائية"],
    )
    (attribution,) = result.article.attributions.all()
    assert attribution.source.name_ar == "صحيفة الغد المسائية"
    assert "المصدر" not in result.article.body_ar


def test_people_are_found_through_clitics(newsroom_sources, newsroom_people):
    """ "وبشار الأسد", "لقيصر" and "للأسد" find the people, with the names used."""
    with translation.override("en"):
        result = story_import(by=chief(), text=text_of("06_ar_clitic_names.txt"))
    links = {
        link.person_id: link.name_used for link in result.article.people_named.all()
    }
    assert links == {
        newsroom_people["assad"].pk: "بشار الأسد",
        newsroom_people["caesar"].pk: "قيصر",
        newsroom_people["sami"].pk: "سامي",
    }
    caesar = next(m for m in result.people if m.person == newsroom_people["caesar"])
    assert caesar.how == "public name (after a prefix)"
    assert caesar.lines == [3, 5]


def test_protected_legal_name_refuses_the_import_saying_nothing_of_where(
    newsroom_people,
):
    """A protected legal name stops the import with one loud alert naming neither
    the name nor its line nor the kind of place (either would say which of many
    pasted names is protected); nothing is created."""
    with pytest.raises(StoryImportError) as refused:
        story_import(by=chief(), text=text_of("13_ar_protected_leak.txt"))
    (alert,) = refused.value.result.alerts
    assert alert.line is None
    assert "PROTECTED IDENTITY" in alert.message
    assert "paragraphs" not in alert.message
    assert "يوسف المنصوري" not in alert.message
    assert not Article.objects.exists()


def test_failure_creates_nothing():
    """An input with an error leaves no article, post or credit behind."""
    with pytest.raises(StoryImportError) as caught:
        story_import(by=chief(), text=text_of("12_en_impossible_date.txt"))
    assert caught.value.errors[0].line == 7
    assert Article.objects.count() == 0
    assert SocialPost.objects.count() == 0


def test_failure_inside_the_transaction_rolls_everything_back(monkeypatch):
    """If saving a later row fails, the article saved before it is undone too."""

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(SocialPost, "save", broken)
    with pytest.raises(StoryImportError) as caught:
        story_import(by=chief(), text=text_of("02_ar_reuters_two_posts.txt"))
    assert "nothing was saved" in str(caught.value)
    assert Article.objects.count() == 0


def test_same_story_twice_is_refused_naming_the_first():
    """A second import of the same story is refused unless asked for."""
    first = story_import(
        by=chief(), text=text_of("05_ar_kicker_no_attribution.txt")
    ).article
    with pytest.raises(StoryImportError) as caught:
        story_import(by=chief(), text=text_of("05_ar_kicker_no_attribution.txt"))
    assert f"#{first.pk}" in str(caught.value)
    again = story_import(
        by=chief(),
        text=text_of("05_ar_kicker_no_attribution.txt"),
        allow_duplicate=True,
    )
    assert again.article.pk != first.pk


def test_dry_run_writes_nothing(newsroom_sources):
    """A dry run recognizes everything and saves nothing."""
    result = story_import(
        by=chief(), text=text_of("02_ar_reuters_two_posts.txt"), dry_run=True
    )
    assert result.article is None and len(result.story.posts) == 2
    assert Article.objects.count() == 0 and Attribution.objects.count() == 0


def test_hostile_input_stores_no_script():
    """Nothing executable from pasted embed code reaches the database."""
    article = story_import(by=chief(), text=text_of("07_ar_hostile_embed.txt")).article
    stored = article.body_ar + repr(list(article.social_posts.values()))
    for bad in ("<script", "alert(", "onerror", "javascript:"):
        assert bad not in stored


@pytest.mark.parametrize(
    "name",
    [
        "02_ar_reuters_two_posts.txt",
        "03_ar_instagram_youtube.txt",
        "04_en_story.txt",
        "05_ar_kicker_no_attribution.txt",
        "06_ar_clitic_names.txt",
    ],
)
def test_export_then_import_gives_back_the_same_parts(
    name, newsroom_sources, newsroom_people
):
    """Exported text, imported again, has the same headline, body, posts and credits."""
    preview = story_import(by=chief(), text=text_of(name), dry_run=True)
    first = story_import(
        by=chief(), text=text_of(name), confirmation=Confirmation.everything(preview)
    )
    text = story_export(article=first.article)
    again = story_recognize(text=text, allow_duplicate=True)
    assert not again.errors, again.errors
    one, two = first.story, again.story
    assert (two.headline, two.kicker, two.language) == (
        one.headline,
        one.kicker,
        one.language,
    )
    assert two.paragraphs == one.paragraphs
    keys = ("platform", "url", "handle", "posted_at", "text", "position", "links")
    assert [[getattr(p, k) for k in keys] for p in two.posts] == [
        [getattr(p, k) for k in keys] for p in one.posts
    ]
    assert [m.source for m in again.sources if m.matched] == [
        m.source for m in first.sources if m.matched
    ]
    assert sorted(two.tags) == sorted(one.tags)


def test_export_writes_the_seed_shape(newsroom_sources):
    """The export has the headline, a blank line, the post signature and the credit."""
    article = story_import(
        by=chief(), text=text_of("02_ar_reuters_two_posts.txt")
    ).article
    text = story_export(article=article)
    assert text.startswith("أمطار غزيرة تغلق طرقاً رئيسية في عدة مدن\n\n")
    assert "— المركز الوطني للأرصاد (@meteo_center) December 12, 2024" in text
    assert text.rstrip().endswith("المصدر: رويترز")


@pytest.mark.skipif(SEED is None, reason="the shared seed story is not present")
def test_seed_story_imports_with_people_and_credit(newsroom_sources, newsroom_people):
    """The reference story credits موقع 24 and names its people, pseudonym kept."""
    text, _warnings = text_from_bytes(SEED.read_bytes())
    result = story_import(by=chief(), text=text)
    assert [a.source for a in result.article.attributions.all()] == [
        newsroom_sources["24"]
    ]
    named = {m.person.pk: m.name_used for m in result.people}
    assert named[newsroom_people["caesar"].pk] == "قيصر"
    assert named[newsroom_people["assad"].pk] == "بشار الأسد"
    assert newsroom_people["sami"].pk in named
    assert not result.alerts
    assert result.article.social_posts.get().handle == "aawsat_News"


def test_a_post_without_a_handle_keeps_its_author_through_export(newsroom_sources):
    """A Facebook page's post (no handle) comes back with its author and day."""
    text = (
        "بلدية المدينة تفتح حديقة جديدة\n\n"
        "افتتحت البلدية صباح اليوم حديقة عامة في الحي الشرقي.\n\n"
        '<div class="fb-post" data-href="https://www.facebook.com/permalink.php?'
        'story_fbid=1&id=2"><blockquote><p>الحديقة مفتوحة للجميع</p>'
        '<time datetime="2024-05-02">2 May</time></blockquote></div>'
    )
    editor = chief()
    article = story_import(by=editor, text=text).article
    post = article.social_posts.get()
    post.author_name, post.handle = "بلدية المدينة", ""
    post.save()
    again = story_recognize(text=story_export(article=article), allow_duplicate=True)
    (back,) = again.story.posts
    assert (back.author_name, back.handle, back.url) == (
        "بلدية المدينة",
        "",
        post.url,
    )
    assert back.posted_at.isoformat() == "2024-05-02"


def test_a_cited_source_is_exported_and_read_back_as_cited(newsroom_sources):
    """ "بحسب: رويترز" is how a cited source leaves and comes back."""
    sample_text = text_of("05_ar_kicker_no_attribution.txt")
    article = story_import(by=chief(), text=sample_text).article
    Attribution.objects.create(
        article=article, source=newsroom_sources["reuters"], role="cited"
    )
    text = story_export(article=article)
    assert text.rstrip().endswith("بحسب: رويترز")
    again = story_recognize(text=text, allow_duplicate=True)
    assert [(m.source, m.candidate.role) for m in again.sources] == [
        (newsroom_sources["reuters"], "cited")
    ]
