"""`manage.py simulate --kingdoms N [--map NAME | --size HEXES] [--seed S]
[--battles simple|tabletop] [--orders sealed|cycle] [--out FILE]`: a whole campaign played
by bot players through the engine's entry point, and its final standings.

The same arguments give the same campaign, byte for byte (`--out`); only the seconds in
the summary line differ. Bad arguments exit with status 2. No database is touched."""

import json
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.maps import BUILTIN_MAPS, load_builtin_map
from campaign.rules.hexmap import HexMap
from campaign.rules.mapgen import MAX_KINGDOMS, MIN_KINGDOMS, generate_map
from campaign.rules.simulation import BATTLES, ORDERS, default_size, play_campaign

REFUSED = 2
COLUMNS = ("rank", "kingdom", "might", "armies", "cities", "fortresses", "villages")


class Command(BaseCommand):
    help = "Play a whole campaign with bot players and print the final standings."
    requires_system_checks = []  # noqa: RUF012  (it needs no database, key or server)

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--kingdoms", type=int, required=True, metavar="N", help="how many kingdoms, 2 to 8"
        )
        where = parser.add_mutually_exclusive_group()
        where.add_argument(
            "--map", metavar="NAME", help=f"a built-in map: {', '.join(sorted(BUILTIN_MAPS))}"
        )
        where.add_argument(
            "--size",
            type=int,
            metavar="HEXES",
            help="a generated map of about this many hexes (default: sized for the kingdoms)",
        )
        parser.add_argument("--seed", type=int, default=1, help="the seed of everything (1)")
        parser.add_argument(
            "--battles",
            choices=BATTLES,
            default=BATTLES[0],
            help="pitched battles played on the tabletop (results drawn at random), or simple",
        )
        parser.add_argument(
            "--orders", choices=ORDERS, default=ORDERS[0], help="how orders are given (ruling O1)"
        )
        parser.add_argument("--out", metavar="FILE", help="write the final campaign file here")

    def handle(self, *args: Any, **options: Any) -> None:
        kingdoms: int = options["kingdoms"]
        if not MIN_KINGDOMS <= kingdoms <= MAX_KINGDOMS:
            _refuse(f"--kingdoms must be {MIN_KINGDOMS} to {MAX_KINGDOMS}, not {kingdoms}.")
        hexmap, described = _map(kingdoms, options["map"], options["size"], options["seed"])
        start = time.perf_counter()
        final = play_campaign(
            kingdoms, options["seed"], hexmap, options["battles"], options["orders"]
        )
        seconds = time.perf_counter() - start
        if options["out"]:
            _write(options["out"], final)
        self.stdout.write(
            f"{kingdoms} kingdoms on {described}, seed {options['seed']}, "
            f"{options['battles']} battles, {options['orders']} orders\n"
        )
        self.stdout.write(standings(final))
        self.stdout.write(summary(final, seconds))


def _refuse(message: str) -> None:
    raise CommandError(message, returncode=REFUSED)


def _map(kingdoms: int, name: str | None, size: int | None, seed: int) -> tuple[HexMap, str]:
    """The map and a few words about it: a built-in map, or one generated from the seed."""
    if name is not None:
        try:
            hexmap = load_builtin_map(name)
        except KeyError as error:
            raise CommandError(error.args[0], returncode=REFUSED) from None
        meta = BUILTIN_MAPS[name]
        if not meta.min_kingdoms <= kingdoms <= meta.max_kingdoms:
            _refuse(
                f"{meta.title} ({name}) is a map for {meta.min_kingdoms} to "
                f"{meta.max_kingdoms} kingdoms, not {kingdoms}."
            )
        return hexmap, f"{meta.title} ({len(hexmap.tiles)} hexes)"
    if size is not None and size < 1:
        _refuse(f"--size must be a number of hexes, not {size}.")
    try:
        hexmap = generate_map(kingdoms, seed, size or default_size(kingdoms))
    except ValueError as error:
        raise CommandError(str(error), returncode=REFUSED) from None
    return hexmap, f"a generated map of {len(hexmap.tiles)} hexes"


def _write(name: str, final: dict[str, Any]) -> None:
    """The final file, formatted as `adjudicate` prints it."""
    try:
        Path(name).write_text(json.dumps(final, indent=2, ensure_ascii=False) + "\n", "utf-8")
    except OSError as error:
        raise CommandError(f"Can't write {name}: {error.strerror}.", returncode=REFUSED) from None


def standings(final: dict[str, Any]) -> str:
    """The final scores as a table, one kingdom a line, best first."""
    names = {k["id"]: _kingdom_name(k) for k in final["kingdoms"]}
    rows = [
        [str(s["rank"]), names[s["kingdom"]], *(str(s[c]) for c in COLUMNS[2:])]
        for s in final["scores"]
    ]
    widths = [max(len(row[i]) for row in [list(COLUMNS), *rows]) for i in range(len(COLUMNS))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i == 1 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(list(COLUMNS)), *(line(row) for row in rows)]) + "\n"


def _kingdom_name(kingdom: dict[str, Any]) -> str:
    name = f"{kingdom['name']} ({kingdom['race']})"
    if kingdom["eliminated"] is not None:
        name += f", eliminated in year {kingdom['eliminated']}"
    return name


def summary(final: dict[str, Any], seconds: float) -> str:
    return (
        f"{final['clock']['year']} years, {len(final['battles'])} battles fought, "
        f"{len(final['events'])} events, {seconds:.2f} seconds\n"
    )
