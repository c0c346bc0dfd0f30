# An evening is paired as a Swiss (as before) or by the Berger tables of a round robin, single or
# double (tournament/roundrobin.py).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0013_club_inactive_months"),
    ]

    operations = [
        migrations.AddField(
            model_name="evening",
            name="system",
            field=models.CharField(default="swiss", max_length=20),
        ),
    ]
