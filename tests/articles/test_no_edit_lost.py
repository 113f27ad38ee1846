"""No edit lost (issue #20): two Editors on one story, wherever it was written, merge
what they changed in different places; where they changed the same place the second
is shown both versions, with everything else already up to date, and whatever they
choose, saving again never brings back a value nobody typed."""

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from articles.body import canonical_blocks
from articles.concurrency import EditConflict
from articles.models import Article
from articles.revision_diff import conflicts_shown
from articles.revisions import revisions_of
from articles.services import StoryEdit, article_publish, article_save
from core.roles import EDITORS
from demo.seed import seed_newsroom
from ingest.decode import text_from_bytes
from ingest.services import story_import
from tests.admin_forms import change_form_data
from tests.factories import ArticleFactory, SocialPostFactory, member_of
from tests.ingest.conftest import sample_bytes

pytestmark = pytest.mark.django_db

# Written outside the form: a one-line headline with a trailing space, a summary
# and a body whose lines end with "\n", paragraphs without the editor's markup.
OUTSIDE_BODY = "<p>الفقرة الأولى.</p>\n<p>الفقرة\nالثانية.</p>\n<p>الفقرة الثالثة.</p>"


def editor_body(*paragraphs: str) -> str:
    """A body as the body editor sends it once an editor has typed in it."""
    return "".join(f'<p dir="auto">{text}</p>' for text in paragraphs)


PARAGRAPHS = ("الفقرة الأولى.", "الفقرة الثانية.", "الفقرة الثالثة.")


