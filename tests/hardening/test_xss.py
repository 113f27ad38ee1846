"""Stored XSS: the corpus (xss_payloads.txt, 210 payloads) planted in every
editor-writable field through the services, the admin's forms, the importer and
its Import page, then every public and admin page that shows them opened in
Chromium: not one payload may run.

Each payload calls window.__xss(n) (or opens a dialog); the page's Content-Security-
Policy is bypassed so that the markup itself is on trial, not the second line of
defence. A DOM scan also flags live handlers that did not happen to fire (hover,
click): an on* attribute, a javascript:/data: address or a script carrying a
payload. Run with `pytest -m browser tests/hardening/test_xss.py -s` for figures.
"""

import time

import pytest
from django.test import Client
from django.urls import reverse
from taggit.models import Tag

from articles.models import Article, Section
from articles.services import article_publish
from identity.models import Person
from images.models import Image
from ingest.problems import StoryImportError
from ingest.services import story_import
from sources.models import Source
from tests.factories import SuperuserFactory

from .xss_corpus import FIELDS, payloads, plant_all

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Numbers for the doors that are not a model field: n = payload * 100 + door.
DOORS = {
    "importer service": 90,
    "import page": 91,
    "admin section form": 92,
    "admin person form": 93,
}
FIELD_NAMES = {
    **{i: name for i, name in enumerate(FIELDS)},
    **{number: name for name, number in DOORS.items()},
}

INIT = """
window.__hits = [];
window.__xss = function (n) { window.__hits.push(String(n)); };
"""
# A payload is live when it sits where the browser would run it, fired or not.
SCAN = """
() => {
  const found = [];
  const urls = new Set(["href", "src", "action", "formaction", "data", "xlink:href",
                        "background", "poster", "cite", "srcdoc", "content"]);
  for (const el of document.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      if (!attr.value.includes("__xss")) continue;
      const name = attr.name.toLowerCase();
      const bare = attr.value.replace(/[\\s\\u0000-\\u001f]/g, "").toLowerCase();
      const address = /^(javascript|vbscript|data):|url=javascript/.test(bare);
      // A meta's content is text (og:title) unless the meta refreshes the page.
      const refresh = (el.getAttribute("http-equiv") || "").toLowerCase() === "refresh";
      const url = urls.has(name) && (name !== "content" || refresh);
      if (name.startsWith("on") || name === "style" || name === "srcdoc" ||
          (url && address)) {
        found.push(`${el.tagName.toLowerCase()}[${name}]=${attr.value.slice(0, 80)}`);
      }
    }
    const type = (el.getAttribute("type") || "").toLowerCase();
    const runs = el.tagName === "SCRIPT" && !type.includes("json");
    if (runs && el.text.includes("__xss")) {
      found.push(`script:${el.text.slice(0, 80)}`);
    }
  }
  return found;
}
"""

CHECK = f"""
async () => {{
  await new Promise(resolve => setTimeout(resolve, 25));
  return {{hits: window.__hits || [], live: ({SCAN})()}};
}}
"""


def skip_decoration(route) -> None:
    if route.request.resource_type in {"document", "script", "xhr", "fetch"}:
        route.continue_()
    else:
        route.abort()


def describe(n: str) -> str:
    number = int(n) if n.isdigit() else -1
    return f"payload {number // 100 + 1} via {FIELD_NAMES.get(number % 100, '?')}"


class Visitor:
    """Opens pages in one browser tab and keeps every execution and live payload."""

    def __init__(self, context, base_url: str):
        self.page = context.new_page()
        self.base = base_url
        self.visited: dict[str, int] = {"public": 0, "admin": 0}
        self.executions: list[str] = []
        self.live: list[str] = []
        self.errors: list[str] = []
        self.current = ""
        self.page.on("dialog", self._dialog)

    def _dialog(self, dialog) -> None:
        self.executions.append(f"dialog {dialog.message!r} on {self.current}")
        dialog.dismiss()

    def visit(self, path: str, kind: str) -> None:
        self.current = path
        response = self.page.goto(self.base + path, wait_until="load")
        if response is None or response.status >= 500:
            self.errors.append(f"{path}: {response.status if response else 'none'}")
        self.check(kind)

    def check(self, kind: str) -> None:
        self.visited[kind] += 1
        # One round trip: give autofocus, animations and media errors a moment to
        # fire, then read the executions and scan for live payloads.
        found = self.page.evaluate(CHECK)
        self.executions += [f"{describe(n)} on {self.current}" for n in found["hits"]]
        self.live += [f"{item} on {self.current}" for item in found["live"]]


