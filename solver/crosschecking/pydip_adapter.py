"""pydip behind the cross-check protocol: `python -m solver.crosschecking.pydip_adapter`.

Movement phases go to `resolve_turn`, adjustment phases to `resolve_adjustment` (which
applies pydip's own civil-disorder rule).  Retreat phases are not supported: pydip computes
retreat options only from its own movement resolution, which a request does not carry.

pydip names territories in full ('Mid-Atlantic Ocean'); fleets stand on coasts ('Brest
Coast', 'Spain North Coast') and armies on land ('Brest').  The MILA codes are matched to
those names once, at start-up, from pydip's own map: provinces by name through our
topology, the coasts of split provinces by their neighbours (pydip calls BUL/EC 'Bulgaria
North Coast').  pydip's command constructors assert that an order is legal, so an order
pydip cannot build (illegal, ambiguous coast, an order to another power's or a missing
unit) gets an error reply: that position is skipped, not compared.

A support of a fleet's move written without a coast backs the coast that fleet was ordered
to (pydip compares coast names as strings).  Per-order success is read from pydip's
module-global `resolution_map` after each turn; for pydip a convoy succeeds whenever its fleet
is not dislodged, whether or not the army uses it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydip.map.map import Map, OwnershipMap
from pydip.map.predefined import vanilla_dip
from pydip.map.territory import CoastTerritory, LandTerritory, SeaTerritory
from pydip.player.command.adjustment_command import (
    AdjustmentCreateCommand,
    AdjustmentDisbandCommand,
)
from pydip.player.command.command import (
    Command,
    ConvoyMoveCommand,
    ConvoyTransportCommand,
    HoldCommand,
    MoveCommand,
    SupportCommand,
)
from pydip.player.player import Player
from pydip.player.unit import Unit, UnitTypes
from pydip.turn import resolve as pydip_resolve
from pydip.turn.adjustment import resolve_adjustment

from topology import Kind, standard
from topology.names import AmbiguousNameError, UnknownNameError

from .mila_adapter import Request, RequestError, serve

_TYPES = {"A": UnitTypes.TROOP, "F": UnitTypes.FLEET}
_LETTERS = {v: k for k, v in _TYPES.items()}


@dataclass(frozen=True, slots=True)
class PydipNames:
    """MILA places to pydip territory names and back."""

    land: dict[str, str]  # 'SPA' -> 'Spain', 'NTH' -> 'North Sea': where armies (and seas) are
    fleet: dict[str, str]  # 'SPA/NC' -> 'Spain North Coast', 'BRE' -> 'Brest Coast', 'NTH'
    place: dict[str, str]  # any pydip name -> its MILA place: 'Spain North Coast' -> 'SPA/NC'


def _province_of(board_lookup: Callable[[str], str], name: str) -> str:
    """Our province code for a pydip land or sea name ('Western Mediterranean Sea')."""
    for text in (name, re.sub(r"(?<=\S)\s+(Sea|Ocean)$", "", name)):
        try:
            return board_lookup(text)
        except (UnknownNameError, AmbiguousNameError):
            continue
    raise RuntimeError(f"no province of the standard board is called {name!r}")


def build_names(game_map: Map) -> PydipNames:
    """Match pydip's territories to MILA codes, checking that every province matches once."""
    board = standard()
    land: dict[str, str] = {}
    for name, territory in game_map.name_map.items():
        if isinstance(territory, CoastTerritory):
            continue
        code = _province_of(board.lookup, name)
        kind = board.province(code).kind
        expected = SeaTerritory if kind is Kind.SEA else LandTerritory
        if not isinstance(territory, expected) or code.upper() in land:
            raise RuntimeError(f"pydip's {name!r} does not match province {code!r}")
        if isinstance(territory, LandTerritory) and bool(territory.coasts) != (kind is Kind.COAST):
            raise RuntimeError(f"pydip's {name!r} and province {code!r} differ in coasts")
        land[code.upper()] = name
    if len(land) != len(board.provinces):
        raise RuntimeError(f"pydip's map has {len(land)} provinces, ours {len(board.provinces)}")

    province_of = {name: code for code, name in land.items()}

    def province(name: str) -> str:
        territory = game_map.name_map[name]
        parent = territory.parent.name if isinstance(territory, CoastTerritory) else name
        return province_of[parent]

    fleet: dict[str, str] = {}
    graph = board.fleet_graph()
    for code, name in land.items():
        territory = game_map.name_map[name]
        ours = board.province(code.lower())
        if isinstance(territory, SeaTerritory):
            fleet[code] = name
        elif not ours.coasts and territory.coasts:
            (coast,) = territory.coasts
            fleet[code] = coast.name
        for c in ours.coasts:
            neighbours = {n.partition("/")[0].upper() for n in graph[f"{ours.code}/{c}"]}
            found = [
                t.name
                for t in territory.coasts
                if {province(a) for a in game_map.adjacency[t.name]} == neighbours
            ]
            if len(found) != 1:
                raise RuntimeError(f"cannot match {code}/{c.upper()} to a coast of {name!r}")
            fleet[f"{code}/{c.upper()}"] = found[0]
    place = {name: code for code, name in land.items()}
    place.update({name: code for code, name in fleet.items()})
    return PydipNames(land, fleet, place)


