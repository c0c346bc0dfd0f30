# The scoring key under which a stored analysis was found too short to score (shorter than the
# settings' min_plies): such a game has no ledger row, and this remembers it, so that a rebuild
# with nothing changed does not score it again (docs/cpi.md, "The ledger's rebuild").

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0025_evening_keizer"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameanalysis",
            name="unscored_with",
            field=models.CharField(blank=True, default="", max_length=16),
        ),
    ]
