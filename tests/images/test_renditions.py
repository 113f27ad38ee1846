"""Renditions: which are made, how crops follow the focal point, how pages show them
(`{% picture %}`, og:image) and the command that makes them again."""

import io

import pytest
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.template import Context, Template
from django.utils import translation
from PIL import Image as Pillow

from images.models import Image, Rendition
from images.renditions import (
    crop_box,
    images_with_renditions,
    renditions_load,
    renditions_make,
    social_card_url,
    wanted,
)
from tests.factories import ArticleFactory, ImageFactory, RenditionFactory
from tests.images.pictures import photo_bytes

pytestmark = pytest.mark.django_db


def library_image(size=(1000, 600), **fields) -> Image:
    data = photo_bytes(size)
    return ImageFactory(
        file=ContentFile(data, name="p.jpg"), width=size[0], height=size[1], **fields
    )


def test_no_rendition_is_wider_than_the_original():
    """A 1000-px picture gets 320, 640 and 960, not 1280 or 1920."""
    widths = {s.width for s in wanted(Image(width=1000, height=600)) if not s.ratio}
    assert widths == {320, 640, 960}


def test_a_small_picture_gets_one_rendition_at_its_own_width():
    """A picture narrower than 320 px is kept at its width."""
    widths = {s.width for s in wanted(Image(width=200, height=100)) if not s.ratio}
    assert widths == {200}


def test_the_social_crop_is_1200_by_675():
    """A large picture has the 1200 × 675 crop cards use."""
    specs = wanted(Image(width=2400, height=1600))
    assert any(s.ratio == "16:9" and (s.width, s.height) == (1200, 675) for s in specs)


def test_a_crop_keeps_the_focal_point_in_view():
    """A tall picture with its focal point near the bottom is cropped low."""
    image = Image(width=900, height=1600, focal_x=0.5, focal_y=0.9)
    left, top, right, bottom = crop_box(image, "16:9")
    assert (right - left, bottom - top) == (900, 506)
    assert top == 1600 - 506  # as low as the edge allows


def test_renditions_are_made_in_webp_and_jpeg_at_their_sizes():
    """Each width exists as WebP and JPEG, with the pixel size it claims."""
    image = library_image((700, 400))
    renditions_make(image)
    formats = set(image.renditions.values_list("format", flat=True))
    assert {"webp", "jpeg"} <= formats
    rendition = image.renditions.get(ratio="16:9", width=640, format="jpeg")
    with Pillow.open(rendition.file) as made:
        assert made.size == (640, 360)


def test_a_transparent_png_becomes_a_jpeg_on_white():
    """Transparency is white in the JPEG fallback, not black."""
    buffer = io.BytesIO()
    Pillow.new("RGBA", (400, 300), (0, 0, 0, 0)).save(buffer, "PNG")
    image = ImageFactory(
        file=ContentFile(buffer.getvalue(), name="t.png"), width=400, height=300
    )
    renditions_make(image)
    jpeg = image.renditions.get(ratio="", width=320, format="jpeg")
    with Pillow.open(jpeg.file) as made:
        assert made.getpixel((10, 10)) == (255, 255, 255)


def test_renditions_of_many_images_load_in_one_query(django_assert_num_queries):
    """renditions_load reads the renditions of every image in one query."""
    images = [RenditionFactory().image for _ in range(5)]
    images = list(Image.objects.filter(pk__in=[i.pk for i in images]))
    with django_assert_num_queries(1):
        renditions_load(images)
        assert all(len(image.renditions.all()) == 1 for image in images)


def test_images_with_renditions_costs_two_queries(django_assert_num_queries):
    """Images placed in a body are fetched by number with their renditions."""
    pks = [RenditionFactory().image.pk for _ in range(4)]
    with django_assert_num_queries(2):
        found = images_with_renditions(pks)
        assert sorted(found) == sorted(pks)
        assert all(image.renditions.all() for image in found.values())


def render_picture(image, options: str = "") -> str:
    template = Template("{% load pictures %}{% picture image " + options + " %}")
    return template.render(Context({"image": image}))


def test_picture_has_sources_srcset_and_reserved_size():
    """<picture> lists WebP and JPEG by width, with the size of the largest."""
    image = library_image((1000, 600), alt_text_ar="سفن في الميناء")
    renditions_make(image)
    renditions_load([image])
    with translation.override("ar"):
        html = render_picture(image, 'sizes="100vw" loading="eager"')
    assert '<source type="image/webp" srcset="' in html
    assert " 320w, " in html and " 960w" in html
    assert 'width="960" height="576"' in html
    assert 'alt="سفن في الميناء"' in html
    assert 'loading="eager" decoding="async"' in html


def test_picture_without_renditions_shows_the_original():
    """A missing rendition is never made while rendering: the original is shown."""
    image = library_image((500, 300))
    html = render_picture(image, 'loading="lazy"')
    assert f'src="{image.file.url}"' in html
    assert 'width="500" height="300"' in html
    assert "<source" not in html
    assert not Rendition.objects.exists()


def test_the_social_card_is_the_1200_pixel_crop():
    """og:image uses the 1200-px 16:9 JPEG."""
    image = library_image((1600, 1000))
    renditions_make(image)
    card = image.renditions.get(ratio="16:9", width=1200, format="jpeg")
    assert social_card_url(image) == card.file.url


def test_a_graphic_image_is_never_a_social_card(client):
    """A story with a graphic hero has no og:image or twitter:image."""
    image = library_image((1300, 800), is_graphic=True)
    renditions_make(image)
    article = ArticleFactory(hero_image=image)
    with translation.override("ar"):
        html = client.get(article.get_absolute_url()).content.decode()
    assert 'property="og:image"' not in html and 'name="twitter:image"' not in html
    assert 'class="hero hero--graphic"' in html


def test_the_article_page_shows_the_hero_eager_and_the_card(client):
    """The hero loads first (eager, high priority); og:image is the crop."""
    image = library_image((1300, 800))
    renditions_make(image)
    article = ArticleFactory(hero_image=image)
    with translation.override("ar"):
        html = client.get(article.get_absolute_url()).content.decode()
    card = image.renditions.get(ratio="16:9", width=1200, format="jpeg")
    assert f'property="og:image" content="http://testserver{card.file.url}"' in html
    assert 'loading="eager" decoding="async" fetchpriority="high"' in html


def test_teasers_show_lazy_16_9_crops(client):
    """A list shows each story's 16:9 crop, loaded lazily."""
    image = library_image((1000, 600))
    renditions_make(image)
    ArticleFactory(hero_image=image)
    html = client.get("/ar/").content.decode()
    crop = image.renditions.get(ratio="16:9", width=320, format="jpeg")
    assert crop.file.url in html
    assert 'class="teaser__image"' in html and 'loading="lazy"' in html


def test_the_command_makes_missing_renditions_with_progress():
    """regenerate_renditions --missing fills the gaps and counts as it goes."""
    first, second = library_image((400, 300)), library_image((400, 300))
    renditions_make(first)
    made = first.renditions.count()
    out = io.StringIO()
    call_command("regenerate_renditions", "--missing", stdout=out)
    assert "\r1/2" in out.getvalue() and "\r2/2" in out.getvalue()
    assert first.renditions.count() == made
    assert second.renditions.count() == made
