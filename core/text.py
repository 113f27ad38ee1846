"""Text patterns and helpers every app shares, defined once: lines, scripts, links,
hashtags, and a social post's text as tokens."""

import re
import unicodedata

# Arabic letters and marks, with the supplement, extended and presentation forms.
ARABIC_RE = re.compile(
    "[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]"
)

# Links: ASCII URL characters only, so a hashtag glued to a link ("…/8cUb28HP1K#خاص")
# is not swallowed as the URL's fragment (trim_url() drops the "#" left at its end).
URL_RE = re.compile(r"https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+", re.IGNORECASE)
# Punctuation that ends the sentence around a link rather than the link.
_URL_TRAILING = ".,;:!?'\"#،؛؟"

_TAG_CHARACTER = r"[\w\u064b-\u065f\u0670\u0640]"
# Letters, digits, underscore and Arabic marks, not inside a word, an entity (&#…)
# or a URL path. One tag of digits only is a number ("#1"), not a hashtag.
HASHTAG_RE = re.compile(rf"(?<![\w&/])#((?={_TAG_CHARACTER}*[^\W\d]){_TAG_CHARACTER}+)")
# A handle (@name) not inside a word or an e-mail address.
HANDLE_RE = re.compile(r"(?<![\w@])@\w{1,50}")
# X writes a post's pictures into its text as pic.twitter.com/… (the post's media).
MEDIA_RE = re.compile(
    r"(?<![/\w.])(?:https?://)?pic\.(?:twitter|x)\.com/[A-Za-z0-9]+", re.IGNORECASE
)
# Media first (it may lack a scheme), then links, so a "#" or "@" inside a link stays
# part of it; then handles and hashtags.
_TOKEN_RE = re.compile(
    rf"(?P<media>{MEDIA_RE.pattern})"
    rf"|(?P<url>{URL_RE.pattern})"
    rf"|(?P<handle>{HANDLE_RE.pattern})"
    rf"|(?P<hashtag>{HASHTAG_RE.pattern})",
    re.IGNORECASE,
)

_HTTP_URL_RE = re.compile(r"^https?://[^\s\x00-\x1f\x7f]+$", re.IGNORECASE)


def trim_url(url: str) -> str:
    """A URL without the punctuation that ends the sentence around it."""
    url = url.rstrip(_URL_TRAILING)
    if url.endswith(")") and "(" not in url:
        url = url[:-1].rstrip(_URL_TRAILING)
    return url


def social_tokens(text: str) -> list[tuple[str, str]]:
    """A post's text as (kind, piece) in order, kind being "media", "url", "handle",
    "hashtag" or "text"; the pieces put together give the text back.

    A link ends where the sentence's punctuation starts (trim_url), and whatever
    follows it is read afresh, as if after a space: text copied from X glues a
    hashtag to a link ("https://t.co/abc#خاص"), which is a link and a hashtag.
    """
    rest = text or ""
    tokens: list[tuple[str, str]] = []
    while match := _TOKEN_RE.search(rest):
        if match.start():
            tokens.append(("text", rest[: match.start()]))
        kind, piece = match.lastgroup or "text", match.group()
        if kind == "url":
            piece = trim_url(piece)
        tokens.append((kind, piece))
        rest = rest[match.start() + len(piece) :]
    if rest:
        tokens.append(("text", rest))
    return tokens


def _joins(character: str) -> bool:
    """Whether a character would run into a link, tag or word beside it."""
    return (
        character.isalnum()
        or character in "#@_/"
        or unicodedata.category(character).startswith("M")
    )


def spaced_tokens(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The tokens with a space ("text") wherever a link, handle, hashtag or media
    address runs straight into the word or token beside it, so none is read as
    part of its neighbour ("السياراتhttps://t.co/x#جسر" → three pieces, apart)."""
    spaced: list[tuple[str, str]] = []
    for kind, piece in tokens:
        if spaced and piece:
            before_kind, before = spaced[-1]
            a_token = before_kind != "text" or kind != "text"
            if a_token and _joins(before[-1]) and _joins(piece[0]):
                spaced.append(("text", " "))
        spaced.append((kind, piece))
    return spaced


def separate_tokens(text: str) -> str:
    """Post text with a space wherever a link, handle or hashtag runs into its
    neighbour (spaced_tokens), and nothing else changed."""
    return "".join(piece for _kind, piece in spaced_tokens(social_tokens(text)))


def hashtags(text: str) -> list[str]:
    """The hashtags of `text`, without "#", each once, in order."""
    return list(dict.fromkeys(HASHTAG_RE.findall(text or "")))


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


def cut_at_word(text: str, limit: int) -> str:
    """`text` shortened to at most `limit` characters at a word boundary, with an
    ellipsis when cut (a word cut in half reads as a different word in Arabic)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,،;؛:.-") + "…"
