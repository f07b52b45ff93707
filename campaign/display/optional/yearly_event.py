"""Option yearly_event (OW15), as the app shows it: the year's die in the report, the
chronicle and every kingdom's winter ledger (first, as it is rolled first), a revolt's
razed settlements, and the year's gains in each kingdom's gathering. Nothing on the map of
its own: a settlement razed in a revolt is drawn as any razed tile."""

from collections.abc import Mapping

from campaign.display.describing import Describer, Event, Line, Roll, Wording
from campaign.rules.optional.yearly_event import BY_DIE, YearEvent
from campaign.rules.vocabulary import EventType

# What the year's die brings, as every page says it.
YEAR_WORDS: Mapping[str, str] = {
    YearEvent.FROST: "a hard frost: every kingdom gathers 1 food less this winter",
    YearEvent.REVOLT: (
        "a revolt: every settlement cut off from its kingdom's capital rises and is razed"
    ),
    YearEvent.QUIET: "a quiet year",
    YearEvent.HARVEST: "a good harvest: every kingdom gathers 1 food more",
    YearEvent.FAIR: "a trade fair: every kingdom gathers 1 gold more",
}

# The gains the year brings to a kingdom's gathering (`gathered` events' `gains`), by source.
GAIN_NAMES: Mapping[str, str] = {
    YearEvent.FROST: "the hard frost",
    YearEvent.HARVEST: "the good harvest",
    YearEvent.FAIR: "the trade fair",
}


def _year(e: Event) -> str:
    return YEAR_WORDS.get(str(e.get("event")), "an event")


def _yearly_event(d: Describer, e: Event) -> Line:
    die = e["dice"][0]
    return Line(f"The year's event: {_year(e)}.", (Roll(die, f"the year's die: {BY_DIE[die]}"),))


def _yearly_event_own(d: Describer, e: Event) -> str:
    return f"The year's die rolled {e['dice'][0]}: {_year(e)}."


def _revolted(d: Describer, e: Event) -> Line:
    return Line(
        f"{d.place(e['hex'])} rose against {d.k(e['kingdom'])}: its {e['settlement']} was "
        "razed in the revolt."
    )


def _revolted_own(d: Describer, e: Event) -> str:
    return f"{d.place(e['hex'])}, cut off from the capital, rose: its {e['settlement']} was razed."


EVENT_WORDINGS: Mapping[EventType, Wording] = {
    EventType.YEARLY_EVENT: Wording(_yearly_event, own=_yearly_event_own, everyone=True),
    EventType.REVOLTED: Wording(_revolted, own=_revolted_own),
}
