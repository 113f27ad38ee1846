"""Partners, their keys, and the one rule of what a partner may receive."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from articles.models import Article
from audit.models import AuditEvent
from core.roles import EDITORS, REPORTERS, SOURCE_MANAGERS
from distribution.keys import key_holder
from distribution.models import Partner, PartnerKey
from distribution.rules import partner_may_receive, receivable
from distribution.services import (
    partner_delete,
    partner_key_create,
    partner_key_revoke,
    partner_save,
)
from sources.models import Attribution, Source
from tests.factories import (
    ArticleFactory,
    AttributionFactory,
    SectionFactory,
    SourceFactory,
    member_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor():
    return member_of(EDITORS)


@pytest.fixture
def partner(editor):
    return partner_save(partner=Partner(name="Gulf Daily"), by=editor)


@pytest.fixture
def agency():
    return SourceFactory(name="وكالة الأنباء", kind=Source.Kind.AGENCY)


# ------------------------------------------------------------------ the services


@pytest.mark.parametrize("role", [EDITORS, SOURCE_MANAGERS])
def test_editors_and_source_managers_add_partners(role):
    """Both roles the issue names keep partners."""
    partner = partner_save(partner=Partner(name="تطبيق الأخبار"), by=member_of(role))
    assert Partner.objects.filter(pk=partner.pk).exists()


def test_a_reporter_may_not_add_a_partner():
    """Partners decide what leaves the newsroom: not a reporter's call."""
    with pytest.raises(PermissionDenied):
        partner_save(partner=Partner(name="x"), by=member_of(REPORTERS))
    assert not Partner.objects.exists()


def test_saving_a_partner_sets_its_lists_and_is_audited(editor, agency):
    section = SectionFactory()
    partner = partner_save(
        partner=Partner(name="Gulf Daily"),
        by=editor,
        sections=[section],
        rights_sources=[agency],
    )
    assert list(partner.sections.all()) == [section]
    assert list(partner.rights_sources.all()) == [agency]
    assert AuditEvent.objects.filter(action="created", object_id=str(partner.pk))


def test_a_new_key_is_returned_once_and_kept_only_as_a_digest(partner, editor):
    key, full = partner_key_create(partner=partner, by=editor)
    assert full.startswith(f"nk_{key.prefix}_")
    stored = PartnerKey.objects.get(pk=key.pk)
    assert full.split("_", 2)[2] not in (stored.digest, stored.prefix)
    assert len(stored.digest) == 64


def test_a_key_opens_for_its_partner(partner, editor):
    _key, full = partner_key_create(partner=partner, by=editor)
    assert key_holder(full).partner == partner


@pytest.mark.parametrize(
    "tamper",
    [
        lambda k: k[:-1] + ("A" if k[-1] != "A" else "B"),  # another secret
        lambda k: "nk_000000000000" + k[15:],  # another prefix
        lambda k: k.replace("nk_", "xx_", 1),
        lambda k: "",
        lambda k: "nk_",
    ],
)
def test_a_key_that_is_not_one_we_made_opens_nothing(partner, editor, tamper):
    _key, full = partner_key_create(partner=partner, by=editor)
    assert key_holder(tamper(full)) is None


def test_a_revoked_key_opens_nothing(partner, editor):
    key, full = partner_key_create(partner=partner, by=editor)
    partner_key_revoke(key=key, by=editor)
    assert key_holder(full) is None
    assert AuditEvent.objects.filter(action="partner_key_revoked", message=str(key))


def test_rotation_two_live_keys_both_open_then_the_old_is_revoked(partner, editor):
    """A partner moves to a new key with no moment without one."""
    old, old_full = partner_key_create(partner=partner, by=editor)
    _new, new_full = partner_key_create(partner=partner, by=editor)
    assert key_holder(old_full) and key_holder(new_full)
    partner_key_revoke(key=old, by=editor)
    assert key_holder(old_full) is None
    assert key_holder(new_full).partner == partner


