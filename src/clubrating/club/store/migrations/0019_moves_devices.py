# The device behind a moves link and a submission: a keyed hash of a random id the phone page's
# cookie carries (club/services/moves_links.py), never an address or a browser's name. Two
# submissions agree only when two devices sent them; links and submissions made before have
# none, and what they bring waits for the arbiter.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0018_stored_sentences"),
    ]

    operations = [
        migrations.AddField(
            model_name="moveslink",
            name="device",
            field=models.CharField(blank=True, max_length=32),
        ),
        migrations.AddField(
            model_name="movessubmission",
            name="device",
            field=models.CharField(blank=True, max_length=32),
        ),
    ]
