"""The database's lineage token (club.store.models.Lineage): drawn here for a database made or
brought up to date, drawn anew by every restore of a backup, and part of the page cache's keys
(docs/operations.md, "The page cache")."""

import secrets
from typing import Any

from django.db import migrations, models


def draw(apps: Any, schema_editor: Any) -> None:
    apps.get_model("club", "Lineage").objects.create(token=secrets.token_hex(16))


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0031_list_day"),
    ]

    operations = [
        migrations.CreateModel(
            name="Lineage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("token", models.CharField(max_length=32)),
            ],
        ),
        migrations.RunPython(draw, migrations.RunPython.noop),
    ]
