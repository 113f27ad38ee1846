from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from demo.accounts import DEMO_PASSWORD, demo_accounts_load
from demo.newsroom import demo_newsroom_load


class Command(BaseCommand):
    help = (
        "Load (or refresh) the demo newsroom; with --accounts, the demo logins too: "
        "one per role and an administrator."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--accounts",
            "--editor",  # its name when the demo had one login
            action="store_true",
            dest="accounts",
            help=(
                "Create the demo logins (reporter, editor, sources, officer, admin) "
                f"with the password {DEMO_PASSWORD!r} (development only)."
            ),
        )

    def handle(self, *args, accounts: bool = False, **options):
        if accounts and not settings.DEBUG:
            # Checked first: a production database never gets a known password.
            raise CommandError(
                "The demo accounts are for development only (DEBUG is off)."
            )
        counts = demo_newsroom_load()
        summary = ", ".join(f"{count} {name}" for name, count in counts.items())
        self.stdout.write(self.style.SUCCESS(f"Demo newsroom loaded: {summary}."))
        if accounts:
            self._print_logins(demo_accounts_load())

    def _print_logins(self, logins) -> None:
        self.stdout.write(
            f"Admin: http://127.0.0.1:8000/admin/  login editor / {DEMO_PASSWORD}\n"
            "Demo logins (development only), each with that password:"
        )
        for account in logins:
            self.stdout.write(f"  {account.username:<10} {account.title}")
        if settings.OTP_REQUIRED_FOR_PERMISSIONS:
            self.stdout.write(
                "Two-factor sign-in is on (TWO_FACTOR=1): at the first login the "
                "editor, the source manager, the identity officer and the "
                "administrator are asked to set up an authenticator app, with a code "
                "e-mailed to them first (printed here in development)."
            )
        else:
            self.stdout.write(
                "Two-factor sign-in is skipped in development; production asks every "
                "editor, source manager, identity officer and superuser for a code "
                "from an authenticator app."
            )
