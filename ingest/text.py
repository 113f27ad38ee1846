"""Text helpers shared by the parser and the embed reader: language, links, tags."""

import re
from datetime import date

from django.utils.translation import gettext as _

from arabic import normalize
from arabic.dates import month_number
from core.text import ARABIC_RE, MEDIA_RE, URL_RE, hashtags, trim_url

_LATIN_RE = re.compile("[A-Za-z]")

_SHORT_LINK_RE = re.compile(r"https?://t\.co/[A-Za-z0-9]+", re.IGNORECASE)
_TAG_LIKE_RE = re.compile(r"<\s*/?\s*[A-Za-z!][^<>]*>")


def detect_language(text: str) -> str:
    """ "ar" or "en" by which script has more letters; "" when there are none."""
    arabic = len(ARABIC_RE.findall(text))
    latin = len(_LATIN_RE.findall(text))
    if not arabic and not latin:
        return ""
    return "ar" if arabic >= latin else "en"


def analyse_post_text(text: str) -> tuple[list[str], list[str], list[str]]:
    """The links, media URLs and hashtags in a post's text.

    t.co links stay links; pic.twitter.com addresses are the post's media.
    """
    media = []
    for match in MEDIA_RE.finditer(text):
        url = match.group()
        media.append(url if url.lower().startswith("http") else f"https://{url}")
    rest = MEDIA_RE.sub(" ", text)
    links: list[str] = []
    pieces, last = [], 0
    for match in URL_RE.finditer(rest):
        raw = match.group()
        short = _SHORT_LINK_RE.match(raw)
        url = short.group() if short else trim_url(raw)
        links.append(url)
        pieces += [rest[last : match.start()], " ", raw[len(url) :]]
        last = match.end()
    pieces.append(rest[last:])
    return _unique(links), _unique(media), hashtags("".join(pieces))


def snippet(text: str, start: int, end: int, *, around: int = 60) -> str:
    """The words of `text` around `text[start:end]`, about `around` characters on
    each side, cut between words (an ellipsis where the line goes on): an editor
    reads the evidence, not the middle of a word."""
    left = max(0, start - around)
    if left and not text[left - 1].isspace():
        gap = text.find(" ", left, start)
        left = gap + 1 if gap != -1 else start
    right = min(len(text), end + around)
    if right < len(text) and not text[right].isspace():
        gap = text.rfind(" ", end, right)
        right = gap if gap != -1 else end
    words = text[left:right].strip()
    return f"{'… ' if left else ''}{words}{' …' if right < len(text) else ''}"


def strip_tag_like(text: str) -> str:
    """Text without anything that looks like an HTML tag, so none is ever stored."""
    return _TAG_LIKE_RE.sub("", text)


def tag_name(hashtag: str) -> str:
    """The tag an editor would type for a hashtag: underscores become spaces."""
    return re.sub(r"\s+", " ", hashtag.replace("_", " ")).strip()[:100]


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


class DateProblem(ValueError):
    """A date that cannot be read or does not exist; the message says which."""


_TIME_RE = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm|ص|م)?\b")
_ISO_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def parse_date(value: str, *, today: date | None = None) -> date | None:
    """A date from "December 12, 2024", "١٢ ديسمبر ٢٠٢٤" or "12 كانون الأول 2024".

    Returns None for an empty value; raises DateProblem when the value cannot be read
    or names a day that does not exist (February 30).
    """
    original = value.strip()
    if not original:
        return None
    folded = normalize(original)
    iso = _ISO_RE.search(folded)
    if iso:
        year, month, day = (int(part) for part in iso.groups())
    else:
        folded = _TIME_RE.sub(" ", folded)
        tokens = re.findall(r"\d+|[^\W\d_]+", folded)
        numbers = [t for t in tokens if t.isdigit()]
        words = [t for t in tokens if not t.isdigit()]
        month = _find_month(words)
        years = [int(n) for n in numbers if len(n) == 4]
        days = [int(n) for n in numbers if len(n) <= 2]
        if month is None or not years or not days:
            raise DateProblem(
                _("Cannot read the date “%(date)s”.") % {"date": original}
            )
        year, day = years[0], days[0]
    try:
        result = date(year, month, day)
    except ValueError:
        raise DateProblem(
            _("“%(date)s” is not a real date.") % {"date": original}
        ) from None
    today = today or date.today()
    if result.year < 2000 or result.year > today.year + 1:
        raise DateProblem(_("“%(date)s” is out of range.") % {"date": original})
    return result


def _find_month(words: list[str]) -> int | None:
    for index, word in enumerate(words):
        if index + 1 < len(words):
            number = month_number(f"{word} {words[index + 1]}")
            if number:
                return number
        number = month_number(word)
        if number:
            return number
    return None
