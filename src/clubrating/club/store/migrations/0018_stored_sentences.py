# The audit entry's summary and the rebuild's reason kept as a sentence to translate (its English
# template and values, club/audit_text.stored) beside the English line; rows written before have
# none and are shown in English as stored.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0017_club_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="summary_text",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="rebuildlog",
            name="reason_text",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
