# A team event's teams as its file names them (TRF 013 lines): each team's name and its players'
# start numbers in board order, for the team table, each player's team and the TRF export.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0019_moves_devices"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="teams",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
