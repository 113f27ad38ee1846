"""The editors' article admin: pages, language, inlines, privacy gate, actions."""

import pytest
from django.conf import settings
from django.contrib import messages
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from articles.audit_actions import Action
from articles.models import (
    Article,
    ArticlePerson,
    Byline,
    Correction,
    SocialPost,
    Status,
)
from audit.models import AuditEvent
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    CorrectionFactory,
    DraftArticleFactory,
    PersonFactory,
    ProtectedPersonFactory,
    SectionFactory,
    SocialPostFactory,
    SourceFactory,
)

pytestmark = pytest.mark.django_db

INLINE_PREFIXES = ("bylines", "people_named", "social_posts", "attributions")
LEGAL_NAME = ProtectedPersonFactory.name


def management_form(prefix: str, total: int = 0, initial: int = 0) -> dict:
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def article_post_data(**fields) -> dict:
    """What the add form posts for a minimal Arabic draft, with empty inlines."""
    data = {
        "language": "ar",
        "headline_ar": "عنوان جديد",
        "headline_en": "",
        "kicker_ar": "",
        "kicker_en": "",
        "summary_ar": "",
        "summary_en": "",
        "body_ar": "<p>نص الخبر.</p>",
        "body_en": "",
        "publish_at_0": "",
        "publish_at_1": "",
        "section": "",
        "tags": "",
        "hero_caption_ar": "",
        "hero_caption_en": "",
        "hero_image": "",
        "slug_ar": "",
        "slug_en": "",
    }
    for prefix in INLINE_PREFIXES:
        data.update(management_form(prefix))
    data.update(fields)
    return data


def add_url() -> str:
    return reverse("admin:articles_article_add")


# The refusal as the Arabic admin words it (field error and list message alike).
LEAK = "الاسم الحقيقي لشخص محمي الهوية"


def errors_of(response) -> str:
    """All form and inline errors on a re-rendered change form, as text."""
    parts = [str(response.context["adminform"].form.errors)]
    parts += [
        str(inline.formset.errors)
        for inline in response.context["inline_admin_formsets"]
    ]
    return " ".join(parts)


@pytest.mark.parametrize(
    "url_name",
    [
        "admin:index",
        "admin:articles_article_changelist",
        "admin:articles_article_add",
        "admin:articles_section_changelist",
        "admin:articles_section_add",
        "admin:identity_person_changelist",
        "admin:identity_person_add",
        "admin:taggit_tag_changelist",
        "admin:taggit_tag_add",
    ],
)
def test_list_and_add_pages_render(admin_client, url_name):
    """Every changelist and add page opens for an editor."""
    article = ArticleFactory()
    article.tags.add("سوريا")
    ProtectedPersonFactory()
    assert admin_client.get(reverse(url_name)).status_code == 200


def test_change_pages_render(admin_client):
    """Change pages open: an article with every inline, a section, person and tag."""
    article = ArticleFactory()
    article.tags.add("سوريا")
    BylineFactory(article=article)
    ArticlePersonFactory(article=article, person=ProtectedPersonFactory())
    SocialPostFactory(article=article)
    AttributionFactory(article=article)
    tag = article.tags.get()
    for url in (
        reverse("admin:articles_article_change", args=[article.pk]),
        reverse("admin:articles_section_change", args=[article.section.pk]),
        reverse("admin:identity_person_change", args=[PersonFactory().pk]),
        reverse("admin:taggit_tag_change", args=[tag.pk]),
    ):
        assert admin_client.get(url).status_code == 200, url


def test_admin_is_arabic_and_right_to_left_by_default(admin_client):
    """Without a language cookie the admin speaks Arabic, laid out right to left."""
    response = admin_client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="ar" dir="rtl">' in response.content.decode()


def test_language_cookie_switches_the_admin_to_english(admin_client, settings):
    """With the language cookie set to English the admin is English, left to right."""
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = admin_client.get(reverse("admin:index"))
    assert '<html lang="en" dir="ltr">' in response.content.decode()


def test_language_switch_posts_to_set_language(admin_client):
    """Every admin page has a language switch posting to Django's set_language view."""
    html = admin_client.get(reverse("admin:index")).content.decode()
    assert f'action="{reverse("set_language")}"' in html
    assert 'name="language" value="en"' in html


