"""An agency item's pictures into the image library, through the library's door
(`image_save`: the upload checks, metadata stripped, once only, the identity
gate on caption and credit), the first becoming the story's hero."""

import logging
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.translation import gettext as _
from PIL import Image as PillowImage

from articles.models import Article, Status
from articles.services import DuplicateImageError, StoryEdit, article_save, image_save
from identity.gate import IdentityLeakError
from images.models import Image
from images.uploads import MAX_UPLOAD_BYTES

from .fetching import fetch, host_of
from .formats import Picture, WireFormatError
from .models import AgencyItem, ChannelLog

logger = logging.getLogger(__name__)

DRAFTS = {Status.DRAFT, Status.IN_REVIEW, Status.APPROVED}


def pictures_import(*, agency_item: AgencyItem, by: AbstractBaseUser) -> int:
    """Each picture fetched and saved; a refused one is logged on the channel."""
    added = []
    for picture in agency_item.item.pictures:
        try:
            added.append(_picture_save(picture, agency_item, by))
        except DuplicateImageError as exc:
            added.append(exc.existing)
        except (
            WireFormatError,
            ValidationError,
            PermissionDenied,
            IdentityLeakError,
        ) as exc:
            _log(agency_item, picture, exc)
        except (PillowImage.DecompressionBombError, MemoryError) as exc:
            # Pixels enough to exhaust the worker: this picture is refused, the
            # item's others still come.
            logger.warning("Wire picture %s refused: %s", picture.href, exc)
            _log(agency_item, picture, WireFormatError(_too_many_pixels()))
        except Exception as exc:  # one broken picture must not stop the others
            logger.exception("Wire picture %s failed", picture.href)
            _log(agency_item, picture, WireFormatError(_failed(exc)))
    article = Article.objects.get(pk=agency_item.article_id)
    # A story readers see (or one killed) gets no picture it was not given by an
    # editor: the pictures wait in the library.
    if added and article.hero_image_id is None and article.status in DRAFTS:
        article.hero_image = added[0]
        try:
            article_save(
                edit=StoryEdit(article=article, base_version=article.version), by=by
            )
        except (ValidationError, PermissionDenied) as exc:
            _log(agency_item, None, exc)
    return len(added)


def _picture_save(picture: Picture, agency_item: AgencyItem, by) -> Image:
    channel = agency_item.channel
    hosts = channel.trusted_hosts() if channel is not None else set()
    # The feed's credentials go to the feed's own host only.
    same_host = channel is not None and host_of(picture.href) == host_of(channel.url)
    data = fetch(
        picture.href,
        max_bytes=MAX_UPLOAD_BYTES,
        hosts=hosts,
        authorization=channel.authorization() if same_host else "",
    ).data
    name = PurePosixPath(urlsplit(picture.href).path).name or "picture.jpg"
    image = Image(
        credit=picture.credit[:200],
        source=str(agency_item.source)[:200],
        file=SimpleUploadedFile(name, data),
    )
    # The caption is in the story's language; the library keeps both languages.
    code = agency_item.article.language
    setattr(image, f"title_{code}", (picture.caption or agency_item.headline)[:200])
    setattr(image, f"caption_{code}", picture.caption[:300])
    return image_save(image=image, by=by)


def _too_many_pixels() -> str:
    return _("The picture has too many pixels to be read; it was not imported.")


def _failed(exc: Exception) -> str:
    return _("The picture could not be imported (%(error)s).") % {
        "error": type(exc).__name__
    }


def _log(agency_item: AgencyItem, picture: Picture | None, exc: Exception) -> None:
    message = " ".join(getattr(exc, "messages", [str(exc)]))
    if agency_item.channel_id:
        ChannelLog.objects.create(
            channel_id=agency_item.channel_id,
            level=ChannelLog.Level.ERROR,
            file_name=(picture.href if picture else "")[:300],
            message=f"{agency_item.guid}: {message}"[:2000],
        )
