"""What the campaign app announces to the apps that listen (battles, and the campaign's own
notifications: `campaign.apps` connects `notifications.on_snapshot_stored`), so that it
never imports them: `snapshot_stored` is sent inside the transaction that stores a new
snapshot, so what a listener writes commits with the snapshot or not at all. Its
arguments: `campaign` and `snapshot`. `campaign_full` likewise, when the last kingdom joins."""

from django.dispatch import Signal

snapshot_stored = Signal()
# Sent inside the transaction in which the last kingdom a campaign needs joins it: its
# admins may start it. Its argument: `campaign`.
campaign_full = Signal()
