"""The public article pages: editions, addresses, lists and the article page."""

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone, translation

from articles.models import Article, Correction
from articles.services import correction_add
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    CorrectionFactory,
    DraftArticleFactory,
    ImageFactory,
    PersonFactory,
    SectionFactory,
    SocialPostFactory,
    SuperuserFactory,
)

pytestmark = pytest.mark.django_db


def url_in(language: str, obj) -> str:
    with translation.override(language):
        return obj.get_absolute_url()


def article_element(html: str) -> str:
    return re.search(r'<article class="article"[^>]*>', html).group(0)


def test_arabic_pages_are_right_to_left(client):
    """The Arabic edition declares lang="ar" dir="rtl" on <html>."""
    response = client.get("/ar/")
    assert '<html lang="ar" dir="rtl">' in response.content.decode()


def test_english_pages_are_left_to_right(client):
    """The English edition declares lang="en" dir="ltr" on <html>."""
    response = client.get("/en/")
    assert '<html lang="en" dir="ltr">' in response.content.decode()


def test_article_page_shows_a_published_article(client):
    """A published article is shown with its headline and summary."""
    article = ArticleFactory(
        headline_ar="وصول قافلة المساعدات", summary_ar="ملخص الخبر"
    )
    response = client.get(url_in("ar", article))
    assert response.status_code == 200
    assert "وصول قافلة المساعدات" in response.content.decode()
    assert "ملخص الخبر" in response.content.decode()


def test_draft_article_is_not_found(client):
    """A draft has no public page."""
    article = DraftArticleFactory()
    assert client.get(url_in("ar", article)).status_code == 404


def test_future_article_is_not_found(client):
    """An article scheduled for later has no public page yet."""
    article = ArticleFactory(published_at=timezone.now() + timedelta(hours=2))
    assert client.get(url_in("ar", article)).status_code == 404


def test_wrong_slug_redirects_permanently_to_the_canonical_url(client):
    """An old or mistyped slug 301-redirects to the article's current address."""
    article = ArticleFactory()
    response = client.get(f"/ar/news/{article.pk}/old-slug/")
    assert response.status_code == 301
    assert response["Location"] == url_in("ar", article)


def test_short_url_redirects_to_the_canonical_url(client):
    """/ar/news/<id>/ 301-redirects to the address with the slug."""
    article = ArticleFactory()
    response = client.get(f"/ar/news/{article.pk}/")
    assert response.status_code == 301
    assert response["Location"] == url_in("ar", article)


def test_english_redirect_uses_the_english_slug(client):
    """The English edition redirects to the English slug when there is one."""
    article = ArticleFactory(headline_en="Aid convoy arrives")
    response = client.get(f"/en/news/{article.pk}/")
    assert response["Location"] == f"/en/news/{article.pk}/aid-convoy-arrives/"


def test_untranslated_article_falls_back_to_arabic_marked_as_arabic(client):
    """An Arabic-only story in the English edition is shown in Arabic, marked rtl."""
    article = ArticleFactory(headline_ar="خبر بالعربية فقط", headline_en="")
    response = client.get(url_in("en", article))
    html = response.content.decode()
    assert response.status_code == 200
    assert "خبر بالعربية فقط" in html
    assert 'lang="ar" dir="rtl"' in article_element(html)
    assert '<html lang="en" dir="ltr">' in html
    assert 'class="notice"' in html


def test_translated_article_is_shown_in_english(client):
    """A translated story in the English edition is marked English and has no notice."""
    article = ArticleFactory(
        headline_en="Aid convoy arrives", body_en="<p>English body</p>"
    )
    html = client.get(url_in("en", article)).content.decode()
    assert 'lang="en" dir="ltr"' in article_element(html)
    assert "English body" in html
    assert 'class="notice"' not in html


def test_language_switch_links_to_the_same_article(client):
    """The language switch points at this article in the other edition."""
    article = ArticleFactory(headline_en="Aid convoy arrives")
    html = client.get(url_in("ar", article)).content.decode()
    assert f'href="/en/news/{article.pk}/aid-convoy-arrives/" hreflang="en"' in html


