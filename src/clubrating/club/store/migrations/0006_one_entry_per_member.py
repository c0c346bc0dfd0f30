"""One member is one name of a tournament: the constraint ``one_entry_per_member``.

Two ``link`` commands at once could give one member two names of one tournament
before the services checked under the club's lock. Such a database is checked
first, and the migration stops with one clear error naming each duplicate and
what to do, instead of the database's own unique-constraint failure.
"""

from typing import Any

from django.db import migrations, models
from django.db.models import Count

from clubrating.errors import Refused


def refuse_duplicates(apps: Any, schema_editor: Any) -> None:
    entry = apps.get_model("club", "Entry")
    twice = list(
        entry.objects.exclude(member=None)
        .values("tournament_id", "member_id")
        .annotate(names=Count("id"))
        .filter(names__gt=1)
        .order_by("tournament_id", "member_id")
    )
    if not twice:
        return
    found = []
    for row in twice[:5]:
        numbers = sorted(
            entry.objects.filter(
                tournament_id=row["tournament_id"], member_id=row["member_id"]
            ).values_list("number", flat=True)
        )
        found.append(
            f"tournament {row['tournament_id']}: member {row['member_id']} is numbers "
            f"{', '.join(map(str, numbers))}"
        )
    more = f" and {len(twice) - 5} more" if len(twice) > 5 else ""
    raise Refused(
        "this database links one member to two names of one tournament "
        f"({'; '.join(found)}{more}), which this version refuses. Nothing was changed. With the "
        "version you upgraded from, link each of those names to its own member (clubrating "
        "link TOURNAMENT NUMBER MEMBER, or --new NUMBER), then run this version again."
    )


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0005_distinct_members"),
    ]

    operations = [
        migrations.RunPython(refuse_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.UniqueConstraint(
                fields=("tournament", "member"), name="one_entry_per_member"
            ),
        ),
    ]
