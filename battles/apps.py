from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from battles.demo import on_demo_made
        from battles.models import BattlePhoto
        from battles.photos import forget_when_deleted
        from battles.sync import results_set_aside, sync_battles
        from battles.transfer import exported, importing
        from campaign.signals import (
            campaign_exporting,
            campaign_importing,
            decisions_refused,
            demo_made,
            snapshot_stored,
        )

        snapshot_stored.connect(sync_battles, dispatch_uid="battles.sync")
        decisions_refused.connect(results_set_aside, dispatch_uid="battles.results_set_aside")
        demo_made.connect(on_demo_made, dispatch_uid="battles.demo")
        campaign_exporting.connect(exported, dispatch_uid="battles.transfer.exported")
        campaign_importing.connect(importing, dispatch_uid="battles.transfer.importing")
        post_delete.connect(
            forget_when_deleted, sender=BattlePhoto, dispatch_uid="battles.photo_files"
        )
