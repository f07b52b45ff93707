from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles"

    def ready(self) -> None:
        from battles.sync import sync_battles
        from campaign.signals import snapshot_stored

        snapshot_stored.connect(sync_battles, dispatch_uid="battles.sync")
