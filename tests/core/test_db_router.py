"""Anonymous readers' pages read the replica; the admin, editors and writes the
primary. Two aliases of one PostgreSQL server stand in for primary and replica."""

import pytest
from django.conf import settings
from django.db import connections, router, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from articles.models import Article
from core.db_router import ReplicaRouter, _public_read
from tests.factories import ArticleFactory

pytestmark = [
    pytest.mark.skipif(
        "replica" not in settings.DATABASES,
        reason="the test settings add the replica alias on PostgreSQL",
    ),
    pytest.mark.django_db(transaction=True, databases=["default", "replica"]),
]

ROUTED = override_settings(DATABASE_ROUTERS=["core.db_router.ReplicaRouter"])


def story_reads(queries) -> list[str]:
    return [q["sql"] for q in queries if '"articles_article"' in q["sql"]]


def read_page(client, url: str) -> tuple[list[str], list[str], int]:
    """The story queries each alias ran for one request, and the status."""
    with (
        ROUTED,
        CaptureQueriesContext(connections["replica"]) as replica,
        CaptureQueriesContext(connections["default"]) as primary,
    ):
        status = client.get(url).status_code
    return story_reads(replica), story_reads(primary), status


def test_an_anonymous_readers_article_page_reads_the_replica(client):
    """The story and its lists come from the replica, none from the primary."""
    with translation.override("ar"):
        url = ArticleFactory().get_absolute_url()
    replica, primary, status = read_page(client, url)
    assert status == 200 and replica and not primary


def test_an_anonymous_readers_home_page_reads_the_replica(client):
    """Listings read the replica too."""
    ArticleFactory()
    replica, primary, status = read_page(client, "/ar/")
    assert status == 200 and replica and not primary


def test_the_admin_reads_the_primary(admin_client):
    """The desk reads what it just saved: the admin never reads the replica."""
    ArticleFactory()
    replica, primary, status = read_page(admin_client, "/admin/articles/article/")
    assert status == 200 and primary and not replica


def test_an_editor_on_the_public_site_reads_the_primary(admin_client):
    """A logged-in editor checking a page sees the primary's rows."""
    ArticleFactory()
    replica, primary, status = read_page(admin_client, "/ar/")
    assert status == 200 and primary and not replica


def test_writes_go_to_the_primary_even_during_a_public_read():
    """A write made while serving a reader still goes to the primary."""
    token = _public_read.set(True)
    try:
        with ROUTED:
            assert router.db_for_write(Article) == "default"
            assert router.db_for_read(Article) == "replica"
    finally:
        _public_read.reset(token)


def test_reads_inside_a_transaction_stay_on_the_primary():
    """Inside a transaction the primary is read, so a read sees the transaction's
    own writes."""
    token = _public_read.set(True)
    try:
        with ROUTED, transaction.atomic():
            assert router.db_for_read(Article) == "default"
    finally:
        _public_read.reset(token)


def test_migrations_run_on_the_primary_only():
    """The replica follows the primary's schema; it is never migrated itself."""
    assert ReplicaRouter().allow_migrate("replica", "articles") is False
    assert ReplicaRouter().allow_migrate("default", "articles") is True
