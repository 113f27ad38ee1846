"""Writes that matter to the newsroom: publishing and unpublishing stories."""

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import Article, Status
from .privacy import article_identity_leaks


@transaction.atomic
def article_publish(
    *, article: Article, by: AbstractBaseUser | None = None, at: datetime | None = None
) -> Article:
    """Publish an article now or at `at`, refusing leaks of protected identities."""
    article.full_clean()
    leaks = article_identity_leaks(article)
    if leaks:
        raise ValidationError(
            _("A protected identity appears in %(fields)s; use the pseudonym instead.")
            % {"fields": ", ".join(sorted({leak.field for leak in leaks}))}
        )
    article.status = Status.PUBLISHED
    article.published_at = at or article.published_at or timezone.now()
    article.save()
    return article


@transaction.atomic
def article_unpublish(
    *, article: Article, by: AbstractBaseUser | None = None
) -> Article:
    """Take an article off the site; it becomes a draft again."""
    article.status = Status.DRAFT
    article.save(update_fields=["status", "updated_at"])
    return article
