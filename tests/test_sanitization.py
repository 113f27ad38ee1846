"""Whatever editors or imports store, public pages render it inert."""

import re
from html.parser import HTMLParser

import pytest
from django.utils import translation

from articles.models import Article
from tests.factories import ArticleFactory, AttributionFactory, SocialPostFactory

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert('x')</script>"
ONERROR = '<img src=x onerror="alert(1)">'


def page(client, article, language="ar") -> str:
    with translation.override(language):
        url = article.get_absolute_url()
    return client.get(url).content.decode()


def main_part(html: str) -> str:
    """The page below the <head>, where stored text is shown."""
    return html.split("<body>", 1)[1]


class _ActiveContent(HTMLParser):
    """Collects what a browser would run: event handlers, scripts, javascript: links."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}>")
            if name in {"href", "src"} and (value or "").strip().lower().startswith(
                ("javascript:", "data:")
            ):
                self.found.append(f"<{tag} {name}={value}>")
        if tag == "script":
            attributes = dict(attrs)
            ours = (attributes.get("src") or "").startswith("/static/")
            if not ours and attributes.get("type") != "application/ld+json":
                self.found.append("<script>")
        if tag in {"iframe", "object", "embed"}:
            self.found.append(f"<{tag}>")
        if tag == "img" and not (dict(attrs).get("src") or "").startswith("/media/"):
            self.found.append(f"<img src={dict(attrs).get('src')}>")


def assert_inert(html: str) -> None:
    """No element on the page carries anything a browser would execute."""
    parser = _ActiveContent()
    parser.feed(html)
    assert parser.found == []
    assert "<script>alert" not in html


def test_script_in_body_is_removed(client):
    """A <script> typed into the body never reaches the page."""
    article = ArticleFactory(body_ar=f"<p>نص</p>{SCRIPT}{ONERROR}")
    assert_inert(page(client, article))


def test_body_written_around_save_is_sanitized_at_render(client):
    """A body stored with update(), skipping save(), is still cleaned when shown."""
    article = ArticleFactory()
    Article.objects.filter(pk=article.pk).update(
        body_ar=f'<p onclick="steal()">نص</p>{SCRIPT}{ONERROR}'
        '<a href="javascript:x()">r</a>'
    )
    html = page(client, article)
    assert_inert(html)
    assert "onclick" not in html
    assert "javascript:" not in html
    assert "نص" in html


def test_script_in_summary_is_escaped(client):
    """A summary is plain text: markup in it is shown as text, not run."""
    article = ArticleFactory(summary_ar=f"ملخص {SCRIPT} {ONERROR}")
    html = page(client, article)
    assert_inert(html)
    assert "&lt;script&gt;" in main_part(html)


def test_markup_in_headline_is_escaped(client):
    """A headline with markup is escaped on the article page and in lists."""
    article = ArticleFactory(headline_ar=f"عنوان {SCRIPT}")
    assert_inert(page(client, article))
    assert_inert(client.get("/ar/").content.decode())


def test_script_in_hero_caption_and_alt_is_escaped(client):
    """Hero caption, credit and alt text are escaped."""
    from tests.factories import ImageFactory

    article = ArticleFactory(
        hero_caption_ar=f"تعليق {SCRIPT}",
        hero_image=ImageFactory(credit=ONERROR, alt_text_ar='" onerror="alert(1)'),
    )
    html = page(client, article)
    assert_inert(html)
    assert 'alt="&quot; onerror=&quot;alert(1)"' in html


def test_script_in_social_text_is_escaped(client):
    """A post's text is escaped even where links are made clickable."""
    article = ArticleFactory()
    SocialPostFactory(
        article=article,
        text=f'{SCRIPT} {ONERROR} https://example.org/"onmouseover="x() @h<b>',
        author_name=SCRIPT,
        handle="<b>h</b>",
    )
    html = page(client, article)
    assert_inert(html)
    assert 'onmouseover="x()' not in html
    assert "<b>" not in main_part(html)


def test_javascript_urls_in_social_posts_are_not_linked(client):
    """Only http(s) URLs become links on a social card."""
    article = ArticleFactory()
    SocialPostFactory(
        article=article,
        url="javascript:alert(1)",
        media_urls=["javascript:alert(2)", "data:text/html,<script>x</script>"],
    )
    html = page(client, article)
    assert "javascript:" not in html
    assert "data:text/html" not in html


def test_javascript_original_url_is_not_linked(client):
    """An attribution URL that is not http(s) is neither linked nor canonical."""
    article = ArticleFactory()
    AttributionFactory(
        article=article, original_url="javascript:alert(1)", is_canonical=True
    )
    html = page(client, article)
    assert "javascript:" not in html
    assert '<link rel="canonical" href="http://testserver/' in html


def test_json_ld_cannot_close_its_script_element(client):
    """A headline containing </script> is escaped inside the JSON-LD block."""
    article = ArticleFactory(headline_ar="عنوان </script><script>alert(1)</script>")
    html = page(client, article)
    data = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert "\\u003C/script\\u003E" in data.group(1)
    assert_inert(html)
