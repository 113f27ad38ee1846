"""The states of a story on the desk (articles.workflow moves it between them)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Status(models.TextChoices):
    """Where a story stands in the desk's workflow (see articles.workflow).

    "Scheduled" is not a status: it is a published story dated in the future, which
    goes live at that time by itself. An embargo is separate again (embargo_until).
    """

    DRAFT = "draft", _("Draft")
    IN_REVIEW = "in_review", _("In review")
    APPROVED = "approved", _("Approved")
    PUBLISHED = "published", _("Published")
    KILLED = "killed", _("Killed")
