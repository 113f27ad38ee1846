"""How a story credits its sources, as readers see it, and whose account a post is.

Both tags read rows the view already loaded or make one query for the whole page,
so the article page costs the same however many sources and posts it carries.
"""

from django import template
from django.db.models import Q
from django.utils.translation import gettext, pgettext

from core.text import safe_url
from sources.models import SocialAccount

register = template.Library()

ROLE_ORDER = ["original", "republished", "via", "cited"]


def credit_label(role: str) -> str:
    """The words a newsroom puts before the sources of one role."""
    labels = {
        "original": gettext("Source:"),
        "republished": pgettext("credit line", "Republished from"),
        "via": pgettext("credit line", "Via"),
        "cited": pgettext("credit line", "According to"),
    }
    return labels.get(role, labels["republished"])


@register.simple_tag
def credit_lines(attributions: list[dict]) -> list[dict]:
    """One line per role, every source of that role in it, in the story's order:
    "Republished from Reuters and AFP". A source's usage terms apply: its required
    credit wording replaces its name, and a required link to the original is shown
    (or its homepage, when the story has no original URL)."""
    by_role: dict[str, list[dict]] = {}
    for credit in attributions:
        source = credit["source"]
        url = credit.get("url") or ""
        if not url and source.link_required:
            url = safe_url(source.homepage)
        by_role.setdefault(credit["role"], []).append(
            {
                "source": source,
                "name": source.credit_as or source.name,
                "url": url,
                "link_required": source.link_required,
            }
        )
    lines = []
    for role in sorted(
        by_role, key=lambda r: ROLE_ORDER.index(r) if r in ROLE_ORDER else 9
    ):
        items = by_role[role]
        for index, item in enumerate(items):
            item["separator"] = (
                ""
                if index == len(items) - 1
                else pgettext("list", " and ")
                if index == len(items) - 2
                else pgettext("list", ", ")
            )
        lines.append({"role": role, "label": credit_label(role), "items": items})
    return lines


@register.simple_tag
def attach_post_sources(body: list) -> str:
    """Give each post of the body the source whose social account posted it, as
    `post.source_by_account`, with one query for the page."""
    posts = [item.post for item in body if getattr(item, "post", None)]
    posts = [post for post in posts if post.handle]
    if not posts:
        return ""
    wanted = Q(pk__in=[])
    for post in posts:
        wanted |= Q(platform=post.platform, handle__iexact=post.handle)
    accounts = {
        (a.platform, a.handle.lower()): a.source
        for a in SocialAccount.objects.filter(wanted).select_related("source")
    }
    for post in posts:
        post.source_by_account = accounts.get((post.platform, post.handle.lower()))
    return ""
