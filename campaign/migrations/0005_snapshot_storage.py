"""Snapshots keep their map once (a CampaignMap per distinct map) and their events as what
changed from one snapshot to the next (`campaign.storage`); back again if reversed."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from campaign import storage


def _campaigns(snapshot_model: Any) -> list[int]:
    ids = snapshot_model.objects.order_by("campaign_id").values_list("campaign_id", flat=True)
    return list(ids.distinct())


def keep_apart(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    snapshot_model = apps.get_model("campaign", "Snapshot")
    map_model = apps.get_model("campaign", "CampaignMap")
    stored_maps: set[str] = set()
    for campaign_id in _campaigns(snapshot_model):
        newer_events: list[Any] | None = None
        rows = snapshot_model.objects.filter(campaign_id=campaign_id).order_by("-number")
        for row in rows.iterator(chunk_size=20):
            kept = storage.take_apart(row.data)
            row.state = kept.state
            row.map_id = None
            if kept.hexmap is not None:
                row.map_id = storage.map_digest(kept.hexmap)
                if row.map_id not in stored_maps:
                    map_model.objects.get_or_create(
                        digest=row.map_id, defaults={"data": kept.hexmap}
                    )
                    stored_maps.add(row.map_id)
            row.event_count = len(kept.events)
            if newer_events is None:
                row.events_shared, row.own_events = None, kept.events
            else:
                row.events_shared = storage.shared_events(kept.events, newer_events)
                row.own_events = kept.events[row.events_shared :]
            newer_events = kept.events
            row.save(update_fields=["state", "map", "event_count", "events_shared", "own_events"])


def put_back(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    snapshot_model = apps.get_model("campaign", "Snapshot")
    for campaign_id in _campaigns(snapshot_model):
        newer_events: list[Any] = []
        rows = snapshot_model.objects.filter(campaign_id=campaign_id).order_by("-number")
        for row in rows.select_related("map").iterator(chunk_size=20):
            shared = row.events_shared
            events = row.own_events if shared is None else newer_events[:shared] + row.own_events
            hexmap = row.map.data if row.map is not None else None
            row.data = storage.put_together(row.state, hexmap, events)
            newer_events = events
            row.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0004_notifications"),
    ]

    operations = [
        migrations.CreateModel(
            name="CampaignMap",
            fields=[
                ("digest", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("data", models.JSONField()),
            ],
        ),
        migrations.AlterField(
            model_name="snapshot",
            name="data",
            field=models.JSONField(null=True),
        ),
        migrations.AddField(
            model_name="snapshot",
            name="state",
            field=models.JSONField(
                null=True,
                help_text="The campaign file with null in the places of its map and events.",
            ),
        ),
        migrations.AddField(
            model_name="snapshot",
            name="map",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="snapshots",
                to="campaign.campaignmap",
            ),
        ),
        migrations.AddField(
            model_name="snapshot",
            name="events_shared",
            field=models.PositiveIntegerField(
                blank=True,
                null=True,
                help_text="How many first events it shares with the next snapshot; "
                "empty when own_events are all its events (the newest snapshot).",
            ),
        ),
        migrations.AddField(
            model_name="snapshot",
            name="own_events",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="snapshot",
            name="event_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(keep_apart, put_back, elidable=False),
        migrations.RemoveField(model_name="snapshot", name="data"),
        migrations.AlterField(
            model_name="snapshot",
            name="state",
            field=models.JSONField(
                help_text="The campaign file with null in the places of its map and events."
            ),
        ),
    ]