def test_language_switch_keeps_the_page_on_lists(client):
    """On a section page the switch points at the same section in English."""
    section = SectionFactory()
    html = client.get(f"/ar/section/{section.slug}/").content.decode()
    assert f'href="/en/section/{section.slug}/" hreflang="en"' in html


def test_english_home_lists_only_articles_with_an_english_headline(client):
    """The English home page leaves out stories that have no English headline."""
    ArticleFactory(headline_ar="عربي فقط", headline_en="")
    ArticleFactory(headline_en="In English too")
    html = client.get("/en/").content.decode()
    assert "In English too" in html
    assert "عربي فقط" not in html


def test_home_lists_only_published_articles(client):
    """Drafts and scheduled stories stay off the home page."""
    ArticleFactory(headline_ar="منشور")
    DraftArticleFactory(headline_ar="مسودة")
    ArticleFactory(headline_ar="مجدول", published_at=timezone.now() + timedelta(days=1))
    html = client.get("/ar/").content.decode()
    assert "منشور" in html
    assert "مسودة" not in html
    assert "مجدول" not in html


def test_home_puts_breaking_news_first(client):
    """A breaking story comes before newer ordinary stories."""
    breaking = ArticleFactory(
        is_breaking=True, published_at=timezone.now() - timedelta(hours=3)
    )
    ArticleFactory(published_at=timezone.now() - timedelta(minutes=5))
    response = client.get("/ar/")
    assert list(response.context["articles"])[0] == breaking


def test_home_is_paginated(client):
    """Lists show 20 articles a page; the rest are on the next page."""
    ArticleFactory.create_batch(21)
    assert len(client.get("/ar/").context["articles"]) == 20
    assert len(client.get("/ar/?page=2").context["articles"]) == 1


def test_section_page_lists_its_articles(client):
    """A section page lists that section's articles and no others."""
    section = SectionFactory()
    ArticleFactory(section=section, headline_ar="في القسم")
    ArticleFactory(headline_ar="في قسم آخر")
    html = client.get(f"/ar/section/{section.slug}/").content.decode()
    assert "في القسم" in html
    assert "في قسم آخر" not in html


def test_unknown_section_is_not_found(client):
    """A section slug that does not exist gives 404."""
    assert client.get("/ar/section/no-such-section/").status_code == 404


def test_tag_page_lists_tagged_articles(client):
    """A tag page (Arabic slug included) lists the articles with that tag."""
    tagged = ArticleFactory(headline_ar="موسوم")
    tagged.tags.add("سوريا")
    ArticleFactory(headline_ar="غير موسوم")
    html = client.get("/ar/tag/سوريا/").content.decode()
    assert "موسوم" in html
    assert "غير موسوم" not in html


def test_unknown_tag_is_not_found(client):
    """A tag slug that does not exist gives 404."""
    assert client.get("/ar/tag/no-such-tag/").status_code == 404


def test_person_page_lists_their_articles(client):
    """A person page lists the published stories that name the person."""
    person = PersonFactory(name="سامي الحلبي")
    ArticlePersonFactory(person=person, article=ArticleFactory(headline_ar="خبر يذكره"))
    ArticlePersonFactory(
        person=person, article=DraftArticleFactory(headline_ar="مسودة تذكره")
    )
    ArticleFactory(headline_ar="خبر لا يذكره")
    html = client.get(url_in("ar", person)).content.decode()
    assert "سامي الحلبي" in html
    assert "خبر يذكره" in html
    assert "مسودة تذكره" not in html
    assert "خبر لا يذكره" not in html


def test_person_page_with_a_wrong_slug_redirects(client):
    """A person URL with the wrong slug 301-redirects to the right one."""
    person = PersonFactory()
    response = client.get(f"/ar/people/{person.pk}/wrong/")
    assert response.status_code == 301
    assert response["Location"] == url_in("ar", person)


def test_person_named_only_in_drafts_has_no_page(client):
    """A person named in no published story has no public page yet."""
    person = PersonFactory()
    ArticlePersonFactory(article=DraftArticleFactory(), person=person)
    assert client.get(url_in("ar", person)).status_code == 404


