"""A story's parts are declared once (articles.parts): a part an app adds flows
through the identity gate, revisions, the merge of concurrent edits, restore and the
page without any of them naming it."""

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext

from articles.concurrency import EditConflict
from articles.models import Article
from articles.parts import (
    StoryPart,
    part,
    register,
    registered,
    story_parts,
    undeclared_relations,
)
from articles.revisions import revisions_of, snapshot
from articles.services import StoryEdit, article_restore, article_save
from core.roles import EDITORS
from identity.gate import IdentityGate, IdentityLeakError
from identity.protection import public_exposures
from publishing.presentation import presented
from tests.factories import ArticleFactory, ProtectedPersonFactory, member_of
from tests.storyparts.models import FACT_BOXES, FACT_BOXES_ON_PAGE, FactBox

pytestmark = pytest.mark.django_db

LEGAL_NAME = ProtectedPersonFactory._meta.declarations["name"]


@pytest.fixture
def fact_boxes():
    """The test app's fact boxes, declared a part of every story for the test."""
    with registered(FACT_BOXES), presented(FACT_BOXES_ON_PAGE):
        yield


@pytest.fixture
def editor():
    """An editor who may also write fact boxes: a part's rows need its model's
    permissions, which the apps grant the roles for the project's own parts."""
    user = member_of(EDITORS, username="desk-editor", first_name="Mona")
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="storyparts")
    )
    return user


def story_with_box(by, title: str = "حقائق") -> Article:
    article = Article(language="ar", headline_ar="عنوان الخبر")
    box = FactBox(title=title, facts="ثلاثة جسور")
    article_save(edit=StoryEdit(article=article, changed=[box]), by=by)
    return Article.objects.get(pk=article.pk)


def edit_box(article: Article, by, *, base_version: int, **fields) -> StoryEdit:
    box = FactBox.objects.get(article=article)
    for name, value in fields.items():
        setattr(box, name, value)
    edit = StoryEdit(
        article=Article.objects.get(pk=article.pk),
        changed=[box],
        base_version=base_version,
    )
    article_save(edit=edit, by=by)
    return edit


def test_every_relation_of_an_article_is_declared():
    """Each relation of Article is a part, one of its own relations, or bookkeeping
    with a reason: a new relation must say whether readers see it."""
    assert undeclared_relations() == []


def test_the_sources_app_declares_attributions_from_its_own_side():
    """Attributions belong to sources, which declares them; the gate reads their
    source as a public row of its own."""
    assert part("attributions").public_related == ("source",)


def test_a_part_declared_twice_differently_is_refused():
    """Two apps cannot give one relation two meanings."""
    with pytest.raises(ValueError), registered():
        register(StoryPart("bylines", versioned=False))


def test_a_part_must_read_the_rows_it_shows():
    """A related row shown in its own right is read with the part's rows."""
    with pytest.raises(ValueError):
        StoryPart("fact_boxes", public_related=("article",))


def test_flags_select_parts():
    """Corrections are versioned but neither merged nor restored."""
    assert part("corrections") in story_parts(versioned=True)
    assert part("corrections") not in story_parts(merged=True)
    assert part("corrections") not in story_parts(restored=True)


def test_the_gate_refuses_a_legal_name_in_a_new_part(fact_boxes, editor):
    """A fact box naming a protected person is refused like any field of the story,
    and nothing is written."""
    ProtectedPersonFactory()
    with pytest.raises(IdentityLeakError) as refused:
        story_with_box(editor, title=LEGAL_NAME)
    assert "fact box" in refused.value.message
    assert not Article.objects.exists()
    assert not FactBox.objects.exists()


def test_the_audit_of_public_stories_reads_a_new_part(fact_boxes, editor):
    """A legal name written into a fact box behind the services' back is found."""
    ProtectedPersonFactory()
    article = ArticleFactory()
    FactBox.objects.create(article=article, title="حقائق", facts=LEGAL_NAME)
    (exposure,) = public_exposures(IdentityGate.load())
    assert exposure.article == article
    assert [leak.field for leak in exposure.leaks] == ["facts"]


def test_a_revision_records_a_new_part(fact_boxes, editor):
    """The story's revision holds its fact boxes as they were saved."""
    article = story_with_box(editor)
    shot = snapshot(revisions_of(article).first(), article)
    ((_repr, fields),) = shot.rows[FactBox].values()
    assert fields["facts"] == "ثلاثة جسور"


def test_edits_to_a_new_part_merge_with_other_edits(fact_boxes, editor):
    """One editor changes the fact box, another the headline, from one version:
    both changes stay."""
    opened = story_with_box(editor)
    edit_box(opened, editor, base_version=opened.version, facts="أربعة جسور")
    other = Article.objects.get(pk=opened.pk)
    other.headline_ar = "عنوان جديد"
    # The second editor's form still holds the box as it was opened.
    stale_box = FactBox.objects.get(article=opened)
    stale_box.facts = "ثلاثة جسور"
    article_save(
        edit=StoryEdit(article=other, changed=[stale_box], base_version=opened.version),
        by=editor,
    )
    assert Article.objects.get(pk=opened.pk).headline_ar == "عنوان جديد"
    assert FactBox.objects.get(article=opened).facts == "أربعة جسور"


def test_both_editors_changing_a_new_part_conflict(fact_boxes, editor):
    """Two different rewrites of one fact box: the second is refused."""
    opened = story_with_box(editor)
    edit_box(opened, editor, base_version=opened.version, facts="أربعة جسور")
    with pytest.raises(EditConflict):
        edit_box(opened, editor, base_version=opened.version, facts="خمسة جسور")
    assert FactBox.objects.get(article=opened).facts == "أربعة جسور"


def test_restore_brings_back_a_new_part(fact_boxes, editor):
    """Restoring the first revision puts the fact box's first text back."""
    article = story_with_box(editor)
    first = revisions_of(article).first()
    edit_box(article, editor, base_version=article.version, facts="أربعة جسور")
    article_restore(
        article=Article.objects.get(pk=article.pk), by=editor, revision=first
    )
    assert FactBox.objects.get(article=article).facts == "ثلاثة جسور"


def test_the_page_shows_a_new_part_in_its_own_template(fact_boxes, client):
    """A published story's fact boxes are on its page, in the part's template."""
    article = ArticleFactory()
    FactBox.objects.create(article=article, title="حقائق الجسر", facts="ثلاثة جسور")
    page = client.get(article.get_absolute_url()).content.decode()
    assert '<aside class="fact-boxes"><section><h2>حقائق الجسر</h2>' in page


def test_a_new_part_costs_the_page_one_query_however_many_rows(fact_boxes, client):
    """The part is prefetched with the story: three boxes cost what one costs."""

    def queries_with(boxes: int) -> int:
        article = ArticleFactory()
        for number in range(boxes):
            FactBox.objects.create(article=article, title=f"حقائق {number}")
        with CaptureQueriesContext(connection) as queries:
            assert client.get(article.get_absolute_url()).status_code == 200
        return len(queries)

    queries_with(0)  # the menu and banner, read once for every page
    assert queries_with(1) == queries_with(3)


def test_without_the_declaration_the_page_does_not_read_the_part(client):
    """Rows of a relation that is not a declared part are never shown."""
    article = ArticleFactory()
    FactBox.objects.create(article=article, title="حقائق الجسر")
    assert "حقائق الجسر" not in client.get(article.get_absolute_url()).content.decode()
