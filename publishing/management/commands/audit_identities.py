"""python manage.py audit_identities — look for protected legal names on public pages.

Every write path runs the identity gate, and every public response passes the output
check (publishing/output_check.py), which withholds a page holding a legal name; a
row written around the doors (a shell, a raw update, a migration) is then a page
readers cannot open. This renders every public page through the whole stack, as a
reader's browser would receive it, and reports each page the check withheld or (with
the check's own matcher) finds a name in. Then it reads every other exit that
registered a reader (identity.exits): the partners' API documents and the webhook
bodies partners hold or are about to be sent. It is meant for CI and cron: besides
a fixed number of queries listing the pages, rendering is the only database work,
and it exits non-zero when anything leaks.
"""

import html
import re
from itertools import chain
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.test import Client, override_settings
from django.utils import translation

from identity.exits import exits
from identity.gate import IdentityGate
from identity.models import Person
from publishing.output_check import printable_url
from publishing.public_urls import public_urls

_SITEMAP_URL_RE = re.compile(r'<loc>([^<]+)</loc>|<xhtml:link[^>]*\shref="([^"]+)"')


class Command(BaseCommand):
    help = (
        "Render every public page and report each one that shows the legal name of "
        "a protected person (by their public name only). Exits non-zero on a leak "
        "or a server error."
    )

    def handle(self, *args, **options):
        self.verbosity = options["verbosity"]
        gate = IdentityGate.load()
        if not gate:
            self.say("Nobody's identity is protected; nothing to check.")
            return
        # Each request activates its page's language; the caller's is put back. The
        # page cache is bypassed: the audit reads what the database holds now.
        with (
            translation.override(translation.get_language()),
            override_settings(PAGE_CACHE=False),
        ):
            checked, leaks, errors = self.read_pages(gate)
            counts = [f"{checked} public {'page' if checked == 1 else 'pages'}"]
            for name, reader in exits().items():
                read, found = self.read_exit(name, reader, gate)
                counts.append(f"{read} {name}")
                leaks += found
        if leaks or errors:
            raise CommandError(
                f"{leaks} leak(s) of a protected legal name and {errors} server "
                f"error(s) in {', '.join(counts)} checked."
            )
        people = len(gate.people)
        protected = "person" if people == 1 else "people"
        self.say(
            self.style.SUCCESS(
                f"Checked {', '.join(counts)} for {people} protected "
                f"{protected}: no legal name found."
            )
        )

    def read_exit(self, name: str, reader, gate: IdentityGate) -> tuple[int, int]:
        """Read what exit `name` sends; count what was read and what needs mending."""
        read = leaks = 0
        for reading in reader(gate):
            read += 1
            note = f" ({reading.note})" if reading.note else ""
            for person in reading.people:
                self.stdout.write(f"{reading.address}: {public_name(person)}{note}")
            if reading.mend:
                leaks += len(reading.people)
            if self.verbosity >= 2 and not reading.people:
                self.stdout.write(f"{reading.address}: clean")
        return read, leaks

    def read_pages(self, gate: IdentityGate) -> tuple[int, int, int]:
        """Render and read every public page; count pages read, leaks and errors."""
        client = Client(HTTP_HOST=site_host(), raise_request_exception=False)
        checked = leaks = errors = 0
        seen: set[str] = set()
        # Addresses the sitemaps list that the walk did not: read after it.
        listed: list[str] = []
        for url in chain(public_urls(), iter(listed)):
            if url in seen:
                continue
            seen.add(url)
            response = client.get(url, secure=True)
            if "xml" in response.get("Content-Type", ""):
                listed += [path for path in sitemap_paths(response) if path not in seen]
            shown = printable_url(gate, url)
            # The output check withheld it from readers: a leak all the same.
            withheld = getattr(response, "withheld_people", None)
            if withheld:
                checked += 1
                for person in withheld:
                    self.stdout.write(f"{shown}: {public_name(person)} (withheld)")
                leaks += len(withheld)
            elif response.status_code >= 500:
                errors += 1
                self.stderr.write(
                    self.style.ERROR(f"{shown}: server error {response.status_code}")
                )
            elif response.status_code != 200:
                self.stderr.write(
                    self.style.WARNING(
                        f"{shown}: status {response.status_code}, not checked"
                    )
                )
            else:
                checked += 1
                found = gate.people_in_output(response.content.decode(response.charset))
                for person in found:
                    self.stdout.write(f"{shown}: {public_name(person)}")
                leaks += len(found)
                if self.verbosity >= 2 and not found:
                    self.stdout.write(f"{shown}: clean")
        return checked, leaks, errors

    def say(self, message: str) -> None:
        """Write `message` unless asked for silence (--verbosity 0)."""
        if self.verbosity:
            self.stdout.write(message)


def sitemap_paths(response) -> list[str]:
    """The addresses (path and query) a sitemap lists, alternates included."""
    text = response.content.decode(response.charset or "utf-8", "replace")
    paths = []
    for match in _SITEMAP_URL_RE.finditer(text):
        parts = urlsplit(html.unescape(match.group(1) or match.group(2)))
        paths.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return paths


def site_host() -> str:
    """The first host the site answers to by name, for the requests' Host header."""
    hosts = [h for h in settings.ALLOWED_HOSTS if h != "*" and not h.startswith(".")]
    return hosts[0] if hosts else "localhost"


def public_name(person: Person) -> str:
    """The person as the report may name them: the pseudonym, or their number."""
    return person.display_name or f"person #{person.pk}"
