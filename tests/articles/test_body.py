"""The body's safe HTML: sanitizing, splitting into blocks, isolating Latin runs."""

from articles.body import isolate_ltr_runs, sanitize_html, split_blocks


def test_sanitize_drops_scripts_and_handlers():
    """Scripts, event handlers and javascript: links are removed."""
    html = sanitize_html(
        '<p onclick="x()">نص<img src=x onerror=alert(1)></p><script>alert(1)</script>'
        '<a href="javascript:alert(1)">رابط</a>'
    )
    assert "script" not in html
    assert "onerror" not in html
    assert "onclick" not in html
    assert "javascript" not in html


def test_split_blocks_returns_top_level_elements():
    """Loose text between blocks becomes its own paragraph."""
    html = "<p>أولى</p>نص حر<ul><li>بند</li></ul>"
    assert split_blocks(html) == [
        "<p>أولى</p>",
        "<p>نص حر</p>",
        "<ul><li>بند</li></ul>",
    ]


def test_latin_runs_in_arabic_text_are_isolated():
    """Handles, domains and numbers sit in <bdi> so they do not scramble the line."""
    html = isolate_ltr_runs("<p>قال @aawsat_News لموقع 24.ae إن 70 شخصاً</p>")
    assert "<bdi>@aawsat_News</bdi>" in html
    assert "<bdi>24.ae</bdi>" in html
    assert "<bdi>70</bdi>" in html


def test_isolating_keeps_entities_and_attributes_intact():
    """Entities and tag attributes are never cut by the isolation."""
    html = isolate_ltr_runs('<p><a href="https://t.co/a">رابط</a> &amp; نص</p>')
    assert '<a href="https://t.co/a">' in html
    assert "&amp;" in html
