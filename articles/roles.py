"""The newsroom's roles as permission groups: one matrix, read by the data migration
that creates the groups, by the README and by the tests.

Superusers keep every permission; everyone else gets what their groups give.
"""

REPORTERS = "Reporters"
EDITORS = "Editors"
SOURCE_MANAGERS = "Source managers"
IDENTITY_OFFICERS = "Identity officers"

_STORY_READING = [
    "articles.view_article",
    "articles.view_section",
    "articles.view_person",
    "taggit.view_tag",
    "sources.view_source",
]

ROLES: dict[str, list[str]] = {
    # Writes stories, edits own drafts, submits them for review; cannot publish.
    REPORTERS: [
        *_STORY_READING,
        "articles.add_article",
        "articles.change_article",
        "articles.add_person",
        "articles.change_person",
        "images.view_image",
        "images.add_image",
        "images.change_image",
    ],
    # Edits any story, approves, publishes, schedules, withdraws, kills, corrects.
    EDITORS: [
        *_STORY_READING,
        "articles.add_article",
        "articles.change_article",
        "articles.delete_article",
        "articles.edit_any_article",
        "articles.review_article",
        "articles.publish_article",
        "articles.unpublish_article",
        "articles.kill_article",
        "articles.add_correction",
        "articles.view_correction",
        "articles.add_section",
        "articles.change_section",
        "articles.add_person",
        "articles.change_person",
        "taggit.add_tag",
        "taggit.change_tag",
        "taggit.delete_tag",
        "audit.view_auditevent",
        "images.view_image",
        "images.add_image",
        "images.change_image",
        "images.delete_image",
    ],
    # Keeps the list of outlets: sources, their social accounts and usage terms.
    SOURCE_MANAGERS: [
        "articles.view_article",
        "sources.view_source",
        "sources.add_source",
        "sources.change_source",
        "sources.delete_source",
        "sources.view_socialaccount",
        "sources.add_socialaccount",
        "sources.change_socialaccount",
        "sources.delete_socialaccount",
    ],
    # Sees and edits the legal names of protected people.
    IDENTITY_OFFICERS: [
        "articles.view_person",
        "articles.add_person",
        "articles.change_person",
        "articles.view_legal_name",
    ],
}


def create_roles(apps) -> None:
    """Create (or bring up to date) each role's group with exactly its permissions.

    `apps` is the app registry a migration receives; permissions are created first,
    since Django normally adds them only after every migration has run. A permission
    whose model a migration has yet to create is skipped: the later migration that
    calls this again grants it.
    """
    from django.contrib.auth.management import create_permissions
    from django.contrib.contenttypes.management import create_contenttypes

    for config in apps.get_app_configs():
        config.models_module = True
        create_contenttypes(config, verbosity=0, apps=apps)
        create_permissions(config, verbosity=0, apps=apps)
        config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
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
