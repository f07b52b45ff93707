"""Each snapshot's clock in a column of its own (a copy of its state's), filled for the
snapshots already stored."""

from django.db import migrations, models

BATCH = 500


def copy_clocks(apps, schema_editor):
    Snapshot = apps.get_model("campaign", "Snapshot")
    rows = Snapshot.objects.order_by("pk").values_list("pk", "state__clock")
    waiting = []
    for pk, clock in rows.iterator(chunk_size=BATCH):
        waiting.append(Snapshot(pk=pk, clock=clock or {}))
        if len(waiting) == BATCH:
            Snapshot.objects.bulk_update(waiting, ["clock"])
            waiting = []
    Snapshot.objects.bulk_update(waiting, ["clock"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0018_audit_place_renamed"),
    ]

    operations = [
        migrations.AddField(
            model_name="snapshot",
            name="clock",
            field=models.JSONField(
                default=dict,
                help_text="The file's clock, a copy of the state's: the pages that list the "
                "months read every snapshot's clock, and reading it out of the state reads "
                "the whole state.",
            ),
        ),
        migrations.RunPython(copy_clocks, migrations.RunPython.noop),
    ]
