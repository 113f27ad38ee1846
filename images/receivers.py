"""What the image library does when a change commits: its renditions' job is
queued once an image owes a new set (connected in ImagesConfig.ready())."""

from typing import Any

from .tasks import renditions_enqueue


def renditions_on_change(
    sender, instance, renditions_owed: bool = False, **kwargs: Any
) -> None:
    """image_changed receiver: an image whose file or focal point changed has its
    renditions made by the queue, never in the editor's request."""
    if renditions_owed:
        renditions_enqueue(instance.pk)
