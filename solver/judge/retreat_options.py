"""Where a dislodged unit may retreat: part of what a movement phase comes to (DATC 4.A.5)."""

from __future__ import annotations

from topology import Location

from ..values.position import DislodgedUnit, Position
from ..values.resolution import Retreating
from ..values.rules import DATC_2025, RuleBook


def retreat_options(
    position: Position, dislodged: DislodgedUnit, rules: RuleBook = DATC_2025
) -> tuple[Location, ...]:
    """Where a dislodged unit may go: an adjacent place, not occupied, not left empty by a
    standoff (either coast), and not the attacker's origin unless the attack came by convoy
    and the rule book allows that (DATC 4.A.5).  No coastal crawl."""
    board = position.board
    may_return = dislodged.by_convoy and rules.retreat_to_convoy_origin
    unit = dislodged.unit
    candidates = board.retreat_neighbours(unit.location, unit.type)
    occupied = position.cached("occupied", lambda: {u.province for u in position.units})
    return tuple(
        sorted(
            loc
            for loc in candidates
            if loc.province not in occupied
            and loc.province not in position.standoffs
            and (loc.province != dislodged.attacker_from or may_return)
        )
    )


def retreating(
    position: Position, dislodged: DislodgedUnit, rules: RuleBook = DATC_2025
) -> Retreating:
    """A dislodged unit with the places it may retreat to."""
    options = retreat_options(position, dislodged, rules)
    return Retreating(dislodged.unit, dislodged.attacker_from, dislodged.by_convoy, options)
