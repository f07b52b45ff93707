"""Turning a campaign file into what people read: the map (mapsvg) and the month's report
(report). Pure presentation: nothing here writes."""
