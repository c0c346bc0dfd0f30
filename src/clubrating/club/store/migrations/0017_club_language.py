# A club setting: the language of its pages for a visitor who chose none and whose browser asks
# for none the catalogue has (web/language.py); "en" for every club until its arbiter changes it.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0016_moves_links_per_player"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="language",
            field=models.CharField(default="en", max_length=8),
        ),
    ]
