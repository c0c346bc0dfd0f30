# The day a member left the club (None while a member): off the current list, history kept.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0020_tournament_teams"),
    ]

    operations = [
        migrations.AddField(
            model_name="member",
            name="left",
            field=models.DateField(blank=True, null=True),
        ),
    ]
