# Moves links one per player: the player a link was issued to and the colour printed on its slip
# (links made before have neither: either side), the side a submission came from, and why it
# was accepted or set aside.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0015_moves_links"),
    ]

    operations = [
        migrations.AddField(
            model_name="moveslink",
            name="colour",
            field=models.CharField(blank=True, max_length=5),
        ),
        migrations.AddField(
            model_name="moveslink",
            name="player",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="club.entry",
            ),
        ),
        migrations.AddField(
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
                ],
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="movessubmission",
            name="side",
            field=models.CharField(blank=True, max_length=5),
        ),
    ]
