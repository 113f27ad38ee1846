"""Sources own their names, aliases and domains."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from sources.models import Attribution, Source
from tests.factories import (
    ArticleFactory,
    AttributionFactory,
    SocialAccountFactory,
    SourceFactory,
)

pytestmark = pytest.mark.django_db


def test_domains_are_cleaned_to_bare_hosts():
    """URLs and www. prefixes typed as domains are stored as bare host names."""
    source = SourceFactory.build(
        domains="https://www.aawsat.com/home\nEnglish.Aawsat.com"
    )
    source.clean()
    assert source.domain_list == ["aawsat.com", "english.aawsat.com"]


def test_a_domain_belongs_to_one_source():
    """Two sources cannot claim the same domain."""
    SourceFactory(domains="24.ae")
    other = SourceFactory.build(domains="24.ae")
    with pytest.raises(ValidationError) as error:
        other.clean()
    assert "domains" in error.value.message_dict


def test_source_is_found_by_domain_of_a_url():
    """A link to any page of an outlet finds the outlet, sub-domains included."""
    source = SourceFactory(domains="aawsat.com")
    assert Source.objects.for_domain("https://english.aawsat.com/story/1") == source
    assert Source.objects.for_domain("https://example.com/") is None


def test_source_names_include_aliases():
    """An outlet answers to its names in both languages and its aliases."""
    source = SourceFactory(name_ar="موقع 24", name_en="24.ae", aliases="24\nموقع ٢٤")
    assert source.names() == ["موقع 24", "24.ae", "24", "موقع ٢٤"]


def test_search_text_is_normalized():
    """Source search text folds Arabic letter forms."""
    source = SourceFactory(name_ar="الشرق الأوسط")
    assert "الشرق الاوسط" in source.search_text


def test_social_handle_is_stored_without_at_sign():
    """ "@aawsat_News" and "aawsat_News" are the same account."""
    account = SocialAccountFactory(handle="@aawsat_News")
    assert account.handle == "aawsat_News"


def test_only_one_attribution_per_article_can_be_canonical():
    """An article has at most one canonical original."""
    article = ArticleFactory()
    AttributionFactory(
        article=article, is_canonical=True, original_url="https://a.example/1"
    )
    with pytest.raises(IntegrityError):
        AttributionFactory(
            article=article, is_canonical=True, original_url="https://b.example/2"
        )


def test_canonical_attribution_needs_the_original_url():
    """Pointing the canonical link at an original requires its address."""
    attribution = AttributionFactory.build(
        article=ArticleFactory(), source=SourceFactory(), is_canonical=True
    )
    with pytest.raises(ValidationError) as error:
        attribution.clean()
    assert "original_url" in error.value.message_dict


def test_attribution_defaults_to_republished():
    """A new attribution credits the source as republished from."""
    assert AttributionFactory().role == Attribution.Role.REPUBLISHED


def test_sources_with_the_same_name_get_distinct_slugs():
    """A second outlet with the same name gets its own address, not a crash."""
    first = SourceFactory(name_ar="الخليج", name_en="")
    second = SourceFactory(name_ar="الخليج", name_en="")
    assert first.slug == "الخليج"
    assert second.slug == "الخليج-2"
