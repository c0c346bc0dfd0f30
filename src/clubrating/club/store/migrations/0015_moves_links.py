# Moves links: a capability URL per board (its token stored as SHA-256 only), the players'
# submissions waiting for acceptance, the throttle's attempts, and the club's link lifetime.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0014_evening_system"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="moves_link_days",
            field=models.PositiveIntegerField(default=14),
        ),
        migrations.CreateModel(
            name="MovesAttempt",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(db_index=True, max_length=64)),
                ("when", models.DateTimeField(db_index=True)),
            ],
        ),
        migrations.CreateModel(
            name="MovesLink",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("round", models.PositiveIntegerField()),
                ("board", models.PositiveIntegerField(blank=True, null=True)),
                ("token_hash", models.CharField(max_length=64, unique=True)),
                ("created", models.DateTimeField()),
                ("expires", models.DateTimeField()),
                ("revoked", models.DateTimeField(blank=True, null=True)),
                (
                    "evening_board",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="moves_links",
                        to="club.eveningboard",
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="moves_links",
                        to="club.game",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="moves_links",
                        to="club.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["tournament", "round", "board", "id"],
            },
        ),
        migrations.CreateModel(
            name="MovesSubmission",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("text", models.TextField()),
                ("moves", models.TextField()),
                ("plies", models.PositiveIntegerField()),
                ("created", models.DateTimeField()),
                ("state", models.CharField(default="pending", max_length=10)),
                (
                    "link",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="submissions",
                        to="club.moveslink",
                    ),
                ),
            ],
            options={
                "ordering": ["created", "id"],
            },
        ),
    ]
