import unicodedata

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def record_every_account_name(apps, schema_editor):
    """The normal form of every existing account, oldest first. Where two accounts read the
    same, only the older gets it: the younger (a look-alike made before they were refused) logs
    in by its exact name only, and a log-in to it never clears failures counted under it."""
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    AccountName = apps.get_model("accounts", "AccountName")
    seen = set()
    names = []
    for pk, username in User.objects.order_by("pk").values_list("pk", "username").iterator():
        name = unicodedata.normalize("NFKC", username).casefold()
        if name in seen or len(name) > 255:
            continue
        seen.add(name)
        names.append(AccountName(user_id=pk, name=name))
    AccountName.objects.bulk_create(names, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_rate_count"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AccountName",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="account_name",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("name", models.CharField(max_length=255, unique=True)),
            ],
        ),
        migrations.RunPython(record_every_account_name, migrations.RunPython.noop),
    ]
