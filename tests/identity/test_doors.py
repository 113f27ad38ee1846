"""Every door refuses a protected legal name in every public field.

For each field a reader can see and each way a story reaches the public (the service
called directly, the change form's publish button, the publish list action, the
import page and the import command, the correction page), a legal spelling is refused
with a message naming the field and never the name, and nothing public carries it
afterwards.
"""

import io

import pytest
from django.contrib.messages import get_messages
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation
from taggit.models import Tag

from arabic.slugs import unicode_slug
from articles.models import Article, Correction, Status
from articles.services import article_publish
from identity.gate import IdentityLeakError
from tests.admin_forms import change_form_data, form_errors
from tests.factories import (
    ArticlePersonFactory,
    AttributionFactory,
    BylineFactory,
    CorrectionFactory,
    DraftArticleFactory,
    ImageFactory,
    PersonFactory,
    ProtectedPersonFactory,
    SectionFactory,
    SocialPostFactory,
    SourceFactory,
    SuperuserFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

ARABIC = ProtectedPersonFactory.name
LATIN = "Yousef al-Mansouri"
RUN_TOGETHER = "YousefAlMansouri"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def protected():
    return ProtectedPersonFactory(other_spellings=LATIN)


@pytest.fixture
def chief():
    return SuperuserFactory(username="chief")


@pytest.fixture
def admin_client(client, chief, settings):
    """A superuser whose admin speaks English (the language menu's cookie)."""
    client.force_login(chief)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _staff_named(article):
    user = UserFactory(first_name="Yousef", last_name="al-Mansouri")
    BylineFactory(article=article, user=user, name="")


# (what is being tried, how to put the spelling there, words the refusal names)
FIELDS = {
    "headline": (lambda a: _set(a, headline_ar=f"لقاء مع {ARABIC}"), "headline"),
    "english headline": (
        lambda a: _set(a, headline_en=f"Meeting {LATIN}"),
        "headline",
    ),
    "kicker": (lambda a: _set(a, kicker_ar=ARABIC), "kicker"),
    "summary": (lambda a: _set(a, summary_en=f"About {LATIN}"), "summary"),
    "body": (lambda a: _set(a, body_ar=f"<p>قال {ARABIC}</p>"), "body"),
    "body with an entity": (
        lambda a: _set(a, body_ar="<p>قال &#1610;وسف المنصوري</p>"),
        "body",
    ),
    "body with a soft hyphen": (
        lambda a: _set(a, body_en="<p>Yousef al-Man\u00adsouri said</p>"),
        "body",
    ),
    "slug": (lambda a: _set(a, slug_en="yousef-al-mansouri-speaks"), "slug"),
    "caption": (lambda a: _set(a, hero_caption_ar=ARABIC), "caption in this story"),
    "image caption": (
        lambda a: _set(a, hero_image=ImageFactory(caption_ar=ARABIC)),
        "image: caption",
    ),
    "image alt text": (
        lambda a: _set(a, hero_image=ImageFactory(alt_text_en=LATIN)),
        "image: alt text",
    ),
    "image credit": (
        lambda a: _set(a, hero_image=ImageFactory(credit=LATIN)),
        "image: photo credit",
    ),
    "image source": (
        lambda a: _set(a, hero_image=ImageFactory(source=f"{LATIN} archive")),
        "image: source or agency",
    ),
    "tag name": (lambda a: a.tags.add(LATIN), "tag: name"),
    "tag slug": (
        lambda a: a.tags.add(Tag.objects.create(name="ملف", slug=unicode_slug(ARABIC))),
        "tag: slug",
    ),
    "hashtag run together": (lambda a: a.tags.add(f"#{RUN_TOGETHER}"), "tag"),
    "post author": (
        lambda a: SocialPostFactory(article=a, author_name=ARABIC),
        "social post: author",
    ),
    "post handle": (
        lambda a: SocialPostFactory(article=a, handle=RUN_TOGETHER),
        "social post: handle",
    ),
    "post text": (
        lambda a: SocialPostFactory(article=a, text=f"#{RUN_TOGETHER} يتحدث"),
        "social post: text",
    ),
    "post URL": (
        lambda a: SocialPostFactory(
            article=a, url=f"https://x.com/{RUN_TOGETHER}/status/1"
        ),
        "social post: post URL",
    ),
    "post links": (
        lambda a: SocialPostFactory(
            article=a, links=["https://example.com/yousef-al-mansouri"]
        ),
        "social post: links",
    ),
    "post media": (
        lambda a: SocialPostFactory(
            article=a, media_urls=["https://pbs.example.com/yousef_al_mansouri.jpg"]
        ),
        "social post: media URLs",
    ),
    "correction": (
        lambda a: CorrectionFactory(article=a, text_en=f"{LATIN} was not there."),
        "correction: text",
    ),
    "guest byline": (lambda a: BylineFactory(article=a, name=ARABIC), "guest name"),
    "staff byline": (_staff_named, "staff member"),
    "name used": (
        lambda a: ArticlePersonFactory(article=a, name_used=ARABIC),
        "name used in the story",
    ),
    "attribution URL": (
        lambda a: AttributionFactory(
            article=a, original_url="https://example.com/yousef-al-mansouri"
        ),
        "original URL",
    ),
    "public name of a person": (
        lambda a: ArticlePersonFactory(
            article=a, person=PersonFactory(public_name=f"{ARABIC} (مصدر)")
        ),
        "public name",
    ),
    "description of a person": (
        lambda a: ArticlePersonFactory(
            article=a, person=PersonFactory(description_en=f"cousin of {LATIN}")
        ),
        "description",
    ),
    "another person of the same name": (
        lambda a: ArticlePersonFactory(article=a, person=PersonFactory(name=ARABIC)),
        "person: name",
    ),
    "section name": (
        lambda a: _set(a, section=SectionFactory(name_en=f"The {LATIN} files")),
        "section: name",
    ),
    "section slug": (
        lambda a: _set(a, section=SectionFactory(slug="yousef-al-mansouri")),
        "section: slug",
    ),
    "source name": (
        lambda a: AttributionFactory(
            article=a, source=SourceFactory(name_en=f"{LATIN} Blog")
        ),
        "source: name",
    ),
}


def _set(article, **fields):
    Article.objects.filter(pk=article.pk).update(**fields)


def story_with(field: str) -> Article:
    """A draft whose `field` holds a legal spelling, written around the write path."""
    article = DraftArticleFactory(headline_en="A story")
    put, _words = FIELDS[field]
    put(article)
    return Article.objects.get(pk=article.pk)


def assert_refusal_names_the_field(message: str, field: str) -> None:
    _put, words = FIELDS[field]
    assert words in message, message
    assert "legal name of a protected person" in message
    for spelling in (ARABIC, LATIN, RUN_TOGETHER, "الشاهد"):
        assert spelling not in message


# Sections and sources have pages (and a menu) of their own, so one written around
# the services is public at once; the audit is what finds it.
ALWAYS_PUBLIC = {"section name", "section slug", "source name"}


def assert_audit_agrees(field: str) -> None:
    """audit_identities passes, or for a row public by itself, reports the leak."""
    args = ("audit_identities",)
    quiet = {"stdout": io.StringIO(), "stderr": io.StringIO()}
    if field in ALWAYS_PUBLIC:
        with pytest.raises(CommandError):
            call_command(*args, **quiet)
    else:
        call_command(*args, **quiet)


# ------------------------------------------------------------ the service


@pytest.mark.parametrize("field", FIELDS)
def test_the_publish_service_refuses_a_legal_name(protected, chief, field):
    """article_publish refuses, naming the field, and the story stays a draft."""
    article = story_with(field)
    with pytest.raises(IdentityLeakError) as refused:
        article_publish(article=article, by=chief)
    assert_refusal_names_the_field(refused.value.messages[0], field)
    article.refresh_from_db()
    assert article.status == Status.DRAFT
    assert_audit_agrees(field)


# ------------------------------------------------------------ the list action


@pytest.mark.parametrize("field", FIELDS)
def test_the_publish_action_refuses_a_legal_name(protected, admin_client, field):
    """The changelist's publish action reports the refusal and publishes nothing."""
    article = story_with(field)
    response = admin_client.post(
        reverse("admin:articles_article_changelist"),
        {"action": "publish", "_selected_action": [article.pk]},
    )
    assert response.status_code == 302
    (message,) = [str(m) for m in get_messages(response.wsgi_request)]
    assert_refusal_names_the_field(message, field)
    article.refresh_from_db()
    assert article.status == Status.DRAFT


# ------------------------------------------------------------ the change form


@pytest.mark.parametrize("field", FIELDS)
def test_the_change_forms_publish_button_refuses_a_legal_name(
    protected, admin_client, settings, field
):
    """ "Save and publish" shows the refusal on the form; nothing is published."""
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    article = story_with(field)
    url = reverse("admin:articles_article_change", args=[article.pk])
    data = change_form_data(admin_client.get(url))
    response = admin_client.post(url, {**data, "_move": "publish"})
    assert response.status_code == 200
    errors = form_errors(response)
    assert "legal name of a protected person" in errors
    for spelling in (ARABIC, LATIN, RUN_TOGETHER, "الشاهد"):
        assert spelling not in errors
    article.refresh_from_db()
    assert article.status == Status.DRAFT


def test_the_change_form_refuses_to_edit_a_published_story_into_a_leak(
    protected, admin_client
):
    """Saving a public story runs the same gate as publishing it."""
    article = DraftArticleFactory(status=Status.PUBLISHED)
    url = reverse("admin:articles_article_change", args=[article.pk])
    data = change_form_data(admin_client.get(url))
    data["summary_en"] = f"About {LATIN}"
    response = admin_client.post(url, data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "summary_en" in errors
    article.refresh_from_db()
    assert article.summary_en in ("", None)


# ------------------------------------------------------------ the correction page


@pytest.mark.parametrize(
    "text_ar, text_en",
    [(f"الشاهد هو {ARABIC}", ""), ("", f"The witness is {LATIN}"), ("", RUN_TOGETHER)],
)
def test_the_correction_page_refuses_a_legal_name(
    protected, admin_client, text_ar, text_en
):
    """A correction naming the person is refused on its page; none is printed."""
    article = DraftArticleFactory(status=Status.PUBLISHED)
    url = reverse("admin:articles_article_add_correction", args=[article.pk])
    response = admin_client.post(
        url, {"kind": "correction", "text_ar": text_ar, "text_en": text_en}
    )
    assert response.status_code == 200
    errors = str(response.context["form"].non_field_errors())
    assert "correction: text" in errors
    assert "legal name of a protected person" in errors
    for spelling in (ARABIC, LATIN, RUN_TOGETHER, "الشاهد"):
        assert spelling not in errors
    assert not Correction.objects.exists()


# ------------------------------------------------------------ the importer

IMPORTS = {
    "headline": f"لقاء مع {ARABIC}\n\nالفقرة الأولى من الخبر.",
    "paragraph": f"عنوان الخبر\n\nقال {LATIN} إن الملفات نقلت.",
    "post author and handle": (
        "عنوان الخبر\n\nالفقرة الأولى.\n\nنص المنشور\n\n"
        f"— {LATIN} (@{RUN_TOGETHER}) December 12, 2024"
    ),
    "hashtag": f"عنوان الخبر\n\nالفقرة الأولى.\n\n#{RUN_TOGETHER}",
}


@pytest.mark.parametrize("where", IMPORTS)
def test_the_import_page_refuses_a_legal_name(protected, admin_client, where):
    """The import preview shows the alert and offers no import; confirming fails."""
    url = reverse("admin:articles_article_import")
    preview = admin_client.post(url, {"text": IMPORTS[where]})
    html = preview.content.decode()
    assert preview.status_code == 200
    assert "PROTECTED IDENTITY" in html
    assert not preview.context["can_import"]
    confirm = admin_client.post(url, {"text": IMPORTS[where], "confirm": "1"})
    assert confirm.status_code == 200
    assert "PROTECTED IDENTITY" in confirm.content.decode()
    assert not Article.objects.exists()


@pytest.mark.parametrize("where", IMPORTS)
def test_the_import_command_refuses_a_legal_name(protected, chief, tmp_path, where):
    """import_story exits non-zero, saying where (never what), and creates nothing."""
    path = tmp_path / "story.txt"
    path.write_text(IMPORTS[where], encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command(
            "import_story",
            str(path),
            "--user",
            "chief",
            stdout=io.StringIO(),
            stderr=err,
        )
    assert exited.value.code == 1
    assert "PROTECTED IDENTITY" in err.getvalue()
    for spelling in (ARABIC, LATIN, RUN_TOGETHER):
        assert spelling not in err.getvalue()
    assert not Article.objects.exists()
