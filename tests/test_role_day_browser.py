"""A working day of each role, in a real browser, as plain members of the groups
(never a superuser), each signing in through the login page: the reporter writes a
story with a byline, a person named, a social post placed in the body and a library
image and submits it; the editor edits, approves and publishes it; the source
manager adds a social account to a source; the identity officer protects the person
the story names in one step. Screenshots of each step go to artifacts/role_day/."""

import pytest
from django.utils import translation

from articles.models import Article, Status
from core.roles import EDITORS, IDENTITY_OFFICERS, REPORTERS, SOURCE_MANAGERS
from identity.models import Person
from sources.models import SocialAccount
from tests.browser import ARTIFACTS, DESKTOP, log_in, screenshot
from tests.factories import (
    ImageFactory,
    PersonFactory,
    RenditionFactory,
    SourceFactory,
    member_of,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-for-tests"
AR_EDITOR = ".prose-editor:has(#id_body_ar) .ProseMirror[contenteditable]"
AR_MENU = ".prose-editor:has(#id_body_ar) .prose-menubar"
NAME = "سالم الحربي"
POST_URL = "https://x.com/city_works/status/1234567890"


@pytest.fixture
def newsroom(db):
    """The four colleagues, a person the story will name, a source, an image."""
    people = {
        "reporter": member_of(
            REPORTERS, username="reem", first_name="ريم", last_name="الحسن"
        ),
        "editor": member_of(EDITORS, username="nader", first_name="نادر"),
        "sources": member_of(SOURCE_MANAGERS, username="lina", first_name="لينا"),
        "officer": member_of(IDENTITY_OFFICERS, username="karim", first_name="كريم"),
    }
    image = ImageFactory(title_ar="جسر وادي الملح", caption_ar="الجسر عند الافتتاح")
    RenditionFactory(image=image, width=320, height=180)
    return {
        **people,
        "person": PersonFactory(name=NAME),
        "source": SourceFactory(name_ar="موقع الوادي", name_en="Wadi Site"),
        "image": image,
    }


@pytest.fixture
def sign_in(browser, live_server):
    """A fresh browser for each colleague, signed in through the login page."""
    contexts = []

    def open_as(user):
        context = browser.new_context(viewport=DESKTOP)
        contexts.append(context)
        page = context.new_page()
        log_in(page, live_server, user.username, PASSWORD)
        return page

    yield open_as
    for context in contexts:
        context.close()


def shot(page, name: str) -> None:
    (ARTIFACTS / "role_day").mkdir(parents=True, exist_ok=True)
    screenshot(page, f"role_day/{name}")


def choose(page, field_id: str, typed: str) -> None:
    """Pick in an autocomplete (select2) the first answer to what is typed."""
    page.click(f"#{field_id} + .select2")
    page.keyboard.type(typed)
    option = page.locator(".select2-results__option--highlighted", has_text=typed)
    option.wait_for()
    page.keyboard.press("Enter")


def save(page, button: str = "input[name=_continue]") -> None:
    page.click(button)
    page.wait_for_load_state("networkidle")
    assert page.locator(".errornote").count() == 0, page.locator(
        ".errorlist"
    ).all_inner_texts()


def public_url(live_server, article) -> str:
    article.refresh_from_db()
    with translation.override("ar"):
        return live_server.url + article.get_absolute_url()


def reporters_day(page, live_server, newsroom) -> Article:
    """Write the story with its parts, save, place the post, submit."""
    page.goto(f"{live_server.url}/admin/articles/article/add/")
    shot(page, "01-reporter-add-form")
    page.fill("#id_headline_ar", "افتتاح جسر جديد فوق وادي الملح")
    page.locator(AR_EDITOR).click()
    page.keyboard.type(f"قال {NAME} إن الجسر يختصر الطريق نصف ساعة.")
    page.click(f"{AR_MENU} [data-name=storyEmbedImage]")
    # The chooser searches the whole library: the picture is found by its words.
    dialog = page.locator("dialog.story-embed-dialog")
    dialog.locator("input[type=search]").fill(newsroom["image"].title_ar)
    dialog.locator(f"input[type=radio][value='{newsroom['image'].pk}']").check()
    dialog.locator("button[value=insert]").click()
    choose(page, "id_bylines-0-user", "ريم")
    choose(page, "id_people_named-0-person", NAME)
    page.click("#social_posts-group .add-row a")
    page.fill("#id_social_posts-0-paste", POST_URL)
    page.wait_for_function(
        "() => document.querySelector('#id_social_posts-0-handle').value"
        " === 'city_works'"
    )
    shot(page, "02-reporter-story-with-its-parts")
    save(page)
    article = Article.objects.get()
    assert article.created_by == newsroom["reporter"]

    # A post is offered for placing once it is saved with the story. Placed after
    # the paragraph: a click on the image would select it, and placing replaces it.
    page.locator(f"{AR_EDITOR} p").first.click()
    page.keyboard.press("End")
    page.click(f"{AR_MENU} [data-name=storyEmbedPost]")
    page.click("dialog.story-embed-dialog button[value=insert]")
    shot(page, "03-reporter-post-placed")
    save(page)
    save(page, "button[name=_move][value=submit]")
    shot(page, "04-reporter-submitted")
    article.refresh_from_db()
    assert article.status == Status.IN_REVIEW
    post = article.social_posts.get()
    assert f'<figure data-post="{post.pk}"></figure>' in article.body_ar
    assert f'<figure data-image="{newsroom["image"].pk}"></figure>' in article.body_ar
    assert [b.user for b in article.bylines.all()] == [newsroom["reporter"]]
    assert [p.person for p in article.people_named.all()] == [newsroom["person"]]
    return article


def editors_day(page, live_server, article) -> None:
    """Sharpen the headline, approve, publish; the story is on the site."""
    change = f"{live_server.url}/admin/articles/article/{article.pk}/change/"
    page.goto(change)
    page.fill("#id_headline_ar", "جسر وادي الملح يفتح أمام السيارات")
    shot(page, "05-editor-edits-the-headline")
    save(page, "button[name=_move][value=approve]")
    shot(page, "06-editor-approved")
    page.goto(change)
    save(page, "button[name=_move][value=publish]")
    shot(page, "07-editor-published")
    article.refresh_from_db()
    assert article.status == Status.PUBLISHED
    assert article.headline_ar == "جسر وادي الملح يفتح أمام السيارات"

    page.goto(public_url(live_server, article))
    story = page.locator("article")
    text = story.inner_text()
    assert "جسر وادي الملح يفتح أمام السيارات" in text
    assert "ريم الحسن" in text and NAME in text and "@city_works" in text
    assert story.locator(".body-image img").count() == 1
    shot(page, "08-public-story")


def source_managers_day(page, live_server, source) -> None:
    """Add the outlet's X account on the source's page."""
    page.goto(f"{live_server.url}/admin/sources/source/{source.pk}/change/")
    page.select_option("#id_social_accounts-0-platform", "x")
    page.fill("#id_social_accounts-0-handle", "wadi_site")
    page.fill("#id_social_accounts-0-url", "https://x.com/wadi_site")
    shot(page, "09-sources-adds-an-account")
    save(page, "input[name=_save]")
    shot(page, "10-sources-saved")
    assert SocialAccount.objects.get(source=source).handle == "wadi_site"


def identity_officers_day(page, live_server, person, article) -> None:
    """Protect the person the published story names, withdrawing it in one save."""
    page.goto(f"{live_server.url}/admin/identity/person/{person.pk}/change/")
    page.check("#id_identity_protected")
    page.fill("#id_other_spellings", "Salem al-Harbi")
    page.fill("#id_public_name", "المصدر")
    page.check("#id_withdraw_stories")
    shot(page, "11-officer-protects")
    save(page, "input[name=_save]")
    shot(page, "12-officer-protected")
    person.refresh_from_db()
    assert person.identity_protected
    article.refresh_from_db()
    assert article.status == Status.DRAFT

    response = page.goto(public_url(live_server, article))
    assert response.status == 404
    assert NAME not in page.content()
    shot(page, "13-public-story-gone")


def test_each_role_does_its_day_on_one_story(newsroom, sign_in, live_server):
    """The story passes from the reporter to the editor to the site; the source
    manager and the identity officer do their part beside it."""
    article = reporters_day(sign_in(newsroom["reporter"]), live_server, newsroom)
    editors_day(sign_in(newsroom["editor"]), live_server, article)
    source_managers_day(sign_in(newsroom["sources"]), live_server, newsroom["source"])
    identity_officers_day(
        sign_in(newsroom["officer"]), live_server, newsroom["person"], article
    )
    protected = Person.objects.get(pk=newsroom["person"].pk)
    # The legal name left the person's row for a table of its own.
    assert (protected.public_name, protected.name) == ("المصدر", "")
