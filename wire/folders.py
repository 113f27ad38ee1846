"""Where a drop folder may be: inside WIRE_ROOT, links followed, so a channel can
never name /etc, the media originals or `…/wire/../../etc` and have its polls
move those files away. Checked when the channel is saved and at every poll."""

from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _


def drop_folder(folder: str) -> Path:
    """The folder, resolved (links followed), or ValueError saying why it may
    not be a drop folder."""
    root = Path(settings.WIRE_ROOT).resolve()
    if not folder or not folder.startswith("/"):
        raise ValueError(_("Give the folder's full path."))
    resolved = Path(folder).resolve()
    if resolved == root or not resolved.is_relative_to(root):
        raise ValueError(
            _("A drop folder must be inside %(root)s (links followed).")
            % {"root": root}
        )
    return resolved
