"""Hostile input: how long the importer takes on inputs built to make it hang.

    .venv/bin/python scripts/bench_hostile.py [--scale 1 2 4]

Each input is read by `parse_story` (the Import page's parser) and by
`recognize_paste` (the post inline's paste box) at 1×, 2× and 4× its size, so the
figures show the cost growing in proportion to the input, not with its square.
No database is needed.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsroom.settings.test")

import django  # noqa: E402

django.setup()

from ingest.embeds import recognize_paste  # noqa: E402
from ingest.parse import parse_story  # noqa: E402

HEAD = "عنوان الخبر\n\nفقرة أولى.\n\n"


def inputs(scale: int) -> dict[str, str]:
    n = scale
    return {
        '"<a " × 100k on one line': "<a " * (100_000 * n),
        "unclosed <blockquote + 200k lines": "<blockquote\n" + "سطر\n" * (200_000 * n),
        "10k nested <p> in an embed": '<blockquote class="twitter-tweet">'
        + "<p>" * (10_000 * n)
        + "x"
        + "</p>" * (10_000 * n)
        + "</blockquote>",
        '"— " + 200k spaces': "— " + " " * (200_000 * n),
        '"— " + 200k spaces + "(@x"': "— " + " " * (200_000 * n) + "(@x",
        "200k spaces inside a line": "كلمة" + " " * (200_000 * n) + "أخرى",
        "10k nested <div> in an embed": '<div class="fb-post">'
        + "<div>" * (10_000 * n),
    }


def timed(function, text: str) -> float:
    start = time.perf_counter()
    function(text)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    header = "input".ljust(36) + "".join(
        f"parse×{s}".rjust(11) + f"paste×{s}".rjust(11) for s in args.scale
    )
    print(header)
    names = list(inputs(1))
    for name in names:
        row = name.ljust(36)
        for scale in args.scale:
            text = inputs(scale)[name]
            row += f"{timed(parse_story, HEAD + text):10.3f}s"
            row += f"{timed(recognize_paste, text):10.3f}s"
        print(row, flush=True)


if __name__ == "__main__":
    main()
