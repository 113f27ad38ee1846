"""Small factories for the newsroom's models; each builds the least a test needs."""

from datetime import timedelta
from io import BytesIO

import factory
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.utils import timezone
from PIL import Image as PillowImage

from articles.models import (
    Article,
    ArticlePerson,
    Byline,
    Correction,
    Section,
    SocialPost,
    Status,
)
from identity.models import Person
from images.models import Image, Rendition
from sources.models import Attribution, SocialAccount, Source


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"editor{n}")
    first_name = "محرر"
    password = factory.django.Password("pass-for-tests")
    is_staff = True


class SuperuserFactory(UserFactory):
    is_superuser = True


def member_of(role: str, **fields):
    """A staff user whose only permissions are those of the group `role` (made after
    every migrate and every flush of the database, core/roles.py)."""
    from django.contrib.auth.models import Group

    user = UserFactory(**fields)
    user.groups.add(Group.objects.get(name=role))
    return user


class SectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Section

    name_ar = factory.Sequence(lambda n: f"قسم {n}")
    name_en = factory.Sequence(lambda n: f"Section {n}")


class SourceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Source

    name_ar = factory.Sequence(lambda n: f"صحيفة {n}")
    name_en = factory.Sequence(lambda n: f"Paper {n}")
    kind = Source.Kind.NEWSPAPER


class SocialAccountFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SocialAccount

    source = factory.SubFactory(SourceFactory)
    platform = "x"
    handle = factory.Sequence(lambda n: f"paper_{n}")


class ArticleFactory(factory.django.DjangoModelFactory):
    """A published Arabic article, dated an hour ago."""

    class Meta:
        model = Article

    headline_ar = factory.Sequence(lambda n: f"عنوان الخبر رقم {n}")
    summary_ar = "ملخص قصير للخبر."
    body_ar = "<p>الفقرة الأولى من الخبر.</p><p>الفقرة الثانية من الخبر.</p>"
    section = factory.SubFactory(SectionFactory)
    status = Status.PUBLISHED
    published_at = factory.LazyFunction(lambda: timezone.now() - timedelta(hours=1))


class DraftArticleFactory(ArticleFactory):
    status = Status.DRAFT
    published_at = None


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person

    name = factory.Sequence(lambda n: f"شخص رقم {n}")


class ProtectedPersonFactory(PersonFactory):
    """Someone known publicly only by a pseudonym."""

    name = "يوسف المنصوري"
    public_name = "الشاهد"
    aliases = "الشاهد\nThe Witness"
    identity_protected = True


class ArticlePersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ArticlePerson

    article = factory.SubFactory(ArticleFactory)
    person = factory.SubFactory(PersonFactory)
    role = ArticlePerson.Role.MENTIONED


class SocialPostFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SocialPost

    article = factory.SubFactory(ArticleFactory)
    platform = "x"
    author_name = "حساب إخباري"
    handle = "news_account"
    text = "نص المنشور مع وسم #خبر ورابط https://t.co/abc123"
    links = ["https://t.co/abc123"]


class AttributionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Attribution

    article = factory.SubFactory(ArticleFactory)
    source = factory.SubFactory(SourceFactory)
    role = Attribution.Role.REPUBLISHED


class BylineFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Byline

    article = factory.SubFactory(ArticleFactory)
    name = "كاتب ضيف"


class CorrectionFactory(factory.django.DjangoModelFactory):
    """A correction in Arabic, printed at the end of a published story."""

    class Meta:
        model = Correction

    article = factory.SubFactory(ArticleFactory)
    kind = Correction.Kind.CORRECTION
    text_ar = "ورد في نسخة سابقة أن الاجتماع عقد يوم الاثنين، والصحيح أنه عقد الثلاثاء."


def picture_bytes(size=(64, 36), color="steelblue", image_format="JPEG") -> bytes:
    """A small picture drawn here, so tests need no file from outside."""
    buffer = BytesIO()
    PillowImage.new("RGB", size, color).save(buffer, image_format)
    return buffer.getvalue()


class ImageFactory(factory.django.DjangoModelFactory):
    """A library image (stored as is: the upload checks are the service's)."""

    class Meta:
        model = Image

    title_ar = factory.Sequence(lambda n: f"صورة رقم {n}")
    alt_text_ar = "وصف الصورة"
    credit = "وكالة"
    file = factory.LazyFunction(
        lambda: ContentFile(picture_bytes(), name="picture.jpg")
    )
    content_hash = factory.Sequence(lambda n: f"{n:064x}")


class RenditionFactory(factory.django.DjangoModelFactory):
    """A 320-px JPEG rendition of the whole picture (drawn, not resized)."""

    class Meta:
        model = Rendition

    image = factory.SubFactory(ImageFactory)
    width = 320
    height = 180
    format = Rendition.Format.JPEG
    file = factory.LazyFunction(
        lambda: ContentFile(picture_bytes((320, 180)), name="r.jpeg")
    )


def release_of(article: Article, *, language: str = "ar", version: int | None = None):
    """A published release of `article` in `language`, as the partners' log keeps
    it (at the story's version, or `version` for a later change)."""
    from distribution.models import Event, Release

    return Release.objects.create(
        article=article,
        language=language,
        event=Event.PUBLISHED,
        version=version or article.version,
        version_created=article.updated_at,
        visible_at=article.published_at,
    )
