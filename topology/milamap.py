"""MILA's ``.map`` files, converted to dipsat's board format.

MILA's ``diplomacy`` package describes each board in a ``.map`` file of lines: power lines
(``ENGLAND (ENGLISH) EDI LON LVP``), their units (``F EDI``), name lines
(``North Sea = nth norsea``), terrain lines with their borders
(``COAST LVP ABUTS CLY edi IRI NAO WAL yor``) and a few settings (``BEGIN``, ``VICTORY``,
``RULE``); a map may be built on others (``MAP standard``, ``USES ...``).

:func:`mila_map_text` reads such a file, with the files it inherits, and writes the same
board as the TOML text of dipsat's format (``docs/variants.md``); :func:`load_mila_map`
gives the :class:`~topology.board.Board` at once. The reader is dipsat's own: it needs the
``diplomacy`` package only to find one of its maps by name. It follows the meaning MILA's
engine (``diplomacy/engine/map.py``, version 1.1.2) gives each line; ``docs/mila-maps.md``
lists what had to be decided. Every fault is a :class:`~topology.MapDataError` reading
``FILE:LINE: what was expected``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import files
from .board import Board
from .files import probe, shown
from .loader import MAX_MAP_FILE_BYTES, MAX_YEAR, MapDataError, board_from_text, name_problem
from .names import normalize
from .places import COASTS

PACKAGE = "diplomacy"
"""The Python package whose ``maps`` folder holds MILA's maps."""

_UNOWNED = "UNOWNED"  # the "power" of the centres nobody owns at the start
_TERRAINS = ("WATER", "LAND", "COAST", "PORT", "SHUT")
_ARMY_TERRAINS = ("LAND", "COAST", "PORT")
_FLEET_TERRAINS = ("WATER", "COAST", "PORT")
_RULES = {"BUILD_ANY": "anywhere"}  # MILA's rules that dipsat's format holds: `builds`
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9]*(/[A-Za-z]+)?")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


# -- finding map files -------------------------------------------------------------------


def mila_maps_folder() -> Path | None:
    """The ``maps`` folder of the installed ``diplomacy`` package, or None.

    The package is found with :func:`importlib.util.find_spec`, without importing it (its
    engine loads convoy caches on import)."""
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "maps"
    return folder if folder.is_dir() else None


def mila_map_names() -> tuple[str, ...]:
    """The names of the maps of the installed ``diplomacy`` package, sorted (none if it is
    not installed)."""
    folder = mila_maps_folder()
    return tuple(sorted(p.stem for p in folder.glob("*.map"))) if folder else ()


def find_mila_map(source: str | os.PathLike[str]) -> Path:
    """The ``.map`` file ``source`` names: a path to a file, or the name of a map of the
    installed ``diplomacy`` package (``standard``, ``ancmed.map``).

    Raises:
        MapDataError: no such file, and no such map in the package.
    """
    path = Path(source)
    if probe(path) in ("file", "other"):  # a file, or a device or pipe read as one
        return path
    text = os.fspath(source)
    if "/" in text or os.sep in text:
        raise MapDataError(f"{text}: no such MILA map file")
    folder = mila_maps_folder()
    if folder is None:
        raise MapDataError(
            f"{text}: no such MILA map file, and the {PACKAGE} package (whose maps could "
            "be named) is not installed"
        )
    found = folder / (text if text.endswith(".map") else f"{text}.map")
    if probe(found) == "file":
        return found
    raise MapDataError(
        f"{text}: no such MILA map file, nor a map of the {PACKAGE} package "
        f"(its maps: {', '.join(mila_map_names())})"
    )


