from datetime import timedelta

from django.db import migrations, models

# trainer.mock.services.GRACE as it was when this migration was written.
GRACE = timedelta(seconds=5)


def mark_running_mocks(apps, schema_editor):
    """Mocks running when the mark arrives: their learners' profiles are marked as the mock's
    start now does."""
    Mock = apps.get_model("mock", "Mock")
    LearnerProfile = apps.get_model("practice", "LearnerProfile")
    for mock in Mock.objects.filter(ended_at__isnull=True):
        profile, _ = LearnerProfile.objects.get_or_create(user_id=mock.user_id)
        profile.mock_until = mock.deadline + GRACE
        profile.save(update_fields=["mock_until"])


class Migration(migrations.Migration):
    dependencies = [
        ("practice", "0002_card_suspended_buried_until"),
        ("mock", "0002_mockitem_design_answer"),
    ]

    operations = [
        migrations.AddField(
            model_name="learnerprofile",
            name="mock_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(mark_running_mocks, migrations.RunPython.noop),
    ]
