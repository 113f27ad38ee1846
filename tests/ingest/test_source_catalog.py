"""The importer's per-process catalog of sources: reused while the sources are
unchanged, rebuilt as soon as any of them changes, however it changed."""

import pytest

from ingest.recognize import SourceCatalog, source_key
from sources.models import Source
from tests.factories import SourceFactory

pytestmark = pytest.mark.django_db


def test_the_catalog_is_reused_while_the_sources_are_unchanged():
    """Two imports in a row share the folded names built once."""
    SourceFactory(name_ar="صحيفة المدينة")
    assert SourceCatalog.current() is SourceCatalog.current()


def test_a_source_renamed_without_signals_is_seen_at_once():
    """A rename written by another process (here an UPDATE) gives a new catalog."""
    source = SourceFactory(name_ar="صحيفة المدينة", aliases="")
    assert source_key("صحيفة المدينة") in SourceCatalog.current().index.by_key
    Source.objects.filter(pk=source.pk).update(aliases="المدينة اليوم")
    index = SourceCatalog.current().index.by_key
    assert source_key("المدينة اليوم") in index


def test_a_deleted_source_leaves_the_catalog():
    """A source removed since the last import is not matched any more."""
    source = SourceFactory(name_ar="إذاعة الساحل")
    SourceCatalog.current()
    Source.objects.filter(pk=source.pk).delete()
    assert source_key("إذاعة الساحل") not in SourceCatalog.current().index.by_key