def _package_version(path: Path) -> str | None:
    """The version of the ``diplomacy`` package if ``path`` is one of its maps."""
    folder = mila_maps_folder()
    if folder is None or path.resolve().parent != folder.resolve():
        return None
    try:
        return importlib.metadata.version(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        return None


# -- what the lines say --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _At:
    """Where a fact was read: a file and a line (1-based)."""

    path: Path
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def _fault(at: _At, message: str) -> MapDataError:
    return MapDataError(f"{at}: {message}")


@dataclass(frozen=True, slots=True)
class _Abut:
    """One neighbour on an ABUTS list, as written: its case says who may cross (upper case:
    armies and fleets; lower case: armies only; capitalised, ``Bal``: fleets only)."""

    text: str
    at: _At


@dataclass(slots=True)
class _Place:
    """A place of a terrain line: a province (``LVP``, or ``spa`` for one with coasts) or a
    coast (``SPA/NC``). ``abuts`` is None when no line gave it an ABUTS list."""

    terrain: str
    at: _At
    abuts: list[_Abut] | None = None


@dataclass(frozen=True, slots=True)
class _Name:
    """A name line: ``Gulf of Lyon = lyo gol lyons``; ``unclear`` are the aliases MILA marks
    ambiguous with ``?``."""

    name: str
    code: str  # upper case, as MILA keys it
    aliases: tuple[str, ...]
    unclear: tuple[str, ...]
    at: _At


@dataclass(slots=True)
class _PowerLine:
    """What the lines say of a power: its name as written and its adjective."""

    name: str
    at: _At
    adjective: str | None = None


@dataclass(frozen=True, slots=True)
class _Unit:
    kind: str  # "A" or "F"
    place: str  # upper case: "STP/SC"
    at: _At


def _power_id(text: str) -> str:
    """MILA's key of a power name: upper case without the separators ``- . : + ,`` and
    spaces (``NEUTRAL-STATE`` is ``NEUTRALSTATE``)."""
    return re.sub(r"[\s.:+,-]", "", text.upper())


def _province_of(place: str) -> str:
    """The province part of a place: ``SPA`` of ``SPA/NC``."""
    return place.partition("/")[0]


@dataclass
class _Facts:
    """The board as MILA's lines leave it, before it is checked."""

    files: list[Path] = field(default_factory=list)
    root: str | None = None
    places: dict[str, _Place] = field(default_factory=dict)  # keyed as written
    names: list[_Name] = field(default_factory=list)
    powers: dict[str, _PowerLine] = field(default_factory=dict)  # by MILA's key
    homes: dict[str, dict[str, _At]] = field(default_factory=dict)  # power (or UNOWNED)
    inhabits: set[str] = field(default_factory=set)
    owns: dict[str, dict[str, _At]] = field(default_factory=dict)
    units: dict[str, list[_Unit]] = field(default_factory=dict)
    dummies: list[str] = field(default_factory=list)
    gone: dict[str, str] = field(default_factory=dict)  # UNPLAYED powers, by key
    rules: list[str] = field(default_factory=list)
    victory: tuple[list[int], _At] | None = None
    begin: tuple[list[str], _At] | None = None

    def place(self, code: str) -> _Place | None:
        """The place ``code`` names in any case (MILA's ``area_type`` lookup)."""
        return self.places.get(code.upper()) or self.places.get(code.lower())


class _MapReader:
    """Reads a map file and the files it inherits, line by line, into :class:`_Facts`, as
    MILA's ``Map.load`` does: the first word of a line says what it is, in this order."""

    def __init__(self) -> None:
        self.facts = _Facts()
        self._seen: dict[Path, _At | None] = {}

    def read(self, path: Path, via: _At | None = None) -> None:
        """Read ``path``; ``via`` is the MAP or USES line that named it."""
        resolved = path.resolve()
        if resolved in self._seen:
            assert via is not None
            first = self._seen[resolved]
            where = f"by {first}" if first else "as the map being read"
            raise _fault(
                via,
                f"{path.name} is used a second time (first {where}); a map file may be used once",
            )
        self._seen[resolved] = via
        self.facts.files.append(path)
        try:
            text = files.read_text(path, MAX_MAP_FILE_BYTES)
        except files.TextFileError as exc:
            message = f"cannot read MILA map file {path}: {exc}"
            raise (_fault(via, message) if via else MapDataError(f"{path}: {message}")) from exc
        power: str | None = None  # the power the lines below a power line are about
        for number, line in enumerate(text.split("\n"), start=1):
            power = self.line(line, _At(path, number), power)

    def line(self, line: str, at: _At, power: str | None) -> str | None:
        """Read one line; returns the power the next lines are about."""
        words = line.split()
        if not words or words[0].startswith("#"):
            return power
        key = words[0].upper()
        if key == "VICTORY":
            self.victory(words, at)
        elif key in ("USE", "USES", "MAP"):
            self.uses(key, words, at)
        elif key == "BEGIN":
            self.facts.begin = ([w.upper() for w in words[1:]], at)
        elif key in ("RULE", "RULES"):
            self.rule(words, at)
        elif "=" in line:
            self.name(line, at)
        elif key in ("OWNS", "CENTERS"):
            self.owned(key, words, at, power)
        elif key in ("INHABITS", "HOME", "HOMES"):
            self.inhabits(key, words, at, power)
        elif key == "UNITS":
            self.facts.units[self.need_power(key, at, power)] = []
        elif key in ("A", "F"):
            self.unit(words, at, power)
        elif key in ("DUMMY", "DUMMIES"):
            return self.dummy(key, words, at, power)
        elif key == "DROP":
            for code in words[1:]:
                self.drop(code.upper())
        elif key in (*_TERRAINS, "AMEND"):
            self.terrain(key, words, at)
        elif key == "UNPLAYED":
            self.unplayed(words, at, power)
            return None
        else:
            return self.power(words, at)
        return power

    # -- settings ----------------------------------------------------------------------

    def victory(self, words: list[str], at: _At) -> None:
        try:
            counts = [files.whole_number(word) for word in words[1:]]
        except files.NumberError as err:
            raise _fault(at, f"VICTORY expects whole numbers of supply centres: {err}") from None
        self.facts.victory = (counts, at)

    def uses(self, key: str, words: list[str], at: _At) -> None:
        if key == "MAP":
            if len(words) != 2:
                raise _fault(at, "MAP expects the name of one map this map is built on")
            if self.facts.root is not None:
                raise _fault(at, f"a second MAP line (this map is built on {self.facts.root})")
            self.facts.root = words[1].split(".")[0]
        if len(words) < 2:
            raise _fault(at, f"{key} expects the names of the map files to use")
        for name in words[1:]:
            self.read(self.inherited(name if "." in name else f"{name}.map", at), at)

    def inherited(self, name: str, at: _At) -> Path:
        """A file a MAP or USES line names: beside the file of the line, else among the
        maps of the ``diplomacy`` package."""
        beside = at.path.parent / name
        if probe(beside) == "file":
            return beside
        folder = mila_maps_folder()
        if folder is not None and probe(folder / name) == "file":
            return folder / name
        among = f" nor among the maps of the {PACKAGE} package" if folder else ""
        raise _fault(at, f"no map file {name} beside {at.path.name}{among}")

    def rule(self, words: list[str], at: _At) -> None:
        for rule in (word.upper() for word in words[1:]):
            if rule not in _RULES:
                raise _fault(
                    at,
                    f"RULE {rule} has no counterpart in dipsat's board format, which knows "
                    "only BUILD_ANY (builds on any owned supply centre)",
                )
            self.facts.rules.append(rule)

    # -- names -------------------------------------------------------------------------

    def name(self, line: str, at: _At) -> None:
        """``Full Name = code alias alias? ...``: the name of a place (or of a power)."""
        left, _, right = line.partition("=")
        words = right.split("=")[0].split()
        name = " ".join(left.split())
        if "->" in name:
            raise _fault(at, "renaming with -> is not supported (nor by MILA's engine)")
        if not name or not words:
            raise _fault(at, "expected a name line: Full Name = code [alias...]")
        code = words[0].upper()
        if not _CODE.fullmatch(code):
            raise _fault(
                at, f"expected a code such as ADR or SPA/NC after '=', found {shown(words[0])}"
            )
        for other in self.facts.names:
            if other.name.upper() == name.upper():
                raise _fault(at, f"the name {shown(name)} is given twice (also at {other.at})")
        aliases = tuple(a.replace("+", " ") for a in words[1:] if not a.endswith("?"))
        unclear = tuple(a[:-1].replace("+", " ") for a in words[1:] if a.endswith("?"))
        self.facts.names.append(_Name(name, code, aliases, unclear, at))

    # -- powers ------------------------------------------------------------------------

    def need_power(self, key: str, at: _At, power: str | None) -> str:
        if power is None:
            raise _fault(at, f"{key} must follow the line of a power (NAME (ADJECTIVE) ...)")
        return power

    def power(self, words: list[str], at: _At) -> str | None:
        """``NAME [(ADJECTIVE[:LETTER])] [CENTRE...]``: a power and home centres it adds, or
        ``UNOWNED``/``NEUTRAL`` with the centres nobody owns. Any line whose first word is
        no keyword is one, as for MILA."""
        key = words[0].upper()
        if any(word.upper() == "ABUTS" for word in words):
            raise _fault(
                at,
                f"unknown keyword {shown(words[0])}: expected COAST, LAND, WATER, PORT, SHUT or "
                "AMEND before a code and ABUTS",
            )
        if len(words) > 2 and words[1] == "->":
            raise _fault(at, "renaming a power with -> is not supported (nor by MILA's engine)")
        if key in (_UNOWNED, "NEUTRAL"):
            self.add_homes(_UNOWNED, words[1:], at, reset=False)
            return None
        power = _power_id(key)
        if not power:
            raise _fault(at, f"expected a power name, found {shown(words[0])}")
        line = self.facts.powers.setdefault(power, _PowerLine(key, at))
        rest = words[1:]
        if rest and rest[0].startswith("("):
            adjective = rest.pop(0)
            if not adjective.endswith(")") or adjective.count(":") > 1:
                raise _fault(
                    at,
                    f"expected the adjective as one word in brackets, such as (ENGLISH) or "
                    f"(ENGLISH:E), found {shown(adjective)}",
                )
            line.adjective = adjective[1:-1].partition(":")[0] or None
        reset = power in self.facts.inhabits
        self.facts.inhabits.discard(power)
        self.add_homes(power, rest, at, reset)
        return power

    def add_homes(self, power: str, words: Iterable[str], at: _At, reset: bool) -> None:
        """Home centres of ``power``, as MILA's ``add_homes``: ``-XXX`` takes one away; each
        named one becomes a supply centre, even if taken away or its power removed."""
        if reset or power not in self.facts.homes:
            self.facts.homes[power] = {}
        homes = self.facts.homes[power]
        unowned = self.facts.homes.setdefault(_UNOWNED, {})
        for word in " ".join(words).upper().split():
            code = word.lstrip("-")
            if not code:
                continue
            homes.pop(code, None)
            if power != _UNOWNED:
                unowned.setdefault(code, at)
            if not word.startswith("-"):
                homes[code] = at

    def inhabits(self, key: str, words: list[str], at: _At, power: str | None) -> None:
        """``INHABITS``/``HOME``/``HOMES centre...``: the power's home centres, anew."""
        power = self.need_power(key, at, power)
        reset = key != "INHABITS" or power not in self.facts.inhabits
        self.facts.inhabits.add(power)
        self.add_homes(power, words[1:], at, reset)

    def owned(self, key: str, words: list[str], at: _At, power: str | None) -> None:
        """``OWNS``/``CENTERS centre...``: centres the power owns at the start."""
        power = self.need_power(key, at, power)
        if key == "CENTERS" or power not in self.facts.owns:
            self.facts.owns[power] = {}
        for word in words[1:]:
            self.facts.owns[power].setdefault(word.upper(), at)

    def unit(self, words: list[str], at: _At, power: str | None) -> None:
        """``A BUD`` / ``F STP/SC``: a starting unit of the power; a later unit in the same
        province replaces it, whoever owns it."""
        power = self.need_power("a unit", at, power)
        if len(words) != 2:
            raise _fault(
                at,
                f"expected a unit such as 'A PAR' or 'F STP/SC', found {shown(' '.join(words))}",
            )
        place = words[1].upper()
        for units in self.facts.units.values():
            units[:] = [u for u in units if _province_of(u.place) != _province_of(place)]
        self.facts.units.setdefault(power, []).append(_Unit(words[0].upper(), place, at))

    def dummy(self, key: str, words: list[str], at: _At, power: str | None) -> str | None:
        """``DUMMY`` (the power above), ``DUMMY name...``, ``DUMMY ALL [EXCEPT name...]``."""
        facts = self.facts
        if len(words) == 1:
            if key == "DUMMIES":
                raise _fault(at, "DUMMIES expects the powers, or ALL [EXCEPT power...]")
            power = self.need_power(key, at, power)
            if power not in facts.dummies:
                facts.dummies.append(power)
            return power
        names = [w.upper() for w in words[1:]]
        everyone = [p for p in facts.homes if p != _UNOWNED]
        if names[0] != "ALL":
            chosen = [self.known_power(key, name, at) for name in names]
            facts.dummies += [p for p in dict.fromkeys(chosen) if p not in facts.dummies]
        elif len(names) == 1:
            facts.dummies = everyone
        elif names[1] != "EXCEPT" or len(names) == 2:
            raise _fault(at, f"expected {key} ALL or {key} ALL EXCEPT power...")
        else:
            spared = {self.known_power(key, name, at) for name in names[2:]}
            facts.dummies = [p for p in everyone if p not in spared]
        return None

    def known_power(self, key: str, name: str, at: _At) -> str:
        power = _power_id(name)
        if power not in self.facts.powers:
            raise _fault(at, f"{key} {name}: no power {name} has been declared")
        return power

    def unplayed(self, words: list[str], at: _At, power: str | None) -> None:
        """``UNPLAYED`` (the power above), ``UNPLAYED name...``, ``UNPLAYED ALL [EXCEPT
        name...]``: the powers leave the map; their home centres stay supply centres."""
        facts = self.facts
        names = [w.upper() for w in words[1:]]
        if not names:
            goners = [self.need_power("UNPLAYED", at, power)]
        elif names[0] != "ALL":
            goners = [self.known_power("UNPLAYED", name, at) for name in names]
        elif len(names) == 1:
            goners = [p for p in facts.homes if p != _UNOWNED]
        elif names[1] != "EXCEPT" or len(names) == 2:
            raise _fault(at, "expected UNPLAYED ALL or UNPLAYED ALL EXCEPT power...")
        else:
            spared = {self.known_power("UNPLAYED", name, at) for name in names[2:]}
            goners = [p for p in facts.homes if p != _UNOWNED and p not in spared]
        for goner in goners:
            facts.gone[goner] = facts.powers.pop(goner).name
            facts.homes.pop(goner, None)
            facts.owns.pop(goner, None)
            facts.units.pop(goner, None)
            facts.inhabits.discard(goner)
            facts.dummies = [p for p in facts.dummies if p != goner]

    # -- places ------------------------------------------------------------------------

    def terrain(self, key: str, words: list[str], at: _At) -> None:
        """``COAST code ABUTS neighbour...`` (or LAND, WATER, PORT, SHUT): a place and its
        borders; ``AMEND code ABUTS ...`` adds borders to a place, ``-xxx`` removes those
        starting with ``xxx``. A line for ``SPA`` replaces ``spa`` and its coasts."""
        if len(words) < 2:
            raise _fault(at, f"{key} expects the code of a place, then ABUTS and its neighbours")
        code = words[1]
        if not _CODE.fullmatch(code):
            raise _fault(
                at,
                f"{key} expects the code of a place such as ADR or SPA/NC, found {shown(code)}",
            )
        if not (code.isupper() or code.islower()):
            raise _fault(
                at,
                f"{key} {code}: expected the code in capitals, or in lower case for the "
                "province of a place with coasts (MILA's engine finds no place written so)",
            )
        if len(words) > 2 and words[2].upper() != "ABUTS":
            raise _fault(at, f"expected ABUTS after {key} {code}, found {shown(words[2])}")
        places = self.facts.places
        old = places.pop(code.swapcase(), None)
        if old is not None and code.isupper() and "/" not in code:
            for coast in [p for p in places if p.upper().startswith(f"{code}/")]:
                self.drop(coast.upper())
        if key == "AMEND":
            place = old or places.get(code)
            if place is None:
                raise _fault(at, f"AMEND {code}: no place {code} to amend")
        else:
            place = _Place(key, at, places[code].abuts if code in places else None)
            if len(words) > 2:
                place.abuts = []
        places.pop(code, None)
        places[code] = place
        for word in words[3:]:
            if place.abuts is None:
                place.abuts = []
            if word.startswith("-"):
                cut = word[1:].upper()
                place.abuts = [a for a in place.abuts if not a.text.upper().startswith(cut)]
            else:
                place.abuts.append(_Abut(word, at))

    def drop(self, code: str) -> None:
        """``DROP code``: the places whose code starts with ``code`` leave the map, with
        their names, borders, centres and units."""
        facts = self.facts

        def gone(text: str) -> bool:
            return text.upper().startswith(code)

        for key in [k for k in facts.places if gone(k)]:
            del facts.places[key]
        for place in facts.places.values():
            if place.abuts is not None:
                place.abuts = [a for a in place.abuts if not gone(a.text)]
        facts.names = [n for n in facts.names if not gone(n.code)]
        for homes in (*facts.homes.values(), *facts.owns.values()):
            for centre in [c for c in homes if gone(c)]:
                del homes[centre]
        for units in facts.units.values():
            units[:] = [u for u in units if _province_of(u.place) != _province_of(code)]


# -- MILA's rule of adjacency -----------------------------------------------------------


class _Geometry:
    """Who may move where, by MILA's rule (``Map._abuts`` and ``Map.is_valid_unit``):

    - an army stands on a LAND, COAST or PORT province, never on a coast (``SPA/NC``);
      a fleet on WATER, COAST or PORT, but not on a province whose line is in lower case
      (``spa``: a fleet there stands on one of its coasts); nobody on SHUT;
    - a unit's neighbours are the ABUTS list of its place (``spa`` for ``SPA``); the first
      entry naming the target (or a coast of it) decides: a fleet may not use a lower-case
      entry nor enter LAND, nor a place not written in capitals (``SPA``: it must name a
      coast); an army may not use a capitalised entry (``Bal``) nor enter WATER.
    """

    def __init__(self, facts: _Facts) -> None:
        self.facts = facts

    def terrain(self, code: str) -> str | None:
        place = self.facts.place(code)
        return place.terrain if place else None

    def may_stand(self, unit: str, code: str) -> bool:
        """True if a unit of that kind (``A``/``F``) may stand at ``code`` (upper case)."""
        terrain = self.terrain(code)
        if terrain is None or terrain == "SHUT":
            return False
        if unit == "A":
            return "/" not in code and terrain in _ARMY_TERRAINS
        lower = self.facts.places.get(code.lower())
        return terrain in _FLEET_TERRAINS and (lower is None or lower.abuts is None)

    def abuts_list(self, code: str) -> list[_Abut]:
        """The ABUTS list a unit at ``code`` (upper case) uses."""
        place = self.facts.places.get(code)
        if place is None or place.abuts is None:
            place = self.facts.places.get(code.lower())
        return place.abuts if place is not None and place.abuts is not None else []

    def entry(self, here: str, there: str) -> _Abut | None:
        """The first entry of ``here``'s list naming ``there`` or a coast of it."""
        for abut in self.abuts_list(here):
            text = abut.text.upper()
            if there in (text, _province_of(text)):
                return abut
        return None

    def abuts(self, unit: str, here: str, there: str) -> _Abut | None:
        """The ABUTS entry that lets a unit (``A``/``F``) at ``here`` move to ``there``, or
        None if it may not. Codes are in upper case."""
        if not self.may_stand(unit, here) or (unit == "A" and "/" in there):
            return None
        abut = self.entry(here, there)
        terrain = self.terrain(there)
        if abut is None or terrain == "SHUT":
            return None
        if unit == "F":
            if terrain == "LAND" or abut.text[0] != abut.text[0].upper():
                return None
            if there not in self.facts.places:
                return None
        elif terrain == "WATER" or abut.text == abut.text.title():
            return None
        return abut


# -- the board in dipsat's terms ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _ProvinceOut:
    code: str
    name: str
    kind: str  # "land", "coast" or "sea"
    centre: bool
    army: tuple[str, ...]
    fleet: tuple[str, ...] | None  # a sea's or a coast's fleet neighbours
    coasts: tuple[tuple[str, tuple[str, ...]], ...] | None  # or each coast's
    aliases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _PowerOut:
    name: str
    adjective: str
    aliases: tuple[str, ...]
    home: tuple[str, ...]
    start: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _BoardOut:
    name: str
    origin: str  # what the board was converted from
    notes: tuple[str, ...]  # what MILA says that dipsat's format does not hold
    victory: int
    victory_note: str
    builds: str
    start_year: int
    powers: tuple[_PowerOut, ...]
    provinces: tuple[_ProvinceOut, ...]


def _capitalised(text: str) -> str:
    """``NEUTRAL-STATE`` as ``Neutral-State``."""
    return "-".join(part[:1].upper() + part[1:].lower() for part in text.split("-"))


def _distinct(texts: Iterable[str], taken: Iterable[str]) -> tuple[str, ...]:
    """``texts`` without repeats and without those ``taken`` (compared as dipsat's names
    are, :func:`~topology.names.normalize`), sorted regardless of case."""
    seen = {normalize(t) for t in taken}
    kept: list[str] = []
    for text in texts:
        key = normalize(text)
        if key and key not in seen:
            seen.add(key)
            kept.append(text)
    return tuple(sorted(kept, key=lambda t: (t.casefold(), t)))


def _place_sort_key(text: str) -> tuple[str, str]:
    """Places sort as dipsat's locations do: by province, the bare province first."""
    province, _, coast = text.partition("/")
    return (province, coast)


class _Converter:
    """Checks the facts as MILA's ``Map.validate`` would, and states them in dipsat's
    terms: provinces with their kinds, borders and names, powers with their home centres
    and units. A fault names the line that caused it."""

    def __init__(self, facts: _Facts, path: Path) -> None:
        self.facts = facts
        self.path = path
        self.geometry = _Geometry(facts)
        self.notes: list[str] = []
        self.playable = self.provinces_of_play()

    def convert(self) -> _BoardOut:
        self.check_abuts()
        self.check_names()
        centres = self.centres()
        provinces = tuple(self.province(code, centres) for code in sorted(self.playable))
        powers = self.powers({p.code for p in provinces if p.kind == "land"})
        self.check_readable_names(provinces, powers)
        return _BoardOut(
            name=self.path.stem,
            origin=self.origin(),
            notes=tuple(self.notes),
            victory=self.victory(len(centres)),
            victory_note=self.victory_note(len(centres)),
            builds=next((_RULES[r] for r in self.facts.rules), "home"),
            start_year=self.start_year(),
            powers=powers,
            provinces=provinces,
        )

    def origin(self) -> str:
        version = _package_version(self.path)
        source = f"the MILA map {self.path.name}"
        if version:
            source += f" of the {PACKAGE} package {version}"
        used = [p.name for p in self.facts.files[1:]]
        if used:
            listed = ", ".join(used[:-1]) + (" and " if len(used) > 1 else "") + used[-1]
            source += f", built on {listed},"
        return source

    # -- places ------------------------------------------------------------------------

    def provinces_of_play(self) -> dict[str, _Place]:
        """The provinces by upper-case code: every place but coasts and SHUT ones."""
        found: dict[str, _Place] = {}
        for code, place in self.facts.places.items():
            upper = code.upper()
            if "/" in code:
                if self.facts.place(_province_of(code)) is None:
                    raise _fault(
                        place.at,
                        f"{upper} is a coast of {_province_of(upper)}, which no terrain line "
                        "defines",
                    )
            elif place.terrain == "SHUT":
                self.notes.append(
                    f"{upper} ({self.name_of(upper, place.at)}) is impassable (SHUT), no "
                    "province of play: it is left out."
                )
            else:
                found[upper] = place
        return found

    def check_abuts(self) -> None:
        """Every ABUTS entry names a place of the map."""
        for place in self.facts.places.values():
            for abut in place.abuts or ():
                if self.facts.place(abut.text) is None:
                    raise _fault(
                        abut.at, f"ABUTS names {shown(abut.text)}, which is no place of the map"
                    )

    def check_names(self) -> None:
        """Every name line names a place, or a power (an other name of it)."""
        for name in self.facts.names:
            known = self.facts.place(name.code) or name.code in self.facts.powers
            if not known and name.code not in self.facts.gone:
                raise _fault(
                    name.at, f"{name.code} is neither a place (no terrain line) nor a power"
                )

    def name_of(self, code: str, at: _At) -> str:
        """The full name of the place ``code``: that of its first name line."""
        for name in self.facts.names:
            if name.code == code:
                return name.name
        raise _fault(at, f"{code} has no name line (Full Name = {code.lower()})")

    def aliases_of(self, code: str, name: str) -> tuple[str, ...]:
        """The other names of ``code``: further name lines and their aliases, without
        MILA's ambiguous ones (``Carthage?``), which would shadow a power's name."""
        lines = [n for n in self.facts.names if n.code == code]
        unclear = [t for n in lines for t in n.unclear]
        if unclear:
            listed = ", ".join(t + "?" for t in unclear)
            which = "alias" if len(unclear) == 1 else "aliases"
            verb = "is" if len(unclear) == 1 else "are"
            self.notes.append(
                f"{code} ({name}): MILA's ambiguous {which} {listed} {verb} left out."
            )
        return _distinct((t for n in lines for t in (n.name, *n.aliases)), (code, name))

    def check_readable_names(
        self, provinces: tuple[_ProvinceOut, ...], powers: tuple[_PowerOut, ...]
    ) -> None:
        """The names dipsat's format refuses (``topology.loader``): one that cannot be read
        back (`name_problem`), a name of two provinces, a province's alias that names a
        power, a power's alias that names a province; each at the line that gave it."""
        power_names = {
            normalize(text): power.name
            for power in powers
            for text in (power.name, power.adjective, *power.aliases)
        }
        named: dict[tuple[str, ...], str] = {}
        for province in provinces:
            code = province.code.upper()
            texts = [(province.code, "code"), (province.name, "name")]
            texts += [(alias, "alias") for alias in province.aliases]
            for text, kind in texts:
                at = self.said(code, text)
                problem = name_problem(text)
                if problem is not None:
                    raise _fault(at, f"{code}: the {kind} {shown(text)} {problem}")
                other = named.setdefault(normalize(text), code)
                if other != code:
                    raise _fault(
                        at,
                        f"{code}: the {kind} {shown(text)} also names {other}: every order "
                        "naming it would be ambiguous",
                    )
                if kind == "alias" and normalize(text) in power_names:
                    raise _fault(
                        at,
                        f"{code}: the alias {shown(text)} is also a name of the power "
                        f"{power_names[normalize(text)]}",
                    )
        spoken = {
            normalize(text): p.code.upper() for p in provinces for text in (p.name, *p.aliases)
        }
        for power in powers:
            key = _power_id(power.name)
            for text in (power.name, power.adjective, *power.aliases):
                at = self.said(key, text, self.facts.powers[key].at)
                problem = name_problem(text, power=True)
                if problem is not None:
                    raise _fault(at, f"{power.name}: the name {shown(text)} {problem}")
            for alias in power.aliases:
                clash = spoken.get(normalize(alias))  # a province's code may be one (ENG)
                if clash is not None:
                    raise _fault(
                        self.said(key, alias, self.facts.powers[key].at),
                        f"{power.name}: the alias {shown(alias)} is also a name of {clash}",
                    )

    def said(self, code: str, text: str, otherwise: _At | None = None) -> _At:
        """The name line that gave ``code`` the name or alias ``text``, else ``otherwise``
        or the place's own line."""
        for name in self.facts.names:
            if name.code == code and text in (name.name, *name.aliases, *name.unclear):
                return name.at
        return otherwise or self.at(code)

    def coasts_of(self, code: str) -> list[str]:
        """The coasts of the province ``code``: ``["SPA/NC", "SPA/SC"]``."""
        return sorted(
            p.upper() for p in self.facts.places if "/" in p and _province_of(p.upper()) == code
        )

    def army_neighbours(self, code: str) -> tuple[str, ...]:
        found = []
        for other in self.playable:
            entry = self.geometry.abuts("A", code, other)
            if entry is not None:
                if self.geometry.abuts("A", other, code) is None:
                    raise self.one_way("an army", code, other, entry)
                found.append(other.lower())
        return tuple(sorted(found))

    def fleet_neighbours(self, here: str) -> tuple[str, ...]:
        found = []
        for place in self.facts.places:
            there = place.upper()
            entry = self.geometry.abuts("F", here, there)
            if entry is not None:
                if self.geometry.abuts("F", there, here) is None:
                    raise self.one_way("a fleet", here, there, entry)
                found.append(there.lower())
        return tuple(sorted(found, key=_place_sort_key))

    def one_way(self, who: str, here: str, there: str, entry: _Abut) -> MapDataError:
        back = self.facts.place(there)
        line = f" ({back.at})" if back else ""
        return _fault(
            entry.at,
            f"{who} may move from {here} to {there} but not back: the ABUTS list of "
            f"{there}{line} must name {here} too, in a case that lets {who[who.index(' ') + 1 :]}s "
            "pass (dipsat needs every border both ways)",
        )

    def province(self, code: str, centres: set[str]) -> _ProvinceOut:
        place = self.playable[code]
        name = self.name_of(code, place.at)
        aliases = self.aliases_of(code, name)
        if place.terrain == "WATER":
            if self.coasts_of(code):
                raise _fault(place.at, f"the sea {code} has coasts; only land by the sea has")
            if code in centres:
                raise _fault(
                    place.at,
                    f"{code} is a supply centre at sea (WATER); dipsat's "
                    "format holds centres on land only",
                )
            fleet = self.fleet_neighbours(code)
            return _ProvinceOut(code.lower(), name, "sea", False, (), fleet, None, aliases)
        army = self.army_neighbours(code)
        centre = code in centres
        coasts = self.coasts_of(code)
        if place.terrain == "PORT":
            self.notes.append(
                f"{code} ({name}) is a PORT: in MILA a fleet there may convoy as at sea; "
                "dipsat's format has no such kind, so it is a coast province here."
            )
        if coasts:
            split = self.split_coasts(code, place, coasts)
            return _ProvinceOut(code.lower(), name, "coast", centre, army, None, split, aliases)
        fleet = ()
        if place.terrain != "LAND" and self.geometry.may_stand("F", code):
            fleet = self.fleet_neighbours(code)
        if fleet:
            return _ProvinceOut(code.lower(), name, "coast", centre, army, fleet, None, aliases)
        if place.terrain != "LAND":
            self.notes.append(
                f"{code} ({name}) is {place.terrain} in MILA, but no fleet can move to or "
                "from it: it is a land province here."
            )
        return _ProvinceOut(code.lower(), name, "land", centre, army, None, None, aliases)

    def split_coasts(
        self, code: str, place: _Place, coasts: list[str]
    ) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The fleet neighbours of each coast of a province with separate coasts."""
        if self.geometry.may_stand("F", code):
            raise _fault(
                place.at,
                f"{code} has coasts ({', '.join(coasts)}), so its own line must be in lower "
                f"case ({code.lower()}): a fleet there stands on one of its coasts",
            )
        if len(coasts) < 2:
            raise _fault(
                self.at(coasts[0]),
                f"{code} has a single coast, {coasts[0]}; dipsat's format needs two or more "
                "separate coasts (else the coast is the province's own)",
            )
        result = []
        for coast in coasts:
            suffix = coast.partition("/")[2].lower()
            if suffix not in COASTS:
                known = ", ".join(c.upper() for c in COASTS)
                raise _fault(self.at(coast), f"unknown coast {coast}; expected one of {known}")
            if not self.geometry.may_stand("F", coast):
                terrain = self.geometry.terrain(coast)
                raise _fault(self.at(coast), f"no fleet may stand on {coast} ({terrain})")
            neighbours = self.fleet_neighbours(coast)
            if not neighbours:
                raise _fault(self.at(coast), f"no fleet can move to or from {coast}")
            result.append((suffix, neighbours))
        return tuple(result)

    def at(self, code: str) -> _At:
        """The terrain line of the place ``code``."""
        place = self.facts.place(code)
        assert place is not None
        return place.at

    # -- centres and powers ------------------------------------------------------------

    def centres(self) -> set[str]:
        """The supply centres: every centre a home or OWNS list ever named (MILA's
        ``scs``), by upper-case code."""
        found: dict[str, _At] = {}
        for homes in (*self.facts.homes.values(), *self.facts.owns.values()):
            for code, at in homes.items():
                found.setdefault(code, at)
        for code, at in found.items():
            if code not in self.playable:
                shut = self.facts.place(code)
                what = "is impassable (SHUT)" if shut else "is no province of the map"
                raise _fault(at, f"the supply centre {code} {what}")
        return set(found)

    def powers(self, land: set[str]) -> tuple[_PowerOut, ...]:
        facts = self.facts
        keys = sorted(p for p in facts.homes if p != _UNOWNED)
        if len(keys) < 2:
            raise MapDataError(f"{self.path}: a map needs two powers or more, found {len(keys)}")
        for key, written in facts.gone.items():
            if key not in facts.powers:
                self.notes.append(
                    f"{_capitalised(written)} is UNPLAYED: it is left out, and its home "
                    "centres are neutral."
                )
        owner: dict[str, str] = {}
        result = []
        for key in keys:
            for code, at in facts.homes[key].items():
                other = owner.setdefault(code, key)
                if other != key:
                    raise _fault(
                        at,
                        f"{code} is a home centre of {other} and of {key}; "
                        "dipsat's format gives each centre one home power",
                    )
            self.check_owned(key)
            power = self.power(key, land)
            if key in facts.dummies:
                self.notes.append(
                    f"{power.name} is a dummy (DUMMY): no player gives it orders (MILA's "
                    "engine reads the line and uses it nowhere else). Here it is a power like "
                    "the others: given no orders, its units hold, its builds are waived and "
                    "its disbands go to civil disorder."
                )
            result.append(power)
        return tuple(sorted(result, key=lambda p: p.name))

    def check_owned(self, key: str) -> None:
        """A power's OWNS or CENTERS line, if any, names its home centres."""
        owned = self.facts.owns.get(key)
        if owned is not None and set(owned) != set(self.facts.homes[key]):
            at = next(iter(owned.values()), None) or next(iter(self.facts.homes[key].values()))
            raise _fault(
                at,
                f"{key} owns other centres at the start than its home centres; "
                "dipsat's format starts every power on its home centres",
            )

    def power(self, key: str, land: set[str]) -> _PowerOut:
        line = self.facts.powers[key]
        name = _capitalised(line.name)
        adjective = _capitalised(line.adjective) if line.adjective else name
        named = [t for n in self.facts.names if n.code == key for t in (n.name, *n.aliases)]
        start = [self.start(key, unit, land) for unit in self.facts.units.get(key, [])]
        return _PowerOut(
            name,
            adjective,
            _distinct([key, *named], (name, adjective)),
            tuple(sorted(code.lower() for code in self.facts.homes[key])),
            tuple(sorted(start, key=lambda unit: _place_sort_key(unit[2:]))),
        )

    def start(self, key: str, unit: _Unit, land: set[str]) -> str:
        """A starting unit as dipsat writes it, ``F stp/sc``."""
        code = unit.place.lower()
        fleet_on_land = unit.kind == "F" and code in land
        if fleet_on_land or not self.geometry.may_stand(unit.kind, unit.place):
            terrain = self.geometry.terrain(unit.place)
            what = {"A": "an army", "F": "a fleet"}[unit.kind]
            where = f"{unit.place} ({terrain})" if terrain else f"{unit.place}: no such place"
            if fleet_on_land:
                where += ", which no fleet can move to or from"
            raise _fault(
                unit.at, f"{key}'s {unit.kind} {unit.place}: {what} cannot stand on {where}"
            )
        return f"{unit.kind} {code}"

    # -- settings ----------------------------------------------------------------------

    def victory(self, centres: int) -> int:
        """The solo count: MILA's VICTORY, or by default more than half the centres."""
        if self.facts.victory is None or not self.facts.victory[0]:
            return centres // 2 + 1
        counts, at = self.facts.victory
        if len(counts) > 1:
            raise _fault(
                at,
                "VICTORY with a count for each year has no counterpart in "
                "dipsat's format, which has one count for a solo",
            )
        if not 1 <= counts[0] <= centres:
            raise _fault(at, f"VICTORY {counts[0]}: expected from 1 to the {centres} centres")
        return counts[0]

    def victory_note(self, centres: int) -> str:
        if self.facts.victory is None or not self.facts.victory[0]:
            return f"more than half of the {centres} supply centres (MILA's default)"
        return "MILA's VICTORY line"

    def start_year(self) -> int:
        """The year of BEGIN, which must open in the Spring movement."""
        if self.facts.begin is None:
            return 1901
        words, at = self.facts.begin
        expected = "BEGIN expects a season, a year and a phase, such as 'SPRING 1901 MOVEMENT'"
        if len(words) != 3:
            raise _fault(at, expected)
        try:
            year = files.whole_number(words[1])
        except files.NumberError as err:
            raise _fault(at, f"{expected}: {err}") from None
        if words[0] != "SPRING" or words[2] != "MOVEMENT" or not 1 <= year <= MAX_YEAR:
            raise _fault(
                at,
                f"BEGIN {' '.join(words):.60}: dipsat's games open in the Spring "
                f"movement of a year from 1 to {MAX_YEAR}",
            )
        return year


# -- writing -----------------------------------------------------------------------------


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _list(texts: Iterable[str]) -> str:
    return "[" + ", ".join(_string(t) for t in texts) + "]"


def _comment(text: str, bullet: str = "") -> list[str]:
    """``text`` as comment lines of at most 92 characters."""
    indent = " " * len(bullet)
    return textwrap.wrap(text, 92, initial_indent=f"# {bullet}", subsequent_indent=f"# {indent}")


def _header(board: _BoardOut) -> list[str]:
    lines = _comment(
        f"Converted from {board.origin} by dipsat (topology.milamap, or `dipsat variant "
        "import`): convert again rather than edit. It holds only facts of topology: the "
        "provinces with their names, kinds and borders, the supply centres, each power's "
        "home centres and starting units, the solo count, the first year and where powers "
        "build. The format is described in docs/variants.md."
    )
    if board.notes:
        lines.append("# Notes on the conversion:")
        for note in board.notes:
            lines.extend(_comment(note, "- "))
    return lines


def _power_lines(power: _PowerOut) -> list[str]:
    key = power.name if _BARE_KEY.fullmatch(power.name) else _string(power.name)
    return [
        f"[powers.{key}]",
        f"adjective = {_string(power.adjective)}",
        f"aliases = {_list(power.aliases)}",
        f"home = {_list(power.home)}",
        f"start = {_list(power.start)}",
        "",
    ]


def _province_lines(province: _ProvinceOut) -> list[str]:
    lines = [
        "[[province]]",
        f"code = {_string(province.code)}",
        f"name = {_string(province.name)}",
        f'kind = "{province.kind}"',
    ]
    if province.centre:
        lines.append("centre = true")
    if province.kind != "sea":
        lines.append(f"army = {_list(province.army)}")
    if province.fleet is not None:
        lines.append(f"fleet = {_list(province.fleet)}")
    if province.coasts is not None:
        tables = ", ".join(f"{coast} = {_list(n)}" for coast, n in province.coasts)
        lines.append(f"coasts = {{ {tables} }}")
    lines.append(f"aliases = {_list(province.aliases)}")
    lines.append("")
    return lines


def _toml(board: _BoardOut) -> str:
    lines = [
        *_header(board),
        "",
        f"name = {_string(board.name)}",
        f"victory = {board.victory}  # {board.victory_note}",
        f'builds = "{board.builds}"',
        f"start_year = {board.start_year}",
        "",
    ]
    for power in board.powers:
        lines.extend(_power_lines(power))
    for province in board.provinces:
        lines.extend(_province_lines(province))
    return "\n".join(lines).rstrip("\n") + "\n"


# -- the public face ---------------------------------------------------------------------


def mila_map_text(source: str | os.PathLike[str]) -> str:
    """The TOML text, in dipsat's board format, of the MILA map ``source``: a path to a
    ``.map`` file, or the name of a map of the installed ``diplomacy`` package. The text is
    the same, byte for byte, each time: provinces by code, powers by name, lists sorted.

    Raises:
        MapDataError: the file, or a file it inherits, is missing or unreadable, breaks
            MILA's format, or says what dipsat's format cannot hold (``FILE:LINE: ...``).
    """
    path = find_mila_map(source)
    reader = _MapReader()
    reader.read(path)
    return _toml(_Converter(reader.facts, path).convert())


def load_mila_map(source: str | os.PathLike[str]) -> Board:
    """The board of the MILA map ``source`` (as for :func:`mila_map_text`), checked by
    dipsat's own loader.

    Raises:
        MapDataError: as :func:`mila_map_text`.
    """
    path = find_mila_map(source)
    return board_from_text(mila_map_text(path), f"{path} (converted)")
