"""Issue 35: every decision is judged by the engine when it is given, and nothing a player
or the admin gives can stop a campaign. The whole campaign of test_whole_campaign is played
again; before each decision its player (or the admin, for a tabletop result) first tries
one of the same shape that the rules refuse, as a page could send it: it is refused in
words, and nothing is kept. The campaign then plays on to its end without a pause."""

import random
from typing import Any

import pytest

from campaign.models import AuditEntry, Campaign, Submission
from campaign.rules import decisions
from campaign.rules.hexmap import neighbours
from campaign.services import battle_entries, common, submissions
from tests.campaign.services.test_whole_campaign import MAX_STEPS, OPTIONS_OWN, SEED, Table, seat

pytestmark = pytest.mark.django_db

type Json = dict[str, Any]

# The kinds whose every choice of the right shape the rules take: a race is any name the
# player gives (ruling S1); a purchase or a gift not possible at its moment is skipped and
# told, not refused (rulings W4, W5).
NOTHING_TO_REFUSE = {"races", "purchases"}


def far_tile(data: Json, kingdom: str) -> list[int]:
    """A land tile of the map two steps or more from anything of the kingdom's."""
    near = {tuple(t["hex"]) for t in data["tiles"] if t["owner"] == kingdom}
    near |= {tuple(u["hex"]) for u in (*data["armies"], *data["ships"]) if u["kingdom"] == kingdom}
    near |= {n for h in list(near) for n in neighbours(h)}
    return next(
        t["hex"]
        for t in data["map"]["tiles"]
        if t["terrain"] not in ("ocean", "marsh") and tuple(t["hex"]) not in near
    )


def wrong(kind: str, data: Json, kingdom: str, legal: Any) -> Any:
    """A decision of `kind` for `kingdom`, of the shape its page sends, that the rules
    refuse: a tile far from the kingdom where the rules want one beside it or its own."""
    far = far_tile(data, kingdom)
    own = [a["id"] for a in data["armies"] if a["kingdom"] == kingdom]
    match kind:
        case "capitals":
            return far
        case "settlements":
            return {**legal, "city": far}
        case "starting_armies":
            return far
        case "orders":
            unit = legal[0]["unit"]
            return [{"unit": unit, "order": "move", "to": far}, *legal[1:]]
        case "battle_choices":
            return [far]
        case "battles":
            return [{**legal[0], "hex": far}]
        case "retreats":
            return dict.fromkeys(legal, far)
        case "tithes":
            return [{"to": kingdom, "gold": 1, "food": 0}]
        case "feed":
            others = [a["id"] for a in data["armies"] if a["kingdom"] != kingdom]
            return {"disband": others[:1]}
        case "deploy":
            return [{"army": own[0], "hex": far}]
    return None


class Tempted(Table):
    """The table, whose players and admin each first give a decision the rules refuse."""

    honestly: Any  # the table's own way to call a service

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.tempted: set[str] = set()

    def submit(self, given: Json) -> None:
        kind = given["kind"]
        if kind == "orders" and not given["payload"]:
            return  # a kingdom with no unit to order: nothing to spoil
        data = self.newest().data
        kingdom = common.kingdom_of(self.campaign, given["user"])
        spoiled = wrong(kind, data, kingdom, given["payload"])
        if spoiled is None:
            return
        before = list(Submission.objects.values_list("pk", "kind", "payload", "ready"))
        with pytest.raises(common.ServiceError) as refused:
            self.honestly(submissions.submission_save, campaign=self.campaign, kind=kind,
                          user=given["user"], payload=spoiled)  # fmt: skip
        assert refused.value.message, kind
        assert "Traceback" not in refused.value.message
        assert list(Submission.objects.values_list("pk", "kind", "payload", "ready")) == before
        self.tempted.add(kind)

    def play_step(self, rng: random.Random) -> None:
        real_run = self.honestly = self.run

        def tempting(service: Any, **kwargs: Any) -> Any:
            if service is submissions.submission_save:
                self.submit(kwargs)
            elif service is battle_entries.battle_entry_save:
                self.settle_wrongly(kwargs["entry"])
            return real_run(service, **kwargs)

        self.run = tempting
        try:
            super().play_step(rng)
        finally:
            self.run = real_run

    def settle_wrongly(self, entry: Json) -> None:
        """The admin records a result for a battle elsewhere, then a winner who did not
        fight it: both refused."""
        far = far_tile(self.newest().data, "")
        for spoiled in ({**entry, "hex": far}, {**entry, "result": "win", "winner": "nobody"}):
            with pytest.raises(common.ServiceError):
                self.honestly(battle_entries.battle_entry_save, campaign=self.campaign,
                              actor=self.admin, entry=spoiled)  # fmt: skip
        self.tempted.add("results")


def test_every_decision_the_rules_refuse_is_refused_as_it_is_given_and_nothing_pauses(run):
    table = seat(Tempted, run)
    assert isinstance(table, Tempted)
    rng = random.Random(SEED)
    for _ in range(MAX_STEPS):
        if table.newest().data["clock"]["season"] == "ended":
            break
        table.play_step(rng)
    campaign = table.campaign
    campaign.refresh_from_db()

    assert campaign.status == Campaign.Status.ENDED
    assert table.tempted == (decisions.ANSWER_KEYS - NOTHING_TO_REFUSE - OPTIONS_OWN) | {"results"}
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.ADVANCE_REFUSED).exists()