def test_tag_used_only_on_drafts_has_no_page(client):
    """A tag page does not reveal a story that is still a draft."""
    DraftArticleFactory().tags.add("سبق صحفي")
    assert client.get("/ar/tag/سبق-صحفي/").status_code == 404


def test_article_page_lists_bylines(client):
    """Each byline's display name is shown."""
    article = ArticleFactory()
    BylineFactory(article=article, name="ليلى حسن")
    assert "ليلى حسن" in client.get(url_in("ar", article)).content.decode()


def test_article_date_uses_arabic_month_names(client):
    """The Arabic article page gives weekday, Gregorian and Hijri dates in a <time>."""
    article = ArticleFactory(published_at=datetime(2024, 5, 14, 10, tzinfo=UTC))
    html = client.get(url_in("ar", article)).content.decode()
    assert (
        '<time datetime="2024-05-14T10:00:00+00:00">'
        "<bdi>الثلاثاء 14 مايو 2024 — 6 ذو القعدة 1445</bdi></time>" in html
    )


DAYS_AGO = datetime(2024, 5, 14, 10, tzinfo=UTC)


def test_breaking_article_shows_the_badge(client):
    """A breaking story carries the breaking (عاجل) badge; an ordinary one does not."""
    breaking = ArticleFactory(is_breaking=True, published_at=DAYS_AGO)
    ordinary = ArticleFactory()
    # Days old: the breaking-news banner (which has a badge too) has gone by then.
    assert "badge--breaking" in client.get(url_in("ar", breaking)).content.decode()
    assert "badge--breaking" not in client.get(url_in("ar", ordinary)).content.decode()


def test_graphic_hero_image_is_left_out_of_lists(client):
    """A graphic image is not shown unblurred in a list of teasers."""
    ArticleFactory(hero_image=ImageFactory(is_graphic=True))
    assert "teaser__image" not in client.get("/ar/").content.decode()


def story_with_post(body: str, **post_fields):
    """A published story whose body places one post where `body` says {post}."""
    article = ArticleFactory(body_ar="<p>-</p>")
    post = SocialPostFactory(article=article, **post_fields)
    article.body_ar = body.format(post=f'<figure data-post="{post.pk}"></figure>')
    article.save()
    return article, post


def test_social_post_is_shown_where_the_body_places_it(client):
    """A post placed between two paragraphs is shown between them."""
    article, _post = story_with_post(
        "<p>الأولى</p>{post}<p>الثانية</p>", handle="gaza_now"
    )
    html = client.get(url_in("ar", article)).content.decode()
    assert html.index("الأولى") < html.index("@gaza_now") < html.index("الثانية")


def test_social_post_placed_first_comes_before_the_first_paragraph(client):
    """A post placed at the top of the body comes before the first paragraph."""
    article, _post = story_with_post("{post}<p>الأولى</p>", handle="first_post")
    html = client.get(url_in("ar", article)).content.decode()
    assert html.index("@first_post") < html.index("الأولى")


def test_social_post_the_body_does_not_place_follows_the_body(client):
    """A post of the story that the body does not place is shown after the body."""
    article = ArticleFactory(body_ar="<p>الأولى</p>")
    SocialPostFactory(article=article, handle="late_post")
    html = client.get(url_in("ar", article)).content.decode()
    assert html.index("الأولى") < html.index("@late_post")


def test_a_place_whose_post_is_gone_shows_nothing(client):
    """A body that places a post which no longer exists shows only its text."""
    article, post = story_with_post("<p>الأولى</p>{post}", handle="gone_post")
    post.delete()
    response = client.get(url_in("ar", article))
    assert response.status_code == 200
    assert "gone_post" not in response.content.decode()
    assert "<figure data-post" not in response.content.decode()


def test_a_post_of_another_story_is_not_shown(client):
    """A body cannot show a post that belongs to a different story."""
    other = SocialPostFactory(handle="someone_elses")
    article = ArticleFactory(
        body_ar=f'<p>الأولى</p><figure data-post="{other.pk}"></figure>'
    )
    html = client.get(url_in("ar", article)).content.decode()
    assert "someone_elses" not in html


