"""The write path: every service checks permission, gates identities, writes, audits
and announces the change after commit."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone, translation
from taggit.models import Tag

from articles.audit_actions import Action
from articles.models import Article, Correction, Section, SocialPost, Status
from articles.services import (
    StoryEdit,
    article_delete,
    article_publish,
    article_save,
    article_unpublish,
    correction_add,
    section_save,
    tag_save,
)
from audit.models import AuditEvent
from identity.gate import IdentityLeakError
from identity.models import Person
from identity.services import IdentityExposedError, person_save
from tests.factories import (
    ArticleFactory,
    ArticlePersonFactory,
    DraftArticleFactory,
    PersonFactory,
    ProtectedPersonFactory,
    SectionFactory,
    SocialPostFactory,
    SuperuserFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

LEGAL_NAME = ProtectedPersonFactory.name


@pytest.fixture(autouse=True)
def english():
    """Messages are asserted in English; the Arabic comes from the catalog."""
    with translation.override("en"):
        yield


@pytest.fixture
def chief():
    return SuperuserFactory(username="chief")


def staff_with(*codenames: str):
    """A staff user holding exactly the named permissions ("app.codename")."""
    user = UserFactory()
    for name in codenames:
        app, codename = name.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app, codename=codename)
        )
    return type(user).objects.get(pk=user.pk)  # a fresh permission cache


# ------------------------------------------------------------ publishing


def test_publish_makes_a_draft_public(chief):
    """A published draft is among the public articles."""
    article = article_publish(article=DraftArticleFactory(), by=chief)
    assert article.status == Status.PUBLISHED
    assert article in Article.objects.published()


def test_publish_at_a_future_time_schedules_the_story(chief):
    """Publishing at a later time keeps the story off the site until then."""
    later = timezone.now() + timedelta(hours=2)
    article = article_publish(article=DraftArticleFactory(), by=chief, at=later)
    assert article.published_at == later
    assert article not in Article.objects.published()
    assert article in Article.objects.published(at=later)


def test_publish_refuses_a_protected_legal_name_in_the_body(chief):
    """The legal name of a protected person blocks publication, naming the field."""
    ProtectedPersonFactory()
    article = DraftArticleFactory(body_ar=f"<p>قال {LEGAL_NAME} إن الملفات نُقلت.</p>")
    with pytest.raises(IdentityLeakError) as refused:
        article_publish(article=article, by=chief)
    message = " ".join(refused.value.messages)
    assert "body" in message
    assert LEGAL_NAME not in message and "الشاهد" not in message
    article.refresh_from_db()
    assert article.status == Status.DRAFT


def test_publish_refuses_a_protected_legal_name_in_a_social_post_author(chief):
    """A post's author field is public too (the list action once missed it)."""
    ProtectedPersonFactory()
    post = SocialPostFactory(article=DraftArticleFactory(), author_name=LEGAL_NAME)
    with pytest.raises(IdentityLeakError, match="author"):
        article_publish(article=post.article, by=chief)


def test_publish_refuses_a_protected_legal_name_in_a_tag(chief):
    """Tags are public pages too."""
    ProtectedPersonFactory()
    article = DraftArticleFactory()
    article.tags.add(LEGAL_NAME)
    with pytest.raises(IdentityLeakError, match="tag"):
        article_publish(article=article, by=chief)


def test_publish_allows_the_pseudonym(chief):
    """Naming the protected person by the pseudonym is fine."""
    ProtectedPersonFactory()
    article = DraftArticleFactory(body_ar="<p>قال الشاهد إن الملفات نُقلت.</p>")
    ArticlePersonFactory(article=article, person=Person.objects.get())
    assert article_publish(article=article, by=chief).status == Status.PUBLISHED


def test_publish_needs_the_publish_permission():
    """A user who may change stories but not publish them is refused."""
    article = DraftArticleFactory()
    with pytest.raises(PermissionDenied):
        article_publish(article=article, by=staff_with("articles.change_article"))
    article.refresh_from_db()
    assert article.status == Status.DRAFT


def test_publish_records_who_published(chief):
    """Publishing leaves an audit event naming the editor and the story."""
    article = article_publish(article=DraftArticleFactory(), by=chief)
    event = AuditEvent.objects.get(action=Action.PUBLISHED)
    assert (event.actor, event.object_id) == (chief, str(article.pk))


