"""What the output check costs: reading one rendered article page for legal names.

    .venv/bin/python scripts/bench_identity_output.py [--kilobytes 40] [--number 2000]

Builds the demo newsroom in a temporary SQLite database, lengthens the demo's
Arabic story with more of its own paragraphs until its page weighs about
`--kilobytes`, protects four more people beside the demo's one (five in all),
renders the page through the whole stack as a reader receives it, and times
`IdentityGate.people_in_output` on it (in process, timeit, best of five runs),
beside the gate's field-by-field reading (`people_in`) of the same page.
"""

import argparse
import os
import sys
import tempfile
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
_DATABASE = Path(tempfile.mkdtemp(prefix="bench-identity-")) / "db.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{_DATABASE}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings.test")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.utils import translation  # noqa: E402

from articles.models import Article  # noqa: E402
from demo.newsroom import demo_newsroom_load  # noqa: E402
from identity.gate import IdentityGate  # noqa: E402
from identity.models import Person  # noqa: E402

MORE_PROTECTED = [
    ("نزار الحلبوني", "Nizar al-Halbouni"),
    ("سلمى الأحمد", "Salma al-Ahmad"),
    ("يوسف المنصوري", "Yousef al-Mansouri"),
    ("ليلى حداد", "Layla Haddad"),
]


def page(kilobytes: int) -> str:
    """The demo's Arabic story page, lengthened to about `kilobytes`."""
    call_command("migrate", verbosity=0)
    demo_newsroom_load()
    for index, (arabic, latin) in enumerate(MORE_PROTECTED, 1):
        Person.objects.create(
            name=arabic,
            other_spellings=latin,
            public_name=f"المصدر {index}",
            identity_protected=True,
        )
    story = Article.objects.published().filter(language="ar").first()
    paragraphs = story.body_ar
    client = Client(HTTP_HOST="localhost")
    with translation.override("ar"), override_settings(PAGE_CACHE=False):
        url = story.get_absolute_url()
        for _ in range(100):
            response = client.get(url, secure=True)
            if response.status_code != 200:
                raise SystemExit(f"{url} answered {response.status_code}")
            html = response.content.decode()
            if len(html.encode()) >= kilobytes * 1000:
                return html
            story.body_ar += paragraphs
            story.version += 1  # the story's cached fragment is keyed by it
            story.save()
    raise SystemExit("The page did not grow to the size asked for.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kilobytes", type=int, default=40)
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args()
    html = page(args.kilobytes)
    gate = IdentityGate.load()
    print(
        f"Page: {len(html.encode()) / 1000:.1f} kB ({len(html)} characters); "
        f"{len(gate.people)} protected people, {len(gate.needles)} letter runs."
    )
    assert not gate.people_in_output(html), "the demo page names a protected person"
    planted = html.replace("</article>", "<p>قال نزار الحلبوني</p></article>", 1)
    assert gate.people_in_output(planted), "a planted name was missed"
    for name, call in [
        ("people_in_output (one pass)", lambda: gate.people_in_output(html)),
        ("people_in (the gate's reading)", lambda: gate.people_in(html)),
    ]:
        number = args.number if "output" in name else max(args.number // 10, 1)
        best = min(timeit.repeat(call, number=number, repeat=5)) / number
        print(f"{name}: {best * 1e3:.3f} ms per page")


if __name__ == "__main__":
    main()
