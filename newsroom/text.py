"""Text patterns and helpers every app shares, defined once: lines, scripts, links,
hashtags."""

import re

# Arabic letters and marks, with the supplement, extended and presentation forms.
ARABIC_RE = re.compile(
    "[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]"
)

# Links: ASCII URL characters only, so a hashtag glued to a link ("…/8cUb28HP1K#خاص")
# is not swallowed as the URL's fragment.
URL_RE = re.compile(r"https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+", re.IGNORECASE)

# Letters, digits, underscore and Arabic marks, not inside a word, an entity (&#…)
# or a URL path; a tag that is only digits is not a tag (callers drop those).
HASHTAG_RE = re.compile(r"(?<![\w&/])#([\w\u064b-\u065f\u0670\u0640]+)")

_HTTP_URL_RE = re.compile(r"^https?://[^\s\x00-\x1f\x7f]+$", re.IGNORECASE)


def script_language(text: str) -> str:
    """ "ar" for text written in Arabic script, "en" otherwise: the `lang` a name or
    tag needs when it appears on a page of the other edition."""
    return "ar" if ARABIC_RE.search(text or "") else "en"


def lines(text: str) -> list[str]:
    """The non-empty, stripped lines of a one-per-line field."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def safe_url(url: str | None) -> str:
    """The URL if it is an absolute http(s) link, else "" (a protocol-relative link
    becomes https; anything with a space or a control character is refused)."""
    url = (url or "").strip()
    if url.startswith("//"):
        url = "https:" + url
    return url if _HTTP_URL_RE.match(url) else ""
