"""Write the MILA game files of this folder: random games played on the standard board by
MILA's own engine (the `diplomacy` package) and saved by its own `to_saved_game_format`,
so that `dipsat replay --rules mila` can be checked against what that engine writes.
Run from the repository root: python tests/data/games/mila/generate.py"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from diplomacy import Game
from diplomacy.utils.export import to_saved_game_format

HERE = Path(__file__).parent
GAMES = 24
PHASES = 18  # about six years: movement, retreats and adjustments


def play(seed: int) -> dict[str, object]:
    """A game of PHASES phases. In a movement phase each power picks one attack (now and
    then "via convoy") and orders every unit that can to support or convoy it, so that units
    are dislodged, retreat and get convoyed; its other units take an order at random among
    those MILA lists as possible. In an adjustment phase a power orders nothing one time in
    three (civil disorder: MILA picks the units to disband); otherwise it picks at random."""
    rng = random.Random(f"mila-standard-{seed}")
    game = Game()
    for _ in range(PHASES):
        if game.is_game_done:
            break
        possible = game.get_all_possible_orders()
        adjusting = game.get_current_phase().endswith("A")
        for power in sorted(game.powers):
            options = {
                location: sorted(possible.get(location, ()))
                for location in sorted(game.get_orderable_locations(power))
            }
            if adjusting:
                if rng.random() < 1 / 3:
                    continue
                game.set_orders(power, [rng.choice(t) for t in options.values() if t])
                continue
            attacks = [o for t in options.values() for o in t if " - " in o and " S " not in o]
            attack = rng.choice(attacks) if attacks else None
            bare = attack.removesuffix(" VIA") if attack else None
            orders = []
            for texts in options.values():
                helping = [o for o in texts if bare and o.endswith((f" S {bare}", f" C {bare}"))]
                if attack in texts:
                    orders.append(attack)
                elif helping:
                    orders.append(helping[0])
                elif texts:
                    orders.append(rng.choice(texts))
            game.set_orders(power, orders)
        game.process()
    saved: dict[str, object] = to_saved_game_format(game)
    return saved


def main() -> None:
    for seed in range(1, GAMES + 1):
        data = play(seed)
        data["id"] = f"dipsat-mila-{seed}"  # MILA draws a random id: fix it, for identical files
        for phase in data["phases"]:  # MILA stamps real time: drop it, for identical files
            phase.pop("messages", None)
        path = HERE / f"standard-{seed:02d}.json"
        path.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n", "utf-8")
        print(f"{path}: {len(data['phases'])} phases", file=sys.stderr)


if __name__ == "__main__":
    main()
