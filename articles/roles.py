"""The newsroom's roles as permission groups: one matrix, read by the data migration
that creates the groups, by docs/editors.md ("Roles") and by the tests.

Superusers keep every permission; everyone else gets what their groups give.
"""

from django.contrib.auth import get_permission_codename

from identity import permissions as identity_roles

from . import permissions as perms

REPORTERS = "Reporters"
EDITORS = "Editors"
SOURCE_MANAGERS = "Source managers"
IDENTITY_OFFICERS = identity_roles.IDENTITY_OFFICERS

_STORY_READING = [
    perms.VIEW_ARTICLE,
    perms.VIEW_SECTION,
    perms.VIEW_PERSON,
    perms.VIEW_TAG,
    perms.VIEW_SOURCE,
]

# The rows a story is made of on its form (articles.parts: bylines, people named,
# social posts; sources' attributions): whoever writes a story writes these with
# it. Corrections are not among them: an editor adds one on its own page.
_STORY_PARTS = [
    perms.VIEW_BYLINE,
    perms.ADD_BYLINE,
    perms.CHANGE_BYLINE,
    perms.DELETE_BYLINE,
    perms.VIEW_ARTICLEPERSON,
    perms.ADD_ARTICLEPERSON,
    perms.CHANGE_ARTICLEPERSON,
    perms.DELETE_ARTICLEPERSON,
    perms.VIEW_SOCIALPOST,
    perms.ADD_SOCIALPOST,
    perms.CHANGE_SOCIALPOST,
    perms.DELETE_SOCIALPOST,
    perms.VIEW_ATTRIBUTION,
    perms.ADD_ATTRIBUTION,
    perms.CHANGE_ATTRIBUTION,
    perms.DELETE_ATTRIBUTION,
]

# Partners of the content API and their keys: who may receive which stories, and
# whose rights they hold. Editors decide what goes out; source managers keep the
# usage terms those rights come from.
_PARTNERS = [
    perms.VIEW_PARTNER,
    perms.ADD_PARTNER,
    perms.CHANGE_PARTNER,
    perms.DELETE_PARTNER,
    perms.VIEW_PARTNERKEY,
    perms.ADD_PARTNERKEY,
    perms.CHANGE_PARTNERKEY,
    perms.VIEW_WEBHOOK,
    perms.ADD_WEBHOOK,
    perms.CHANGE_WEBHOOK,
    perms.DELETE_WEBHOOK,
    perms.VIEW_DELIVERY,
    perms.CHANGE_DELIVERY,
]

# A live coverage's entries (the live app): reporters on the scene post them as
# editors do; editors also delete them and start, pause and end the coverage.
_LIVE_ENTRIES = [
    perms.VIEW_LIVEENTRY,
    perms.ADD_LIVEENTRY,
    perms.CHANGE_LIVEENTRY,
]

ROLES: dict[str, list[str]] = {
    # Writes stories, edits own drafts, submits them for review; cannot publish.
    REPORTERS: [
        *_STORY_READING,
        perms.ADD_ARTICLE,
        perms.CHANGE_ARTICLE,
        *_STORY_PARTS,
        *_LIVE_ENTRIES,
        perms.ADD_PERSON,
        perms.CHANGE_PERSON,
        perms.VIEW_IMAGE,
        perms.ADD_IMAGE,
        perms.CHANGE_IMAGE,
    ],
    # Edits any story, approves, publishes, schedules, withdraws, kills, corrects.
    EDITORS: [
        *_STORY_READING,
        perms.ADD_ARTICLE,
        perms.CHANGE_ARTICLE,
        perms.DELETE_ARTICLE,
        perms.EDIT_ANY_ARTICLE,
        perms.REVIEW_ARTICLE,
        perms.PUBLISH_ARTICLE,
        perms.UNPUBLISH_ARTICLE,
        perms.KILL_ARTICLE,
        *_STORY_PARTS,
        *_LIVE_ENTRIES,
        perms.DELETE_LIVEENTRY,
        perms.RUN_LIVECOVERAGE,
        perms.ADD_CORRECTION,
        perms.VIEW_CORRECTION,
        perms.ADD_SECTION,
        perms.CHANGE_SECTION,
        perms.ADD_PERSON,
        perms.CHANGE_PERSON,
        perms.ADD_TAG,
        perms.CHANGE_TAG,
        perms.DELETE_TAG,
        perms.VIEW_AUDITEVENT,
        perms.VIEW_IMAGE,
        perms.ADD_IMAGE,
        perms.CHANGE_IMAGE,
        perms.DELETE_IMAGE,
        *_PARTNERS,
        perms.VIEW_AGENCYITEM,
        perms.VIEW_TOPICSECTION,
        perms.ADD_TOPICSECTION,
        perms.CHANGE_TOPICSECTION,
        perms.DELETE_TOPICSECTION,
    ],
    # Keeps the list of outlets: sources, their social accounts and usage terms.
    SOURCE_MANAGERS: [
        perms.VIEW_ARTICLE,
        perms.VIEW_SOURCE,
        perms.ADD_SOURCE,
        perms.CHANGE_SOURCE,
        perms.DELETE_SOURCE,
        perms.VIEW_SOCIALACCOUNT,
        perms.ADD_SOCIALACCOUNT,
        perms.CHANGE_SOCIALACCOUNT,
        perms.DELETE_SOCIALACCOUNT,
        *_PARTNERS,
        perms.VIEW_CHANNEL,
        perms.ADD_CHANNEL,
        perms.CHANGE_CHANNEL,
        perms.DELETE_CHANNEL,
        perms.VIEW_CHANNELLOG,
    ],
    # Sees and edits the legal names of protected people.
    IDENTITY_OFFICERS: [
        perms.VIEW_PERSON,
        perms.ADD_PERSON,
        perms.CHANGE_PERSON,
        perms.VIEW_LEGAL_NAME,
    ],
}


def create_roles(apps) -> None:
    """Create (or bring up to date) each role's group with exactly its permissions.

    `apps` is the app registry a migration receives; permissions are created first,
    since Django normally adds them only after every migration has run. A permission
    whose model a migration has yet to create is skipped: the later migration that
    calls this again grants it.
    """
    _create_permissions(apps)
    roles_grant(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def _create_permissions(apps) -> None:
    # What post_migrate's create_permissions() adds, for the models of `apps` as a
    # migration sees them (it skips a migration's registry, whose apps have no
    # models module): each model's content type, default and Meta permissions.
    content_type_model = apps.get_model("contenttypes", "ContentType")
    permission_model = apps.get_model("auth", "Permission")
    for model in apps.get_models():
        opts = model._meta
        content_type, _created = content_type_model.objects.get_or_create(
            app_label=opts.app_label, model=opts.model_name
        )
        wanted = {
            get_permission_codename(
                action, opts
            ): f"Can {action} {opts.verbose_name_raw}"
            for action in opts.default_permissions
        }
        wanted.update(opts.permissions)
        for codename, name in wanted.items():
            permission_model.objects.get_or_create(
                content_type=content_type, codename=codename, defaults={"name": name}
            )


def roles_grant(group_model, permission_model) -> None:
    """Give each role's group exactly the matrix's permissions that exist, creating
    the group if needed: for `create_roles`, and for tests whose flushed database
    lost the groups the migrations made (the models may be historical or real)."""
    for name, permissions in ROLES.items():
        group, _created = group_model.objects.get_or_create(name=name)
        wanted = [p.split(".") for p in permissions]
        rows = [
            row
            for app, codename in wanted
            for row in permission_model.objects.filter(
                content_type__app_label=app, codename=codename
            )
        ]
        group.permissions.set(rows)