def test_social_card_links_are_nofollow_and_media_is_not_hotlinked(client):
    """Links in a post are clickable with rel=nofollow; media are links, not images."""
    article = ArticleFactory()
    SocialPostFactory(
        article=article,
        text="انظر https://example.org/report",
        url="https://x.com/news_account/status/1",
        media_urls=["https://pbs.twimg.com/media/abc.jpg"],
    )
    html = client.get(url_in("ar", article)).content.decode()
    assert (
        '<a href="https://example.org/report" rel="nofollow noopener noreferrer">'
        in html
    )
    assert 'href="https://x.com/news_account/status/1"' in html
    assert 'href="https://pbs.twimg.com/media/abc.jpg"' in html
    assert '<img src="https://pbs.twimg.com' not in html


def test_social_card_handle_is_isolated(client):
    """The @handle is wrapped in <bdi> so it does not scramble the Arabic around it."""
    article = ArticleFactory()
    SocialPostFactory(article=article, handle="news_account")
    html = client.get(url_in("ar", article)).content.decode()
    assert re.search(r"<bdi[^>]*>@news_account</bdi>", html)


def test_social_card_keeps_line_breaks(client):
    """Line breaks in a post's text are kept."""
    article = ArticleFactory()
    SocialPostFactory(article=article, text="السطر الأول\nالسطر الثاني")
    html = client.get(url_in("ar", article)).content.decode()
    assert "السطر الأول<br>السطر الثاني" in html


def test_people_link_to_their_pages(client):
    """People named in a story link to their person pages."""
    article = ArticleFactory()
    person = PersonFactory(name="سامي الحلبي")
    ArticlePersonFactory(article=article, person=person)
    html = client.get(url_in("ar", article)).content.decode()
    assert f'href="{url_in("ar", person)}"' in html
    assert "سامي الحلبي" in html


def test_tags_link_to_tag_pages(client):
    """Each tag links to its tag page."""
    article = ArticleFactory()
    article.tags.add("Syria")
    html = client.get(url_in("ar", article)).content.decode()
    assert 'href="/ar/tag/syria/"' in html


def test_attribution_links_to_the_source_page_and_original(client):
    """The attribution names the source, links its page and the original article."""
    article = ArticleFactory()
    attribution = AttributionFactory(
        article=article,
        source__name_ar="موقع 24",
        original_url="https://24.ae/article/1",
    )
    html = client.get(url_in("ar", article)).content.decode()
    assert f'<a href="{url_in("ar", attribution.source)}">موقع 24</a>' in html
    assert 'href="https://24.ae/article/1" rel="nofollow noopener noreferrer"' in html


def test_canonical_link_is_our_own_url_by_default(client):
    """Without a canonical attribution, the canonical link is the article's own URL."""
    article = ArticleFactory()
    AttributionFactory(article=article, original_url="https://24.ae/article/1")
    html = client.get(url_in("ar", article)).content.decode()
    expected = f"http://testserver{url_in('ar', article)}"
    assert f'<link rel="canonical" href="{expected}">' in html


def test_canonical_link_points_at_the_original_when_the_attribution_says_so(client):
    """A canonical attribution makes the original article the canonical URL."""
    article = ArticleFactory()
    AttributionFactory(
        article=article, original_url="https://24.ae/a/1", is_canonical=True
    )
    html = client.get(url_in("ar", article)).content.decode()
    assert '<link rel="canonical" href="https://24.ae/a/1">' in html


def test_article_page_has_social_meta(client):
    """The page describes itself for link previews: og:type article and the time."""
    article = ArticleFactory(summary_ar="ملخص للمعاينة")
    html = client.get(url_in("ar", article)).content.decode()
    assert '<meta name="description" content="ملخص للمعاينة">' in html
    assert '<meta property="og:type" content="article">' in html
    assert 'property="article:published_time"' in html


def test_graphic_hero_image_is_behind_a_warning(client):
    """A graphic hero image comes with a <details> warning that reveals it."""
    article = ArticleFactory(
        hero_image=ImageFactory(
            is_graphic=True,
            alt_text_ar="وصف الصورة",
            caption_ar="تعليق الصورة",
            credit="AFP",
        )
    )
    html = client.get(url_in("ar", article)).content.decode()
    assert 'class="hero hero--graphic"' in html
    assert '<details class="hero__warning"' in html
    assert 'alt="وصف الصورة"' in html
    assert "تعليق الصورة" in html
    assert "<bdi>AFP</bdi>" in html


