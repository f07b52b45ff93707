"""The campaign file's format number and its top-level fields (campaign-file.md); its
values are read by `campaign.rules.filevalues.Json`."""

FORMAT = 1

TOP_LEVEL = (
    "format",
    "name",
    "options",
    "map",
    "clock",
    "player_order",
    "kingdoms",
    "tiles",
    "armies",
    "ships",
    "inputs",
    "dice",
    "dice_rolled",
    "battle_turn",
    "pending",
    "battles",
    "events",
    "scores",
)
