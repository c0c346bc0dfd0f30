# A Keizer season's settings on its evening: the rules (top value, step, credits, rematch gap),
# whether each evening or the whole season is one rated tournament, the evening it continues.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0024_result_submissions"),
    ]

    operations = [
        migrations.AddField(
            model_name="evening",
            name="keizer",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