def test_ordinary_hero_image_has_no_warning(client):
    """A hero image not marked graphic is shown without a warning."""
    article = ArticleFactory(hero_image=ImageFactory())
    html = client.get(url_in("ar", article)).content.decode()
    assert 'class="hero"' in html
    assert "hero__warning" not in html.split("<main", 1)[1]


def test_json_ld_names_no_people_of_the_story(client):
    """The structured data names the bylines as authors, never the people in the
    story (protected or not)."""
    from tests.factories import ArticlePersonFactory, PersonFactory

    article = ArticleFactory()
    ArticlePersonFactory(article=article, person=PersonFactory(name="سالم الحربي"))
    html = client.get(url_in("ar", article)).content.decode()
    data = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert "NewsArticle" in data.group(1)
    assert "سالم الحربي" not in data.group(1)


def test_page_loads_no_third_party_scripts(client):
    """Every script on the article page is our own."""
    article = ArticleFactory()
    SocialPostFactory(article=article)
    html = client.get(url_in("ar", article)).content.decode()
    sources = re.findall(r'<script[^>]*src="([^"]+)"', html)
    assert sources and all(src.startswith("/static/") for src in sources)


def test_article_model_is_unchanged_by_viewing(client):
    """Viewing a page does not write to the article."""
    article = ArticleFactory()
    before = Article.objects.get(pk=article.pk).updated_at
    client.get(url_in("ar", article))
    assert Article.objects.get(pk=article.pk).updated_at == before


# ------------------------------------------------------------ corrections

MAY_14 = datetime(2024, 5, 14, 10, tzinfo=UTC)


def json_ld_of(html: str) -> dict:
    data = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    return json.loads(data.group(1))


def corrections_section(html: str) -> str:
    return re.search(r'<section class="corrections".*?</section>', html, re.S).group(0)


def test_corrections_close_the_arabic_article_with_their_dates(client):
    """After the body, each correction shows its text and its date in Arabic."""
    article = ArticleFactory(body_ar="<p>نص الخبر.</p>")
    CorrectionFactory(article=article, text_ar="تصحيح أول", created_at=MAY_14)
    html = client.get(url_in("ar", article)).content.decode()
    section = corrections_section(html)
    assert html.index("نص الخبر.") < html.index(section)
    assert 'lang="ar" dir="rtl"' in section
    assert "تصحيح أول" in section
    assert '<time datetime="2024-05-14T10:00:00+00:00"><bdi>14 مايو 2024' in section


def test_corrections_are_in_english_in_the_english_edition(client):
    """The English page shows the English text, marked English, with an English date."""
    article = ArticleFactory(headline_en="Aid convoy arrives")
    CorrectionFactory(
        article=article,
        text_ar="تصحيح",
        text_en="The convoy had 12 lorries, not 20.",
        created_at=MAY_14,
    )
    section = corrections_section(client.get(url_in("en", article)).content.decode())
    assert 'class="correction__text" lang="en" dir="ltr">The convoy had 12' in section
    assert "تصحيح" not in section
    assert "<bdi>14 May 2024</bdi>" in section
    assert '<strong class="correction__kind">Correction</strong>' in section


def test_a_correction_written_only_in_arabic_is_shown_in_arabic_in_english(client):
    """Without an English text the Arabic one is shown, marked Arabic and rtl."""
    article = ArticleFactory(headline_en="Aid convoy arrives")
    CorrectionFactory(article=article, text_ar="تصحيح بالعربية", text_en="")
    section = corrections_section(client.get(url_in("en", article)).content.decode())
    assert '<p class="correction__text" lang="ar" dir="rtl">تصحيح بالعربية' in section


