# A result a player sends from their phone through the moves link, kept apart from the board
# until White's and Black's agree or the arbiter enters the result.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0021_member_left"),
    ]

    operations = [
        migrations.AlterField(
            model_name="movessubmission",
            name="reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("both-sides", "White's and Black's moves agreed"),
                    ("with-result", "White's and Black's moves agreed; stored with the result"),
                    ("arbiter", "picked by the arbiter"),
                    ("other-accepted", "another submission was accepted"),
                    (
                        "pairing-changed",
                        "the pairing changed: its sender no longer plays this game",
                    ),
                    ("results-agreed", "White's and Black's results agreed: entered"),
                    ("result-entered", "the game's result was entered"),
                ],
                max_length=16,
            ),
        ),
        migrations.CreateModel(
            name="ResultSubmission",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("result", models.CharField(max_length=7)),
                ("created", models.DateTimeField()),
                ("state", models.CharField(default="pending", max_length=10)),
                ("side", models.CharField(blank=True, max_length=5)),
                (
                    "reason",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("both-sides", "White's and Black's moves agreed"),
                            (
                                "with-result",
                                "White's and Black's moves agreed; stored with the result",
                            ),
                            ("arbiter", "picked by the arbiter"),
                            ("other-accepted", "another submission was accepted"),
                            (
                                "pairing-changed",
                                "the pairing changed: its sender no longer plays this game",
                            ),
                            ("results-agreed", "White's and Black's results agreed: entered"),
                            ("result-entered", "the game's result was entered"),
                        ],
                        max_length=16,
                    ),
                ),
                ("device", models.CharField(blank=True, max_length=32)),
                (
                    "link",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="results",
                        to="club.moveslink",
                    ),
                ),
            ],
            options={
                "ordering": ["created", "id"],
            },
        ),
    ]
