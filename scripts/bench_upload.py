"""How long an editor waits for a 40-megapixel upload, and when its renditions exist.

Uploads one picture of 40 megapixels (the library's limit) through the admin's add
view, as a signed-in superuser with Django's test client, with renditions left to an
RQ worker process started beforehand (`manage.py rqworker renditions`, as in
production). Prints the request's time and the time until the worker had made every
rendition. `--inline` makes them inside the request instead (the immediate backend,
as before renditions were a task), for comparison.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/newsroom_bench \\
        .venv/bin/python scripts/bench_upload.py [--inline] [--png]

DATABASE_URL must name a database both processes reach (PostgreSQL, or a SQLite
file); it is migrated and gets a user `bench-uploader` and the uploaded images.
TASKS_URL (default redis://127.0.0.1:6379/11) names a Redis database of the
benchmark's own: it is emptied first.
"""

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# 7745 × 5164: 39,995,180 pixels, just under the library's 40-megapixel limit.
SIZE = (7745, 5164)


def picture(fmt: str) -> bytes:
    """A photo-like picture (smooth shapes and grain) of SIZE, as JPEG or PNG."""
    from PIL import Image, ImageDraw, ImageFilter

    small = Image.new("RGB", (SIZE[0] // 8, SIZE[1] // 8), (90, 120, 160))
    draw = ImageDraw.Draw(small)
    for i in range(40):
        box = (i * 23 % 900, i * 37 % 600, i * 23 % 900 + 140, i * 37 % 600 + 90)
        draw.ellipse(box, fill=(i * 6 % 255, 200 - i * 4 % 200, i * 11 % 255))
    big = small.filter(ImageFilter.GaussianBlur(6)).resize(SIZE, Image.BILINEAR)
    if fmt == "JPEG":  # a camera's grain; a PNG with it would pass the 15 MB limit
        grain = Image.effect_noise(SIZE, 40).convert("RGB")
        big = Image.blend(big, grain, 0.2)
    # A mark of this run: the library keeps a picture once, so a second run's
    # upload of the same bytes would be refused as a duplicate.
    ImageDraw.Draw(big).rectangle((0, 0, 63, 63), fill=tuple(secrets.token_bytes(3)))
    out = BytesIO()
    if fmt == "PNG":
        big.save(out, "PNG")
    else:
        big.save(out, "JPEG", quality=85)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--inline", action="store_true", help="renditions in the request"
    )
    parser.add_argument("--png", action="store_true", help="upload a PNG, not a JPEG")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        sys.exit("Set DATABASE_URL to a database the worker process can reach too.")
    media = Path(tempfile.mkdtemp(prefix="bench-upload-"))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="newsroom.settings.dev",
        DEBUG="0",
        ALLOWED_HOSTS="testserver",
        MEDIA_ROOT=str(media),
        TASKS_URL=""
        if args.inline
        else os.environ.get("TASKS_URL", "redis://127.0.0.1:6379/11"),
        PAGE_CACHE="0",
    )
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)

    import django

    django.setup()
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from images.models import Image, Rendition
    from images.renditions import wanted

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(
        username="bench-uploader", defaults={"is_staff": True, "is_superuser": True}
    )
    fmt = "PNG" if args.png else "JPEG"
    data = picture(fmt)
    print(f"picture: {SIZE[0]}×{SIZE[1]} {fmt}, {len(data) / 1e6:.1f} MB")

    worker = None
    if not args.inline:
        import django_rq
        from rq import Worker

        redis.Redis.from_url(os.environ["TASKS_URL"]).flushdb()
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "rqworker", "renditions", "--verbosity=0"],
            cwd=ROOT,
        )
        queue = django_rq.get_queue("renditions")
        while not Worker.all(queue=queue):  # wait until it listens, as in production
            time.sleep(0.1)

    from django.core.files.uploadedfile import SimpleUploadedFile

    client = Client()
    client.force_login(user)
    form = {
        "file": SimpleUploadedFile(f"bench.{fmt.lower()}", data),
        "title_ar": "صورة القياس",
        **{f: "" for f in ("title_en", "caption_ar", "caption_en", "credit", "source")},
        **{f: "" for f in ("alt_text_ar", "alt_text_en")},
        "focal_x": "0.5",
        "focal_y": "0.5",
    }
    try:
        started = time.perf_counter()
        if os.environ.get("BENCH_PROFILE"):
            import cProfile

            profile = cProfile.Profile()
            response = profile.runcall(
                client.post, reverse("admin:images_image_add"), form
            )
            profile.dump_stats(os.environ["BENCH_PROFILE"])
        else:
            response = client.post(reverse("admin:images_image_add"), form)
        answered = time.perf_counter()
        if response.status_code != 302:
            sys.exit(f"upload refused: {response.status_code}")
        image = Image.objects.latest("pk")
        expected = len(wanted(image))
        made_then = Rendition.objects.filter(image=image).count()
        while Rendition.objects.filter(image=image).count() < expected:
            if time.perf_counter() - answered > 600:
                sys.exit("no renditions after 10 minutes (see the worker's log)")
            time.sleep(0.05)
        done = time.perf_counter()
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(30)
    how = "in the request" if args.inline else "by the worker"
    print(
        f"request: {answered - started:.2f} s "
        f"({made_then} of {expected} renditions made when it answered)"
    )
    print(f"all {expected} renditions made {how}: {done - started:.2f} s after upload")


if __name__ == "__main__":
    main()