def test_corrections_are_listed_oldest_first(client):
    """The ledger reads in the order the corrections were made."""
    article = ArticleFactory()
    CorrectionFactory(article=article, text_ar="الثاني", created_at=MAY_14)
    CorrectionFactory(
        article=article, text_ar="الأول", created_at=MAY_14 - timedelta(days=1)
    )
    section = corrections_section(client.get(url_in("ar", article)).content.decode())
    assert section.index("الأول") < section.index("الثاني")


def test_an_article_without_corrections_has_no_corrections_section(client):
    """No empty heading is printed on an uncorrected story."""
    html = client.get(url_in("ar", ArticleFactory())).content.decode()
    assert 'class="corrections"' not in html


def test_json_ld_lists_the_corrections(client):
    """Each correction is a schema.org CorrectionComment with its text and date."""
    article = ArticleFactory()
    CorrectionFactory(article=article, text_ar="تصحيح أول", created_at=MAY_14)
    data = json_ld_of(client.get(url_in("ar", article)).content.decode())
    assert data["correction"] == [
        {
            "@type": "CorrectionComment",
            "text": "تصحيح أول",
            "datePublished": "2024-05-14T10:00:00Z",
        }
    ]


def test_json_ld_has_no_correction_without_corrections(client):
    """An uncorrected story carries no empty correction list."""
    data = json_ld_of(client.get(url_in("ar", ArticleFactory())).content.decode())
    assert "correction" not in data


def test_json_ld_modified_date_follows_the_latest_correction(client):
    """Adding a correction moves dateModified to (or past) the correction's date."""
    article = ArticleFactory()
    Article.objects.filter(pk=article.pk).update(updated_at=MAY_14)
    correction_add(
        article=Article.objects.get(pk=article.pk),
        by=SuperuserFactory(),
        kind=Correction.Kind.UPDATE,
        text_ar="تحديث",
    )
    data = json_ld_of(client.get(url_in("ar", article)).content.decode())
    modified = datetime.fromisoformat(data["dateModified"])
    assert modified > MAY_14
    assert modified >= datetime.fromisoformat(data["correction"][-1]["datePublished"])


def test_related_stories_share_tags_or_people(client):
    """The article lists published stories sharing its tags or people, not drafts."""
    from tests.factories import ArticlePersonFactory, DraftArticleFactory, PersonFactory

    person = PersonFactory(name="هالة يوسف")
    story = ArticleFactory(headline_ar="الخبر الأصلي")
    story.tags.add("الموانئ")
    ArticlePersonFactory(article=story, person=person)
    by_tag = ArticleFactory(headline_ar="خبر يشاركه الوسم")
    by_tag.tags.add("الموانئ")
    by_person = ArticleFactory(headline_ar="خبر يذكر الشخص نفسه")
    ArticlePersonFactory(article=by_person, person=person)
    draft = DraftArticleFactory(headline_ar="مسودة بالوسم نفسه")
    draft.tags.add("الموانئ")
    ArticleFactory(headline_ar="خبر لا علاقة له")
    with translation.override("ar"):
        response = client.get(story.get_absolute_url())
    related = {article.pk for article in response.context["related"]}
    assert related == {by_tag.pk, by_person.pk}


# ------------------------------------------------------------ dates and digits

DEC_12 = datetime(2024, 12, 12, 10, tzinfo=UTC)


def article_time(html: str) -> str:
    byline = re.search(r'<p class="article__byline".*?</p>', html, re.S).group(0)
    return re.search(r"<time.*?</time>", byline, re.S).group(0)


def test_article_date_in_levant_month_names(client, settings):
    """With the levant style the Arabic page writes "كانون الأول"."""
    settings.NEWSROOM_MONTH_STYLE = "levant"
    article = ArticleFactory(published_at=DEC_12)
    html = client.get(url_in("ar", article)).content.decode()
    assert "<bdi>الخميس 12 كانون الأول 2024 — 11 جمادى الآخرة 1446</bdi>" in html


def test_article_date_in_both_month_names(client, settings):
    """With the both style the Arabic page writes "ديسمبر (كانون الأول)"."""
    settings.NEWSROOM_MONTH_STYLE = "both"
    article = ArticleFactory(published_at=DEC_12)
    html = client.get(url_in("ar", article)).content.decode()
    assert "<bdi>الخميس 12 ديسمبر (كانون الأول) 2024 — 11 جمادى الآخرة 1446</bdi>" in (
        html
    )


