"""Writes that matter to the newsroom, one door per write.

Every service takes the acting user as `by` and, in one transaction, checks that
user's permission, validates (the identity gate included), writes, records an audit
event and sends its domain event after commit (core.events; `@events.sends` says
which). The admin, imports and commands only gather input and call these. The
services that bring new public text are doors (`identity.refusals.door`): closed to
a user whose saves are paused, and recording each refusal by the identity gate
where the rollback cannot undo it. People and their protection are the identity
app's services (identity.services).
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
from .previews import preview_link_create, preview_link_revoke
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
    "DuplicateImageError",
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
    "image_check",
    "image_delete",
    "image_references",
    "image_save",
    "image_upload_clean",
    "may_merge_tags",
    "preview_link_create",
    "preview_link_revoke",
    "public_rows_check",
    "require_permission",
    "row_delete",
    "row_save",
    "section_delete",
    "section_save",
    "staff_name_check",
    "staff_save",
    "story_check",
    "tag_delete",
    "tag_merge",
    "tag_save",
]
