"""Wire throughput: N agency items (half NewsML-G2 in Arabic, half ninjs in English)
delivered to a drop folder, polled in, then each taken as a draft.

    python scripts/bench_wire.py [-n 1000] [--people 10000] [--sources 200]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom \
        python scripts/bench_wire.py

Runs against a throwaway test database on the configured backend (created and
dropped here). Prints the time to receive the files (parse, record, audit,
archive) and to make every draft (the importer, the identity gate, revisions).
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings.test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

AR_PARAGRAPH = (
    "وقالت البلدية إن المرحلة رقم {n} من مشروع الحدائق ستفتح أمام السكان قبل "
    "نهاية الشهر، وإن أعمال الري والإنارة اكتملت بحسب الجدول المعلن."
)
EN_PARAGRAPH = (
    "The council said phase {n} of the parks project would open to residents "
    "before the end of the month, with irrigation and lighting finished on time."
)


def newsml(n: int) -> bytes:
    body = "".join(f"<p>{AR_PARAGRAPH.format(n=f'{n}-{i}')}</p>" for i in range(6))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<newsItem xmlns="http://iptc.org/std/nar/2006-10-01/" guid="urn:bench:ar:{n}"
          version="1" standard="NewsML-G2" standardversion="2.34" xml:lang="ar">
  <itemMeta><itemClass qcode="ninat:text"/>
    <versionCreated>2026-12-01T08:00:00Z</versionCreated>
    <pubStatus qcode="stat:usable"/></itemMeta>
  <contentMeta><urgency>{1 + n % 6}</urgency>
    <subject qcode="medtop:{11000000 + n % 5 * 1000000}"/>
    <headline>خبر الحدائق رقم {n} في مدينة الواحة</headline><by>مراسل الواحة</by>
    <language tag="ar"/></contentMeta>
  <contentSet><inlineXML contenttype="application/xhtml+xml">
    <html xmlns="http://www.w3.org/1999/xhtml"><body>{body}</body></html>
  </inlineXML></contentSet>
</newsItem>""".encode()


def ninjs(n: int) -> bytes:
    body = "".join(f"<p>{EN_PARAGRAPH.format(n=f'{n}-{i}')}</p>" for i in range(6))
    return json.dumps(
        {
            "uri": f"urn:bench:en:{n}",
            "version": "1",
            "type": "text",
            "versionCreated": "2026-12-01T08:00:00Z",
            "pubStatus": "usable",
            "urgency": 1 + n % 6,
            "language": "en",
            "headlines": [{"value": f"Parks story number {n} from Oasis City"}],
            "by": "Oasis correspondent",
            "bodies": [{"contentType": "text/html", "value": body}],
        }
    ).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="wire items")
    parser.add_argument("--people", type=int, default=10_000, help="people in the DB")
    parser.add_argument("--sources", type=int, default=200, help="sources in the DB")
    args = parser.parse_args()

    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0)
    try:
        from core.roles import EDITORS
        from demo.seed import seed_people, seed_sources
        from tests.factories import SectionFactory, SourceFactory, member_of
        from wire.channels import channel_poll
        from wire.models import AgencyItem, Channel
        from wire.services import wire_take

        seed_people(args.people, batch=2000)
        seed_sources(args.sources)
        editor = member_of(EDITORS, username="bench-editor")
        with tempfile.TemporaryDirectory() as root:
            # A drop folder is polled only inside WIRE_ROOT (wire/folders.py).
            settings.WIRE_ROOT = root
            folder = str(Path(root) / "bench")
            Path(folder).mkdir()
            channel = Channel.objects.create(
                name="bench",
                kind=Channel.Kind.FOLDER,
                source=SourceFactory(name_ar="وكالة الواحة", name_en="Oasis"),
                section=SectionFactory(),
                folder=folder,
                acting_user=editor,
            )
            for n in range(args.n):
                made = newsml(n) if n % 2 == 0 else ninjs(n)
                suffix = "xml" if n % 2 == 0 else "json"
                (Path(folder) / f"item-{n:05}.{suffix}").write_bytes(made)
            started = time.perf_counter()
            report = channel_poll(channel)
            received = time.perf_counter() - started
            if report.rejected:
                raise SystemExit(f"{report.rejected} files were rejected: see the log.")
            rows = list(AgencyItem.objects.order_by("pk"))
            timings = []
            started = time.perf_counter()
            for row in rows:
                begin = time.perf_counter()
                wire_take(agency_item=row, by=editor)
                timings.append(time.perf_counter() - begin)
            taken = time.perf_counter() - started
        print(
            f"{connection.vendor}: {args.n} wire items ({report.outcomes}, "
            f"{report.rejected} rejected) received from a drop folder in "
            f"{received:.2f} s ({args.n / received:.0f}/s); taken as drafts in "
            f"{taken:.2f} s ({args.n / taken:.1f}/s, median "
            f"{statistics.median(timings) * 1000:.1f} ms); together "
            f"{received + taken:.2f} s ({args.people} people, {args.sources} sources;"
            f" 6 paragraphs each); load average {os.getloadavg()}"
        )
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
