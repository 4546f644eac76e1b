"""Phase sequencing: Spring movement, retreats, Fall movement, retreats, adjustments.

Empty phases are skipped: a retreat phase exists only when a unit was dislodged, and a
winter adjustment only when some power can build or must disband.  Supply centres change
owner when the Fall season (its movement and retreats) is over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from topology import Board, BuildSites, Key

from .position import Centres, DislodgedUnit, Phase, PhaseKind, Position, Season, Unit


def owned_centres(position: Position, power: str) -> list[str]:
    return [p for p, owner in position.centres if owner == power]


def build_sites(board: Board, power: str) -> tuple[str, ...]:
    """Where the power may build if it owns the centre: its home centres, or on a board whose
    builds go anywhere every supply centre."""
    if board.builds is BuildSites.ANYWHERE:
        return tuple(sorted(board.centres))
    return board.home_centres(power)


def free_build_sites(position: Position, power: str) -> list[str]:
    """The build sites the power owns with no unit on them: where it may build now."""
    mine = set(owned_centres(position, power))
    return [
        p for p in build_sites(position.map, power) if p in mine and position.unit_in(p) is None
    ]


def adjustment(position: Position, power: str) -> int:
    """Builds allowed (positive) or disbands owed (negative) in the winter."""
    units = sum(1 for u in position.units if u.power == power)
    difference = len(owned_centres(position, power)) - units
    if difference > 0:
        return min(difference, len(free_build_sites(position, power)))
    return difference


def _ownership(
    board: Board, units: Iterable[Unit], centres: Iterable[tuple[str, str]]
) -> tuple[tuple[str, str], ...]:
    owners = dict(centres)
    for unit in units:
        if board.province(unit.province).is_centre:
            owners[unit.location.code] = unit.power
    return tuple(owners.items())


def season_over(
    before: Position,
    units: tuple[Unit, ...],
    centres: Centres,
    every_winter: bool | Callable[[], bool] = False,
) -> Position:
    """The position once a season's movement and retreats are done: after a fall, the
    winter if some power adjusts (or `every_winter`, `Winters.ALWAYS`), else the spring.
    `every_winter` may be a function, asked only after a fall where no power adjusts (a
    rule book's policy is read only where it decides something)."""
    phase, board = before.phase, before.map
    if phase.season is Season.SPRING:
        fall = Phase(phase.year, Season.FALL, PhaseKind.MOVEMENT)
        return before.derive(fall, units, centres)
    winter = before.derive(
        Phase(phase.year, Season.WINTER, PhaseKind.ADJUSTMENT),
        units,
        _ownership(board, units, centres),
    )
    if any(adjustment(winter, power) for power in board.powers) or (
        every_winter() if callable(every_winter) else every_winter
    ):
        return winter
    spring = Phase(phase.year + 1, Season.SPRING, PhaseKind.MOVEMENT)
    return before.derive(spring, units, winter.centres)


def after_movement(
    before: Position,
    units: tuple[Unit, ...],
    dislodged: tuple[DislodgedUnit, ...],
    standoffs: frozenset[Key],
    every_winter: bool | Callable[[], bool] = False,
) -> Position:
    """The position after a movement phase: its retreats if a unit was dislodged, else the
    end of the season."""
    phase = before.phase
    if dislodged:
        retreat = Phase(phase.year, phase.season, PhaseKind.RETREAT)
        return before.derive(retreat, units, None, dislodged, standoffs)
    return season_over(before, units, before.centres, every_winter)


def after_adjustment(before: Position, units: tuple[Unit, ...]) -> Position:
    """The position after the winter adjustments: the next spring."""
    spring = Phase(before.phase.year + 1, Season.SPRING, PhaseKind.MOVEMENT)
    return before.derive(spring, units)


@dataclass(frozen=True, slots=True)
class GameStatus:
    solo: str | None
    eliminated: tuple[str, ...]


def game_status(position: Position) -> GameStatus:
    """A solo at the board's victory count (18 centres on the standard board); a power with no
    units and no centres is eliminated."""
    board = position.map
    solo = next((p for p in board.powers if len(owned_centres(position, p)) >= board.victory), None)
    eliminated = tuple(
        p
        for p in board.powers
        if not owned_centres(position, p)
        and not any(u.power == p for u in position.units)
        and not any(d.unit.power == p for d in position.dislodged)
    )
    return GameStatus(solo, eliminated)
