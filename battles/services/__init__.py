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
result takes the attached lists.

A module by capability: what they share (common), the players' reports of a result
(results), what a side decides around its battles and when it plays (decisions), the
admin's desk (desk), battle reports and photographs (battle_reports), army lists
(lists). Callers import the module they use; the package re-exports nothing."""
