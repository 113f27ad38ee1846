"""Everything the newsroom knows about each social platform, in one entry each.

An entry says which hosts are the platform's, how a post's URL reads (and how to write
it back in one canonical form), which classes and attributes its embed code carries,
which widget script that code loads, and where an account's profile lives. The
`Platform` choices of posts and accounts, the importer and the cards all read this
list: adding a platform is one new entry here (and its tests).

Pure Python, no database: `articles` is the core, so `sources` and `ingest` import it.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from django.utils.translation import gettext_lazy as _

OTHER = "other"


@dataclass(frozen=True)
class PostRef:
    """What a post's URL says: its platform, its canonical URL and its author."""

    platform: str
    url: str
    handle: str = ""


# (host without www./m., path segments, query, the URL as given) → PostRef | None
UrlReader = Callable[[str, list[str], dict[str, list[str]], str], PostRef | None]


@dataclass(frozen=True)
class PlatformSpec:
    """One social platform."""

    key: str
    label: str
    hosts: tuple[str, ...]
    read_url: UrlReader
    profile: str = ""  # the profile URL with {handle}
    embed_classes: tuple[str, ...] = ()  # classes of its blockquote/div embed code
    # Attributes of the embed code that hold the post's URL, best first.
    permalink_attributes: tuple[str, ...] = ()
    widget_scripts: tuple[str, ...] = ()  # what its embed code's <script> loads

    def profile_url(self, handle: str) -> str:
        handle = (handle or "").strip().lstrip("@")
        return self.profile.format(handle=handle) if self.profile and handle else ""


# ---------------------------------------------------------------- URL readers


def _x(host, segments, query, url) -> PostRef | None:
    is_status = len(segments) >= 3 and segments[1] in ("status", "statuses")
    if not is_status or not segments[2].isdigit():
        return None
    handle = "" if segments[0] == "i" else segments[0]
    who = handle or "i/web"
    return PostRef("x", f"https://x.com/{who}/status/{segments[2]}", handle)


def _instagram(host, segments, query, url) -> PostRef | None:
    for index, segment in enumerate(segments[:-1]):
        if segment in ("p", "reel", "reels", "tv"):
            handle = segments[0] if index == 1 else ""
            kind = "reel" if segment == "reels" else segment
            address = f"https://www.instagram.com/{kind}/{segments[index + 1]}/"
            return PostRef("instagram", address, handle)
    return None


_FACEBOOK_PAGES = {"permalink.php", "story.php", "watch", "reel", "share", "photo.php"}


def _facebook(host, segments, query, url) -> PostRef | None:
    if host == "fb.watch":
        return PostRef("facebook", url.strip()) if segments else None
    if segments and segments[0] == "plugins" and query.get("href"):
        return post_from_url(query["href"][0])
    is_post = segments and (
        segments[0] in _FACEBOOK_PAGES
        or any(s in ("posts", "videos", "photos", "permalink") for s in segments)
    )
    if not is_post:
        return None
    handle = "" if segments[0] in _FACEBOOK_PAGES else segments[0]
    path = urlsplit(url.strip()).path
    keep = {k: v for k, v in query.items() if k in ("story_fbid", "id", "v", "fbid")}
    tail = "&".join(f"{k}={v[0]}" for k, v in keep.items())
    address = f"https://www.facebook.com{path}" + (f"?{tail}" if tail else "")
    return PostRef("facebook", address, handle)


_YOUTUBE_ID_RE = re.compile(r"^[A-Za-z0-9_-]{11}$")


def _youtube(host, segments, query, url) -> PostRef | None:
    video = ""
    if host == "youtu.be" and segments:
        video = segments[0]
    elif query.get("v"):
        video = query["v"][0]
    elif len(segments) >= 2 and segments[0] in ("embed", "shorts", "live", "v"):
        video = segments[1]
    if not _YOUTUBE_ID_RE.match(video):
        return None
    return PostRef("youtube", f"https://www.youtube.com/watch?v={video}")


def _tiktok(host, segments, query, url) -> PostRef | None:
    if host == "vm.tiktok.com" and segments:
        return PostRef("tiktok", f"https://vm.tiktok.com/{segments[0]}/")
    if len(segments) >= 3 and segments[0].startswith("@") and segments[1] == "video":
        handle = segments[0][1:]
        address = f"https://www.tiktok.com/@{handle}/video/{segments[2]}"
        return PostRef("tiktok", address, handle)
    return None


def _telegram(host, segments, query, url) -> PostRef | None:
    if segments and segments[0] == "s":
        segments = segments[1:]
    if len(segments) >= 2 and segments[1].isdigit():
        channel = segments[0]
        return PostRef("telegram", f"https://t.me/{channel}/{segments[1]}", channel)
    return None


def _threads(host, segments, query, url) -> PostRef | None:
    if len(segments) >= 3 and segments[0].startswith("@") and segments[1] == "post":
        handle = segments[0][1:]
        return PostRef(
            "threads", f"https://www.threads.net/@{handle}/post/{segments[2]}", handle
        )
    return None