def test_a_third_live_key_is_refused(partner, editor):
    partner_key_create(partner=partner, by=editor)
    partner_key_create(partner=partner, by=editor)
    with pytest.raises(ValidationError) as refused:
        partner_key_create(partner=partner, by=editor)
    assert refused.value.code == "too_many_keys"
    assert partner.keys.count() == 2


def test_the_audit_trail_never_holds_the_full_key(partner, editor):
    _key, full = partner_key_create(partner=partner, by=editor)
    secret = full.split("_", 2)[2]
    assert not AuditEvent.objects.filter(message__contains=secret).exists()


def test_a_reporter_may_not_make_or_revoke_keys(partner, editor):
    key, _full = partner_key_create(partner=partner, by=editor)
    reporter = member_of(REPORTERS)
    with pytest.raises(PermissionDenied):
        partner_key_create(partner=partner, by=reporter)
    with pytest.raises(PermissionDenied):
        partner_key_revoke(key=key, by=reporter)


def test_deleting_a_partner_ends_its_keys(partner, editor):
    _key, full = partner_key_create(partner=partner, by=editor)
    partner_delete(partner=partner, by=editor)
    assert key_holder(full) is None


# ------------------------------------------------------------------ the rule


def rule_says(partner: Partner, article: Article) -> bool:
    """The rule's two forms, which must agree."""
    as_bool = partner_may_receive(partner, article)
    as_list = receivable(partner).filter(pk=article.pk).exists()
    assert as_bool == as_list
    return as_bool


def test_our_own_copy_goes_to_a_partner_with_no_lists(partner):
    assert rule_says(partner, ArticleFactory())


def test_an_agency_story_never_goes_to_a_partner_without_its_rights(partner, agency):
    story = ArticleFactory()
    AttributionFactory(article=story, source=agency)
    assert not rule_says(partner, story)


def test_an_agency_story_goes_to_a_partner_holding_its_rights(partner, agency):
    story = ArticleFactory()
    AttributionFactory(article=story, source=agency)
    partner.rights_sources.add(agency)
    assert rule_says(partner, story)


def test_a_story_merely_citing_an_agency_still_needs_its_rights(partner, agency):
    """The page honours a source's terms whatever the role: the rule fails closed."""
    story = ArticleFactory()
    AttributionFactory(article=story, source=agency, role=Attribution.Role.CITED)
    assert not rule_says(partner, story)


def test_every_credited_source_needs_its_rights(partner, agency):
    story = ArticleFactory()
    other = SourceFactory(name="صحيفة أخرى")
    AttributionFactory(article=story, source=agency)
    AttributionFactory(article=story, source=other, role=Attribution.Role.VIA)
    partner.rights_sources.add(agency)
    assert not rule_says(partner, story)
    partner.rights_sources.add(other)
    assert rule_says(partner, story)


def test_a_partner_with_sections_gets_only_those(partner):
    sport = SectionFactory()
    partner.sections.add(sport)
    assert rule_says(partner, ArticleFactory(section=sport))
    assert not rule_says(partner, ArticleFactory())
    assert not rule_says(partner, ArticleFactory(section=None))


def test_a_partner_taking_some_sources_gets_their_copy_and_ours(partner, agency):
    other = SourceFactory(name="صحيفة أخرى")
    partner.sources.add(agency)
    partner.rights_sources.add(agency, other)
    agency_story, other_story = ArticleFactory(), ArticleFactory()
    AttributionFactory(article=agency_story, source=agency)
    AttributionFactory(article=other_story, source=other)
    assert rule_says(partner, agency_story)
    assert not rule_says(partner, other_story)
    assert rule_says(partner, ArticleFactory())


def test_an_inactive_partner_receives_nothing(partner):
    partner.active = False
    assert not partner_may_receive(partner, ArticleFactory())
