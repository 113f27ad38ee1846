from django.contrib.admin.apps import AdminConfig


class NewsroomAdminConfig(AdminConfig):
    """Django's admin with the newsroom's site (`newsroom.admin`) as `admin.site`."""

    default_site = "newsroom.admin.NewsroomAdminSite"
