"""The story service refuses a protected legal name however it is disguised.

Each way an adversary got a name past the earlier matcher is tried through the one
door every story write takes, `article_save`, by a member of the Editors group:
invisible characters, a bidi override, look-alike letters, another order of the
words, markup and encodings, and names split between fields printed side by side.
The gate finds where the name is; the refusal names neither the name nor, to an
editor, where it is (tests/identity/test_refusal_places.py); nothing is written.
"""

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from articles.models import Article, Byline, SocialPost
from articles.services import StoryEdit, article_save
from core.echo import restored
from core.roles import EDITORS
from identity.gate import BidiOverrideError, IdentityGate, IdentityLeakError
from identity.redaction import own_words, redacted_text
from sources.models import Attribution
from tests.admin_forms import change_form_data, form_errors
from tests.factories import (
    ImageFactory,
    ProtectedPersonFactory,
    SourceFactory,
    member_of,
)

pytestmark = pytest.mark.django_db

ARABIC = "نزار الحلبوني"
LATIN = "Nizar al-Halbouni"
# What a refusal must never print: the spellings and each of their words.
SECRETS = (ARABIC, LATIN, "نزار", "الحلبوني", "Nizar", "Halbouni")
# نزار الحلبوني, percent-encoded as in a link.
ENCODED = "%D9%86%D8%B2%D8%A7%D8%B1%20%D8%A7%D9%84%D8%AD%D9%84%D8%A8%D9%88%D9%86%D9%8A"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def protected():
    return ProtectedPersonFactory(name=ARABIC, other_spellings=LATIN)


@pytest.fixture
def editor():
    return member_of(EDITORS, username="desk-editor")


def story(**fields) -> Article:
    return Article(language="ar", **{"headline_ar": "عنوان الخبر", **fields})


def post(**fields) -> SocialPost:
    return SocialPost(
        platform="x", author_name="حساب", handle="news", text="نص", **fields
    )


