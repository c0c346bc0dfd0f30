# The CPI rules each club's stored ledger was scored by (clubrating.cpi.version.SCORING_VERSION):
# a command's start compares them with the version's in one query and imports the ledger only
# for a club scored by other rules (docs/cpi.md, "A new version's rules"). Every existing club
# starts unknown (""): the first start of this version checks each club's ledger once.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0032_lineage"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="cpi_scored_with",
            field=models.CharField(blank=True, default="", max_length=16),
        ),
    ]
