from django.apps import AppConfig


class CampaignConfig(AppConfig):
    """The campaigns. It listens to nobody: it announces (`campaign.signals`), and the apps
    that listen (`battles`, `notifications`) connect their receivers in their own `ready`."""

    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        import campaign.tasks  # noqa: F401  registers the tasks the services queue by name
