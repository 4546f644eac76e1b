"""Write the MILA game files of this folder: games played by MILA's own engine (the
`diplomacy` package) on its variant maps, with random orders drawn from the orders MILA
offers, so that `dipsat replay` can be checked against an engine's own record on other
boards.  Run from the repository root: python tests/data/games/variants/generate.py"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from diplomacy import Game
from diplomacy.utils.export import to_saved_game_format

HERE = Path(__file__).parent
GAMES = {  # map -> phases played
    "pure": 60,
    "ancmed": 40,
    "standard_france_austria": 40,
    "modern": 20,
    "ancmed_age_of_empires": 20,
}


def play(name: str, phases: int, seed: int) -> dict[str, object]:
    """A game of `phases` phases on map `name`.  Each power picks one attack and orders
    every unit that can to support it (so that units are dislodged and retreat); its other
    units take an order at random among those MILA lists as possible."""
    rng = random.Random(f"{name}-{seed}")
    game = Game(map_name=name)
    for _ in range(phases):
        if game.is_game_done:
            break
        possible = game.get_all_possible_orders()
        for power in sorted(game.powers):
            options = {
                location: sorted(o for o in possible.get(location, ()) if not o.endswith(" VIA"))
                for location in sorted(game.get_orderable_locations(power))
            }
            # no "via convoy" orders: MILA moves such an army over land when no convoy is
            # ordered, where the 2025 rules make the move fail (DATC 4.A.3, 6.G.8)
            attacks = [
                o for texts in options.values() for o in texts if " - " in o and " S " not in o
            ]
            attack = rng.choice(attacks) if attacks else None
            orders = []
            for texts in options.values():
                backing = [o for o in texts if attack and o.endswith(f" S {attack}")]
                if attack in texts:
                    orders.append(attack)
                elif backing:
                    orders.append(backing[0])
                elif texts:
                    orders.append(rng.choice(texts))
            game.set_orders(power, orders)
        game.process()
    saved: dict[str, object] = to_saved_game_format(game)
    return saved


def main() -> None:
    for name, phases in GAMES.items():
        data = play(name, phases, seed=1)
        data["id"] = f"dipsat-{name}-1"  # MILA draws a random id: fix it, for identical files
        for phase in data["phases"]:  # MILA stamps real time: drop it, for identical files
            phase.pop("messages", None)
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{path}: {len(data['phases'])} phases", file=sys.stderr)


if __name__ == "__main__":
    main()
