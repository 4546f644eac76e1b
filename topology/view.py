"""What the adjudicator asks of a board, as a protocol: the standard map and the variants
(`topology.Board`) answer it, and so does the joint board of a multiverse step
(`solver.multiverse.spacetime.SpacetimeBoard`), whose provinces are the provinces of several
boards at once.  Provinces are named by keys: a map's codes (``"mun"``), or a joint
board's keys (a ``str`` as well, with typed fields of their own)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from .places import Key, Location, Province, UnitType


class BoardView(Protocol):
    """The questions legality, the equations and the retreats ask of a board (a board is an
    immutable value, so it can key a cache)."""

    def __hash__(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def powers(self) -> tuple[str, ...]: ...

    def province(self, key: Key) -> Province:
        """The province of a key: its terrain, coasts, centre and name."""
        ...

    def key(self, province: str, timeline: int | None, turn: int | None) -> Key | None:
        """The key of a province of the map on a board of the multiverse (a map without
        boards knows only ``timeline = turn = None``), or None if there is no such place."""
        ...

    def army_adjacent(self, a: Key, b: Key) -> bool:
        """Can an army move from ``a`` to ``b`` by itself?"""
        ...

    def fleet_coasts_towards(self, src: Location, dest: Key) -> tuple[str | None, ...]:
        """The coasts of ``dest`` a fleet at ``src`` reaches (``(None,)``: the province)."""
        ...

    def neighbours(self, key: Key) -> Collection[Key]:
        """The provinces sharing any border with ``key`` (coasts merged): the links of a
        chain of convoying fleets."""
        ...

    def retreat_neighbours(self, location: Location, unit: UnitType) -> Collection[Location]:
        """Where a unit of that type at ``location`` could retreat, before anything else is
        considered: the places it could move to by itself, on its own board."""
        ...

    def location_name(self, location: Location) -> str:
        """A place as orders write it: ``"St Petersburg(nc)"``, ``"b-Munich@1"``."""
        ...
