"""The CPI's fitted presets: a club whose arbiter changed CPI weights before presets
existed keeps the settings it chose, on the specification's base they were chosen against.

A club that never changed a weight has no override and starts from the new default preset
(fitted on real games): its ledger is re-scored by the next rebuild of its history (any write,
or ``clubrating rebuild``), as after any change of the scoring.
"""

from typing import Any

from django.db import migrations


def keep_customised_settings(apps: Any, schema_editor: Any) -> None:
    club = apps.get_model("club", "Club")
    for row in club.objects.all():
        weights = dict(row.cpi_weights or {})
        if weights and "preset" not in weights:
            row.cpi_weights = {"preset": "spec", **weights}
            row.save(update_fields=["cpi_weights"])


class Migration(migrations.Migration):
    dependencies = [("club", "0006_one_entry_per_member")]
    operations = [migrations.RunPython(keep_customised_settings, migrations.RunPython.noop)]
