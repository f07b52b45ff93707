from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """What the campaign's people are told, by e-mail and on Discord: listens to what the
    campaign announces (`campaign.signals`) and writes the outbox in the same transaction."""

    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        import notifications.tasks  # noqa: F401  registers the tasks the outbox queues by name
        from campaign.signals import (
            campaign_full,
            decisions_refused,
            invitations_made,
            kingdom_offered,
            letter_written,
            snapshot_stored,
        )
        from notifications import events

        snapshot_stored.connect(events.on_snapshot_stored, dispatch_uid="notifications.news")
        campaign_full.connect(events.on_campaign_full, dispatch_uid="notifications.full")
        invitations_made.connect(
            events.on_invitations_made, dispatch_uid="notifications.invitations"
        )
        kingdom_offered.connect(events.on_kingdom_offered, dispatch_uid="notifications.offered")
        decisions_refused.connect(events.on_refused, dispatch_uid="notifications.refused")
        letter_written.connect(events.on_letter_written, dispatch_uid="notifications.letter")