# (the edit, words the refusal names: one string or several)
DISGUISES = {
    "hangul filler between the words": (
        lambda: StoryEdit(article=story(headline_ar="لقاء مع نزار\u3164الحلبوني")),
        "headline",
    ),
    "hangul filler between the letters": (
        lambda: StoryEdit(article=story(summary_ar="نز\u3164ار الحل\u3164بوني")),
        "summary",
    ),
    "word joiner and soft hyphen": (
        lambda: StoryEdit(article=story(kicker_en="Niz\u2060ar al-Hal\u00adbouni")),
        "kicker",
    ),
    "Latin written backwards inside an override": (
        lambda: StoryEdit(article=story(headline_en="\u202einuoblaH-la razin\u202c")),
        "headline",
    ),
    "N'Ko lajanyalan for tatweel": (
        lambda: StoryEdit(article=story(headline_ar="نزار الحل\u07fa\u07faبوني")),
        "headline",
    ),
    "Pashto e for yeh": (
        lambda: StoryEdit(article=story(headline_ar="نزار الحلبونې")),
        "headline",
    ),
    "dotless beh": (
        lambda: StoryEdit(article=story(headline_ar="نزار الحلٮوني")),
        "headline",
    ),
    "noon with a dot below": (
        lambda: StoryEdit(article=story(headline_ar="ڹزار الحلبوني")),
        "headline",
    ),
    "high hamza alef": (
        lambda: StoryEdit(article=story(headline_ar="نزار ٵلحلبوني")),
        "headline",
    ),
    "l with stroke": (
        lambda: StoryEdit(article=story(headline_en="Nizar al-Hałbouni")),
        "headline",
    ),
    "small capitals": (
        lambda: StoryEdit(article=story(headline_en="ɴɪᴢᴀʀ al-Halbouni")),
        "headline",
    ),
    "surname first, in Arabic": (
        lambda: StoryEdit(article=story(summary_ar="الحلبوني، نزار")),
        "summary",
    ),
    "surname first, in English": (
        lambda: StoryEdit(article=story(summary_en="al-Halbouni, Nizar")),
        "summary",
    ),
    "a father's name inserted": (
        lambda: StoryEdit(article=story(body_ar="<p>قال نزار بن خالد الحلبوني</p>")),
        "body",
    ),
    "bin in English": (
        lambda: StoryEdit(article=story(body_en="<p>Nizar bin Khaled Halbouni</p>")),
        "body",
    ),
    "HTML typed into a plain field": (
        lambda: StoryEdit(article=story(headline_ar="<b>نزار</b> الحلبوني")),
        "headline",
    ),
    "a punycode domain in a URL field": (
        lambda: StoryEdit(
            article=story(),
            changed=[post(url="https://xn--mgbadtse3kblivz.example/status/1")],
        ),
        "social post: post URL",
    ),
    "a percent-encoded name in a URL": (
        lambda: StoryEdit(
            article=story(),
            changed=[
                Attribution(
                    source=SourceFactory(),
                    original_url=f"https://example.com/?q={ENCODED}",
                )
            ],
        ),
        "original URL",
    ),
    "a body link's percent-encoded href": (
        lambda: StoryEdit(
            article=story(
                body_ar=f'<p><a href="https://example.com/{ENCODED}">رابط</a></p>'
            )
        ),
        "body",
    ),
    "a body link's title": (
        lambda: StoryEdit(
            article=story(
                body_en='<p><a href="https://example.com/" title="Nizar '
                'al-Halbouni">a link</a></p>'
            )
        ),
        "body",
    ),
    "an image's alt text": (
        lambda: StoryEdit(
            article=story(hero_image=ImageFactory(alt_text_ar="نزار&nbsp;الحلبوني"))
        ),
        "image: alt text",
    ),
    "a kicker over a headline": (
        lambda: StoryEdit(
            article=story(kicker_ar="نزار", headline_ar="الحلبوني يروي ما رآه")
        ),
        ("kicker", "headline", "printed together"),
    ),
    "two tags side by side": (
        lambda: StoryEdit(article=story(), tags=["نزار", "الحلبوني"]),
        "tag: name, printed together",
    ),
    "two bylines": (
        lambda: StoryEdit(
            article=story(), changed=[Byline(name="Nizar"), Byline(name="Halbouni")]
        ),
        "byline: guest name + staff member, printed together",
    ),
}


@pytest.mark.parametrize("disguise", DISGUISES)
def test_article_save_refuses_a_disguised_legal_name(editor, disguise):
    """The gate finds the name where it is; the message never names it (nor, to
    an editor, which field holds it: see test_refusal_places); no story is
    written."""
    make, where = DISGUISES[disguise]
    with pytest.raises(IdentityLeakError) as refused:
        article_save(edit=make(), by=editor)
    found = " ".join(leak.label for leak in refused.value.leaks)
    for words in [where] if isinstance(where, str) else where:
        assert words in found, found
    message = refused.value.messages[0]
    for secret in SECRETS:
        assert secret not in message
    assert not Article.objects.exists()


def test_a_bidi_override_is_refused_in_public_text(editor):
    """An override reverses what it encloses: public text may not hold one."""
    edit = StoryEdit(article=story(headline_en="A \u202eweiv\u202c of the port"))
    with pytest.raises(BidiOverrideError) as refused:
        article_save(edit=edit, by=editor)
    assert "headline" in refused.value.messages[0]
    assert not Article.objects.exists()


def test_embeddings_and_marks_stay_allowed(editor):
    """RLE … PDF, isolates and the direction marks do not reverse letters."""
    edit = StoryEdit(
        article=story(headline_ar="\u202bعنوان\u202c مع \u2067كلمة\u2069 \u200fهنا")
    )
    article_save(edit=edit, by=editor)
    assert Article.objects.exists()


def test_ordinary_copy_about_other_people_passes(editor):
    """The given name and the family name far apart are not the legal name."""
    edit = StoryEdit(
        article=story(
            kicker_ar="شعر",
            headline_ar="نزار قباني في ذكراه",
            summary_ar="أمسية في دمشق قرأ فيها أصدقاء الشاعر قصائده، وحضرها تجار "
            "من آل الحلبوني",
        ),
        tags=["نزار قباني", "دمشق"],
    )
    article_save(edit=edit, by=editor)
    assert Article.objects.exists()


