"""The app's words for each kind of decision the campaign waits for, declared once and
free of Django: what a player is asked, what a missing one becomes at a deadline, the step
it opens, and the page (a URL name) where a player gives it. The pages, the notifications
and the dashboard all read them here; the engine's side of each kind (its `inputs` key and
shape) is campaign.rules.decisions, keyed by the same `PendingKind`."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from campaign.rules.state import PendingKind


@dataclass(frozen=True)
class KindWords:
    """`ask`: what a player reads ("give your orders"); `defaulted`: what a kingdom's
    missing decision becomes at a deadline (the rulings' defaults), said of one kingdom and
    of several, None for a kind no deadline answers; `opens`: the step's name when the
    campaign next waits for it; `page`: the URL name of the page where a player gives it."""

    ask: str
    defaulted: tuple[str, str] | None
    opens: str
    page: str


WORDS: Mapping[PendingKind, KindWords] = MappingProxyType(
    {
        PendingKind.RACE: KindWords(
            "choose your race",
            ("takes no race (Undeclared)", "take no race (Undeclared)"),
            "races",
            "campaign:setup",
        ),
        PendingKind.CAPITAL: KindWords(
            "choose your capital",
            (
                "founds its capital on the first free start tile",
                "found their capitals on the first free start tiles",
            ),
            "capitals",
            "campaign:setup",
        ),
        PendingKind.SETTLEMENTS: KindWords(
            "place your settlements",
            (
                "places its settlements on the first tiles around its capital",
                "place their settlements on the first tiles around their capitals",
            ),
            "settlements",
            "campaign:setup",
        ),
        PendingKind.STARTING_ARMY: KindWords(
            "place your first army",
            ("starts its army in its capital", "start their armies in their capitals"),
            "starting armies",
            "campaign:setup",
        ),
        PendingKind.ORDERS: KindWords(
            "give your orders",
            (
                "holds with every unit it has not ordered (Defend, Regroup, stay)",
                "hold with every unit they have not ordered (Defend, Regroup, stay)",
            ),
            "orders",
            "campaign:orders",
        ),
        PendingKind.BATTLE_CHOICE: KindWords(
            "choose your next battle",
            ("fights its battles in map order", "fight their battles in map order"),
            "battles",
            "battles:list",
        ),
        PendingKind.LAST_STAND: KindWords(
            "decide on a Last Stand",
            ("concedes (no Last Stand)", "concede (no Last Stand)"),
            "battles",
            "battles:list",
        ),
        # A tabletop result has no default: the admin decides a battle left unreported.
        PendingKind.BATTLE_RESULT: KindWords(
            "play your tabletop battle", None, "battles", "battles:list"
        ),
        PendingKind.RETREAT: KindWords(
            "choose where to retreat",
            ("retreats to the first tile open", "retreat to the first tiles open"),
            "retreats",
            "battles:list",
        ),
        PendingKind.TITHES: KindWords(
            "give your tithes", ("gives no tithes", "give no tithes"), "tithes", "campaign:winter"
        ),
        PendingKind.PURCHASES: KindWords(
            "make your winter purchases",
            ("buys nothing", "buy nothing"),
            "purchases",
            "campaign:winter",
        ),
        PendingKind.FEED: KindWords(
            "choose which armies go hungry",
            ("loses its newest armies to hunger", "lose their newest armies to hunger"),
            "hungry armies",
            "campaign:winter",
        ),
        PendingKind.SUCCESSION: KindWords(  # option succession (OB7)
            "choose the army your disputed heir disbands",
            (
                "disbands its most recently raised army",
                "disband their most recently raised armies",
            ),
            "succession",
            "campaign:winter",
        ),
        PendingKind.DEPLOY: KindWords(
            "deploy your armies",
            (
                "deploys its armies to the default places",
                "deploy their armies to the default places",
            ),
            "deployment",
            "campaign:winter",
        ),
    }
)


def in_order_of_play(kinds: Iterable[str]) -> list[PendingKind]:
    """These kinds as the campaign asks them, in its order of play."""
    given = set(kinds)
    return [kind for kind in WORDS if kind in given]


def defaulted(kind: str, how_many: int) -> str:
    """What a missing decision of this kind becomes at a deadline, said of one kingdom or
    of several."""
    words = WORDS[PendingKind(kind)].defaulted
    if words is None:
        return "waits for the admin's decision"
    return words[how_many > 1]
