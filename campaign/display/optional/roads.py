"""Option roads (OW9 to OW11), as the app shows it so far: a road built, in the report, the
chronicle and the kingdom's ledger, and the trade it brings to a gathering. Its map layer,
the winter page's road purchase by two taps and the orders page's march come with its
pages (issue 38): until then the option is not offered."""

from collections.abc import Mapping

from campaign.display.describing import Describer, Event, Line, Wording
from campaign.rules.optional.roads import TRADE
from campaign.rules.vocabulary import EventType

GAIN_NAMES: Mapping[str, str] = {TRADE: "trade along the roads"}


def _road_built(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} built a road from {d.place(e['hex'])} to {d.place(e['to'])}.")


def _road_built_own(d: Describer, e: Event) -> str:
    return f"A road is built from {d.place(e['hex'])} to {d.place(e['to'])} (1 gold)."


EVENT_WORDINGS: Mapping[EventType, Wording] = {
    EventType.ROAD_BUILT: Wording(_road_built, own=_road_built_own),
}
