"""Whose work a story is, and how a partner must credit it: from the usage terms
of the sources it credits, as the page honours them."""

from django.utils import timezone
from django.utils.translation import gettext, pgettext

from articles.models import Article
from core.text import safe_url
from sources.models import Attribution

from .common import compact

# Credited outlets whose work the story is: their rights are the story's.
RIGHTS_ROLES = (
    Attribution.Role.ORIGINAL,
    Attribution.Role.REPUBLISHED,
    Attribution.Role.VIA,
)


def rights(article: Article, attributions: list[Attribution]) -> dict:
    """copyrightHolder, copyrightNotice, usageTerms and rightsInfo: the credit
    wording and link to the original its sources require; the newsroom's own
    notice when it credits no outlet's work."""
    owners = [a for a in attributions if a.role in RIGHTS_ROLES]
    if not owners:
        newsroom = gettext("Newsroom")
        year = (article.published_at or timezone.now()).year
        return {"copyrightHolder": newsroom, "copyrightNotice": f"© {year} {newsroom}"}
    sources = list({a.source.pk: a.source for a in owners}.values())
    terms = []
    for a in owners:
        if a.source.credit_as:
            terms.append(
                gettext("Credit %(source)s as “%(credit)s”.")
                % {"source": a.source.name, "credit": a.source.credit_as}
            )
        link = safe_url(a.original_url) or safe_url(a.source.homepage)
        if a.source.link_required and link:
            terms.append(gettext("Link to the original: %(url)s") % {"url": link})
    linked = next((safe_url(a.original_url) for a in owners if a.original_url), "")
    return compact(
        {
            "copyrightHolder": pgettext("list", ", ").join(s.name for s in sources),
            "copyrightNotice": pgettext("list", ", ").join(
                s.credit_as or f"© {s.name}" for s in sources
            ),
            "usageTerms": " ".join(dict.fromkeys(terms)),
            # Where the outlet published the work the story's rights come from.
            "rightsInfo": {"linkedRights": linked} if linked else None,
        }
    )
