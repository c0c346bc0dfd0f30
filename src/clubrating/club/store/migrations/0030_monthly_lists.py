"""The monthly lists: a rating list frozen as it stood on a month's first day, and its rows
(docs/ratings.md, "Monthly lists")."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0029_rating_order"),
    ]

    operations = [
        migrations.CreateModel(
            name="FrozenList",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("rating_list", models.CharField(max_length=10)),
                ("month", models.DateField()),
                ("published_at", models.DateTimeField()),
                ("published_by", models.CharField(max_length=150)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="frozen_lists",
                        to="club.club",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="FrozenRow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveIntegerField()),
                ("rank", models.PositiveIntegerField(null=True)),
                ("name", models.CharField(max_length=200)),
                ("rating", models.FloatField()),
                ("games", models.PositiveIntegerField()),
                ("provisional", models.BooleanField()),
                ("inactive", models.BooleanField()),
                ("last_played", models.DateField(null=True)),
                (
                    "frozen_list",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rows",
                        to="club.frozenlist",
                    ),
                ),
                (
                    "member",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="frozen_rows",
                        to="club.member",
                    ),
                ),
            ],
        ),
        migrations.AddConstraint(
            model_name="frozenlist",
            constraint=models.UniqueConstraint(
                fields=("club", "rating_list", "month"), name="one_frozen_list_a_month"
            ),
        ),
        migrations.AddConstraint(
            model_name="frozenrow",
            constraint=models.UniqueConstraint(
                fields=("frozen_list", "member"), name="one_frozen_row"
            ),
        ),
        migrations.AddConstraint(
            model_name="frozenrow",
            constraint=models.UniqueConstraint(
                fields=("frozen_list", "position"), name="one_frozen_place"
            ),
        ),
    ]
