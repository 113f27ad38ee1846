"""The editorial app's own subscribers to domain events (core.events), connected
in ArticlesConfig.ready()."""

from typing import Any

from .models import Article
from .search_index import index_article


def reindex_on_change(sender, instance: Article, **kwargs: Any) -> None:
    """Receiver of the story events: a story changed by a service is indexed again."""
    if getattr(instance, "_search_indexed_version", None) == instance.version:
        return  # article_save indexed this very version as it wrote it
    # Services may write with queryset.update(); read the row as committed.
    article = Article.objects.filter(pk=instance.pk).first()
    if article is not None:
        index_article(article)
