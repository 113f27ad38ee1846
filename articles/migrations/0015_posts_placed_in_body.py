"""Posts move from "after paragraph N" to a place in the body, and older bodies take
the editor's markup.

Each post becomes <figure data-post="ID"></figure> after its paragraph in every
language's body. Markup the editor does not make is rewritten to what means the same:
<b> and <i> become <strong> and <em>, <h4> becomes <h3>, a <q> quotation keeps its
quotation marks as text, and inline wrappers (<span>, <bdi>, <cite>, <u>, <sub>,
<sup>) give way to their text (public pages isolate Latin runs again when shown).
"""

import re
from html.parser import HTMLParser

from django.db import migrations, models

_BLOCKS = {"p", "h2", "h3", "h4", "blockquote", "ul", "ol", "figure"}
_RENAMED = {"b": "strong", "i": "em", "h4": "h3"}
_UNWRAPPED = {"span", "bdi", "cite", "u", "sub", "sup"}
_QUOTES = {"ar": ("«", "»"), "en": ("“", "”")}
_TAG_RE = re.compile(r"<(/?)([a-zA-Z0-9]+)([^>]*)>")


def _rewrite(body, code):
    opening, closing = _QUOTES.get(code, _QUOTES["en"])

    def tag(match):
        slash, name, rest = match.group(1), match.group(2).lower(), match.group(3)
        if name == "q":
            return closing if slash else opening
        if name in _UNWRAPPED:
            return ""
        if name in _RENAMED:
            return f"<{slash}{_RENAMED[name]}{'' if slash else rest}>"
        return match.group(0)

    return _TAG_RE.sub(tag, body)


class _Blocks(HTMLParser):
    """Top-level blocks of stored (sanitized) HTML, as the page counted them."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.blocks, self.current, self.depth = [], [], 0

    def flush(self):
        chunk = "".join(self.current).strip()
        if chunk:
            self.blocks.append(chunk if chunk.startswith("<") else f"<p>{chunk}</p>")
        self.current = []

    def handle_starttag(self, tag, attrs):
        if self.depth == 0 and tag == "br":
            self.flush()
            return
        if self.depth == 0 and tag in _BLOCKS:
            self.flush()
        if (tag in _BLOCKS or self.depth) and tag != "br":
            self.depth += 1
        self.current.append(self.get_starttag_text())

    def handle_endtag(self, tag):
        self.current.append(f"</{tag}>")
        if self.depth:
            self.depth -= 1
            if self.depth == 0:
                self.flush()

    def handle_data(self, data):
        self.current.append(data)

    def handle_entityref(self, name):
        self.current.append(f"&{name};")

    def handle_charref(self, name):
        self.current.append(f"&#{name};")


def _blocks(body):
    parser = _Blocks()
    parser.feed(body)
    parser.close()
    parser.flush()
    return parser.blocks


def forwards(apps, schema_editor):
    Article = apps.get_model("articles", "Article")
    SocialPost = apps.get_model("articles", "SocialPost")
    positions = {}
    for post in SocialPost.objects.order_by("position", "pk"):
        positions.setdefault(post.article_id, []).append((post.position, post.pk))
    for article in Article.objects.all().iterator():
        changed = []
        for code in ("ar", "en"):
            name = f"body_{code}"
            body = getattr(article, name) or ""
            if not body:
                continue
            blocks = _blocks(_rewrite(body, code))
            after = {}
            for position, pk in positions.get(article.pk, []):
                figure = f'<figure data-post="{pk}"></figure>'
                after.setdefault(min(position, len(blocks)), []).append(figure)
            pieces = after.get(0, [])
            for number, block in enumerate(blocks, start=1):
                pieces += [block, *after.get(number, [])]
            new = "".join(pieces)
            if new != body:
                setattr(article, name, new)
                changed.append(name)
        if changed:
            article.save(update_fields=changed)


_FIGURE_RE = re.compile(r'<figure data-post="(\d+)"></figure>')


def backwards(apps, schema_editor):
    Article = apps.get_model("articles", "Article")
    SocialPost = apps.get_model("articles", "SocialPost")
    for article in Article.objects.all().iterator():
        name = f"body_{article.language}"
        body = getattr(article, name) or ""
        kept, count = [], 0
        for block in _blocks(body):
            match = _FIGURE_RE.fullmatch(block)
            if match:
                SocialPost.objects.filter(pk=match.group(1)).update(position=count)
            else:
                kept.append(block)
                count += 1
        for code in ("ar", "en"):
            other = getattr(article, f"body_{code}") or ""
            setattr(article, f"body_{code}", _FIGURE_RE.sub("", other))
        article.save(update_fields=["body_ar", "body_en"])


class Migration(migrations.Migration):
    # After both earlier branches, so the state this migration rebuilds the
    # socialpost table from (SQLite) holds every column, posted_on included.
    dependencies = [
        ("articles", "0013_hero_image_library"),
        ("articles", "0014_social_post_day"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
        migrations.AlterModelOptions(
            name="socialpost",
            options={
                "ordering": ["pk"],
                "verbose_name": "social post",
                "verbose_name_plural": "social posts",
            },
        ),
        migrations.RemoveField(model_name="socialpost", name="position"),
        migrations.AlterField(
            model_name='article',
            name='body',
            field=models.TextField(blank=True, help_text="Write and format the story here. The toolbar's post and image buttons place one of the story's social posts, or a library image, at the cursor.", verbose_name='body'),
        ),
        migrations.AlterField(
            model_name='article',
            name='body_ar',
            field=models.TextField(blank=True, help_text="Write and format the story here. The toolbar's post and image buttons place one of the story's social posts, or a library image, at the cursor.", null=True, verbose_name='body'),
        ),
        migrations.AlterField(
            model_name='article',
            name='body_en',
            field=models.TextField(blank=True, help_text="Write and format the story here. The toolbar's post and image buttons place one of the story's social posts, or a library image, at the cursor.", null=True, verbose_name='body'),
        ),
    ]
