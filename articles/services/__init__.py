"""Writes that matter to the newsroom, one door per write.

Every service takes the acting user as `by` and, in one transaction, checks that
user's permission, validates (the identity gate included), writes, records an audit
event and sends its domain event after commit (core.events; `@events.sends` says
which). The admin, imports and commands only gather input and call these. The
services that bring new public text are doors (`refusals.door`): closed to a user
whose saves are paused, and recording each refusal by the identity gate where the
rollback cannot undo it.
"""

from .base import (
    Action,
    public_rows_check,
    require_permission,
    row_delete,
    row_save,
)
from .corrections import correction_add
from .desk import (
    may_merge_tags,
    section_delete,
    section_save,
    tag_delete,
    tag_merge,
    tag_save,
)
from .images import (
    DuplicateImageError,
    image_check,
    image_delete,
    image_references,
    image_save,
    image_upload_clean,
)
from .people import IdentityExposedError, person_check, person_delete, person_save
from .previews import preview_link_create, preview_link_revoke
from .refusals import (
    Door,
    SavesPausedError,
    door,
    doors_open_check,
    refusal_kept,
    refusal_record,
    saves_paused_until,
    write_door,
)
from .staff import StaffNameLeakError, staff_name_check, staff_save
from .stories import (
    StoryEdit,
    article_approve,
    article_delete,
    article_kill,
    article_publish,
    article_restore,
    article_save,
    article_send_back,
    article_submit,
    article_unpublish,
    article_withdraw_to_protect,
    story_check,
)

__all__ = [
    "Action",
    "Door",
    "DuplicateImageError",
    "IdentityExposedError",
    "SavesPausedError",
    "StaffNameLeakError",
    "StoryEdit",
    "article_approve",
    "article_delete",
    "article_kill",
    "article_publish",
    "article_restore",
    "article_save",
    "article_send_back",
    "article_submit",
    "article_unpublish",
    "article_withdraw_to_protect",
    "correction_add",
    "door",
    "doors_open_check",
    "image_check",
    "image_delete",
    "image_references",
    "image_save",
    "image_upload_clean",
    "may_merge_tags",
    "person_check",
    "person_delete",
    "person_save",
    "preview_link_create",
    "preview_link_revoke",
    "public_rows_check",
    "refusal_kept",
    "refusal_record",
    "require_permission",
    "row_delete",
    "row_save",
    "section_delete",
    "section_save",
    "saves_paused_until",
    "staff_name_check",
    "staff_save",
    "story_check",
    "tag_delete",
    "tag_merge",
    "tag_save",
    "write_door",
]
