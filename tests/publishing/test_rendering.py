"""How stored post text becomes the HTML of a social card."""

from publishing.rendering import social_text_html


def test_hashtag_run_into_a_link_is_kept_apart():
    """Text copied from X runs a t.co link and an Arabic hashtag together."""
    html = social_text_html("https://t.co/8cUb28HP1K#خاص_الخبر")
    assert 'href="https://t.co/8cUb28HP1K"' in html
    assert '<bdi class="hashtag">#خاص_الخبر</bdi>' in html


def test_latin_fragment_stays_in_the_link():
    """A real fragment such as #section-2 is part of the URL."""
    html = social_text_html("https://example.org/page#section-2")
    assert 'href="https://example.org/page#section-2"' in html


def test_post_text_is_escaped():
    """Markup in post text is shown as text, never run."""
    html = social_text_html('<img src=x onerror="alert(1)"> نص')
    assert "<img" not in html
    assert "&lt;img" in html


def test_a_body_is_sanitized_once_per_text(monkeypatch):
    """Rendering the same stored body again reuses its cleaned blocks; a changed
    body is cleaned afresh."""
    from publishing import rendering

    calls = []
    real = rendering.sanitize_html
    monkeypatch.setattr(
        rendering, "sanitize_html", lambda text: calls.append(text) or real(text)
    )
    rendering._clean_blocks.cache_clear()
    body = "<p>فقرة أولى</p><p>second <script>x()</script></p>"
    first = rendering.body_items(body, [])
    again = rendering.body_items(body, [])
    rendering.body_items(body + "<p>ثالثة</p>", [])
    assert len(calls) == 2
    assert [item.html for item in first] == [item.html for item in again]
    assert "<script" not in "".join(item.html for item in again)
