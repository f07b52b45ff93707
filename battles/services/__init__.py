"""Every write about a battle: a player reports the tabletop result, the opponent confirms
or disputes it, the reporter may withdraw it; a side concedes or makes a Last Stand
(ruling B4); the admin decides a result, settles it as a simple battle (B6, B7) or extends
its deadline. Who may say what is checked here; what reaches the engine goes through the
campaign's services (`battle_entry_save`, `submission_save`), which check it with the
engine and queue the advance. A refusal is a `ServiceError` and changes nothing. A report
and a dispute write their notifications (`notifications.events`) in their transaction.

Once a battle is resolved, each side's player writes its battle report and adds or removes
its photographs (`battles.photos` develops and keeps them); the admin may remove a
photograph, and hide a report or show it again, audited.

Each kingdom's player keeps a book of army lists in the campaign, and before a battle is
played attaches one of them to it (a copy), of at most its side's points; a report of the
result takes the attached lists."""

from battles.services.battle_reports import (
    battle_photo_add,
    battle_photo_remove,
    battle_report_hide,
    battle_report_write,
)
from battles.services.common import card_url, side_of
from battles.services.decisions import (
    battle_accept_time,
    battle_choose,
    battle_concede,
    battle_last_stand,
    battle_propose_time,
    battle_retreat,
)
from battles.services.desk import battle_decide, battle_extend, battle_resolve_simply
from battles.services.lists import (
    army_list_add,
    army_list_delete,
    army_list_edit,
    battle_list_attach,
    battle_list_withdraw,
)
from battles.services.results import battle_confirm, battle_dispute, battle_report, battle_withdraw

__all__ = [
    "army_list_add",
    "army_list_delete",
    "army_list_edit",
    "battle_accept_time",
    "battle_choose",
    "battle_concede",
    "battle_confirm",
    "battle_decide",
    "battle_dispute",
    "battle_extend",
    "battle_last_stand",
    "battle_list_attach",
    "battle_list_withdraw",
    "battle_photo_add",
    "battle_photo_remove",
    "battle_propose_time",
    "battle_report",
    "battle_report_hide",
    "battle_report_write",
    "battle_resolve_simply",
    "battle_retreat",
    "battle_withdraw",
    "card_url",
    "side_of",
]