@pytest.fixture(autouse=True)
def english(settings, client):
    """Messages are read in English (the admin's language cookie, and services)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def alice():
    return member_of(EDITORS, username="alice", first_name="Alice")


@pytest.fixture
def bob():
    return member_of(EDITORS, username="bob", first_name="Bob")


def outside_story() -> Article:
    """A story as a migration or a script leaves it: saved without a revision."""
    return ArticleFactory(
        headline_ar="عنوان قديم ",
        summary_ar="ملخص قديم\nمن سطرين\n",
        body_ar=OUTSIDE_BODY,
    )


def imported_story(by) -> Article:
    text = text_from_bytes(sample_bytes("01_ar_afp_dateline.txt"))[0]
    return story_import(text=text, by=by).article


def demo_story(_by) -> Article:
    call_command("load_demo", verbosity=0)
    return Article.objects.get(slug_ar="افتتاح-خط-بحري-بين-دبي-وصلالة")


def seeded_story(_by) -> Article:
    seed_newsroom(stories=1, people=3, sources=3)
    return Article.objects.latest("pk")


def migrated_story(_by) -> Article:
    story = outside_story()
    Article.objects.filter(pk=story.pk).update(summary_ar="كتبه ترحيل\nللبيانات  ")
    return Article.objects.get(pk=story.pk)


def change_url(story: Article) -> str:
    return reverse("admin:articles_article_change", args=[story.pk])


def open_form(client, user, story: Article) -> dict[str, str]:
    """The form as `user`'s browser would send it back untouched: textareas send
    line breaks as CRLF, and the body editor sends an untouched body as it got it."""
    client.force_login(user)
    return as_a_browser_sends(change_form_data(client.get(change_url(story))))


def open_both(client, alice, bob, story: Article) -> tuple[dict, dict]:
    """The story opened by Alice, then by Bob."""
    return open_form(client, alice, story), open_form(client, bob, story)


def as_a_browser_sends(data: dict[str, str]) -> dict[str, str]:
    return {
        key: value.replace("\r\n", "\n").replace("\n", "\r\n")
        for key, value in data.items()
    }


def save(client, user, story: Article, data: dict[str, str]):
    client.force_login(user)
    return client.post(change_url(story), data)


@pytest.mark.parametrize(
    "written_by",
    [imported_story, demo_story, seeded_story, migrated_story],
    ids=["importer", "demo", "seed_newsroom", "migration"],
)
def test_headline_and_summary_changed_by_two_editors_are_both_kept(
    client, alice, bob, written_by
):
    """The issue's sequence on a story written outside the form: Alice changes
    only the headline, Bob only the summary; Bob's save merges, both stay."""
    story = written_by(alice)
    code = story.language
    alice_form, bob_form = (
        open_form(client, alice, story),
        open_form(client, bob, story),
    )
    response = save(
        client, alice, story, {**alice_form, f"headline_{code}": "عنوان أليس"}
    )
    assert response.status_code == 302
    response = save(client, bob, story, {**bob_form, f"summary_{code}": "ملخص بوب"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    story.refresh_from_db()
    assert getattr(story, f"headline_{code}") == "عنوان أليس"
    assert getattr(story, f"summary_{code}") == "ملخص بوب"


@pytest.mark.parametrize(
    "written_by",
    [imported_story, demo_story, seeded_story, migrated_story],
    ids=["importer", "demo", "seed_newsroom", "migration"],
)
def test_different_paragraphs_changed_by_two_editors_are_both_kept(
    client, alice, bob, written_by
):
    """Alice rewrites the first paragraph, Bob the last, each in the body editor
    (which sends every paragraph back in its own markup): both are kept."""
    story = written_by(alice)
    name = f"body_{story.language}"
    # What the body editor sends back once an editor has typed in it (checked
    # against Chromium in test_body.py).
    blocks = canonical_blocks(getattr(story, name))
    alice_form, bob_form = open_both(client, alice, bob, story)
    alice_body = ['<p dir="auto">أولى أليس</p>', *blocks[1:]]
    save(client, alice, story, {**alice_form, name: "".join(alice_body)})
    bob_body = [*blocks[:-1], '<p dir="auto">أخيرة بوب</p>']
    response = save(client, bob, story, {**bob_form, name: "".join(bob_body)})
    assert response.status_code == 302, response.context["adminform"].form.errors
    story.refresh_from_db()
    assert canonical_blocks(getattr(story, name)) == [
        alice_body[0],
        *blocks[1:-1],
        bob_body[-1],
    ]


def test_a_story_written_outside_the_desk_is_recorded_as_found_before_its_first_save(
    alice,
):
    """The version editors opened becomes a revision (by nobody) before the first
    save changes it: the ancestor every concurrent save is merged against."""
    story = outside_story()
    story.headline_ar = "عنوان أليس"
    article_save(edit=StoryEdit(article=story, base_version=1), by=alice)
    found, saved = reversed(list(revisions_of(story)))
    assert (found.user, saved.user) == (None, alice)
    assert "As found" in found.comment


def test_a_story_saved_through_the_desk_is_not_recorded_twice(alice):
    """Each save records one revision when the last one already holds the story."""
    story = outside_story()
    for headline in ("الأول", "الثاني"):
        story.headline_ar = headline
        article_save(
            edit=StoryEdit(article=story, base_version=story.version), by=alice
        )
    assert revisions_of(story).count() == 3  # as found, and the two saves


def test_after_a_conflict_the_form_holds_my_change_and_their_others(client, alice, bob):
    """Both change the headline, Alice the summary too: Bob is shown the form
    again with his headline, Alice's summary, and the stored version."""
    story = outside_story()
    alice_form, bob_form = (
        open_form(client, alice, story),
        open_form(client, bob, story),
    )
    save(
        client,
        alice,
        story,
        {**alice_form, "headline_ar": "عنوان أليس", "summary_ar": "ملخص أليس"},
    )
    response = save(client, bob, story, {**bob_form, "headline_ar": "عنوان بوب"})
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert form["headline_ar"].value() == "عنوان بوب"
    assert form["summary_ar"].value() == "ملخص أليس"
    assert int(form["base_version"].value()) == Article.objects.get(pk=story.pk).version
    (conflict,) = form.edit_conflicts
    assert (conflict.by, conflict.choice) == ("Alice", "headline_ar")
    page = response.content.decode()
    assert 'id="edit-conflicts"' in page and 'value="headline_ar"' in page


def bob_in_conflict(client, alice, bob):
    """Alice saved headline and summary; Bob's headline conflicts: the story and
    the form Bob is shown again."""
    story = outside_story()
    alice_form, bob_form = (
        open_form(client, alice, story),
        open_form(client, bob, story),
    )
    save(
        client,
        alice,
        story,
        {**alice_form, "headline_ar": "عنوان أليس", "summary_ar": "ملخص أليس"},
    )
    response = save(client, bob, story, {**bob_form, "headline_ar": "عنوان بوب"})
    return story, response


def test_keeping_mine_after_a_conflict_brings_back_no_old_value(client, alice, bob):
    """Bob keeps his headline and saves again: Alice's summary stays, nothing of
    the version both opened comes back."""
    story, response = bob_in_conflict(client, alice, bob)
    (conflict,) = response.context["adminform"].form.edit_conflicts
    data = {**change_form_data(response), conflict.input_name: "mine"}
    assert save(client, bob, story, data).status_code == 302
    story.refresh_from_db()
    assert (story.headline_ar, story.summary_ar) == ("عنوان بوب", "ملخص أليس")


def test_taking_theirs_after_a_conflict_keeps_their_value(client, alice, bob):
    """Bob takes Alice's headline: the save keeps hers, and her summary."""
    story, response = bob_in_conflict(client, alice, bob)
    (conflict,) = response.context["adminform"].form.edit_conflicts
    data = {**change_form_data(response), conflict.input_name: conflict.choice}
    assert save(client, bob, story, data).status_code == 302
    story.refresh_from_db()
    assert (story.headline_ar, story.summary_ar) == ("عنوان أليس", "ملخص أليس")


def test_taking_theirs_when_a_third_save_came_since_merges_with_it(client, alice, bob):
    """Bob takes Alice's headline after Carol changed the kicker: both stay."""
    story, response = bob_in_conflict(client, alice, bob)
    carol = member_of(EDITORS, username="carol")
    carol_copy = Article.objects.get(pk=story.pk)
    carol_copy.kicker_ar = "عاجل"
    article_save(
        edit=StoryEdit(article=carol_copy, base_version=carol_copy.version), by=carol
    )
    (conflict,) = response.context["adminform"].form.edit_conflicts
    data = {**change_form_data(response), conflict.input_name: conflict.choice}
    assert save(client, bob, story, data).status_code == 302
    story.refresh_from_db()
    assert (story.headline_ar, story.kicker_ar) == ("عنوان أليس", "عاجل")


def test_edits_to_different_paragraphs_of_the_body_merge(client, alice, bob):
    """Alice rewrites the first paragraph, Bob the third: both are in the body."""
    story = outside_story()
    alice_form, bob_form = (
        open_form(client, alice, story),
        open_form(client, bob, story),
    )
    first, second, third = PARAGRAPHS
    save(
        client,
        alice,
        story,
        {**alice_form, "body_ar": editor_body("أولى أليس.", second, third)},
    )
    response = save(
        client,
        bob,
        story,
        {**bob_form, "body_ar": editor_body(first, second, "ثالثة بوب.")},
    )
    assert response.status_code == 302
    story.refresh_from_db()
    assert story.body_ar == editor_body("أولى أليس.", second, "ثالثة بوب.")


def bob_in_a_paragraph_conflict(client, alice, bob):
    """Alice rewrote paragraphs one and two, Bob two and three."""
    story = outside_story()
    alice_form, bob_form = (
        open_form(client, alice, story),
        open_form(client, bob, story),
    )
    first, second, third = PARAGRAPHS
    alice_body = editor_body("أولى أليس.", "ثانية أليس.", third)
    save(client, alice, story, {**alice_form, "body_ar": alice_body})
    bob_body = editor_body(first, "ثانية بوب.", "ثالثة بوب.")
    return story, save(client, bob, story, {**bob_form, "body_ar": bob_body})


def test_edits_to_the_same_paragraph_conflict_there_only(client, alice, bob):
    """Only paragraph two conflicts; Bob's form holds Alice's first paragraph, his
    second and his third, and shows both second paragraphs side by side."""
    _story, response = bob_in_a_paragraph_conflict(client, alice, bob)
    form = response.context["adminform"].form
    assert form["body_ar"].value() == editor_body(
        "أولى أليس.", "ثانية بوب.", "ثالثة بوب."
    )
    (conflict,) = form.edit_conflicts
    assert conflict.label == "body [ar], paragraph 2"
    assert conflict.mine == ["ثانية <del>بوب.</del>"]
    assert conflict.theirs == ["ثانية <ins>أليس.</ins>"]


def test_taking_theirs_for_a_paragraph_puts_theirs_in_my_body(client, alice, bob):
    """Bob takes Alice's second paragraph: his third stays, her first too."""
    story, response = bob_in_a_paragraph_conflict(client, alice, bob)
    (conflict,) = response.context["adminform"].form.edit_conflicts
    data = {**change_form_data(response), conflict.input_name: conflict.choice}
    assert save(client, bob, story, data).status_code == 302
    story.refresh_from_db()
    assert story.body_ar == editor_body("أولى أليس.", "ثانية أليس.", "ثالثة بوب.")


def grant_social_posts(*users) -> None:
    """The permissions on the story's social posts (an inline of the form)."""
    wanted = Permission.objects.filter(
        content_type__app_label="articles", codename__endswith="_socialpost"
    )
    for user in users:
        user.user_permissions.add(*wanted)


def test_after_a_conflict_a_row_i_did_not_touch_shows_their_change(client, alice, bob):
    """Alice edited the social post and the headline; Bob the headline. Bob's form
    shows Alice's post text, and saving it again keeps her text."""
    story = outside_story()
    post = SocialPostFactory(article=story, text="نص قديم")
    grant_social_posts(alice, bob)
    alice_form, bob_form = (
        open_form(client, alice, story),
        open_form(client, bob, story),
    )
    post_text = next(k for k, v in alice_form.items() if v == "نص قديم")
    save(
        client,
        alice,
        story,
        {**alice_form, "headline_ar": "عنوان أليس", post_text: "نص أليس"},
    )
    response = save(client, bob, story, {**bob_form, "headline_ar": "عنوان بوب"})
    assert response.status_code == 200
    data = change_form_data(response)
    assert data[post_text] == "نص أليس"
    assert save(client, bob, story, data).status_code == 302
    post.refresh_from_db()
    assert post.text == "نص أليس"


def test_the_same_headline_typed_by_both_is_no_conflict(alice, bob):
    """Both fixed the headline the same way, one with a trailing space."""
    story = outside_story()
    for user, headline in ((alice, "العنوان الصحيح"), (bob, "العنوان الصحيح ")):
        copy = Article.objects.get(pk=story.pk)
        copy.headline_ar = headline
        article_save(edit=StoryEdit(article=copy, base_version=1), by=user)
    assert Article.objects.get(pk=story.pk).headline_ar.strip() == "العنوان الصحيح"


def test_a_conflict_is_shown_by_paragraph_with_the_differing_words_marked(alice, bob):
    """Two rewrites of one paragraph: each side its own paragraph, the words it
    does not share marked, the text escaped."""
    story = outside_story()
    base = story.version
    first, second, third = PARAGRAPHS
    alice_copy = Article.objects.get(pk=story.pk)
    alice_copy.body_ar = editor_body(first, "قالت <أليس> كلمتها.", third)
    article_save(edit=StoryEdit(article=alice_copy, base_version=base), by=alice)
    bob_copy = Article.objects.get(pk=story.pk)
    bob_copy.body_ar = editor_body(first, "قال بوب كلمته.", third)
    with pytest.raises(EditConflict) as refused:
        article_save(edit=StoryEdit(article=bob_copy, base_version=base), by=bob)
    (shown,) = conflicts_shown(refused.value.conflicts)
    assert shown.mine == ["<del>قال بوب كلمته.</del>"]
    assert shown.theirs == ["<ins>قالت &lt;أليس&gt; كلمتها.</ins>"]
    assert (shown.by, shown.language) == ("Alice", "ar")


def test_a_move_of_a_story_written_outside_the_desk_keeps_the_version_opened(
    alice, bob
):
    """Alice publishes a migrated draft while Bob edits its summary: the move
    records the story as found first, so Bob's save merges instead of conflicting."""
    story = outside_story()
    Article.objects.filter(pk=story.pk).update(status="approved", published_at=None)
    opened = Article.objects.get(pk=story.pk)
    article_publish(article=Article.objects.get(pk=story.pk), by=alice)
    opened.summary_ar = "ملخص بوب"
    article_save(edit=StoryEdit(article=opened, base_version=opened.version), by=bob)
    story.refresh_from_db()
    assert (story.status, story.summary_ar) == ("published", "ملخص بوب")


def test_a_row_both_changed_is_shown_by_field_and_theirs_can_be_taken(
    client, alice, bob
):
    """Both rewrote the social post's text: Bob sees the two texts, takes
    Alice's, and his save leaves her text in place."""
    story = outside_story()
    post = SocialPostFactory(article=story, text="نص قديم")
    grant_social_posts(alice, bob)
    alice_form, bob_form = open_both(client, alice, bob, story)
    post_text = next(k for k, v in alice_form.items() if v == "نص قديم")
    save(client, alice, story, {**alice_form, post_text: "نص أليس"})
    response = save(client, bob, story, {**bob_form, post_text: "نص بوب"})
    (conflict,) = response.context["adminform"].form.edit_conflicts
    assert conflict.mine == ["text: نص <del>بوب</del>"]
    assert conflict.theirs == ["text: نص <ins>أليس</ins>"]
    data = {**change_form_data(response), conflict.input_name: conflict.choice}
    assert save(client, bob, story, data).status_code == 302
    post.refresh_from_db()
    assert post.text == "نص أليس"
