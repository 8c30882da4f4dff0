"""What learners draw from was stored three ways (the version's status, the scenario's current
version and its active flag); the version's status is now the only one, at most one per
scenario."""

from django.db import migrations, models
from django.db.models import Q


def retire_what_learners_could_not_draw(apps, schema_editor):
    """Learners drew only the current version of an active scenario: any other version marked
    published is retired, so the status alone says the same."""
    scenario_model = apps.get_model("problems", "Scenario")
    version_model = apps.get_model("problems", "ScenarioVersion")
    for scenario in scenario_model.objects.all():
        published = version_model.objects.filter(scenario=scenario, status="published")
        if scenario.is_active and scenario.current_version_id is not None:
            published = published.exclude(pk=scenario.current_version_id)
        published.update(status="retired")


def republish_current(apps, schema_editor):
    scenario_model = apps.get_model("problems", "Scenario")
    version_model = apps.get_model("problems", "ScenarioVersion")
    for scenario in scenario_model.objects.all():
        current = version_model.objects.filter(scenario=scenario, status="published").first()
        scenario.current_version = current
        scenario.is_active = current is not None
        scenario.save(update_fields=["current_version", "is_active"])


class Migration(migrations.Migration):
    dependencies = [("problems", "0006_attempt_regrade_unseen_index")]

    operations = [
        migrations.RunPython(retire_what_learners_could_not_draw, republish_current),
        migrations.RemoveField(model_name="scenario", name="current_version"),
        migrations.RemoveField(model_name="scenario", name="is_active"),
        migrations.AddConstraint(
            model_name="scenarioversion",
            constraint=models.UniqueConstraint(
                condition=Q(status="published"),
                fields=("scenario",),
                name="one_published_version",
            ),
        ),
        migrations.AlterField(
            model_name="partanswer",
            name="status",
            field=models.CharField(
                choices=[
                    ("correct", "Correct"),
                    ("partial", "Partial"),
                    ("incorrect", "Incorrect"),
                    ("blank", "Blank"),
                    ("pending", "Pending"),
                ],
                max_length=10,
            ),
        ),
    ]
