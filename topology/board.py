"""The immutable board: provinces, powers, name lookup and adjacency graphs."""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .names import AmbiguousNameError, UnknownNameError, normalize, prefix_matches
from .places import BuildSites, Key, Kind, Location, Power, Province, UnitType

if TYPE_CHECKING:
    import networkx as nx


class Board:
    """A map loaded and checked by :func:`topology.load_board`; read-only.

    Graph views are built once, frozen with :func:`networkx.freeze` and shared.
    """

    __slots__ = (
        "_army",
        "_army_edges",
        "_army_next",
        "_fleet",
        "_fleet_edges",
        "_fleet_next",
        "_graphs",
        "_locations",
        "_merged_edges",
        "_neighbours",
        "_power_index",
        "_powers",
        "_province_graph",
        "builds",
        "centres",
        "codes",
        "drawing",
        "name",
        "name_index",
        "origin",
        "powers",
        "provinces",
        "start_year",
        "victory",
    )

    name: str
    powers: tuple[str, ...]
    provinces: Mapping[str, Province]
    centres: frozenset[str]
    victory: int
    builds: BuildSites
    start_year: int
    drawing: Path | None
    origin: Path | None
    codes: Mapping[str, Mapping[str, str]]  # code set -> province -> its code there
    name_index: Mapping[tuple[str, ...], frozenset[str]]
    _powers: Mapping[str, Power]
    _power_index: Mapping[tuple[str, ...], str]
    _locations: tuple[Location, ...]
    _army: Mapping[str, tuple[str, ...]]  # province -> army neighbours, in the map's order
    _fleet: Mapping[str, tuple[str, ...]]  # place key ("spa/nc") -> fleet neighbours
    _army_edges: tuple[tuple[str, str], ...]
    _fleet_edges: tuple[tuple[str, str], ...]
    _merged_edges: tuple[tuple[str, str], ...]
    _graphs: dict[str, nx.Graph]  # the networkx views, made when first asked for
    _army_next: Mapping[str, frozenset[str]]  # province -> where an army there may move
    _fleet_next: Mapping[tuple[str, str | None], Mapping[str, tuple[str | None, ...]]]
    _province_graph: Mapping[str, tuple[str, ...]]  # province -> any neighbour
    _neighbours: Mapping[str, frozenset[str]]

    def __init__(
        self,
        name: str,
        provinces: Iterable[Province],
        powers: Iterable[Power],
        army_edges: Iterable[tuple[str, str]],
        fleet_edges: Iterable[tuple[Location, Location]],
        *,
        victory: int | None = None,
        builds: BuildSites = BuildSites.HOME,
        start_year: int = 1901,
        drawing: Path | None = None,
        origin: Path | None = None,
        codes: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        """Build from checked data; use :func:`topology.load_board` rather than this.

        ``victory`` is the number of centres that wins (by default more than half of
        them), ``builds`` where a power may build, ``start_year`` the year of the opening
        ``drawing`` the layout file that places the board's provinces in a picture,
        ``origin`` the map file it was read from, and ``codes`` other engines' province
        codes where they differ from the board's (``{"godip": {"lyo": "gol"}}``).
        """
        by_code = {p.code: p for p in sorted(provinces, key=lambda p: p.code)}
        by_power = {p.name: p for p in sorted(powers, key=lambda p: p.name)}
        army_edges = list(army_edges)
        fleet_edges = list(fleet_edges)

        index: dict[tuple[str, ...], set[str]] = {}
        for prov in by_code.values():
            for text in (prov.code, prov.name, *prov.aliases):
                index.setdefault(normalize(text), set()).add(prov.code)
        power_index: dict[tuple[str, ...], str] = {}
        for power in by_power.values():
            for text in (power.name, power.adjective, *power.aliases):
                power_index[normalize(text)] = power.name

        locations: list[Location] = []
        for prov in by_code.values():
            locations.append(Location(prov.code))
            locations.extend(Location(prov.code, coast) for coast in prov.coasts)

        army_nodes = [c for c, p in by_code.items() if p.kind is not Kind.SEA]
        army_pairs = tuple((a, b) for a, b in army_edges)
        army = _adjacency(army_nodes, army_pairs)
        fleet_nodes = [
            str(loc)
            for loc in locations
            if by_code[loc.code].kind is not Kind.LAND
            and (loc.coast is not None or not by_code[loc.code].coasts)
        ]
        fleet_pairs = tuple((str(a), str(b)) for a, b in fleet_edges)
        fleet = _adjacency(fleet_nodes, fleet_pairs)
        merged_pairs = (*army_pairs, *((a.code, b.code) for a, b in fleet_edges))
        merged = _adjacency(by_code, merged_pairs)

        _set = object.__setattr__
        _set(self, "name", name)
        _set(self, "powers", tuple(by_power))
        _set(self, "provinces", MappingProxyType(by_code))
        centres = frozenset(c for c, p in by_code.items() if p.is_centre)
        _set(self, "centres", centres)
        _set(self, "victory", len(centres) // 2 + 1 if victory is None else victory)
        _set(self, "builds", builds)
        _set(self, "start_year", start_year)
        _set(self, "drawing", drawing)
        _set(self, "origin", origin)
        _set(
            self,
            "codes",
            MappingProxyType({k: MappingProxyType(dict(v)) for k, v in (codes or {}).items()}),
        )
        _set(
            self,
            "name_index",
            MappingProxyType({k: frozenset(v) for k, v in sorted(index.items())}),
        )
        _set(self, "_powers", MappingProxyType(by_power))
        _set(self, "_power_index", MappingProxyType(power_index))
        _set(self, "_locations", tuple(locations))
        _set(self, "_army", MappingProxyType(army))
        _set(self, "_fleet", MappingProxyType(fleet))
        _set(self, "_province_graph", MappingProxyType(merged))
        _set(self, "_army_edges", army_pairs)
        _set(self, "_fleet_edges", fleet_pairs)
        _set(self, "_merged_edges", merged_pairs)
        _set(self, "_graphs", {})
        _set(
            self,
            "_neighbours",
            MappingProxyType({c: frozenset(merged[c]) for c in sorted(merged)}),
        )
        # the questions legality asks for every order, answered once: plain tables
        _set(self, "_army_next", {c: frozenset(army[c]) for c in sorted(army)})
        reach: dict[tuple[str, str | None], dict[str, list[str | None]]] = {}
        for node in sorted(fleet):
            here = Location.parse(node)
            towards = reach.setdefault((here.code, here.coast), {})
            for other in sorted(fleet[node]):
                there = Location.parse(other)
                towards.setdefault(there.code, []).append(there.coast)
        _set(
            self,
            "_fleet_next",
            {
                src: {
                    dest: tuple(c for c in (by_code[dest].coasts or (None,)) if c in coasts)
                    for dest, coasts in towards.items()
                }
                for src, towards in reach.items()
            },
        )

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Board is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Board is immutable; cannot delete {name!r}")

    def __repr__(self) -> str:
        return f"<Board {self.name!r}: {len(self.provinces)} provinces, {len(self.powers)} powers>"

    # -- provinces and powers -------------------------------------------------

    def province(self, code: Key) -> Province:
        """The province with canonical code ``code`` (use :meth:`lookup` for names)."""
        found = self.provinces.get(code) if isinstance(code, str) else None
        if found is None:
            raise UnknownNameError(str(code))
        return found

    def code_in(self, code_set: str, province: str) -> str:
        """A province's code in another engine's code set (``"godip"``): the map file's
        ``[codes.godip]`` entry, or the board's own code where it gives none."""
        return self.codes.get(code_set, {}).get(province, self.province(province).code)

    def home_centres(self, power: str) -> tuple[str, ...]:
        """Codes of ``power``'s home centres, sorted; ``power`` may be any of its names."""
        return self._powers[self.lookup_power(power)].home

    def starting_units(self, power: str) -> tuple[tuple[UnitType, Location], ...]:
        """The power's units at the opening (type and place), as the map file lists them."""
        return self._powers[self.lookup_power(power)].start

    def power_adjective(self, power: str) -> str:
        """The adjective of ``power`` ("French" for France)."""
        return self._powers[self.lookup_power(power)].adjective

    def lookup_power(self, text: str) -> str:
        """The English power name for its name, adjective, alias or code.

        Case and accents are ignored; only whole names match (no prefixes, so
        that a unit letter such as "F" is never read as a power).
        """
        try:
            return self._power_index[normalize(text)]
        except KeyError:
            raise UnknownNameError(text, what="power") from None

    def lookup(self, text: str) -> str:
        """The province code for a code, name or alias in any indexed code set.

        An exact (normalised) match wins; otherwise a unique prefix match
        (:meth:`candidates_by_prefix`) is accepted.

        Raises:
            UnknownNameError: nothing matches.
            AmbiguousNameError: several provinces match; see its ``candidates``.
        """
        words = normalize(text)
        found: Iterable[str] = self.name_index.get(words, ())
        if not found:
            found = self.candidates_by_prefix(words)
        found = tuple(found)
        if len(found) == 1:
            return found[0]
        if found:
            names = {code: self.provinces[code].name for code in found}
            raise AmbiguousNameError(text, found, names)
        raise UnknownNameError(text)

    def nearest_name(self, text: str) -> str | None:
        """The province name closest to a misspelt one ("Burgandy": "Burgundy"), if one is
        close enough to suggest."""
        names = {" ".join(normalize(p.name)): p.name for p in self.provinces.values()}
        close = difflib.get_close_matches(" ".join(normalize(text)), names, n=1, cutoff=0.75)
        return names[close[0]] if close else None

    def candidates_by_prefix(self, words: tuple[str, ...]) -> tuple[str, ...]:
        """Sorted codes with a name or alias that starts with the normalised ``words``.

        All words but the last must match whole words; the last may be a prefix.
        """
        found: set[str] = set()
        for key, codes in self.name_index.items():
            if prefix_matches(words, key):
                found |= codes
        return tuple(sorted(found))

    # -- places and adjacency -------------------------------------------------

    def locations(self) -> tuple[Location, ...]:
        """Every place a unit can stand, sorted.

        Each province as ``Location(code)`` (for a split province, a place for
        armies only) plus each coast of a split province, ``Location("spa", "nc")``.
        """
        return self._locations

    def army_graph(self) -> nx.Graph:
        """Frozen graph of army moves; nodes are land and coast province codes."""
        return self._graph("army", self._army, self._army_edges)

    def fleet_graph(self) -> nx.Graph:
        """Frozen graph of fleet moves.

        Nodes are ``str(Location)`` of seas, coasts and the coasts of split provinces.
        """
        return self._graph("fleet", self._fleet, self._fleet_edges)

    def province_graph(self) -> nx.Graph:
        """Frozen graph of all provinces, an edge wherever any border exists (coasts merged)."""
        return self._graph("province", self._province_graph, self._merged_edges)

    def _graph(
        self,
        name: str,
        adjacency: Mapping[str, tuple[str, ...]],
        edges: Iterable[tuple[str, str]],
    ) -> nx.Graph:
        """A networkx view of an adjacency, made once when first asked for (the adjudicator
        reads the plain tables: networkx is imported only by what draws or lays out)."""
        found = self._graphs.get(name)
        if found is None:
            import networkx as nx

            graph = nx.Graph()
            graph.add_nodes_from(adjacency)
            graph.add_edges_from(edges)
            found = self._graphs[name] = nx.freeze(graph)
        return found

    def key(self, province: str, timeline: int | None, turn: int | None) -> Key | None:
        """The province itself: a map has no boards of a multiverse (`topology.BoardView`)."""
        return province if timeline is None and turn is None else None

    def neighbours(self, key: Key) -> frozenset[str]:
        """The provinces sharing any border with ``key`` (coasts merged)."""
        return self._neighbours[self.province(key).code]

    def retreat_neighbours(self, location: Location, unit: UnitType) -> tuple[Location, ...]:
        """The places a unit of that type at ``location`` could move to by itself."""
        if unit is UnitType.ARMY:
            return tuple(Location(p) for p in self._army[self.province(location.province).code])
        return tuple(Location.parse(k) for k in self._fleet[str(location)])

    def location_name(self, location: Location) -> str:
        """``"St Petersburg(nc)"``: the province's name and the coast, as orders write it."""
        name = self.province(location.province).name
        return f"{name}({location.coast})" if location.coast else name

    def army_adjacent(self, a: Key, b: Key) -> bool:
        """True if an army can move from province ``a`` to province ``b``."""
        near = self._army_next.get(a) if isinstance(a, str) else None
        return near is not None and b in near

    def fleet_adjacent(self, a: Location, b: Location) -> bool:
        """True if a fleet can move from location ``a`` to location ``b``."""
        return str(b) in self._fleet.get(str(a), ())

    def fleet_coasts_towards(self, src: Location, dest_province: Key) -> tuple[str | None, ...]:
        """Coasts of ``dest_province`` that a fleet at ``src`` can reach.

        ``("nc", "sc")`` from mao to spa, ``("sc",)`` from lyo to spa,
        ``(None,)`` for a reachable province without split coasts, ``()`` if none.
        """
        dest = self.province(dest_province).code  # an unknown province is an error
        source = src.province
        if not isinstance(source, str):
            return ()
        return self._fleet_next.get((source, src.coast), {}).get(dest, ())

    def distances_to(self, sources: Iterable[str]) -> dict[str, int]:
        """Steps from each province to the nearest of ``sources`` on the province graph.

        Used for civil-disorder disbands (DATC 4.D.8): any border counts, whatever
        the unit type. Returns ``{}`` when ``sources`` is empty.
        """
        dist: dict[str, int] = {}
        queue: deque[str] = deque()
        for code in sources:
            self.province(code)
            if code not in dist:
                dist[code] = 0
                queue.append(code)
        while queue:
            here = queue.popleft()
            for there in self._province_graph[here]:
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist


def _adjacency(
    nodes: Iterable[str], edges: Iterable[tuple[str, str]]
) -> dict[str, tuple[str, ...]]:
    """Each node's neighbours, in the order the edges name them (as networkx keeps them)."""
    found: dict[str, dict[str, None]] = {n: {} for n in nodes}
    for a, b in edges:
        found.setdefault(a, {})[b] = None
        found.setdefault(b, {})[a] = None
    return {n: tuple(near) for n, near in found.items()}
