"""Option `wizards` (campaign-options.md, OA8): the campaign-wide pool of magical
artefacts. Each exists once; it is free, or held by a kingdom, on one of its armies or at
its capital. The pool is filled from Kings of War's list (kings-of-war.md, in that table's
order: points, then name) unless the campaign's file names its own."""

from dataclasses import replace

from campaign.rules.state import Artefact, Campaign, Holder
from campaign.rules.turn import Turn

LOWEST, HIGHEST = 5, 50  # an artefact's points (OA8)

# Kings of War's forty magical artefacts: (name, points), in the rulebook's order.
ARTEFACTS: tuple[tuple[str, int], ...] = (
    ("Blade of Slashing", 5),
    ("Fire-Oil", 5),
    ("Kevinar's Flying Hammer", 5),
    ("Mace of Crushing", 5),
    ("War-bow of Kaba", 5),
    ("Dwarven Ale", 10),
    ("Myrddin's Amulet of the Fire-heart", 10),
    ("Piercing Arrow", 10),
    ("Quicksilver Rapier", 10),
    ("Brew of Courage", 15),
    ("Brew of Haste", 15),
    ("Pipes of Terror", 15),
    ("Blade of the Beast Slayer", 20),
    ("Darklord's Onyx Ring", 20),
    ("Helm of Confidence", 20),
    ("Inspiring Talisman", 20),
    ("Maccwar's Potion of the Caterpillar", 20),
    ("Blessing of the Gods", 25),
    ("Chant of Hate", 25),
    ("Kaba's Holy Hand Grenades", 25),
    ("Scarletmaw's Fenulian Amulet", 25),
    ("Boots of Levitation", 30),
    ("Brew of Strength", 30),
    ("Crepognon's Scrying Gem of Zellak", 30),
    ("Diadem of Dragon-kind", 30),
    ("Healing Charm", 30),
    ("Heart-seeking Chant", 30),
    ("Mreb's Grimoire of Unspeakable Darkness", 30),
    ("The Boomstick", 30),
    ("Boots of the Seven Leagues", 35),
    ("Ensorcelled Armour", 35),
    ("Jar of the Four Winds", 35),
    ("Medallion of Life", 35),
    ("Orcsbain's Amulet of Thorns", 35),
    ("The Fog", 35),
    ("Wine of Elvenkind", 40),
    ("Wings of Honeymaze", 40),
    ("Brew of Keen-eyeness", 45),
    ("Brew of Sharpness", 45),
    ("Crystal Pendant of Retribution", 50),
)


def kings_of_war_pool() -> tuple[Artefact, ...]:
    """The forty, all free: the pool of a campaign whose file names none (OA8)."""
    return tuple(Artefact(name, points) for name, points in ARTEFACTS)


def left_behind(campaign: Campaign, turn: Turn) -> Campaign:
    """OA10: an army removed other than by a battle's capture (recalled, starved, disbanded)
    leaves its artefacts at its kingdom's capital, or, with none, to the pool. Checked after
    every step of the engine, so no artefact is ever held by an army that is gone."""
    if not any(a.holder and a.holder.army for a in campaign.artefacts):
        return campaign
    pool = []
    for artefact in campaign.artefacts:
        holder = artefact.holder
        if holder is not None and holder.army is not None and holder.army not in campaign.armies:
            kept = campaign.kingdom(holder.kingdom).capital is not None
            artefact = replace(artefact, holder=Holder(holder.kingdom) if kept else None)
            turn.record(
                "artefact-returned",
                artefact=artefact.name,
                kingdom=holder.kingdom,
                army=holder.army,
                to="capital" if kept else "pool",
            )
        pool.append(artefact)
    return replace(campaign, artefacts=tuple(pool))
