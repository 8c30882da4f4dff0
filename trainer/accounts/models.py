from django.conf import settings
from django.db import models


class RateCount(models.Model):
    """Events of one kind by one identity in the current window (see `trainer.accounts.ratelimit`).

    In the database rather than the cache so that every worker process shares the count with or
    without Redis; a counter is one row, incremented by one statement.
    """

    key = models.CharField(max_length=200, unique=True)  # "scope:identity"
    count = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField()  # the end of the window `count` belongs to

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


class AccountName(models.Model):
    """An account's username in the form names are compared in (`trainer.accounts.usernames`),
    unique, so that no two accounts read the same."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="account_name",
    )
    name = models.CharField(max_length=255, unique=True)

    def __str__(self) -> str:
        return self.name