def test_unpublish_takes_an_article_off_the_site(chief):
    """An unpublished article is no longer public."""
    article = article_unpublish(article=ArticleFactory(), by=chief)
    assert article.status == Status.DRAFT
    assert article not in Article.objects.published()


def test_unpublish_needs_its_own_permission():
    """Publishing rights do not include taking stories down."""
    with pytest.raises(PermissionDenied):
        article_unpublish(
            article=ArticleFactory(), by=staff_with("articles.publish_article")
        )


# ------------------------------------------------------------ saving


def test_saving_a_public_story_runs_the_gate(chief):
    """A published story cannot be edited into a leak; nothing is written."""
    ProtectedPersonFactory()
    article = ArticleFactory(summary_ar="ملخص")
    article.summary_ar = f"ملخص يذكر {LEGAL_NAME}"
    with pytest.raises(IdentityLeakError, match="summary"):
        article_save(edit=StoryEdit(article=article), by=chief)
    article.refresh_from_db()
    assert article.summary_ar == "ملخص"


def test_saving_a_draft_with_a_legal_name_is_refused_too(chief):
    """Drafts are read by every editor, so the gate applies to them as well."""
    ProtectedPersonFactory()
    article = DraftArticleFactory()
    article.body_ar = f"<p>{LEGAL_NAME}</p>"
    with pytest.raises(IdentityLeakError):
        article_save(edit=StoryEdit(article=article), by=chief)


def test_a_new_related_row_is_checked_before_it_is_written(chief):
    """A post added to a public story with a legal name is refused unsaved."""
    ProtectedPersonFactory()
    article = ArticleFactory()
    post = SocialPost(platform="x", handle="MazenAlKhatib", text=f"عن {LEGAL_NAME}")
    with pytest.raises(IdentityLeakError):
        article_save(edit=StoryEdit(article=article, changed=[post]), by=chief)
    assert not SocialPost.objects.exists()


def test_save_writes_tags_and_rows_and_audits(chief):
    """One call writes the article, its tags and rows, and records the change."""
    article = DraftArticleFactory.build(section=SectionFactory())
    post = SocialPost(platform="x", handle="news", text="نص")
    article_save(
        edit=StoryEdit(article=article, tags=["سوريا"], changed=[post]), by=chief
    )
    assert list(article.tags.names()) == ["سوريا"]
    assert article.social_posts.get() == post
    assert AuditEvent.objects.filter(action=Action.CREATED).count() == 1


def test_save_needs_the_change_permission():
    """A user without "change article" cannot save a story."""
    with pytest.raises(PermissionDenied):
        article_save(
            edit=StoryEdit(article=DraftArticleFactory()),
            by=staff_with("articles.view_article"),
        )


def test_side_effects_are_announced_only_after_commit(
    chief, django_capture_on_commit_callbacks, heard
):
    """Receivers (cache purge, re-index) hear of a change once it has committed."""
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        article_publish(article=DraftArticleFactory(), by=chief)
    assert heard == []
    for callback in callbacks:
        callback()
    assert ("story_published", Article, Action.PUBLISHED) in heard


def test_delete_is_audited_and_needs_permission(chief):
    """Deleting a story needs "delete article" and leaves a trace."""
    article = DraftArticleFactory()
    with pytest.raises(PermissionDenied):
        article_delete(article=article, by=staff_with("articles.change_article"))
    article_delete(article=article, by=chief)
    assert not Article.objects.exists()
    assert AuditEvent.objects.filter(action=Action.DELETED).exists()


# ------------------------------------------------------------ desks, tags, people


def test_a_section_named_with_a_legal_name_is_refused(chief):
    """The section menu is on every page, so its names are checked at every save."""
    ProtectedPersonFactory()
    with pytest.raises(IdentityLeakError):
        section_save(section=Section(name_ar=LEGAL_NAME, name_en="Desk"), by=chief)
    assert not Section.objects.exists()


