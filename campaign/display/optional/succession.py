"""Option succession (OB5 to OB7), as the app shows it so far: each ruler's die, a death
and its heir with their dice, a civil war's razed settlement, in the report, the chronicle
and the kingdom's ledger. The winter page's choice of the army to disband comes with its
pages (issue 39): until then the option is not offered. Nothing on the map of its own: a
settlement razed in a civil war is drawn as any razed tile."""

from collections.abc import Mapping

from campaign.display.describing import Describer, Event, Line, Roll, Wording
from campaign.gazetteer import possessive
from campaign.rules.optional.succession import CIVIL_WAR, DISPUTED, PEACEFUL
from campaign.rules.vocabulary import EventType

HEIR_WORDS: Mapping[str, str] = {
    PEACEFUL: "the heir takes the crown in peace",
    DISPUTED: "the heir's claim is disputed: an army is disbanded",
    CIVIL_WAR: "civil war: an army is disbanded and the farthest settlement razed",
}


def _lived(d: Describer, e: Event) -> Line:
    die = e["dice"][0]
    return Line(
        f"{possessive(d.k(e['kingdom']))} ruler lives on: reign {e['reign']}.",
        (Roll(die, "the ruler's die: lives"),),
    )


def _died(d: Describer, e: Event) -> Line:
    death, heir = e["dice"]
    words = HEIR_WORDS.get(str(e.get("heir")), "")
    return Line(
        f"{possessive(d.k(e['kingdom']))} ruler died after a reign of {e['reign']}: {words}.",
        (Roll(death, "the ruler's die: dies"), Roll(heir, f"the heir's die: {words}")),
    )


def _died_own(d: Describer, e: Event) -> str:
    return (
        f"The ruler died after a reign of {e['reign']}: {HEIR_WORDS.get(str(e.get('heir')), '')}."
    )


def _razed(d: Describer, e: Event) -> Line:
    return Line(
        f"In {possessive(d.k(e['kingdom']))} civil war the {e['settlement']} of {d.place(e['hex'])} was razed."
    )


def _razed_own(d: Describer, e: Event) -> str:
    return f"In the civil war the {e['settlement']} of {d.place(e['hex'])} was razed."


EVENT_WORDINGS: Mapping[EventType, Wording] = {
    EventType.RULER_LIVED: Wording(_lived),
    EventType.RULER_DIED: Wording(_died, own=_died_own),
    EventType.CIVIL_WAR_RAZED: Wording(_razed, own=_razed_own),
}
