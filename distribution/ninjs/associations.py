"""What a document carries beside its body: pictures with our renditions, and
social posts as structured data (never a platform's script)."""

import mimetypes
from collections.abc import Callable

from django.utils.translation import gettext

from articles.models import SocialPost
from core.text import safe_url
from images.models import Image

from .common import compact, when


def picture(image: Image, name: str, caption: str, absolute: Callable) -> dict:
    """A picture association: its caption, alt text, credit and renditions."""
    descriptions = [
        {"role": role, "contentType": "text/plain", "value": value}
        for role, value in (("caption", caption), ("alt", image.alt_text))
        if value
    ]
    if image.is_graphic:
        descriptions.append(
            {
                "role": "contentWarning",
                "value": gettext("Warning: this image shows graphic content."),
            }
        )
    return compact(
        {
            "name": name,
            "rel": "hero" if name == "hero" else "embedded",
            "uri": absolute(image.file.url),
            "type": "picture",
            "headlines": [{"role": "main", "value": image.title}]
            if image.title
            else [],
            "descriptions": descriptions,
            "by": image.credit,
            "copyrightHolder": image.source,
            "renditions": renditions(image, absolute),
        }
    )


def printed_together(document: dict) -> list[str]:
    """What a partner prints side by side that the document keeps apart: each
    picture's caption, and its alt text, with its credit."""
    texts = []
    for association in document.get("associations", []):
        credit = association.get("by", "")
        if association.get("type") != "picture" or not credit:
            continue
        texts += [
            f"{description['value']} {credit}"
            for description in association.get("descriptions", [])
            if description.get("role") in ("caption", "alt")
        ]
    return texts


def renditions(image: Image, absolute: Callable) -> list[dict]:
    """The original and each of our renditions, with their sizes."""
    original = compact(
        {
            "name": "original",
            "href": absolute(image.file.url),
            "contentType": mimetypes.guess_type(image.file.name)[0],
            "width": image.width or None,
            "height": image.height or None,
        }
    )
    return [
        original,
        *[
            compact(
                {
                    "name": "-".join(
                        filter(
                            None, [r.ratio.replace(":", "x"), f"w{r.width}", r.format]
                        )
                    ),
                    "href": absolute(r.file.url),
                    "contentType": r.mime_type,
                    "width": r.width,
                    "height": r.height,
                    "aspectRatio": r.ratio,
                }
            )
            for r in image.renditions.all()
        ],
    ]


def post(post: SocialPost, document_uri: str) -> dict:
    """A social post as data: who posted it, when, its text, hashtags and media;
    never the platform's embed script."""
    name = f"post-{post.pk}"
    who = post.author_name
    if post.handle:
        who = f"{who} (@{post.handle})".strip()
    return compact(
        {
            "name": name,
            "rel": "embedded",
            "uri": safe_url(post.url) or f"{document_uri}#{name}",
            "type": "text",
            "language": post.language,
            "firstCreated": when(post.posted_at),
            "by": who,
            "bodies": [
                {"role": "main", "contentType": "text/plain", "value": post.text}
            ]
            if post.text
            else [],
            "infoSources": [
                compact(
                    {
                        "name": str(post.get_platform_display()),
                        "role": "platform",
                        "literal": post.handle,
                    }
                )
            ],
            "subjects": [
                {"name": f"#{tag}", "rel": "hashtag"} for tag in post.hashtags
            ],
            "renditions": [
                {"name": f"media-{number}", "href": url}
                for number, url in enumerate(
                    filter(None, map(safe_url, post.media_urls)), start=1
                )
            ],
        }
    )
