"""Import throughput: generate N stories in memory and import them on the configured DB.

    python scripts/bench_import.py [-n 300] [--people 10000] [--sources 200]
    python scripts/bench_import.py -n 50 --profile 40   # where the time goes
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom \
        python scripts/bench_import.py

Runs against a throwaway test database on the configured backend (created and dropped
here), so the development data is never touched. Prints stories/second and median ms.
"""

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings.test")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

PARAGRAPH = (
    "وقال مسؤولون في البلدية إن المشروع رقم {n} سيخدم آلاف السكان، وإن بشار الأسد "
    "ليس طرفاً فيه، بحسب ما نقلته مصادر مطلعة لقيصر وسامي."
)
POST = (
    "تحديث: اكتمل المشروع رقم {n} https://t.co/Bench{n} #مشروع_{n} #بلدية "
    "pic.twitter.com/Pic{n}\n\n— بلدية المدينة (@city_{n}) ١٢ ديسمبر ٢٠٢٤"
)


def story(n: int) -> str:
    paragraphs = [PARAGRAPH.format(n=f"{n}-{i}") for i in range(8)]
    return "\n\n".join(
        [
            f"خبر تجريبي رقم {n} عن مشروع جديد في المدينة",
            f"دبي - (أ ف ب): {paragraphs[0]}",
            *paragraphs[1:4],
            POST.format(n=n),
            *paragraphs[4:],
            "المصدر: موقع 24",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=300, help="stories to import")
    parser.add_argument("--people", type=int, default=10_000, help="people in the DB")
    parser.add_argument("--sources", type=int, default=200, help="sources in the DB")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="profile the imports and print the N costliest calls (cumulative)",
    )
    args = parser.parse_args()

    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0)
    try:
        from demo.seed import seed_people, seed_sources
        from ingest.services import story_import
        from tests.factories import PersonFactory, SourceFactory, SuperuserFactory

        SourceFactory(name_ar="موقع 24", name_en="24.ae", domains="24.ae")
        SourceFactory(name_ar="وكالة الصحافة الفرنسية", name_en="AFP", aliases="أ ف ب")
        PersonFactory(name="بشار الأسد")
        PersonFactory(name="فريد المصور", public_name="قيصر", identity_protected=True)
        # A newsroom's size: the seed's fictional people and outlets.
        seed_people(args.people, batch=2000)
        seed_sources(args.sources)
        editor = SuperuserFactory(username="bench")
        texts = [story(n) for n in range(args.n)]
        story_import(text=story(-1), by=editor)  # warm-up: imports, caches
        timings = []
        profile = cProfile.Profile() if args.profile else None
        started = time.perf_counter()
        for text in texts:
            begin = time.perf_counter()
            if profile:
                profile.enable()
            story_import(text=text, by=editor)
            if profile:
                profile.disable()
            timings.append(time.perf_counter() - begin)
        total = time.perf_counter() - started
        if profile:
            stats = pstats.Stats(profile).sort_stats("cumulative")
            stats.print_stats(args.profile)
        print(
            f"{connection.vendor}: {args.n} stories in {total:.2f} s — "
            f"{args.n / total:.1f} stories/s, "
            f"median {statistics.median(timings) * 1000:.1f} ms, "
            f"p95 {sorted(timings)[int(len(timings) * 0.95) - 1] * 1000:.1f} ms "
            f"({args.people} people, {args.sources} sources; "
            "8 paragraphs + 1 post each); "
            f"load average {os.getloadavg()}"
        )
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