@cache
def _map_and_names() -> tuple[Map, PydipNames]:
    game_map = vanilla_dip.generate_map()
    return game_map, build_names(game_map)


class _Turn:
    """One request's board in pydip terms: players, units by province, and conversions."""

    def __init__(self, request: Request) -> None:
        self.map, self.names = _map_and_names()
        powers = {*request.units, *request.centers, *(p for p, _ in request.orders)}
        self.players: dict[str, Player] = {}
        self.at: dict[str, tuple[str, Unit]] = {}  # province -> (power, unit)
        self.moves = {  # province of an ordered unit -> the MILA place it is ordered to
            words[1][:3]: words[3]
            for words in (order.split() for _, order in request.orders)
            if len(words) >= 4 and words[2] == "-"
        }
        for power in sorted(powers):
            config = []
            for text in request.units.get(power, []):
                unit = self.unit(text)
                province = text[2:5]
                if province in self.at:
                    raise RequestError(f"two units in {province}")
                self.at[province] = (power, unit)
                config.append({"territory_name": unit.position, "unit_type": unit.unit_type})
            self.players[power] = Player(power, self.map, config)

    def unit(self, text: str) -> Unit:
        """'F SPA/NC' -> Unit(FLEET, 'Spain North Coast')."""
        kind, where = text.split()
        table = self.names.fleet if kind == "F" else self.names.land
        if where not in table:
            raise RequestError(f"pydip has no place for {text!r}")
        return Unit(_TYPES[kind], table[where])

    def text(self, unit: Unit) -> str:
        return f"{_LETTERS[unit.unit_type]} {self.names.place[unit.position]}"

    def own(self, power: str, head: list[str]) -> tuple[Player, Unit]:
        """The player and the board unit an order's first two words name."""
        found = self.at.get(head[1][:3])
        if found is None:
            raise RequestError(f"no unit at {head[1]}: pydip cannot order a missing unit")
        if self.text(found[1]) != " ".join(head):
            raise RequestError(f"{' '.join(head)} is {self.text(found[1])} on the board")
        return self.players[power], found[1]

    def other(self, head: list[str]) -> Unit:
        """The unit a support or convoy refers to: the board's, else the one named."""
        found = self.at.get(head[1][:3])
        return found[1] if found else self.unit(" ".join(head))

    def target(self, unit: Unit, dest: str, unique: bool = False) -> str:
        """The territory `unit` would enter at MILA place `dest`.  Where a fleet's coast is
        left out, one it can reach; with `unique`, only if it can reach just one."""
        if unit.unit_type is UnitTypes.TROOP:
            return self.names.land[dest[:3]]
        if dest in self.names.fleet:
            return self.names.fleet[dest]
        coasts = sorted(
            name
            for place, name in self.names.fleet.items()
            if place.startswith(f"{dest}/") and name in self.map.adjacency[unit.position]
        )
        if not coasts or (unique and len(coasts) > 1):
            raise RequestError(
                f"pydip cannot tell which coast of {dest} {self.text(unit)} should go to"
            )
        return coasts[0]

    def movement_command(self, power: str, order: str) -> Command:
        words = order.split()
        if len(words) < 3 or words[0] not in _TYPES:
            raise RequestError(f"cannot express {order!r} in a movement phase")
        player, unit = self.own(power, words[:2])
        match words[2:]:
            case ["H"]:
                return HoldCommand(player, unit)
            case ["-", dest, *via] if via in ([], ["VIA"]):
                target = self.target(unit, dest, unique=True)
                if unit.unit_type is UnitTypes.FLEET:
                    return MoveCommand(player, unit, target)
                if via or target not in self.map.adjacency[unit.position]:
                    return ConvoyMoveCommand(player, unit, target)
                return MoveCommand(player, unit, target)
            case ["S", kind, where]:
                supported = self.other([kind, where])
                return SupportCommand(player, unit, supported, supported.position)
            case ["S", kind, where, "-", dest]:
                supported = self.other([kind, where])
                ordered = self.moves.get(where[:3], "")
                if "/" not in dest and ordered.startswith(f"{dest}/"):
                    dest = ordered  # a coast-less support backs whichever coast was ordered
                return SupportCommand(player, unit, supported, self.target(supported, dest))
            case ["C", "A", where, "-", dest]:
                army = self.other(["A", where])
                return ConvoyTransportCommand(player, unit, army, self.names.land[dest[:3]])
        raise RequestError(f"cannot express {order!r} in a movement phase")


