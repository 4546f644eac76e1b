"""Value types for the board: unit and terrain kinds, provinces and unit locations."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

from .files import shown

COASTS: tuple[str, ...] = ("nc", "sc", "ec", "wc")
"""Coast codes a split province may have: north, south, east and west coast."""


class UnitType(enum.Enum):
    """Army or fleet; ``str()`` gives the one-letter notation."""

    ARMY = "A"
    FLEET = "F"

    def __str__(self) -> str:
        return self.value


class Kind(enum.Enum):
    """Terrain of a province: who may stand there."""

    LAND = "land"  # armies only
    COAST = "coast"  # armies and fleets
    SEA = "sea"  # fleets only


class BuildSites(enum.Enum):
    """Where a power may build: on its own home centres (the standard rule), or on any
    supply centre it owns (MILA's ``BUILD_ANY``, the rule of several variants)."""

    HOME = "home"
    ANYWHERE = "anywhere"


class Spot(NamedTuple):
    """A province on one board of a multiverse: the map's province, the timeline, the turn.

    The joint board of a multiverse step names its provinces by spots, as a map names them
    by code: the judge takes either as a `Key`.  ``str()`` writes ``"mun@1:0"``, the text
    saved games keep; nothing reads a spot back from it but a file's reader."""

    province: str
    timeline: int
    turn: int

    @property
    def board(self) -> tuple[int, int]:
        """(timeline, turn): the board the province is on."""
        return (self.timeline, self.turn)

    def __str__(self) -> str:
        return f"{self.province}@{self.timeline}:{self.turn}"


Key: TypeAlias = str | Spot
"""What names a province to the adjudicator: a map's code (``"mun"``), or a province on one
board of a multiverse (a `Spot`)."""


def code(key: Key) -> str:
    """A key as the map's code it is (a province of a map, not of a multiverse's board)."""
    if not isinstance(key, str):
        raise TypeError(f"{key} is a province of a multiverse's board, not a map's")
    return key


@dataclass(frozen=True, slots=True, order=False)
class Location:
    """A place a unit can stand: a province, or one coast of a split province.

    ``str()`` gives the graph node key, ``"stp/nc"`` or ``"stp"``; :meth:`parse`
    reads it back. Locations sort by province code, the bare province first.
    """

    province: Key
    coast: str | None = None

    def __post_init__(self) -> None:
        if self.coast is not None and self.coast not in COASTS:
            raise ValueError(f"unknown coast {shown(self.coast, 60)}; expected one of {COASTS}")

    def __str__(self) -> str:
        return f"{self.province}" if self.coast is None else f"{self.province}/{self.coast}"

    @property
    def code(self) -> str:
        """The province's code on its map (a place of a map, not of a multiverse's board)."""
        return code(self.province)

    @classmethod
    def parse(cls, key: str) -> Location:
        """Read a node key such as ``"stp/nc"`` or ``"stp"``."""
        province, _, coast = key.partition("/")
        return cls(province, coast or None)

    def _key(self) -> tuple[Key, str]:
        return (self.province, self.coast or "")

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Location):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Location):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Location):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Location):
            return NotImplemented
        return self._key() >= other._key()


@dataclass(frozen=True, slots=True)
class Province:
    """One of the board's provinces, as read from the map file."""

    code: str
    name: str
    kind: Kind
    is_centre: bool = False
    home: str | None = None  # the power whose home centre this is
    coasts: tuple[str, ...] = ()  # only for provinces with two coasts
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Power:
    """A great power: its name, adjective, other names, home centres and starting units."""

    name: str
    adjective: str
    aliases: tuple[str, ...]
    home: tuple[str, ...]
    start: tuple[tuple[UnitType, Location], ...] = ()


def standing_problem(province: Province, unit: UnitType, coast: str | None) -> str | None:
    """Why a unit of that type cannot stand there (None if it can)."""
    if unit is UnitType.ARMY:
        if province.kind is Kind.SEA:
            return f"an army cannot stand at sea, in {province.name}"
        if coast is not None:
            return f"an army stands in {province.name}, not on its {coast} coast"
        return None
    if province.kind is Kind.LAND:
        return f"a fleet cannot stand inland, in {province.name}"
    if province.coasts and coast is None:
        return (
            f"a fleet in {province.name} stands on one of its coasts ({', '.join(province.coasts)})"
        )
    if coast is not None and coast not in province.coasts:
        if not province.coasts:
            return f"{province.name} has no separate coasts, so no {coast} coast"
        return f"{province.name} has no {coast} coast ({', '.join(province.coasts)})"
    return None
