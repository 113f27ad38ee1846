"""How stored post text becomes the HTML of a social card."""

from articles.rendering import social_text_html


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
