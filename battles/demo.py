"""The battles' part of the demo campaigns (`seed_demo`, issue 28): in `demo`, the winner
of the battle fought at the tabletop has written its report, with a photograph of the
table; in `demo-ended`, the winners of the pitched battles have, so the chronicle and the
end page show them. The photograph is drawn here, with Pillow: a table of green baize,
a hill and a wood, and each side's regiments in its kingdom's colour."""

import io
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from accounts.models import User
from battles.models import Battle
from battles.services import battle_reports
from campaign.models import Campaign

REPORT = (
    "{winner} held the centre with its infantry while the cavalry swept round the wood on "
    "the left flank. {loser}'s charge broke on the hill in turn four, and by turn six the "
    "field was ours.\n\nThe photograph shows the table before the first turn."
)
WIDTH, HEIGHT = 1200, 800


def on_demo_made(*, campaign: Campaign, users: Mapping[str, User], **_: Any) -> None:
    """Write the demo's battle reports: in `demo` and `demo-battle`, the winner's of the
    battle played at the tabletop, with a photograph; in `demo-ended`, each pitched battle's
    winner's, the first with a photograph."""
    if campaign.slug not in ("demo", "demo-battle", "demo-ended"):
        return
    won = Battle.objects.filter(
        campaign=campaign, kind="pitched", status=Battle.Status.RESOLVED
    ).exclude(winner="")
    players = {m.kingdom: m for m in campaign.memberships.exclude(kingdom="")}
    for n, battle in enumerate(won.order_by("number")):
        winner = players[battle.winner]
        loser = players[battle.opponent_of(battle.winner)]
        user = users[winner.user.get_username()]
        text = REPORT.format(winner=winner.kingdom_name, loser=loser.kingdom_name)
        battle_reports.battle_report_write(battle=battle, user=user, text=text)
        if n == 0:
            picture = table_photograph(winner.colour, loser.colour)
            battle_reports.battle_photo_add(
                battle=battle, user=user, upload=io.BytesIO(picture), size=len(picture)
            )


def table_photograph(ours: str, theirs: str) -> bytes:
    """A JPEG of a Kings of War table seen from above, drawn: baize, a hill, a wood, and
    each side's regiments in its colour facing each other."""
    image = Image.new("RGB", (WIDTH, HEIGHT), "#3f6b35")
    draw = ImageDraw.Draw(image)
    draw.ellipse((430, 280, 770, 520), fill="#7a6a3a", outline="#5a4a22", width=6)  # the hill
    for x, y in ((170, 330), (230, 420), (150, 470), (260, 330)):  # the wood
        draw.ellipse((x - 55, y - 55, x + 55, y + 55), fill="#1f3d1a")
    for row, colour in ((110, ours or "#2e7d32"), (HEIGHT - 170, theirs or "#1565c0")):
        for x in range(240, 960, 160):
            draw.rectangle((x, row, x + 120, row + 60), fill=colour, outline="#111111", width=4)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()
