"""The club's list day (the day of the month a monthly list stands at, the 1st by default) and
each frozen list's own day; the lists published before stood at their month's 1st
(docs/ratings.md, "Monthly lists")."""

from typing import Any

from django.db import migrations, models
from django.db.models import F


def first_days(apps: Any, schema_editor: Any) -> None:
    apps.get_model("club", "FrozenList").objects.update(day=F("month"))


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0030_monthly_lists"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="list_day",
            field=models.PositiveIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="frozenlist",
            name="day",
            field=models.DateField(null=True),
        ),
        migrations.RunPython(first_days, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="frozenlist",
            name="day",
            field=models.DateField(),
        ),
    ]
