# The background jobs moved into club/jobs/: the dotted names the database backend stored for
# queued and finished jobs (the task, the exception of a lost job) follow them, so that a job
# queued before an upgrade still runs and a failed one still reads.

from typing import Any

from django.apps.registry import Apps
from django.db import migrations
from django.db.models import Value
from django.db.models.functions import Concat, Substr

MOVED = {
    "clubrating.club.tasks.": "clubrating.club.jobs.tasks.",
    "clubrating.club.rq_jobs.": "clubrating.club.jobs.rq_workers.",
    "clubrating.club.leases.": "clubrating.club.jobs.leases.",
    "clubrating.club.analysis_jobs.": "clubrating.club.jobs.analysis.",
}
FIELDS = ("task_path", "exception_class_path")


def rename(apps: Apps, moves: dict[str, str]) -> None:
    """Rewrite every stored dotted name that starts with an old module's prefix."""
    results = apps.get_model("django_tasks_database", "DBTaskResult")
    for field in FIELDS:
        for old, new in moves.items():
            rest = Substr(field, len(old) + 1)
            results.objects.filter(**{f"{field}__startswith": old}).update(
                **{field: Concat(Value(new), rest)}
            )


def forwards(apps: Apps, schema_editor: Any) -> None:
    rename(apps, MOVED)


def backwards(apps: Apps, schema_editor: Any) -> None:
    rename(apps, {new: old for old, new in MOVED.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0011_initial_list"),
        ("django_tasks_database", "0012_add_separate_exception_fields"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