def test_set_language_sets_the_cookie_and_returns_to_the_page(admin_client, settings):
    """Choosing English sets the language cookie and goes back to the admin page."""
    response = admin_client.post(
        reverse("set_language"), {"language": "en", "next": "/admin/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/admin/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"


def test_the_language_cookie_is_never_sent_by_another_site(admin_client, settings):
    response = admin_client.post(
        reverse("set_language"), {"language": "en", "next": "/admin/"}
    )
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME]["samesite"] == "Lax"


def test_text_inputs_and_textareas_have_dir_auto(admin_client):
    """Typed text takes its own direction: inputs and textareas carry dir="auto"."""
    response = admin_client.get(add_url())
    form = response.context["adminform"].form
    for name in ("headline_ar", "headline_en", "body_ar", "body_en", "tags"):
        assert form.fields[name].widget.attrs.get("dir") == "auto", name
    html = response.content.decode()
    assert 'name="headline_en"' in html
    assert 'dir="auto"' in html


def test_inline_text_inputs_have_dir_auto(admin_client):
    """Inline rows' text inputs (byline names, post text) carry dir="auto" too."""
    response = admin_client.get(add_url())
    forms = {
        inline.formset.prefix: inline.formset.form
        for inline in response.context["inline_admin_formsets"]
    }
    assert forms["bylines"].base_fields["name"].widget.attrs["dir"] == "auto"
    assert forms["social_posts"].base_fields["text"].widget.attrs["dir"] == "auto"


def test_translation_tabs_load_no_cdn(admin_client):
    """The tab script is served locally; nothing on the page comes from a CDN."""
    html = admin_client.get(add_url()).content.decode()
    assert "admin_ext/translation_tabs.js" in html
    assert "ajax.googleapis.com" not in html
    assert "jquery-ui" not in html.lower()


def test_translated_fields_carry_the_tab_classes(admin_client):
    """Translated widgets are marked for the tab script, Arabic as the default."""
    html = admin_client.get(add_url()).content.decode()
    assert "mt-field-headline-ar mt-bidi mt-default" in html
    assert "mt-field-headline-en" in html


def test_add_form_has_every_inline(admin_client):
    """The add form has inlines for bylines, people, social posts and attributions."""
    html = admin_client.get(add_url()).content.decode()
    for prefix in INLINE_PREFIXES:
        assert f'name="{prefix}-TOTAL_FORMS"' in html, prefix


def test_adding_an_article_with_inlines_saves_them_all(admin_client, editor):
    """One POST saves the article with its byline, person, post and attribution."""
    person = PersonFactory()
    source = SourceFactory()
    data = article_post_data(
        tags="سوريا, لبنان",
        **management_form("bylines", total=2),
        **{
            "bylines-0-user": editor.pk,
            "bylines-0-name": "",
            "bylines-0-position": "0",
        },
        **{
            "bylines-1-user": "",
            "bylines-1-name": "كاتب ضيف",
            "bylines-1-position": "1",
        },
        **management_form("people_named", total=1),
        **{
            "people_named-0-person": person.pk,
            "people_named-0-role": "quoted",
            "people_named-0-name_used": "",
            "people_named-0-position": "0",
        },
        **management_form("social_posts", total=1),
        **{
            "social_posts-0-platform": "x",
            "social_posts-0-url": "https://x.com/news/status/1",
            "social_posts-0-author_name": "حساب",
            "social_posts-0-handle": "@news",
            "social_posts-0-posted_at_0": "",
            "social_posts-0-posted_at_1": "",
            "social_posts-0-text": "نص #خبر",
            "social_posts-0-language": "ar",
            "social_posts-0-hashtags": "",
            "social_posts-0-links": "https://t.co/a\nhttps://t.co/b",
            "social_posts-0-media_urls": "",
        },
        **management_form("attributions", total=1),
        **{
            "attributions-0-source": source.pk,
            "attributions-0-role": "republished",
            "attributions-0-original_url": "https://example.com/story",
            "attributions-0-is_canonical": "on",
            "attributions-0-position": "0",
        },
    )
    response = admin_client.post(add_url(), data)
    assert response.status_code == 302, errors_of(response)
    article = Article.objects.get()
    assert sorted(article.tags.names()) == ["سوريا", "لبنان"]
    assert [b.display_name for b in article.bylines.all()] == ["محرر", "كاتب ضيف"]
    assert article.people_named.get().role == ArticlePerson.Role.QUOTED
    post = article.social_posts.get()
    assert (post.handle, post.hashtags) == ("news", ["خبر"])
    assert post.links == ["https://t.co/a", "https://t.co/b"]
    assert article.attributions.get().is_canonical


def test_publishing_with_a_legal_name_in_the_body_is_refused(admin_client):
    """A protected legal name in the body stops publishing; nothing is saved."""
    ProtectedPersonFactory()
    data = article_post_data(_move="publish", body_ar=f"<p>قال {LEGAL_NAME} إن</p>")
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    errors = str(response.context["adminform"].form.errors["body_ar"])
    assert LEAK in errors and LEGAL_NAME not in errors
    assert not Article.objects.exists()


def test_publishing_with_a_legal_name_in_a_social_post_is_refused(admin_client):
    """A legal name in a social post's text stops publishing; no row is saved."""
    ProtectedPersonFactory()
    data = article_post_data(
        _move="publish",
        **management_form("social_posts", total=1),
        **{
            "social_posts-0-platform": "x",
            "social_posts-0-text": f"منشور يذكر {LEGAL_NAME}",
        },
    )
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    assert LEAK in errors_of(response)
    assert LEGAL_NAME not in errors_of(response)
    assert not Article.objects.exists()
    assert not SocialPost.objects.exists()


def test_publishing_with_a_legal_name_as_byline_is_refused(admin_client):
    """A legal name typed as a guest byline stops publishing; nothing is saved."""
    ProtectedPersonFactory()
    data = article_post_data(
        _move="publish",
        **management_form("bylines", total=1),
        **{"bylines-0-name": LEGAL_NAME, "bylines-0-position": "0"},
    )
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    assert LEAK in errors_of(response)
    assert not Byline.objects.exists()


def test_publishing_with_a_legal_name_used_for_a_person_is_refused(admin_client):
    """Naming a protected person by their legal name in the story is refused."""
    person = ProtectedPersonFactory()
    data = article_post_data(
        _move="publish",
        **management_form("people_named", total=1),
        **{
            "people_named-0-person": person.pk,
            "people_named-0-role": "subject",
            "people_named-0-name_used": LEGAL_NAME,
            "people_named-0-position": "0",
        },
    )
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    assert not Article.objects.exists()


def test_a_draft_with_a_legal_name_is_refused_too(admin_client):
    """Drafts are read by every editor: a legal name is refused there as well."""
    ProtectedPersonFactory()
    data = article_post_data(body_ar=f"<p>{LEGAL_NAME}</p>")
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    assert LEAK in errors_of(response)
    assert not Article.objects.exists()


def test_editing_a_published_article_to_add_a_legal_name_is_refused(admin_client):
    """Editing a live article to name a protected person is refused; it is unchanged."""
    ProtectedPersonFactory()
    article = ArticleFactory(body_ar="<p>نص قديم</p>")
    data = article_post_data(
        headline_ar=article.headline_ar, body_ar=f"<p>{LEGAL_NAME}</p>"
    )
    url = reverse("admin:articles_article_change", args=[article.pk])
    response = admin_client.post(url, data)
    assert response.status_code == 200
    article.refresh_from_db()
    assert article.body_ar == "<p>نص قديم</p>"


def test_publish_action_publishes_a_draft(admin_client):
    """The publish action publishes the selected draft and says so."""
    article = DraftArticleFactory()
    response = admin_client.post(
        reverse("admin:articles_article_changelist"),
        {"action": "publish", "_selected_action": [article.pk]},
    )
    assert response.status_code == 302
    article.refresh_from_db()
    assert article.status == Status.PUBLISHED
    assert article.published_at is not None


def test_publish_action_reports_a_refused_article(admin_client):
    """An article the service refuses stays a draft and the editor gets a message."""
    ProtectedPersonFactory()
    refused = DraftArticleFactory(body_ar=f"<p>{LEGAL_NAME}</p>")
    fine = DraftArticleFactory()
    response = admin_client.post(
        reverse("admin:articles_article_changelist"),
        {"action": "publish", "_selected_action": [refused.pk, fine.pk]},
    )
    assert response.status_code == 302
    refused.refresh_from_db()
    fine.refresh_from_db()
    assert (refused.status, fine.status) == (Status.DRAFT, Status.PUBLISHED)
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    assert any(str(refused.pk) in text and LEAK in text for text in texts)
    assert not any(LEGAL_NAME in text for text in texts)


def test_unpublish_action_makes_an_article_a_draft(admin_client):
    """The unpublish action takes the selected article off the site."""
    article = ArticleFactory()
    admin_client.post(
        reverse("admin:articles_article_changelist"),
        {"action": "unpublish", "_selected_action": [article.pk]},
    )
    article.refresh_from_db()
    assert article.status == Status.DRAFT


def test_view_on_site_redirects_to_the_article(admin_client):
    """ "View on site" leads to the article's public address."""
    article = ArticleFactory()
    html = admin_client.get(
        reverse("admin:articles_article_change", args=[article.pk])
    ).content.decode()
    assert "viewsitelink" in html
    response = admin_client.get(
        reverse("admin:view_on_site", args=[_content_type_id(), article.pk])
    )
    assert response.status_code == 302
    assert response["Location"].endswith(article.get_absolute_url())


def _content_type_id() -> int:
    from django.contrib.contenttypes.models import ContentType

    return ContentType.objects.get_for_model(Article).pk


def test_changelist_filters_by_source(admin_client):
    """The source filter lists only the articles attributed to that source."""
    attribution = AttributionFactory()
    AttributionFactory()
    response = admin_client.get(
        reverse("admin:articles_article_changelist"),
        {"attributions__source__id__exact": attribution.source_id},
    )
    assert list(response.context["cl"].result_list) == [attribution.article]


def _changelist_queries(client) -> int:
    url = reverse("admin:articles_article_changelist")
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_changelist_query_count_does_not_grow_with_articles(admin_client):
    """The article list costs as many queries for 20 articles as for one."""
    AttributionFactory(article=ArticleFactory(section=SectionFactory()))
    one = _changelist_queries(admin_client)
    for _ in range(19):
        AttributionFactory(article=ArticleFactory(section=SectionFactory()))
    assert _changelist_queries(admin_client) == one


def test_person_list_marks_protected_identities(admin_client):
    """The people list shows a lock and the public name, never the legal name."""
    ProtectedPersonFactory()
    html = admin_client.get(
        reverse("admin:identity_person_changelist")
    ).content.decode()
    assert "🔒 الشاهد" in html
    assert LEGAL_NAME not in html


def test_protected_person_without_public_name_is_refused(admin_client):
    """A protected person cannot be saved without a public name."""
    response = admin_client.post(
        reverse("admin:identity_person_add"),
        {
            "identity_protected": "on",
            "name": "اسم حقيقي",
            "public_name": "",
            "aliases": "",
            "description_ar": "",
            "description_en": "",
        },
    )
    assert response.status_code == 200
    assert "public_name" in response.context["adminform"].form.errors


def test_pasting_embed_code_in_the_post_inline_fills_the_post(admin_client):
    """An editor pastes X's embed code into the inline; the post is saved as data."""
    embed = (
        '<blockquote class="twitter-tweet"><p lang="ar" dir="rtl">خبر اليوم '
        '<a href="https://t.co/xyz">https://t.co/xyz</a> #عاجل</p>&mdash; '
        "صحيفة المثال (@example_news) "
        '<a href="https://twitter.com/example_news/status/1234567890">'
        "December 12, 2024</a></blockquote>"
        '<script async src="https://platform.twitter.com/widgets.js"></script>'
    )
    fields = {"social_posts-TOTAL_FORMS": "1", "social_posts-0-paste": embed}
    for name in ("platform", "url", "author_name", "handle", "text", "language"):
        fields[f"social_posts-0-{name}"] = "x" if name == "platform" else ""
    fields.update(
        {
            "social_posts-0-posted_at_0": "",
            "social_posts-0-posted_at_1": "",
            "social_posts-0-hashtags": "",
            "social_posts-0-links": "",
            "social_posts-0-media_urls": "",
        }
    )
    response = admin_client.post(add_url(), article_post_data(**fields))
    assert response.status_code == 302, errors_of(response)
    post = Article.objects.get().social_posts.get()
    assert post.handle == "example_news"
    assert post.url == "https://x.com/example_news/status/1234567890"
    assert "https://t.co/xyz" in post.links
    assert "script" not in post.text


def test_two_canonical_attributions_get_a_form_error(admin_client):
    """Ticking "canonical" on two sources is refused with a message, not a crash."""
    rows = {}
    for i, source in enumerate([SourceFactory(), SourceFactory()]):
        rows.update(
            {
                f"attributions-{i}-source": source.pk,
                f"attributions-{i}-role": "republished",
                f"attributions-{i}-original_url": f"https://example.com/{i}",
                f"attributions-{i}-is_canonical": "on",
                f"attributions-{i}-position": str(i),
            }
        )
    data = article_post_data(**management_form("attributions", total=2), **rows)
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    assert "Only one source can hold the canonical link" in response.content.decode()
    assert not Article.objects.exists()


# ------------------------------------------------------------ corrections


def correction_url(article) -> str:
    return reverse("admin:articles_article_add_correction", args=[article.pk])


def test_an_editor_adds_a_correction_from_its_page(admin_client, editor):
    """Posting the correction page prints the correction and returns to the story."""
    article = ArticleFactory()
    text = "الصحيح أنه الثلاثاء."
    response = admin_client.post(
        correction_url(article), {"kind": "correction", "text_ar": text, "text_en": ""}
    )
    change_url = reverse("admin:articles_article_change", args=[article.pk])
    assert response.status_code == 302
    assert response["Location"] == change_url
    correction = article.corrections.get()
    assert (correction.text_ar, correction.created_by) == (text, editor)
    assert AuditEvent.objects.filter(action=Action.CORRECTED).exists()
    levels = [m.level for m in get_messages(response.wsgi_request)]
    assert levels == [messages.SUCCESS]


def test_the_correction_page_offers_kind_and_both_texts(admin_client):
    """The form asks for the kind and the text in each language, typed dir="auto"."""
    response = admin_client.get(correction_url(ArticleFactory()))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("kind", "text_ar", "text_en"):
        assert f'name="{name}"' in html, name
    assert html.count('dir="auto"') >= 2


def test_a_correction_naming_a_protected_person_is_refused_on_the_page(admin_client):
    """The refusal is shown above the form, what was typed stays, nothing is saved."""
    ProtectedPersonFactory()
    typed = f"المصدر هو {LEGAL_NAME} نفسه."
    response = admin_client.post(
        correction_url(ArticleFactory()),
        {"kind": "correction", "text_ar": typed, "text_en": "Kept"},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert LEAK in str(form.non_field_errors())
    assert LEGAL_NAME not in str(form.non_field_errors())
    assert (form["text_ar"].value(), form["text_en"].value()) == (typed, "Kept")
    assert not Correction.objects.exists()


def test_an_empty_correction_is_refused_on_the_page(admin_client):
    """Submitting no text re-shows the form with the service's reason."""
    response = admin_client.post(
        correction_url(ArticleFactory()),
        {"kind": "update", "text_ar": " ", "text_en": ""},
    )
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert response.context["form"]["kind"].value() == "update"
    assert not Correction.objects.exists()


def test_the_correction_page_of_a_missing_story_is_not_found(admin_client):
    """A story number that does not exist gives 404."""
    response = admin_client.get(
        reverse("admin:articles_article_add_correction", args=[999])
    )
    assert response.status_code == 404


def test_the_story_page_lists_its_corrections(admin_client):
    """The change page lists each correction in both languages, read-only."""
    article = ArticleFactory()
    CorrectionFactory(article=article, text_ar="تصحيح أول", text_en="First fix")
    CorrectionFactory(article=article, kind=Correction.Kind.UPDATE, text_ar="تحديث")
    response = admin_client.get(
        reverse("admin:articles_article_change", args=[article.pk])
    )
    html = response.content.decode()
    assert [c.text_ar for c in response.context["corrections"]] == [
        "تصحيح أول",
        "تحديث",
    ]
    assert '<td lang="ar" dir="rtl">تصحيح أول</td>' in html
    assert '<td lang="en" dir="ltr">First fix</td>' in html
    assert f'href="{correction_url(article)}"' in html
    assert 'name="corrections-TOTAL_FORMS"' not in html


def test_the_add_page_has_no_corrections_module(admin_client):
    """A story not yet saved has nothing to correct."""
    html = admin_client.get(add_url()).content.decode()
    assert 'id="corrections"' not in html
