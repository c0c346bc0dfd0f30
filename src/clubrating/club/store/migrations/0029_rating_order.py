"""The federation list's order: current ratings by list, rating descending, member."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0027_time_control_choices"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="currentrating",
            index=models.Index(fields=["rating_list", "-rating", "member"], name="rating_order"),
        ),
    ]
