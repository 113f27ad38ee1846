"""What other apps add to the story's admin: inlines, list filters, pages, panels
below the form, context for its template, notices above it and buttons above the
list.

One `ArticleAdmin` is registered, once; it reads `story_admin` on each request, so
what an app adds does not depend on the order the admin modules were imported in,
and no app subclasses the admin or registers it again. Apps fill the registry from
their `admin.py`, which the admin's autodiscovery imports at startup:

    from articles.admin import StoryPanel, story_admin

    story_admin.add_inline(AttributionInline)

    @story_admin.panel
    def live_desk(model_admin, request, article):
        return StoryPanel("live-desk", _("Live desk"), desk_html(request, article))
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django.urls import URLPattern
from django.utils.functional import Promise

Inline = type[InlineModelAdmin]


@dataclass(frozen=True)
class StoryPanel:
    """A section shown below the story's form (its `html`), linked from the form's
    tools by `title` as `#anchor`."""

    anchor: str
    title: str | Promise
    html: str


@dataclass(frozen=True)
class ListTool:
    """A button above the list of stories, shown to whoever `may_use(request)`."""

    title: str | Promise
    url_name: str
    may_use: Callable[[HttpRequest], bool]


@dataclass
class StoryAdminExtensions:
    """The registry `ArticleAdmin` reads (one instance: `story_admin`)."""

    inlines: list[Inline] = field(default_factory=list)
    replaced: dict[Inline, Inline] = field(default_factory=dict)
    list_filters: list = field(default_factory=list)
    url_makers: list[Callable] = field(default_factory=list)
    context_makers: list[Callable] = field(default_factory=list)
    panel_makers: list[Callable] = field(default_factory=list)
    notice_makers: list[Callable] = field(default_factory=list)
    list_tools: list[ListTool] = field(default_factory=list)

    def add_inline(self, inline: Inline, *, replacing: Inline | None = None) -> None:
        """Show `inline` on the story's form, after the story's own; or, with
        `replacing`, in the place of that inline (the same rows, another form)."""
        if replacing is None:
            self.inlines.append(inline)
            return
        if replacing in self.replaced:
            # Two apps changing one inline: whichever won would depend on the
            # order their admin modules were imported in.
            raise ImproperlyConfigured(f"{replacing.__name__} is replaced twice.")
        self.replaced[replacing] = inline

    def add_list_filter(self, list_filter) -> None:
        """Offer `list_filter` (as `ModelAdmin.list_filter` takes it) on the list."""
        self.list_filters.append(list_filter)

    def add_list_tool(self, tool: ListTool) -> None:
        """Show `tool` as a button above the list of stories."""
        self.list_tools.append(tool)

    def urls(self, make: Callable[[admin.ModelAdmin], list[URLPattern]]) -> Callable:
        """Decorator: `make(model_admin)` gives pages under the story admin's URLs
        (ahead of its own, whose catch-all would hide them)."""
        self.url_makers.append(make)
        return make

    def form_context(self, make: Callable) -> Callable:
        """Decorator: `make(model_admin, request, article)` gives variables for the
        story's form template (`article` is None on a new story's form)."""
        self.context_makers.append(make)
        return make

    def panel(self, make: Callable) -> Callable:
        """Decorator: `make(model_admin, request, article)` gives a `StoryPanel` for
        a saved story, or None where the panel is not for this user or story."""
        self.panel_makers.append(make)
        return make

    def notices(self, make: Callable) -> Callable:
        """Decorator: `make(request, article)` gives texts the story's form shows
        as warnings when opened."""
        self.notice_makers.append(make)
        return make

    # ------------------------------------------------------------ read by ArticleAdmin

    def inlines_for(self, own: Iterable[Inline]) -> list[Inline]:
        """The story's own inlines (each as replaced, if it is), then the apps'."""
        return [self.replaced.get(inline, inline) for inline in own] + self.inlines

    def context_for(self, model_admin, request, article) -> dict:
        context = {}
        for make in self.context_makers:
            context.update(make(model_admin, request, article))
        return context

    def panels_for(self, model_admin, request, article) -> list[StoryPanel]:
        panels = (make(model_admin, request, article) for make in self.panel_makers)
        return [panel for panel in panels if panel is not None]

    def notices_for(self, request, article) -> list[str]:
        return [text for make in self.notice_makers for text in make(request, article)]

    def list_tools_for(self, request) -> list[ListTool]:
        return [tool for tool in self.list_tools if tool.may_use(request)]


story_admin = StoryAdminExtensions()
