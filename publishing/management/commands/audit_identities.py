"""python manage.py audit_identities — look for protected legal names on public pages.

Every write path runs the identity gate, but a row written around them (a shell, a
raw update, a migration) is only caught by looking at what readers get. This renders
every public page through the whole stack, as a reader's browser would receive it,
and reads each one with the same gate. It is meant for CI and cron: besides a fixed
number of queries listing the pages, rendering is the only database work, and it
exits non-zero when anything leaks.
"""

from urllib.parse import unquote

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.test import Client, override_settings
from django.utils import translation

from articles.identity import IdentityGate
from articles.models import Person
from publishing.public_urls import public_urls

WITHHELD = "…"


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
        if leaks or errors:
            raise CommandError(
                f"{leaks} leak(s) of a protected legal name and {errors} server "
                f"error(s) in {checked} public pages checked."
            )
        people = len(gate.people)
        pages = "page" if checked == 1 else "pages"
        protected = "person" if people == 1 else "people"
        self.say(
            self.style.SUCCESS(
                f"Checked {checked} public {pages} for {people} protected "
                f"{protected}: no legal name found."
            )
        )

    def read_pages(self, gate: IdentityGate) -> tuple[int, int, int]:
        """Render and read every public page; count pages read, leaks and errors."""
        client = Client(HTTP_HOST=site_host(), raise_request_exception=False)
        checked = leaks = errors = 0
        for url in public_urls():
            response = client.get(url, secure=True)
            shown = printable_url(gate, url)
            if response.status_code >= 500:
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
                found = people_shown(gate, response.content.decode(response.charset))
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


def site_host() -> str:
    """The first host the site answers to by name, for the requests' Host header."""
    hosts = [h for h in settings.ALLOWED_HOSTS if h != "*" and not h.startswith(".")]
    return hosts[0] if hosts else "localhost"


def people_shown(gate: IdentityGate, html: str) -> list[Person]:
    """The protected people whose legal names a page shows, each once: the page
    is read as the output check reads every response (attributes and text, escapes
    decoded)."""
    return gate.people_in_output(html)


def printable_url(gate: IdentityGate, url: str) -> str:
    """`url` decoded for reading, with any part that spells a protected legal name
    withheld: a slug written around the gate may hold the very name reported."""
    path, mark, query = unquote(url).partition("?")
    parts = [WITHHELD if gate.people_in(part) else part for part in path.split("/")]
    shown = "/".join(parts) + mark + query
    return WITHHELD if gate.people_in(shown) else shown


def public_name(person: Person) -> str:
    """The person as the report may name them: the pseudonym, or their number."""
    return person.display_name or f"person #{person.pk}"
