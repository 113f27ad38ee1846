from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from demo.newsroom import demo_newsroom_load

DEMO_USERNAME = "editor"
DEMO_PASSWORD = "newsroom-demo"


class Command(BaseCommand):
    help = (
        "Load (or refresh) the demo newsroom; with --editor, a demo admin account too."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--editor",
            action="store_true",
            help="Create the demo superuser 'editor' (development only).",
        )

    def handle(self, *args, editor: bool = False, **options):
        counts = demo_newsroom_load()
        summary = ", ".join(f"{count} {name}" for name, count in counts.items())
        self.stdout.write(self.style.SUCCESS(f"Demo newsroom loaded: {summary}."))
        if editor:
            self._ensure_editor()

    def _ensure_editor(self) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "The demo account is for development only (DEBUG is off)."
            )
        user, _created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
        user.is_staff = user.is_superuser = True
        user.first_name = "محرر"
        user.last_name = "تجريبي"
        user.set_password(DEMO_PASSWORD)
        user.save()
        self.stdout.write(
            "Admin: http://127.0.0.1:8000/admin/  "
            f"login {DEMO_USERNAME} / {DEMO_PASSWORD}"
        )
        if settings.OTP_REQUIRED_FOR_PERMISSIONS:
            self.stdout.write(
                "Two-factor sign-in is on (TWO_FACTOR=1): the first login asks the "
                "demo editor to set up an authenticator app."
            )
        else:
            self.stdout.write(
                "Two-factor sign-in is skipped in development; production asks every "
                "editor, identity officer and superuser for a code from an "
                "authenticator app."
            )