# ------------------------------------------------------------ the doors over HTTP

# The disguises an adversary typed into the admin and the Import page.
TYPED = {
    "hangul filler": "نزار\u3164الحلبوني",
    "latin backwards in an override": f"\u202e{LATIN[::-1]}\u202c",
    "surname first": "الحلبوني، نزار",
    "father's name inserted": "نزار بن خالد الحلبوني",
    "small capitals": "ɴɪᴢᴀʀ al-Halbouni",
}


@pytest.fixture
def editor_client(client, editor, settings):
    client.force_login(editor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.mark.parametrize("disguise", TYPED.values(), ids=TYPED.keys())
def test_the_story_form_refuses_a_disguise_typed_by_an_editor(editor_client, disguise):
    """An Editors member saving a draft's summary with the disguised name over
    HTTP is refused above the form, which shows the summary back as typed (their
    own words, neither rewritten to the pseudonym nor withheld), and the story
    keeps its summary."""
    draft = story(summary_ar="ملخص سليم")
    article_save(edit=StoryEdit(article=draft), by=member_of(EDITORS))
    url = reverse("admin:articles_article_change", args=[draft.pk])
    data = change_form_data(editor_client.get(url))
    typed = f"قال {disguise}"
    response = editor_client.post(url, {**data, "summary_ar": typed})
    shown = response.content.decode()
    assert response.status_code == 200
    assert escape(typed) in shown
    assert "summary" not in response.context["adminform"].form.errors
    assert "protected person" in form_errors(response)
    assert "الشاهد" not in shown
    assert Article.objects.get(pk=draft.pk).summary_ar == "ملخص سليم"


@pytest.mark.parametrize("disguise", TYPED.values(), ids=TYPED.keys())
def test_the_import_page_refuses_a_disguise_pasted_by_an_editor(
    editor_client, disguise
):
    """The same disguise pasted into the Import page: the preview answers with the
    one alert, which names the kind of place and never the name, and no story is
    made. (The editor's own paste stays in the text box, unchanged.)"""
    text = f"لقاء في المدينة القديمة\n\nقال {disguise} إن الوثائق صحيحة."
    response = editor_client.post(
        reverse("admin:articles_article_import"), {"text": text}
    )
    (alert,) = [
        p for p in response.context["result"].alerts if p.code == "protected_name"
    ]
    assert not any(secret in str(alert.message) for secret in SECRETS)
    assert not Article.objects.exists()


def test_the_import_preview_shows_the_pasted_copy_as_typed(editor_client):
    """The preview's headline and paragraphs are pieces of the paste: the
    editor's own words, not rewritten to the pseudonym (which would say who is
    protected, and under which name)."""
    text = f"{ARABIC} في الساحة\n\nقال {ARABIC} إن الوثائق صحيحة."
    response = editor_client.post(
        reverse("admin:articles_article_import"), {"text": text}
    )
    shown = response.content.decode()
    assert response.status_code == 200
    assert f"<strong>{ARABIC} في الساحة</strong>" in shown
    assert "الشاهد" not in shown


@pytest.mark.parametrize(
    ("posted", "unmasked"),
    [(ARABIC, False), (f"قال {ARABIC} في حديث طويل", True)],
    ids=["the name alone", "the whole run of text"],
)
def test_only_a_posted_run_of_text_is_shown_back_as_typed(
    rf, protected, posted, unmasked
):
    """Stored text naming the person shows the pseudonym unless the user posted
    that very run of text: a name posted alone must not tie itself to the
    pseudonym where stored text names that person."""
    request = rf.post("/admin/", {"text": posted})
    page = f"<p>قال {ARABIC} في حديث طويل</p>"
    gate = IdentityGate([protected])
    shown = restored(
        request, redacted_text(gate, page, kept=own_words(request)), markup=True
    )
    assert (ARABIC in shown) is unmasked
    assert ("الشاهد" in shown) is not unmasked
