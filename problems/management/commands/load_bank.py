from typing import Any

from django.core.management.base import BaseCommand, CommandError

from problems.loader import BankError, load_bank


class Command(BaseCommand):
    help = (
        "Load or update the built-in problems (problems/bank/*.yaml). Idempotent: a changed "
        "scenario becomes a new version; old versions are kept."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = load_bank()
        except BankError as error:
            raise CommandError(f"The bank did not load; nothing was changed.\n{error}") from None
        self.stdout.write(report.summary())
        for line in report.versions_created:
            self.stdout.write(f"  published {line}")
        for line in report.scenarios_retired:
            self.stdout.write(f"  retired {line}")