def test_teaser_date_follows_the_month_style(client, settings):
    """Lists use the site's month style too, with the short date."""
    settings.NEWSROOM_MONTH_STYLE = "levant"
    ArticleFactory(published_at=DEC_12)
    html = client.get("/ar/").content.decode()
    assert "<bdi>12 كانون الأول 2024</bdi>" in html


def test_arabic_indic_digits_in_the_date_only(client, settings):
    """The visible date takes ٠–٩; the datetime attribute keeps 0–9."""
    settings.NEWSROOM_DIGITS = "arabic-indic"
    article = ArticleFactory(published_at=DEC_12)
    time = article_time(client.get(url_in("ar", article)).content.decode())
    assert time == (
        '<time datetime="2024-12-12T10:00:00+00:00">'
        "<bdi>الخميس ١٢ ديسمبر ٢٠٢٤ — ١١ جمادى الآخرة ١٤٤٦</bdi></time>"
    )


def test_arabic_indic_digits_leave_links_handles_and_body_alone(client, settings):
    """URLs, @handles and the article body keep the digits they were written with."""
    settings.NEWSROOM_DIGITS = "arabic-indic"
    article = ArticleFactory(published_at=DEC_12, body_ar="<p>وصلت 12 شاحنة.</p>")
    SocialPostFactory(
        article=article, handle="news_24", url="https://x.com/news_24/status/42"
    )
    html = client.get(url_in("ar", article)).content.decode()
    assert f'href="{url_in("en", article)}"' in html
    assert all(
        not re.search("[٠-٩]", href) for href in re.findall(r'href="([^"]*)"', html)
    )
    assert "@news_24</bdi>" in html
    assert "وصلت <bdi>12</bdi> شاحنة." in html


def test_arabic_indic_digits_in_page_numbers_not_page_links(client, settings):
    """The page number reads ٢ while the page links stay ?page=1 and ?page=3."""
    settings.NEWSROOM_DIGITS = "arabic-indic"
    ArticleFactory.create_batch(41)
    html = client.get("/ar/", {"page": 2}).content.decode()
    assert "<bdi>٢</bdi>" in html
    assert 'href="?page=3"' in html and 'href="?page=1"' in html


def test_english_page_uses_english_months_and_western_digits(client, settings):
    """The English edition ignores the Arabic month style and digits."""
    settings.NEWSROOM_MONTH_STYLE = "levant"
    settings.NEWSROOM_DIGITS = "arabic-indic"
    article = ArticleFactory(published_at=DEC_12, headline_en="Aid convoy arrives")
    time = article_time(client.get(url_in("en", article)).content.decode())
    assert time == (
        '<time datetime="2024-12-12T10:00:00+00:00">'
        "<bdi>Thursday 12 December 2024 — 11 Jumada al-Akhirah 1446</bdi></time>"
    )


def test_english_page_numbers_keep_western_digits(client, settings):
    """Counts on English pages stay 0–9 even with Arabic-Indic digits set."""
    settings.NEWSROOM_DIGITS = "arabic-indic"
    ArticleFactory.create_batch(21, headline_en="In English")
    html = client.get("/en/", {"page": 2}).content.decode()
    assert "<bdi>2</bdi>" in html
    assert not re.search("[٠-٩]", html.split("<main", 1)[1])


def test_article_date_is_the_newsroom_day(client, settings):
    """20:30 UTC on 11 December is already Thursday 12 December in Dubai."""
    settings.TIME_ZONE = "Asia/Dubai"
    article = ArticleFactory(published_at=datetime(2024, 12, 11, 20, 30, tzinfo=UTC))
    time = article_time(client.get(url_in("ar", article)).content.decode())
    assert "<bdi>الخميس 12 ديسمبر 2024 — 11 جمادى الآخرة 1446</bdi>" in time
    assert 'datetime="2024-12-11T20:30:00+00:00"' in time


