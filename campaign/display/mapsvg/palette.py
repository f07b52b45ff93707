"""The colours the map's layers share."""

OUTLINE = "#222222"
NEUTRAL = "#9a9a9a"  # a kingdom without a colour, or a terrain without a fill
