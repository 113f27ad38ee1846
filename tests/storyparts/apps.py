from django.apps import AppConfig


class StoryPartsConfig(AppConfig):
    """A part added to stories by an app of its own, installed for the tests only:
    the tests of the declaration (tests/articles/test_parts.py) turn it on."""

    name = "tests.storyparts"
    label = "storyparts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from articles.parts import register_bookkeeping

        register_bookkeeping("fact_boxes", "a story part only while a test says so")