def test_news_article_data_names_bylines_publisher_and_original(client):
    """JSON-LD: authors from the bylines, the publisher with its logo, and the
    original story the report is based on; never the people in the story."""
    from tests.factories import (
        ArticlePersonFactory,
        AttributionFactory,
        BylineFactory,
        ProtectedPersonFactory,
    )

    article = ArticleFactory()
    BylineFactory(article=article, name="مراسل الشؤون العربية")
    AttributionFactory(article=article, original_url="https://example.com/original")
    ArticlePersonFactory(article=article, person=ProtectedPersonFactory())
    with translation.override("ar"):
        html = client.get(article.get_absolute_url()).content.decode()
    data = json.loads(
        re.search(
            r'<script type="application/ld\+json">(.*?)</script>', html, re.S
        ).group(1)
    )
    assert data["author"] == [{"@type": "Person", "name": "مراسل الشؤون العربية"}]
    assert data["publisher"]["logo"]["url"].endswith("publisher-logo.png")
    assert [work["url"] for work in data["isBasedOn"]] == [
        "https://example.com/original"
    ]
    assert "الشاهد" not in json.dumps(data, ensure_ascii=False)


def test_hreflang_only_for_the_languages_a_story_has(client):
    """An Arabic-only story declares no English alternate."""
    article = ArticleFactory(headline_en="")
    with translation.override("ar"):
        html = client.get(article.get_absolute_url()).content.decode()
    assert 'hreflang="ar"' in html
    assert 'rel="alternate" hreflang="en"' not in html


def test_article_pages_carry_social_cards(client):
    """Twitter card and OpenGraph site name are on the article page."""
    with translation.override("ar"):
        html = client.get(ArticleFactory().get_absolute_url()).content.decode()
    assert 'name="twitter:card"' in html
    assert 'property="og:site_name"' in html


def test_older_stories_link_only_when_there_are_older_stories(client):
    """Page one of 21 stories links to older stories; page two does not go further
    and links back to newer ones. Nothing is counted."""
    ArticleFactory.create_batch(21)
    first = client.get("/ar/").content.decode()
    assert 'rel="next" href="?before=' in first and 'rel="prev"' not in first
    older = re.search(r'rel="next" href="\?before=([\d.]+)"', first).group(1)
    second = client.get("/ar/", {"before": older}).content.decode()
    assert 'rel="next"' not in second and 'rel="prev" href="?after=' in second


def test_a_page_past_the_end_is_not_found(client):
    """Asking for a page of older stories that does not exist answers 404."""
    ArticleFactory()
    assert client.get("/ar/", {"page": 5}).status_code == 404


def test_names_from_the_other_script_carry_their_language(client):
    """On the English page, an Arabic byline and tag are marked lang="ar"."""
    article = ArticleFactory(headline_en="Port files")
    BylineFactory(article=article, name="ليلى حسن")
    article.tags.add("الموانئ")
    html = client.get(url_in("en", article)).content.decode()
    assert '<bdi class="author" lang="ar">ليلى حسن</bdi>' in html
    assert '<bdi lang="ar">#الموانئ</bdi>' in html


def test_related_stories_by_tag_alone(client):
    """A story with tags and nobody named still finds stories sharing a tag."""
    story = ArticleFactory(headline_ar="الخبر الأصلي")
    story.tags.add("الموانئ")
    other = ArticleFactory(headline_ar="خبر يشاركه الوسم")
    other.tags.add("الموانئ")
    with translation.override("ar"):
        response = client.get(story.get_absolute_url())
    assert [article.pk for article in response.context["related"]] == [other.pk]


def test_related_stories_most_shared_first(client):
    """A story sharing two tags and a person comes before one sharing one tag."""
    from tests.factories import ArticlePersonFactory, PersonFactory

    person = PersonFactory()
    story = ArticleFactory()
    story.tags.add("أ", "ب")
    ArticlePersonFactory(article=story, person=person)
    close = ArticleFactory(published_at=timezone.now() - timedelta(days=2))
    close.tags.add("أ", "ب")
    ArticlePersonFactory(article=close, person=person)
    newer = ArticleFactory()
    newer.tags.add("أ")
    with translation.override("ar"):
        response = client.get(story.get_absolute_url())
    assert [article.pk for article in response.context["related"]] == [
        close.pk,
        newer.pk,
    ]