def test_a_renamed_tag_with_an_old_identifying_slug_is_refused(chief):
    """Renaming a tag keeps its slug; a slug that names someone is caught."""
    ProtectedPersonFactory()
    tag = Tag.objects.create(name="قديم", slug="يوسف-المنصوري")
    tag.name = "جديد"
    with pytest.raises(IdentityLeakError, match="slug"):
        tag_save(tag=tag, by=chief)


def test_a_second_person_with_a_protected_legal_name_is_refused(chief):
    """Another, unprotected person cannot carry a protected person's legal name."""
    ProtectedPersonFactory()
    with pytest.raises(IdentityLeakError):
        person_save(person=Person(name=LEGAL_NAME), by=chief)


def test_protecting_a_person_named_in_public_stories_is_refused_by_story(chief):
    """Protection cannot leave the name public: the stories are listed by number."""
    person = PersonFactory(name="سالم الحربي")
    article = ArticleFactory(body_ar="<p>قال سالم الحربي إن</p>")
    person.identity_protected, person.public_name = True, "المصدر"
    with pytest.raises(IdentityExposedError) as refused:
        person_save(person=person, by=chief)
    assert refused.value.stories == [article]
    assert f"#{article.pk}" in refused.value.messages[0]
    assert "سالم الحربي" not in refused.value.messages[0]
    person.refresh_from_db()
    assert not person.identity_protected


def test_protecting_with_withdraw_takes_the_stories_off_the_site(chief):
    """With withdraw, the stories are withdrawn (and audited as withdrawn to protect
    an identity) in the same step."""
    person = PersonFactory(name="سالم الحربي")
    article = ArticleFactory(body_ar="<p>قال سالم الحربي إن</p>")
    person.identity_protected, person.public_name = True, "المصدر"
    person_save(person=person, by=chief, withdraw=True)
    article.refresh_from_db()
    assert article.status == Status.DRAFT
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {Action.WITHDRAWN_TO_PROTECT, Action.PROTECTED} <= actions


def test_a_new_legal_spelling_is_checked_against_public_stories(chief):
    """Adding a Latin spelling finds the stories that print it."""
    person = ProtectedPersonFactory()
    ArticleFactory(headline_en="Interview with Yousef al-Mansouri")
    person.other_spellings = "Yousef Al Mansouri"
    with pytest.raises(IdentityExposedError):
        person_save(person=person, by=chief)


def test_a_section_carrying_a_newly_protected_name_must_be_renamed_first(chief):
    """A section cannot be withdrawn, so protection waits until it is renamed."""
    person = PersonFactory(name="سالم الحربي")
    SectionFactory(name_ar="ملف سالم الحربي")
    person.identity_protected, person.public_name = True, "المصدر"
    with pytest.raises(IdentityExposedError) as refused:
        person_save(person=person, by=chief, withdraw=True)
    assert refused.value.other_rows


def test_only_identity_officers_may_change_a_legal_name():
    """Editing a protected person's legal spellings needs view_legal_name."""
    person = ProtectedPersonFactory()
    person.other_spellings = "Yousef al-Mansouri"
    with pytest.raises(PermissionDenied):
        person_save(person=person, by=staff_with("identity.change_person"))
    officer = staff_with("identity.change_person", "identity.view_legal_name")
    person_save(person=person, by=officer)
    person.refresh_from_db()
    assert person.other_spellings == "Yousef al-Mansouri"


def test_only_identity_officers_may_reveal_a_person():
    """Switching protection off needs view_legal_name too."""
    person = ProtectedPersonFactory()
    person.identity_protected = False
    with pytest.raises(PermissionDenied):
        person_save(person=person, by=staff_with("identity.change_person"))


def test_anyone_who_may_change_people_may_protect_someone():
    """Protecting is always allowed to an editor of people: it only hides."""
    person = PersonFactory(name="سالم الحربي")
    person.identity_protected, person.public_name = True, "المصدر"
    person_save(person=person, by=staff_with("identity.change_person"))
    assert Person.objects.get().identity_protected


def test_audit_names_a_protected_person_by_the_pseudonym(chief):
    """The audit trail itself never holds the legal name."""
    person = ProtectedPersonFactory.build()
    person_save(person=person, by=chief)
    event = AuditEvent.objects.get()
    assert "الشاهد" in event.object_repr
    assert LEGAL_NAME not in event.object_repr