def _movement(request: Request, turn: _Turn) -> dict[str, Any]:
    commands: list[Command] = []
    keys: dict[str, str] = {}  # pydip position of an ordered unit -> MILA province
    for power, order in request.orders:
        try:
            command = turn.movement_command(power, order)
        except AssertionError as err:
            raise RequestError(f"pydip will not build {order!r} (illegal for pydip)") from err
        commands.append(command)
        if not isinstance(command, HoldCommand):
            keys[command.unit.position] = order.split()[1][:3]
    ordered = {c.unit.position for c in commands}
    for player in turn.players.values():
        commands.extend(HoldCommand(player, u) for u in player.units if u.position not in ordered)

    outcome = pydip_resolve.resolve_turn(turn.map, commands)
    success = pydip_resolve.resolution_map  # module global, set by the call above
    results = {province: bool(success[position]) for position, province in keys.items()}
    units: dict[str, list[str]] = {}
    dislodged: dict[str, list[str]] = {}
    for power, table in outcome.items():
        for unit, retreats in table.items():
            if retreats is None:
                units.setdefault(power, []).append(turn.text(unit))
            else:
                dislodged[turn.text(unit)] = sorted(turn.names.place[t] for t in retreats)
    return {
        "results": dict(sorted(results.items())),
        "dislodged": dict(sorted(dislodged.items())),
        "units": {p: sorted(u) for p, u in sorted(units.items())},
    }


def _adjustment(request: Request, turn: _Turn) -> dict[str, Any]:
    homes = vanilla_dip.generate_home_territories()
    powers = list(turn.players)
    owned = {p: {turn.names.land[c] for c in request.centers.get(p, [])} for p in powers}
    ownership = OwnershipMap(
        vanilla_dip.generate_supply_center_map(),
        owned,
        {p: set(homes.get(p.title(), ())) for p in powers},
    )
    units = {p: set(turn.players[p].units) for p in powers}
    counts = {p: len(owned[p]) - len(units[p]) for p in powers}
    commands = []
    for power, order in request.orders:
        words = order.split()
        try:
            if words == ["WAIVE"]:
                continue
            if len(words) == 3 and words[2] == "B" and words[0] in _TYPES:
                unit = turn.unit(" ".join(words[:2]))
                commands.append(AdjustmentCreateCommand(ownership, turn.players[power], unit))
            elif len(words) == 3 and words[2] == "D" and words[0] in _TYPES:
                player, unit = turn.own(power, words[:2])
                commands.append(AdjustmentDisbandCommand(player, unit))
            else:
                raise RequestError(f"cannot express {order!r} in an adjustment phase")
        except AssertionError as err:
            raise RequestError(f"pydip will not build {order!r} (illegal for pydip)") from err
    after = resolve_adjustment(ownership, counts, units, commands)
    return {
        "results": {},
        "dislodged": {},
        "units": {p: sorted(turn.text(u) for u in us) for p, us in sorted(after.items()) if us},
    }


def adjudicate(request: Request) -> dict[str, Any]:
    """Adjudicate one phase with pydip; the reply without its id."""
    if request.map != "standard":
        raise RequestError(f"pydip knows only the standard map, not {request.map!r}")
    if request.kind == "R":
        raise RequestError(
            "pydip cannot adjudicate a retreat phase on its own: its retreat "
            "options come from its own movement resolution"
        )
    try:
        turn = _Turn(request)
        return _movement(request, turn) if request.kind == "M" else _adjustment(request, turn)
    except AssertionError as err:  # pydip checks its input with assert statements
        raise RequestError(f"pydip refused the request: failed assertion {err}".strip()) from err


def main() -> None:
    _map_and_names()  # fail at start-up, not on the first request, if the names do not match
    serve(adjudicate)


if __name__ == "__main__":
    main()
