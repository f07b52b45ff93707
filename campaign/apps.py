from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        import campaign.tasks  # noqa: F401  registers the tasks the services queue by name
        from campaign.models import Snapshot
        from campaign.notifications import (
            on_campaign_full,
            on_snapshot_created,
            on_snapshot_stored,
        )
        from campaign.signals import campaign_full, snapshot_stored

        post_save.connect(on_snapshot_created, sender=Snapshot, dispatch_uid="campaign.created")
        snapshot_stored.connect(on_snapshot_stored, dispatch_uid="campaign.notifications")
        campaign_full.connect(on_campaign_full, dispatch_uid="campaign.full")
