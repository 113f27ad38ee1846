"""A refused save is no oracle of where the name is: to a user who may not read
legal names it names every field the save changes, the same whichever of them
held the protected name; to an identity officer, where the name is."""

import pytest
from django.urls import reverse
from django.utils import translation

from articles.models import Article
from articles.services import StoryEdit, article_save
from audit.models import AuditEvent
from core.roles import EDITORS
from identity.audit_actions import IdentityAction
from identity.gate import IdentityLeakError
from tests.admin_forms import change_form_data
from tests.factories import ProtectedPersonFactory, SuperuserFactory, member_of

pytestmark = pytest.mark.django_db

PROTECTED = "يوسف المنصوري"
OTHER = "كريم الحداد"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def editor():
    return member_of(EDITORS)


def refusal(by, **fields) -> IdentityLeakError:
    edit = StoryEdit(article=Article(language="ar", **fields))
    with pytest.raises(IdentityLeakError) as refused:
        article_save(edit=edit, by=by)
    return refused.value


def test_an_editor_is_told_the_same_whichever_field_held_the_name(editor):
    ProtectedPersonFactory(name=PROTECTED)
    first = refusal(editor, headline_ar=f"لقاء {PROTECTED}", summary_ar=f"مع {OTHER}")
    second = refusal(editor, headline_ar=f"لقاء {OTHER}", summary_ar=f"مع {PROTECTED}")
    assert first.messages == second.messages
    assert "headline" in first.messages[0] and "summary" in first.messages[0]


def test_an_edit_is_told_the_fields_it_changes(editor):
    ProtectedPersonFactory(name=PROTECTED)
    stored = Article(language="ar", headline_ar="عنوان", summary_ar="ملخص")
    article_save(edit=StoryEdit(article=stored), by=editor)
    stored.summary_ar = f"مع {PROTECTED}"
    with pytest.raises(IdentityLeakError) as refused:
        article_save(edit=StoryEdit(article=stored), by=editor)
    assert refused.value.places == ["summary [ar]"]


def test_a_name_the_user_did_not_type_is_named_where_it_is(editor):
    """Written before the person was protected: the save that meets it did not
    bring it, so saying where tells the user nothing they typed."""
    stored = Article(language="ar", headline_ar="عنوان", body_ar=f"<p>{PROTECTED}</p>")
    article_save(edit=StoryEdit(article=stored), by=editor)
    ProtectedPersonFactory(name=PROTECTED)
    stored.headline_ar = "عنوان آخر"
    with pytest.raises(IdentityLeakError) as refused:
        article_save(edit=StoryEdit(article=stored), by=editor)
    # The address follows the new headline: the save changes it too.
    assert refused.value.places == ["headline [ar]", "slug [ar]", "body [ar]"]


def test_who_may_read_legal_names_is_told_where_the_name_is():
    ProtectedPersonFactory(name=PROTECTED)
    found = refusal(
        SuperuserFactory(), headline_ar=f"لقاء {OTHER}", summary_ar=f"مع {PROTECTED}"
    )
    assert found.places == ["summary [ar]"]


def test_the_audit_trail_records_the_places_the_user_was_told(editor):
    ProtectedPersonFactory(name=PROTECTED)
    told = refusal(editor, headline_ar=f"لقاء {OTHER}", summary_ar=f"مع {PROTECTED}")
    event = AuditEvent.objects.get(action=IdentityAction.IDENTITY_REFUSED)
    assert event.message.endswith(", ".join(told.places))


def test_the_form_marks_no_field_for_an_editor(client, editor, settings):
    ProtectedPersonFactory(name=PROTECTED)
    draft = Article(language="ar", headline_ar="عنوان", summary_ar="ملخص")
    article_save(edit=StoryEdit(article=draft), by=editor)
    client.force_login(editor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("admin:articles_article_change", args=[draft.pk])
    data = change_form_data(client.get(url))
    response = client.post(
        url,
        {**data, "headline_ar": f"لقاء {OTHER}", "summary_ar": f"مع {PROTECTED}"},
    )
    errors = response.context["adminform"].form.errors
    assert list(errors) == ["__all__"]
    assert "headline" in errors["__all__"][0] and "summary" in errors["__all__"][0]
