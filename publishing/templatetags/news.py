"""Display helpers for the public templates: dates, social text, language links."""

from datetime import datetime

from django import template
from django.conf import settings
from django.urls import reverse, translate_url
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import get_language, get_language_info, gettext

from arabic.dates import format_date, with_digits_for
from core.text import safe_url, script_language

from ..rendering import direction, social_text_html

register = template.Library()


def _language() -> str:
    return get_language() or settings.LANGUAGE_CODE


@register.filter
def news_date(value, full: bool = False) -> str:
    """A local date in the edition's words and the site's month style and digits.

    "12 ديسمبر 2024" or "12 December 2024"; `full` adds the weekday and Hijri date.
    """
    if not value:
        return ""
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return format_date(
        value,
        language=_language(),
        style=settings.NEWSROOM_MONTH_STYLE,
        digits=settings.NEWSROOM_DIGITS,
        full=full,
    )


@register.simple_tag
def time_tag(value, full: bool = False) -> str:
    """A <time> element with a machine-readable date and the date isolated for bidi.

    `full` (the article's own date) adds the weekday and the Hijri date.
    """
    if not value:
        return ""
    return format_html(
        '<time datetime="{}"><bdi>{}</bdi></time>',
        value.isoformat(),
        news_date(value, full),
    )


@register.filter(is_safe=True)
def digits(value) -> str:
    """A count (a page number) in the site's digits on Arabic pages; never for URLs."""
    return with_digits_for(str(value), _language(), settings.NEWSROOM_DIGITS)


@register.filter
def social_text(value: str, media=()) -> str:
    """Escaped post text with line breaks, clickable links and isolated Latin tokens;
    the media addresses given (the post's media URLs, listed under the text) are
    left out of it."""
    return social_text_html(value, media or ())


@register.simple_tag(takes_context=True)
def editions(context) -> list[dict]:
    """This page in every edition: code, local name, URLs, and whether it is current."""
    request = context.get("request")
    alternates = context.get("alternate_urls") or {}
    current = get_language() or settings.LANGUAGE_CODE
    links = []
    for code, _name in settings.LANGUAGES:
        if code in alternates:
            url = alternates[code]
        elif request is not None:
            url = translate_url(request.get_full_path(), code)
        else:
            url = f"/{code}/"
        info = get_language_info(code)
        links.append(
            {
                "code": code,
                "name": info["name_local"],
                "url": url,
                "absolute_url": request.build_absolute_uri(url) if request else url,
                "direction": "rtl" if info["bidi"] else "ltr",
                "is_current": code == current,
            }
        )
    return links


@register.simple_tag(takes_context=True)
def feed_links(context) -> list[dict]:
    """The feeds a page offers readers' feed finders: the edition's, then the page's
    own (`page_feed`: a section's, a tag's, a person's, the story's section)."""
    request = context.get("request")
    feeds = [(reverse("articles:feed"), gettext("Newsroom"))]
    own = context.get("page_feed")
    if own and own[0] != feeds[0][0]:
        feeds.append(own)
    return [
        {"url": request.build_absolute_uri(url) if request else url, "title": title}
        for url, title in feeds
    ]


@register.simple_tag(takes_context=True)
def site_navigation(context) -> str:
    """The section menu and breaking banner every page shows (cached, rendered),
    unless the view read them already (the article page, with its fragments)."""
    from ..navigation import navigation_html

    return context.get("navigation_html") or navigation_html(context.get("request"))


@register.filter
def script_lang(value: str) -> str:
    """The language of a name's script, for `lang` on names and tags (screen readers
    then read an Arabic byline on an English page with an Arabic voice)."""
    return script_language(str(value))


@register.filter
def external_url(value: str) -> str:
    """The value if it is an http(s) URL, else empty, so no javascript: link is made."""
    return safe_url(value)


@register.filter
def text_direction(language: str) -> str:
    """rtl for Arabic, ltr otherwise, for a piece of text in `language`."""
    return direction((language or "").split("-")[0])


@register.filter
def in_edition(article, field: str) -> str:
    """The field as written for the active edition, without falling back to another.

    Teasers are listed per edition, so a missing English kicker or summary is left
    out rather than shown in Arabic inside an English list.
    """
    language = get_language() or settings.LANGUAGE_CODE
    return getattr(article, f"{field}_{language}", "") or ""


class OncePerLanguageNode(template.Node):
    """Its contents, rendered once per language in each process and then reused."""

    def __init__(self, nodelist: template.NodeList):
        self.nodelist = nodelist
        self.rendered: dict[str, str] = {}

    def render(self, context) -> str:
        language = _language()
        html = self.rendered.get(language)
        if html is None:
            # A context of its own: nothing of one page can be frozen into every
            # other; only the language is known inside.
            html = self.nodelist.render(context.new({"LANGUAGE_CODE": language}))
            self.rendered[language] = html
        return html


@register.tag
def once_per_language(parser, token) -> OncePerLanguageNode:
    """{% once_per_language %}…{% endonce_per_language %}: the parts of the page
    frame that depend on nothing but the language (static links, the site's name,
    translated labels). Every page shows them; rendering their tags each time cost
    an article page about 0.1 ms of its 1.5 (in-process, docs/performance.md).
    """
    nodelist = parser.parse(("endonce_per_language",))
    parser.delete_first_token()
    return OncePerLanguageNode(nodelist)
