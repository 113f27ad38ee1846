"""The newsroom's admin site: the desk's dashboard on the home page, and the apps
listed in the order the newsroom works in, stories first."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminLoginForm
from articles.dashboard import desk_dashboard
from core.admin_mixins import EchoedSearchMixin, QueryBoundsMixin

# What every admin of the site has, whoever registers it (see register).
SITE_MIXINS = (EchoedSearchMixin, QueryBoundsMixin)

# The apps, in the order the desk reaches for them; any app not named follows, in
# alphabetical order. Administrators' apps (accounts, lockouts, two-factor) come
# last; no role (core/roles.py) holds a permission on them, so only
# administrators see them at all.
APP_ORDER = (
    "articles",
    # The people stories name, and the protection of their identities.
    "identity",
    "sources",
    "images",
    # Partners of the content API, kept by editors and source managers.
    "distribution",
    # The agency wire: channels for source managers, incoming copy for editors.
    "wire",
    "taggit",
    "audit",
    "auth",
    "axes",
    "otp_totp",
    "otp_static",
    "otp_email",
)
# Within an app, models named here come first, in this order (stories before the
# sections they are filed under).
MODEL_ORDER = {"articles": ("Article", "Section")}


def _place(order: tuple[str, ...], name: str) -> int:
    return order.index(name) if name in order else len(order)


class NewsroomAdminSite(admin.AdminSite):
    site_header = _("Newsroom")
    site_title = _("Newsroom")
    index_title = _("Editorial desk")
    login_form = AdminLoginForm

    def register(self, model_or_iterable, admin_class=None, **options):
        # Every admin, the libraries' (axes, two-factor devices, groups) as well as
        # ours, refuses query values its database cannot hold and searches for
        # the words typed where its list shows a token for them: rules for the
        # whole site, so no admin registered later can be left without them.
        admin_class = admin_class or admin.ModelAdmin
        missing = tuple(
            mixin for mixin in SITE_MIXINS if not issubclass(admin_class, mixin)
        )
        if missing:
            admin_class = type(
                admin_class.__name__,
                (*missing, admin_class),
                {
                    "__module__": admin_class.__module__,
                    "__qualname__": admin_class.__qualname__,
                    "__doc__": admin_class.__doc__,
                },
            )
        super().register(model_or_iterable, admin_class, **options)

    def get_app_list(self, request, app_label=None):
        apps = super().get_app_list(request, app_label)
        apps.sort(key=lambda app: _place(APP_ORDER, app["app_label"]))
        for app in apps:
            first = MODEL_ORDER.get(app["app_label"], ())
            app["models"].sort(key=lambda model: _place(first, model["object_name"]))
        return apps

    def index(self, request, extra_context=None):
        context = {"dashboard": desk_dashboard(request.user), **(extra_context or {})}
        return super().index(request, context)
