"""No lost updates: two editors saving the same story merge or are told, never
overwrite each other in silence."""

import threading

import pytest
from django.db import connection, connections
from django.urls import reverse
from django.utils import translation

from articles.concurrency import EditConflict
from articles.models import Article, SocialPost
from articles.services import StoryEdit, article_save
from tests.admin_forms import change_form_data, form_errors
from tests.factories import SuperuserFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings, client):
    """Messages are read in English (the admin's language cookie, and for services)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def alice():
    return SuperuserFactory(username="alice", first_name="Alice")


@pytest.fixture
def bob():
    return SuperuserFactory(username="bob", first_name="Bob")


def new_story(by) -> Article:
    article = Article(language="en", headline_en="Old headline", summary_en="Old")
    post = SocialPost(platform="x", handle="desk", text="first text")
    article_save(edit=StoryEdit(article=article, changed=[post]), by=by)
    return Article.objects.get(pk=article.pk)


def save_from(base: Article, by, **fields) -> StoryEdit:
    """Save fields onto a copy of the story as it was when `base` was read."""
    article = Article.objects.get(pk=base.pk)
    for name in ("headline_en", "summary_en", "body_en"):
        setattr(article, name, getattr(base, name))
    for name, value in fields.items():
        setattr(article, name, value)
    edit = StoryEdit(article=article, base_version=base.version)
    article_save(edit=edit, by=by)
    return edit


def test_changes_to_different_fields_merge(alice, bob):
    """Bob headline and Alice summary, both from the same version, both stay."""
    opened = new_story(alice)
    save_from(opened, alice, summary_en="Alice summary")
    edit = save_from(opened, bob, headline_en="Bob headline")
    story = Article.objects.get(pk=opened.pk)
    assert (story.headline_en, story.summary_en) == (
        "Bob headline",
        "Alice summary",
    )
    assert edit.merged == ["summary [en]"]


def test_changes_to_the_same_field_are_refused(alice, bob):
    """Both rewrote the headline: the second save is refused, naming who and what."""
    opened = new_story(alice)
    save_from(opened, alice, headline_en="Alice headline")
    with pytest.raises(EditConflict) as refused:
        save_from(opened, bob, headline_en="Bob headline")
    (conflict,) = refused.value.conflicts
    assert (conflict.field, conflict.their_value) == ("headline_en", "Alice headline")
    assert conflict.by == "Alice"
    assert Article.objects.get(pk=opened.pk).headline_en == "Alice headline"


def test_a_stale_copy_of_a_row_does_not_undo_its_change(alice, bob):
    """Alice edited the post; Bob's form still had the old text and keeps Alice's."""
    opened = new_story(alice)
    post = opened.social_posts.get()
    post.text = "Alice text"
    article = Article.objects.get(pk=opened.pk)
    article_save(
        edit=StoryEdit(article=article, changed=[post], base_version=opened.version),
        by=alice,
    )
    stale = SocialPost.objects.get(pk=post.pk)
    stale.text = "first text"  # what Bob's form still shows
    bob_copy = Article.objects.get(pk=opened.pk)
    bob_copy.headline_en = "Bob headline"
    article_save(
        edit=StoryEdit(article=bob_copy, changed=[stale], base_version=opened.version),
        by=bob,
    )
    assert SocialPost.objects.get(pk=post.pk).text == "Alice text"
    assert Article.objects.get(pk=opened.pk).headline_en == "Bob headline"


def open_in_two_browsers(client, alice, bob):
    """A story, its change page, and the form as each editor loaded it."""
    story = new_story(alice)
    url = reverse("admin:articles_article_change", args=[story.pk])
    forms = []
    for editor in (alice, bob):
        client.force_login(editor)
        forms.append(change_form_data(client.get(url)))
    return story, url, *forms


def test_two_browsers_overlapping_keeps_the_form_and_shows_theirs(client, alice, bob):
    """The stale form is shown again with what Bob typed and Alice headline."""
    story, url, alice_form, bob_form = open_in_two_browsers(client, alice, bob)
    client.force_login(alice)
    response = client.post(url, {**alice_form, "headline_en": "Alice headline"})
    assert response.status_code == 302
    client.force_login(bob)
    response = client.post(url, {**bob_form, "headline_en": "Bob headline"})
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert form["headline_en"].value() == "Bob headline"
    assert "Alice" in form_errors(response)
    (shown,) = form.edit_conflicts
    assert (shown.mine, shown.theirs) == (
        ["<del>Bob</del> headline"],
        ["<ins>Alice</ins> headline"],
    )
    assert Article.objects.get(pk=story.pk).headline_en == "Alice headline"


def test_two_browsers_on_different_fields_merge_and_say_so(client, alice, bob):
    """Bob's save after Alice's merges; Bob is told Alice summary was kept."""
    story, url, alice_form, bob_form = open_in_two_browsers(client, alice, bob)
    client.force_login(alice)
    client.post(url, {**alice_form, "summary_en": "Alice summary"})
    client.force_login(bob)
    response = client.post(
        url, {**bob_form, "headline_en": "Bob headline"}, follow=True
    )
    story.refresh_from_db()
    assert (story.headline_en, story.summary_en) == (
        "Bob headline",
        "Alice summary",
    )
    messages = [str(m) for m in response.context["messages"]]
    assert any("summary" in m for m in messages)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs concurrent writers (PostgreSQL)"
)
def test_twenty_editors_saving_fifty_times_at_once_lose_nothing():
    """20 editors × 50 saves of one story, all at once: no save overwrites another's
    change without having seen it (counted from the revisions)."""
    editors = [UserFactory(is_superuser=True) for _ in range(20)]
    story = new_story(editors[0])
    fields = ["headline_en", "summary_en", "kicker_en", "body_en"]
    outcomes: list[tuple[str, int]] = []
    lock = threading.Lock()

    def editor(number: int, user) -> None:
        try:
            for round_ in range(50):
                base = Article.objects.get(pk=story.pk)
                name = fields[(number + round_) % len(fields)]
                value = f"e{number}-r{round_}"
                if name == "body_en":
                    value = f"<p>{value}</p>"
                try:
                    save_from(base, user, **{name: value})
                    result = "saved"
                except EditConflict:
                    result = "refused"
                with lock:
                    outcomes.append((result, number))
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=editor, args=(i, u)) for i, u in enumerate(editors)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(outcomes) == 1000
    silent_overwrites = _silent_overwrites(Article.objects.get(pk=story.pk), fields)
    saved = sum(1 for result, _n in outcomes if result == "saved")
    print(
        f"\n20 editors × 50 saves: {saved} saved (merged or clean), "
        f"{1000 - saved} refused as conflicts, {silent_overwrites} silent overwrites"
    )
    assert saved > 0
    assert silent_overwrites == 0


def _silent_overwrites(story: Article, fields: list[str]) -> int:
    """Revisions that changed a field back to a value the saver had not seen: each
    revision may only change the one field its editor wrote."""
    from articles.revisions import revisions_of, snapshot

    shots = [snapshot(r, story) for r in reversed(list(revisions_of(story)))]
    overwrites = 0
    for before, after in zip(shots, shots[1:], strict=False):
        changed = [f for f in fields if before.article.get(f) != after.article.get(f)]
        if len(changed) > 1:
            overwrites += len(changed) - 1
    return overwrites


def test_the_change_form_says_who_else_has_the_story_open(client, alice, bob):
    """Bob opens the story after Alice: his form names her; hers names nobody."""
    story = new_story(alice)
    url = reverse("admin:articles_article_change", args=[story.pk])
    client.force_login(alice)
    assert client.get(url).context["also_editing"] == []
    client.force_login(bob)
    response = client.get(url)
    assert response.context["also_editing"] == ["Alice"]
    assert "presence-notice" in response.content.decode()
