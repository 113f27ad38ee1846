from django.db import models

from articles.parts import StoryPart
from publishing.presentation import Presentation


class FactBox(models.Model):
    """A box of key facts beside a story: a part no service or view names."""

    article = models.ForeignKey(
        "articles.Article", on_delete=models.CASCADE, related_name="fact_boxes"
    )
    title = models.CharField("title", max_length=100)
    facts = models.TextField("facts", blank=True)

    public_fields = ("title", "facts")

    class Meta:
        ordering = ["pk"]
        verbose_name = "fact box"

    def __str__(self) -> str:
        return self.title


FACT_BOXES = StoryPart("fact_boxes")
FACT_BOXES_ON_PAGE = Presentation("fact_boxes", template="storyparts/fact_boxes.html")