def import_text(chunk: list[str]) -> str:
    """A pasted story: headline, dateline paragraph, paragraphs, an embedded post."""
    headline, *rest = chunk
    paragraphs = "\n\n".join(rest[:-2])
    post_text, author = (rest[-2:] + ["", ""])[:2]
    return (
        # Words first: a first line of bare markup is refused as "not a headline".
        f"أمطار غزيرة تغلق الطرق {headline}\n\n(رويترز) - {paragraphs}\n\n"
        f"{post_text} https://t.co/Ab12 #وسم\n"
        f"— {author} (@desk_{len(chunk)}) 3 كانون الأول 2024\n\n"
        "وتابعت الوكالة الخبر.\n"
    )


def chunks_for(door: str, size: int) -> list[list[str]]:
    items = [p.format(n=i * 100 + DOORS[door]) for i, p in enumerate(payloads())]
    return [items[i : i + size] for i in range(0, len(items), size)]


def import_through_service(editor) -> int:
    """The importer's service, as the command line uses it; drafts are published."""
    made = 0
    for chunk in chunks_for("importer service", 6):
        try:
            # Every paste opens alike, so each looks like a repeat of the last.
            result = story_import(
                text=import_text(chunk), by=editor, allow_duplicate=True
            )
        except StoryImportError:
            continue
        article_publish(article=result.article, by=editor)
        made += 1
    return made


def post_admin_forms(client: Client) -> int:
    """Sections and people added through the admin's own forms."""
    saved = 0
    for i, payload in enumerate(payloads()):
        number = i * 100
        section = payload.format(n=number + DOORS["admin section form"])
        person = payload.format(n=number + DOORS["admin person form"])
        if len(section) <= 100:
            response = client.post(
                reverse("admin:articles_section_add"),
                {
                    "name_ar": section,
                    "name_en": section,
                    "description_ar": section,
                    "description_en": section,
                    "position": "0",
                },
            )
            saved += response.status_code == 302
        if len(person) <= 200:
            response = client.post(
                reverse("admin:identity_person_add"),
                {
                    "name": person,
                    "description_ar": person,
                    "description_en": person,
                    "aliases": person,
                },
            )
            saved += response.status_code == 302
    return saved


