"""Derived columns brought up to date by a migration, from the current model's rule."""

from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from arabic import search_fold
from articles.models import Article
from core.derived import refresh_search_columns
from identity.models import Person
from images.models import Image
from sources.models import Source
from tests.factories import (
    ArticleFactory,
    ImageFactory,
    ProtectedPersonFactory,
    SourceFactory,
)

pytestmark = pytest.mark.django_db


def run(app_label: str, model_name: str, **kwargs) -> None:
    operation = refresh_search_columns(app_label, model_name, **kwargs)
    operation.code(apps, SimpleNamespace(connection=connection))


def test_a_stale_story_search_text_is_derived_anew():
    story = ArticleFactory(headline_ar="بيان المسؤول")
    Article.objects.filter(pk=story.pk).update(search_text="stale")
    run("articles", "Article")
    story.refresh_from_db()
    assert search_fold("المسئول") in story.search_text


def test_every_row_is_reached_across_batches(monkeypatch):
    monkeypatch.setattr("core.derived.BATCH", 2)
    stories = ArticleFactory.create_batch(5)
    Article.objects.update(search_text="stale")
    seen = []
    run("articles", "Article", after_batch=lambda rows, alias: seen.extend(rows))
    assert sorted(row.pk for row in seen) == sorted(s.pk for s in stories)
    assert not Article.objects.filter(search_text="stale").exists()


def test_a_protected_persons_search_text_holds_only_the_public_names():
    person = ProtectedPersonFactory(name="رؤوف الراوي", aliases="")
    Person.objects.filter(pk=person.pk).update(search_text="")
    run("identity", "Person")
    person.refresh_from_db()
    assert "رءوف" not in person.search_text and "الشاهد" in person.search_text


def test_sources_and_images_are_derived_too():
    source = SourceFactory(name_ar="هيئة الأنباء")
    image = ImageFactory(title_ar="مؤتمر", caption_ar="", alt_text_ar="", credit="")
    Source.objects.update(search_text="")
    Image.objects.update(search_text="")
    run("sources", "Source")
    run("images", "Image")
    source.refresh_from_db()
    image.refresh_from_db()
    assert search_fold("هيئة") in source.search_text
    assert search_fold("مئتمر") == image.search_text