def _bluesky(host, segments, query, url) -> PostRef | None:
    if len(segments) >= 4 and segments[0] == "profile" and segments[2] == "post":
        handle = segments[1]
        return PostRef(
            "bluesky", f"https://bsky.app/profile/{handle}/post/{segments[3]}", handle
        )
    return None


PLATFORMS: tuple[PlatformSpec, ...] = (
    PlatformSpec(
        "x",
        _("X (Twitter)"),
        ("x.com", "twitter.com"),
        _x,
        profile="https://x.com/{handle}",
        embed_classes=("twitter-tweet", "twitter-video"),
        widget_scripts=("platform.twitter.com/widgets.js",),
    ),
    PlatformSpec(
        "facebook",
        _("Facebook"),
        ("facebook.com", "fb.com", "fb.watch"),
        _facebook,
        profile="https://www.facebook.com/{handle}",
        embed_classes=("fb-post", "fb-video"),
        permalink_attributes=("data-href",),
        widget_scripts=("connect.facebook.net/",),
    ),
    PlatformSpec(
        "instagram",
        _("Instagram"),
        ("instagram.com",),
        _instagram,
        profile="https://www.instagram.com/{handle}/",
        embed_classes=("instagram-media",),
        permalink_attributes=("data-instgrm-permalink",),
        widget_scripts=("instagram.com/embed.js",),
    ),
    PlatformSpec(
        "youtube",
        _("YouTube"),
        ("youtube.com", "youtube-nocookie.com", "youtu.be", "music.youtube.com"),
        _youtube,
        profile="https://www.youtube.com/@{handle}",
    ),
    PlatformSpec(
        "tiktok",
        _("TikTok"),
        ("tiktok.com", "vm.tiktok.com"),
        _tiktok,
        profile="https://www.tiktok.com/@{handle}",
        embed_classes=("tiktok-embed",),
        permalink_attributes=("cite",),
        widget_scripts=("tiktok.com/embed.js",),
    ),
    PlatformSpec(
        "telegram",
        _("Telegram"),
        ("t.me", "telegram.me"),
        _telegram,
        profile="https://t.me/{handle}",
        widget_scripts=("telegram.org/js/telegram-widget.js",),
    ),
    PlatformSpec(
        "threads",
        _("Threads"),
        ("threads.net", "threads.com"),
        _threads,
        profile="https://www.threads.net/@{handle}",
        embed_classes=("text-post-media",),
        permalink_attributes=("data-text-post-permalink",),
        widget_scripts=("threads.net/embed.js", "threads.com/embed.js"),
    ),
    PlatformSpec(
        "bluesky",
        _("Bluesky"),
        ("bsky.app",),
        _bluesky,
        profile="https://bsky.app/profile/{handle}",
        embed_classes=("bluesky-embed",),
        permalink_attributes=("data-bluesky-uri",),
        widget_scripts=("embed.bsky.app/static/embed.js",),
    ),
)

BY_KEY = {spec.key: spec for spec in PLATFORMS}
_BY_HOST = {host: spec for spec in PLATFORMS for host in spec.hosts}
_HOST_PREFIXES = ("www.", "m.", "mobile.", "web.")
_EMBED_CLASSES = frozenset(name for spec in PLATFORMS for name in spec.embed_classes)


def choices() -> list[tuple[str, str]]:
    """(key, label) of every platform, then "other": the model fields' choices."""
    return [(spec.key, spec.label) for spec in PLATFORMS] + [(OTHER, _("Other"))]


def platform_for_host(url: str) -> PlatformSpec | None:
    """The platform a URL's host belongs to, whatever the path."""
    try:
        host = (urlsplit(url.strip()).hostname or "").lower()
    except ValueError:
        return None
    for prefix in _HOST_PREFIXES:
        host = host.removeprefix(prefix)
    return _BY_HOST.get(host)


def post_from_url(url: str) -> PostRef | None:
    """The post a URL points at (x.com, youtu.be, t.me …), or None for other links."""
    try:
        parts = urlsplit(url.strip())
        hostname = parts.hostname
    except ValueError:  # a malformed IPv6 host or port
        return None
    if parts.scheme.lower() not in ("http", "https") or not hostname:
        return None
    spec = platform_for_host(url)
    if spec is None:
        return None
    host = hostname.lower()
    for prefix in _HOST_PREFIXES:
        host = host.removeprefix(prefix)
    segments = [unquote(s) for s in parts.path.split("/") if s]
    return spec.read_url(host, segments, parse_qs(parts.query), url)


def embed_platform(classes: set[str]) -> PlatformSpec | None:
    """The platform whose embed code carries one of these classes."""
    for spec in PLATFORMS:
        if classes.intersection(spec.embed_classes):
            return spec
    return None


def is_known_widget(src: str) -> bool:
    """Whether a <script src> is a platform's own embed loader (dropped as expected)."""
    return any(w in (src or "") for spec in PLATFORMS for w in spec.widget_scripts)


def embed_classes() -> frozenset[str]:
    """Every class that marks a platform's embed code."""
    return _EMBED_CLASSES


def permalink_attributes() -> tuple[str, ...]:
    return tuple(
        dict.fromkeys(a for spec in PLATFORMS for a in spec.permalink_attributes)
    )