def public_paths() -> list[str]:
    """Every story in both editions, and the list pages that show what stories
    do not: section descriptions, tag headings, people and sources pages. Section
    names are in every page's menu; tag, people and source names on the stories."""
    published = Article.objects.published()
    paths = []
    for language in ("ar", "en"):
        paths += [f"/{language}/", f"/{language}/feed/", f"/{language}/feed/atom/"]
        paths += [f"/{language}/search/?q=xss", f"/{language}/search/?q=__xss"]
        paths += [f"/{language}/?page={p}" for p in range(2, published.count() // 20)]
        paths += [
            f"/{language}/news/{pk}/" for pk in published.values_list("pk", flat=True)
        ]
    sections = Section.objects.filter(articles__in=published).distinct()
    described = sections.exclude(description_ar="", description_en="")
    paths += [f"/ar/section/{s.slug}/" for s in described]
    paths += [f"/en/section/{s.slug}/" for s in described]
    paths += [f"/en/section/{s.slug}/feed/" for s in sections[:3]]
    paths += [f"/ar/tag/{t.slug}/" for t in Tag.objects.order_by("pk")[:20]]
    people = Person.objects.filter(appearances__article__in=published).distinct()
    paths += [p.get_absolute_url() for p in people.exclude(description_ar="")]
    sources = Source.objects.filter(attributions__article__in=published).distinct()
    paths += [f"/en/sources/{s.slug}/" for s in sources.exclude(aliases="", terms="")]
    paths += [f"/ar/sources/{s.slug}/" for s in sources[:5]]
    return paths


def admin_paths() -> list[str]:
    """Every list (all pages: every name), and the change forms of the rows that
    carry the long fields, with the story pages the desk uses."""
    paths = ["/admin/", "/admin/audit/auditevent/", "/admin/audit/auditevent/?p=1"]
    models = {
        "articles/article": Article.objects.count(),
        "articles/section": Section.objects.count(),
        "identity/person": Person.objects.count(),
        "sources/source": Source.objects.count(),
        "taggit/tag": Tag.objects.count(),
        "images/image": Image.objects.count(),
    }
    for model, count in models.items():
        paths += [f"/admin/{model}/?q=xss"]
        paths += [f"/admin/{model}/?p={p}" for p in range(count // 100 + 1)]

    def ids(queryset, limit):
        return list(queryset.order_by("pk").values_list("pk", flat=True)[:limit])

    stories = ids(Article.objects.all(), 40)
    paths += [f"/admin/articles/article/{pk}/change/" for pk in stories]
    paths += [f"/admin/articles/article/{pk}/revisions/" for pk in stories[:3]]
    paths += [f"/admin/articles/article/{pk}/history/" for pk in stories[:3]]
    paths += [f"/admin/articles/article/{pk}/preview/" for pk in stories[:5]]
    described = Section.objects.exclude(description_ar="")
    paths += [f"/admin/articles/section/{pk}/change/" for pk in ids(described, 20)]
    people = Person.objects.exclude(description_ar="")
    paths += [f"/admin/identity/person/{pk}/change/" for pk in ids(people, 45)]
    sources = Source.objects.exclude(aliases="")
    paths += [f"/admin/sources/source/{pk}/change/" for pk in ids(sources, 10)]
    paths += [f"/admin/taggit/tag/{pk}/change/" for pk in ids(Tag.objects, 10)]
    paths += [f"/admin/images/image/{pk}/change/" for pk in ids(Image.objects, 40)]
    return paths


def use_import_page(visitor: Visitor) -> int:
    """Paste chunks of the corpus on the Import page, look at the preview, confirm."""
    confirmed = 0
    for chunk in chunks_for("import page", 30):
        visitor.visit(reverse("admin:articles_article_import"), "admin")
        visitor.page.fill("#id_text", import_text(chunk))
        visitor.page.locator("form:has(#id_text) [type=submit]").first.click()
        visitor.page.wait_for_load_state("load")
        visitor.current = "import preview"
        visitor.check("admin")
        confirm = visitor.page.locator("form.ingest-confirm [type=submit]")
        if confirm.count():
            repeat = visitor.page.locator("form.ingest-confirm [name=allow_duplicate]")
            if repeat.count():
                repeat.check()
            confirm.first.click()
            visitor.page.wait_for_load_state("load")
            visitor.current = "draft made by the import page"
            visitor.check("admin")
            confirmed += 1
    return confirmed


def test_no_stored_payload_runs_on_any_page(browser, live_server, settings):
    """210 payloads through every editor-writable field and door: zero executions
    and zero live handlers on every public and admin page that shows them."""
    settings.RATE_LIMITS_ENABLED = False
    started = time.monotonic()
    editor = SuperuserFactory(username="xss-editor")
    planted = plant_all(by=editor)
    imported = import_through_service(editor)
    client = Client()
    client.force_login(editor)
    forms_saved = post_admin_forms(client)
    planting = time.monotonic() - started

    context = browser.new_context(bypass_csp=True)
    context.add_init_script(INIT)
    # Images, styles, fonts and media fail at once (an onerror payload still fires);
    # documents and scripts load, since the admin's scripts are on trial too.
    context.route("**/*", skip_decoration)
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            }
        ]
    )
    visitor = Visitor(context, live_server.url)
    # A control first: the detector must see a payload that runs and one that waits.
    visitor.page.set_content("<img src=x onerror=__xss(4200)><a onclick=__xss(4300)>")
    visitor.current = "control"
    found = visitor.page.evaluate(CHECK)
    assert found["hits"] == ["4200"] and len(found["live"]) == 2, found
    for path in public_paths():
        visitor.visit(path, "public")
    confirmed = use_import_page(visitor)
    for path in admin_paths():
        visitor.visit(path, "admin")
    context.close()

    print(
        f"\nXSS corpus: {len(payloads())} payloads, {len(FIELDS)} fields + "
        f"{len(DOORS)} doors, {planted.pairs} payload-field pairs planted in "
        f"{planted.count} stories; {imported} stories by the importer service, "
        f"{confirmed} by the Import page, {forms_saved} rows by admin forms; "
        f"refused whole: {len(planted.refused)}; pages visited: "
        f"{visitor.visited['public']} public, {visitor.visited['admin']} admin; "
        f"executions: {len(visitor.executions)}; live payloads: {len(visitor.live)}; "
        f"server errors: {len(visitor.errors)}; planting {planting:.0f} s, "
        f"total {time.monotonic() - started:.0f} s"
    )
    assert planted.refused == []
    assert visitor.errors == []
    assert visitor.executions == []
    assert visitor.live == [], "\n".join(visitor.live)