def test_validation_error_is_a_validation_error():
    """Callers that only know Django's ValidationError still catch a refusal."""
    assert issubclass(IdentityLeakError, ValidationError)
    assert issubclass(IdentityExposedError, ValidationError)


# ------------------------------------------------------------ corrections

CORRECTION_AR = "الصحيح أن الاجتماع عقد يوم الثلاثاء."
CORRECTION_EN = "The meeting was on Tuesday, not Monday."


def an_hour_old(article: Article) -> Article:
    """The article as last modified an hour ago (written around save's auto_now)."""
    Article.objects.filter(pk=article.pk).update(
        updated_at=timezone.now() - timedelta(hours=1)
    )
    return Article.objects.get(pk=article.pk)


def test_correction_add_prints_the_correction_under_the_story(chief):
    """The correction is saved on the story with its kind, both texts and author."""
    article = ArticleFactory()
    correction_add(
        article=article,
        by=chief,
        kind=Correction.Kind.CLARIFICATION,
        text_ar=CORRECTION_AR,
        text_en=CORRECTION_EN,
    )
    correction = article.corrections.get()
    assert correction.kind == Correction.Kind.CLARIFICATION
    assert (correction.text_ar, correction.text_en) == (CORRECTION_AR, CORRECTION_EN)
    assert correction.created_by == chief


def test_correction_add_moves_the_storys_modified_date(chief):
    """The story counts as modified when the correction is added, not before."""
    article = an_hour_old(ArticleFactory())
    before = article.updated_at
    correction = correction_add(
        article=article, by=chief, kind="correction", text_ar=CORRECTION_AR
    )
    stored = Article.objects.get(pk=article.pk).updated_at
    assert stored > before
    assert stored >= correction.created_at


def test_correction_add_is_recorded_in_the_audit_trail(chief):
    """The trail says who corrected which story, and with what kind of entry."""
    article = ArticleFactory()
    correction_add(article=article, by=chief, kind="update", text_en=CORRECTION_EN)
    event = AuditEvent.objects.get(action=Action.CORRECTED)
    assert event.actor == chief
    assert event.object_id == str(article.pk)
    assert event.message == "update"


def test_a_draft_may_be_corrected_too(chief):
    """Drafts and public stories alike take corrections; the permission decides."""
    article = DraftArticleFactory()
    correction_add(article=article, by=chief, kind="update", text_ar=CORRECTION_AR)
    assert article.corrections.count() == 1


def test_correction_add_needs_the_correction_permission():
    """A reporter who may write and edit stories may not print corrections."""
    article = an_hour_old(ArticleFactory())
    reporter = staff_with("articles.add_article", "articles.change_article")
    with pytest.raises(PermissionDenied):
        correction_add(
            article=article, by=reporter, kind="correction", text_ar=CORRECTION_AR
        )
    assert not Correction.objects.exists()
    assert Article.objects.get(pk=article.pk).updated_at == article.updated_at
    assert not AuditEvent.objects.exists()


def test_an_empty_correction_is_refused(chief):
    """A correction needs text in Arabic or English; blanks do not count."""
    with pytest.raises(ValidationError, match="Arabic, in English or in both"):
        correction_add(
            article=ArticleFactory(),
            by=chief,
            kind="correction",
            text_ar="  ",
            text_en="\n",
        )
    assert not Correction.objects.exists()


def test_a_correction_naming_a_protected_person_is_refused(chief):
    """A legal name in the text is refused, naming the field and not the name; the
    story is left as it was."""
    ProtectedPersonFactory()
    article = an_hour_old(ArticleFactory())
    with pytest.raises(IdentityLeakError) as refused:
        correction_add(
            article=article,
            by=chief,
            kind="correction",
            text_ar=f"الشاهد في الخبر هو {LEGAL_NAME}.",
        )
    message = refused.value.messages[0]
    assert "correction: text [ar]" in message
    assert LEGAL_NAME not in message
    assert not Correction.objects.exists()
    assert Article.objects.get(pk=article.pk).updated_at == article.updated_at
    # Only the refusal itself is recorded (as evidence), not a correction.
    actions = list(AuditEvent.objects.values_list("action", flat=True))
    assert actions == [Action.IDENTITY_REFUSED]
