from argparse import ArgumentParser
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from trainer.accounts.roles import make_instructor


class Command(BaseCommand):
    help = "Give an existing user the instructor role (can author problems and see statistics)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        try:
            user = User.objects.get(username=username)
        except User.DoesNotExist:
            raise CommandError(f"No user named {username!r}; they must sign up first.") from None
        make_instructor(user)
        self.stdout.write(f"{username} is now an instructor.")
