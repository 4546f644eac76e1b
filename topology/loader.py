"""Reading and checking map files (TOML) into :class:`~topology.board.Board`.

Every fault is reported as ``FILE:LINE: where: what was expected`` (the line of the key or
table at fault; TOML itself gives no positions, so :class:`KeyLines` finds them in the text).
The format is described in ``docs/variants.md``."""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import files
from .board import Board
from .files import probe, shown
from .names import normalize
from .places import (
    COASTS,
    BuildSites,
    Kind,
    Location,
    Power,
    Province,
    UnitType,
    standing_problem,
)

STANDARD_PATH = Path(__file__).parent / "data" / "standard.toml"
"""The standard map shipped with the package."""

MAX_MAP_FILE_BYTES = 4_000_000
"""The largest map, layout or MILA map file read."""

MAX_YEAR = 9999
"""The last year a game may be in (a phase code keeps four digits: 'F9999M'): a board
cannot start later."""
_CODE = re.compile(r"[a-z][a-z0-9]*")
_TOP_KEYS = {
    "name",
    "powers",
    "province",
    "victory",
    "builds",
    "start_year",
    "drawing",
    "codes",
}
_POWER_KEYS = {"adjective", "home"}
_POWER_OPTIONAL = {"aliases", "start"}
# a table header, '[[province]]' or '[powers.France]': possessive quantifiers (*+, ++)
# never give back what they took, so a long line is matched in linear time (a lazy name
# before \s* was quadratic); the name's spaces are stripped where it is read
_HEADER = re.compile(r"^\s*+(\[\[?+)([^\]]++)\]\]?+\s*+(#.*)?$")
_KEY = re.compile(r'^\s*([A-Za-z0-9_-]+|"[^"]*")\s*=')
_PROVINCE_KEYS = {"code", "name", "kind", "centre", "army", "fleet", "coasts", "aliases"}
# what a character of a name would mean where dipsat writes names and reads them back
_SEPARATORS = {
    "#": "starts a comment",
    ",": "separates the units of a position",
    "@": "marks a board of the multiverse ('a-Munich@3')",
}
_WHAT = {"code": "code", "name": "name", "aliases": "alias"}
_TIMELINE_PREFIX = re.compile(r"[a-z]{1,2}-\w")  # 'b-Munich': Munich on timeline b


def name_problem(text: str, power: bool = False) -> str | None:
    """Why a name (of a province, or a `power`) could not be written in an order, a
    position or a case file and read back as itself; None if it can."""
    for char in text:
        if unicodedata.category(char).startswith("C"):  # control, format, unassigned
            what = (
                "a line break" if char in "\n\r" else f"the invisible character U+{ord(char):04X}"
            )
            return f"holds {what}: a name is written on one line"
    for char, meaning in (*_SEPARATORS.items(), *([(":", "ends a header")] if power else [])):
        if char in text:
            return f"holds {char!r}, which {meaning}"
    if _TIMELINE_PREFIX.match(text):
        return "starts as a place of the multiverse does ('b-Munich': Munich on timeline b)"
    return None


class MapDataError(ValueError):
    """A map file is unreadable or breaks a rule of the format."""


def load_board(path: str | os.PathLike[str]) -> Board:
    """Read, check and build the board in the TOML map file at ``path``.

    Raises:
        TypeError: ``path`` is not a path (an integer would be read as a file descriptor).
        MapDataError: the file cannot be read or parsed, or its data is
            inconsistent (the message names the file and the province).
    """
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"path: expected a map file's path, found {type(path).__name__}")
    path = Path(path)
    return board_from_text(read_text(path, "map file"), path)


def board_from_text(text: str, origin: str | os.PathLike[str]) -> Board:
    """The board a map file's text describes; ``origin`` names it in errors (and the folder
    of a ``drawing`` file it names).

    Raises:
        MapDataError: the text is not valid TOML or breaks a rule of the format.
    """
    path = Path(origin)
    return _Builder(path, parse_toml(text, path), KeyLines(text)).build()


def read_text(path: Path, what: str) -> str:
    """A file's text, or a MapDataError naming the file and what went wrong."""
    try:
        return files.read_text(path, MAX_MAP_FILE_BYTES)
    except files.TextFileError as exc:
        raise MapDataError(f"{path}: {what}: {exc}") from exc


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    """TOML text's data, or a MapDataError naming the file and the line at fault."""
    try:
        return files.parse_toml(text)
    except files.TextFileError as exc:
        raise MapDataError(f"{path}:{exc.line}:{exc.column}: {exc.message}") from exc


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """A TOML file's data, or a MapDataError naming the file and what went wrong."""
    return parse_toml(read_text(path, what), path)


class KeyLines:
    """The line of each table and key of a map or layout file's text: ``[[province]]``
    tables by number, ``[powers.X]`` tables by power, the top level as ``()``."""

    def __init__(self, text: str) -> None:
        self.tables: dict[tuple[str, ...], dict[str, int]] = {(): {}}
        provinces = 0
        here: tuple[str, ...] = ()
        for number, line in enumerate(text.splitlines(), start=1):
            header = _HEADER.match(line)
            if header:
                name = header.group(2).replace('"', "").strip()
                if header.group(1) == "[[" and name == "province":
                    provinces += 1
                    here = ("province", str(provinces))
                else:
                    here = tuple(part.strip() for part in name.split("."))
                self.tables.setdefault(here, {"": number})
                continue
            key = _KEY.match(line)
            if key:
                self.tables.setdefault(here, {}).setdefault(key.group(1).strip('"'), number)

    def line(self, table: tuple[str, ...], key: str = "") -> int:
        """The line of ``key`` in ``table`` (or of the table itself); 0 if unknown."""
        found = self.tables.get(table, {})
        return found.get(key) or found.get("") or 0


@functools.cache
def standard() -> Board:
    """The standard board (loaded once, then shared)."""
    return load_board(STANDARD_PATH)


class _Builder:
    """Checks the raw TOML data of one file and turns it into a Board."""

    def __init__(self, path: Path, raw: dict[str, Any], lines: KeyLines) -> None:
        self.path = path
        self.raw = raw
        self.lines = lines
        self.numbers: dict[str, int] = {}  # province code -> its [[province]] number

    def fail(self, where: str, message: str, key: str = "") -> MapDataError:
        """The error for a fault at ``where`` ("top level", "province 'x'", "power 'X'"),
        located at the line of ``key`` in that table."""
        if where.startswith("province #"):
            table: tuple[str, ...] = ("province", where.removeprefix("province #"))
        elif where.startswith("province "):
            code = where.removeprefix("province ").strip("'")
            table = ("province", str(self.numbers.get(code, 0)))
        elif where.startswith("power "):
            table = ("powers", where.removeprefix("power ").strip("'"))
        elif where.startswith("codes."):
            table = ("codes", where.removeprefix("codes."))
        else:
            table = ()
        line = self.lines.line(table, key)
        at = f"{self.path}:{line}" if line else f"{self.path}"
        return MapDataError(f"{at}: {where}: {message}")

    def build(self) -> Board:
        raw = self.raw
        extra = set(raw) - _TOP_KEYS
        if extra:
            key = sorted(extra)[0]
            raise self.fail(
                "top level", f"unknown keys {sorted(extra)}; expected {sorted(_TOP_KEYS)}", key
            )
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise self.fail("top level", "`name` must be a non-empty string", "name")
        entries = raw.get("province")
        if not isinstance(entries, list) or not entries:
            raise self.fail("top level", "expected a [[province]] array of tables")

        tables = self.read_provinces(entries)
        self.check_province_names(tables)
        army_edges = self.read_army_edges(tables)
        fleet_edges = self.read_fleet_edges(tables)
        powers = self.read_powers(raw.get("powers"), tables)
        self.check_aliases(tables, powers)
        home_of = {code: p.name for p in powers for code in p.home}

        provinces = [
            Province(
                code=code,
                name=t["name"],
                kind=Kind(t["kind"]),
                is_centre=t.get("centre", False),
                home=home_of.get(code),
                coasts=tuple(t.get("coasts", {})),
                aliases=tuple(t.get("aliases", ())),
            )
            for code, t in tables.items()
        ]
        centres = sum(1 for t in tables.values() if t.get("centre", False))
        board = Board(
            name,
            provinces,
            powers,
            army_edges,
            fleet_edges,
            victory=self.number("victory", 1, centres, None),
            builds=self.builds(),
            start_year=self.number("start_year", 1, MAX_YEAR, 1901) or 1901,
            drawing=self.drawing(),
            origin=self.path.resolve(),
            codes=self.codes(tables),
        )
        self.check_drawing(board)
        return board

    def check_drawing(self, board: Board) -> None:
        """Read the board's drawing now, so that a file that is no layout of it is refused
        with the board, not when a picture is first drawn (the layout is kept for then)."""
        if board.drawing is None:
            return
        from .layout import layout_of  # the layout module reads boards: imported here

        try:
            layout_of(board)
        except MapDataError as exc:
            message = f"`drawing` is no layout of this board: {exc}"
            raise self.fail("top level", message, "drawing") from exc

    def number(self, key: str, low: int, high: int | None, default: int | None) -> int | None:
        """A whole number of the top level between ``low`` and ``high``, or the default."""
        value = self.raw.get(key, default)
        if value is default:
            return value
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or value < low
            or (high is not None and value > high)
        ):
            bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise self.fail("top level", f"`{key}` must be a whole number {bound}", key)
        return value

    def builds(self) -> BuildSites:
        value = self.raw.get("builds", BuildSites.HOME.value)
        try:
            return BuildSites(value)
        except ValueError:
            kinds = [b.value for b in BuildSites]
            raise self.fail(
                "top level", f"`builds` must be one of {kinds}, got {shown(value)}", "builds"
            ) from None

    def codes(self, tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, str]]:
        """Other engines' province codes where they differ from ``code``: ``[codes.godip]``,
        each key a province of the board and each value that engine's code, unique."""
        raw = self.raw.get("codes", {})
        if not isinstance(raw, dict) or not all(isinstance(t, dict) for t in raw.values()):
            raise self.fail("top level", "`codes` must hold tables such as [codes.godip]", "codes")
        found: dict[str, dict[str, str]] = {}
        for name, table in raw.items():
            where = f"codes.{name}"
            for code, other in table.items():
                if code not in tables:
                    raise self.fail(where, f"{code!r} is no province of the board", code)
                if not isinstance(other, str) or not _CODE.fullmatch(other):
                    raise self.fail(where, f"expected a lower-case code, got {shown(other)}", code)
            theirs = {c: table.get(c, c) for c in tables}
            twice = sorted(c for c in set(theirs.values()) if list(theirs.values()).count(c) > 1)
            if twice:
                key = next(k for k, v in table.items() if v == twice[0])
                raise self.fail(where, f"code {twice[0]!r} would name two provinces", key)
            found[name] = dict(table)
        return found

    def drawing(self) -> Path | None:
        """The layout file named by ``drawing``, relative to the map file."""
        value = self.raw.get("drawing")
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise self.fail("top level", "`drawing` must name a layout file", "drawing")
        found = self.path.parent / value
        if probe(found) != "file":
            raise self.fail("top level", f"`drawing` file {str(found)!r} does not exist", "drawing")
        return found

    # -- provinces -------------------------------------------------------------

    def read_provinces(self, entries: list[Any]) -> dict[str, dict[str, Any]]:
        tables: dict[str, dict[str, Any]] = {}
        for number, entry in enumerate(entries, start=1):
            where = f"province #{number}"
            if not isinstance(entry, dict):
                raise self.fail(where, "expected a table")
            code = entry.get("code")
            if not isinstance(code, str) or not _CODE.fullmatch(code):
                raise self.fail(
                    where, f"`code` must be a lower-case code, got {shown(code)}", "code"
                )
            if code in tables:
                raise self.fail(
                    where, f"province {code!r} listed twice (also #{self.numbers[code]})", "code"
                )
            self.numbers[code] = number
            where = f"province {code!r}"
            extra = set(entry) - _PROVINCE_KEYS
            if extra:
                raise self.fail(where, f"unknown keys {sorted(extra)}", sorted(extra)[0])
            self.check_province(where, entry)
            tables[code] = entry
        return tables

    def check_province(self, where: str, t: dict[str, Any]) -> None:
        if not isinstance(t.get("name"), str) or not normalize(t["name"]):
            raise self.fail(where, "`name` must be a non-empty string", "name")
        self.check_name(where, t["name"], "name")
        kinds = [k.value for k in Kind]
        if t.get("kind") not in kinds:
            raise self.fail(
                where, f"`kind` must be one of {kinds}, got {shown(t.get('kind'))}", "kind"
            )
        kind = Kind(t["kind"])
        if not isinstance(t.get("centre", False), bool):
            raise self.fail(where, "`centre` must be true or false", "centre")
        aliases = t.get("aliases", [])
        if not isinstance(aliases, list) or not all(
            isinstance(a, str) and normalize(a) for a in aliases
        ):
            raise self.fail(where, "`aliases` must be a list of non-empty strings", "aliases")
        for alias in aliases:
            self.check_name(where, alias, "aliases")

        has = {key: key in t for key in ("army", "fleet", "coasts")}
        wanted = {
            Kind.SEA: {"army": False, "fleet": True, "coasts": False},
            Kind.LAND: {"army": True, "fleet": False, "coasts": False},
        }.get(kind)
        if wanted is None:  # coast: army, and either fleet or coasts
            wanted = {"army": True, "fleet": not has["coasts"], "coasts": has["coasts"]}
        for key, present in has.items():
            if present != wanted[key]:
                verb = "needs" if wanted[key] else "must not have"
                raise self.fail(where, f"a {kind.value} province {verb} `{key}`", key or "kind")
        if kind is Kind.SEA and t.get("centre", False):
            raise self.fail(where, "a sea cannot be a supply centre", "centre")

        for key in ("army", "fleet"):
            if key in t:
                self.check_list(where, key, f"`{key}`", t[key])
        if kind is Kind.COAST and t.get("fleet") == []:
            raise self.fail(
                where, 'a coast province with no fleet neighbour: its kind is "land"', "fleet"
            )
        if "coasts" in t:
            coasts = t["coasts"]
            if not isinstance(coasts, dict) or len(coasts) < 2:
                raise self.fail(where, "`coasts` must be a table of at least two coasts", "coasts")
            for coast, lst in coasts.items():
                if coast not in COASTS:
                    raise self.fail(
                        where, f"unknown coast {coast!r}; expected one of {COASTS}", "coasts"
                    )
                self.check_list(where, "coasts", f"coast {coast!r}", lst)
                if not lst:
                    raise self.fail(
                        where,
                        f"coast {coast!r} has no fleet neighbour: no fleet could use it",
                        "coasts",
                    )

    def check_name(self, where: str, text: str, key: str, power: bool = False) -> None:
        """A name that reads back as itself wherever dipsat writes it (`name_problem`)."""
        problem = name_problem(text, power)
        if problem is not None:
            raise self.fail(where, f"name {shown(text)} {problem}", key)

    def check_province_names(self, tables: dict[str, dict[str, Any]]) -> None:
        """No two provinces share a code, name or alias (as names are compared): every
        order naming it would be refused as ambiguous."""
        named: dict[tuple[str, ...], str] = {}
        for code, t in tables.items():
            texts = [(code, "code"), (t["name"], "name")]
            texts += [(a, "aliases") for a in t.get("aliases", [])]
            for text, key in texts:
                other = named.setdefault(normalize(text), code)
                if other != code:
                    raise self.fail(
                        f"province {code!r}",
                        f"{_WHAT[key]} {shown(text)} also names province {other!r}: "
                        "every order naming it would be ambiguous",
                        key,
                    )

    def check_aliases(self, tables: dict[str, dict[str, Any]], powers: list[Power]) -> None:
        """No alias of a province is a power's name, and no alias of a power a province's
        name or alias (a power's alias may be a province's code, as England's 'ENG' is
        the English Channel's): each would read as the other where both may stand."""
        of_power = {
            normalize(text): power.name
            for power in powers
            for text in (power.name, power.adjective, *power.aliases)
        }
        of_province = {
            normalize(text): code
            for code, t in tables.items()
            for text in (t["name"], *t.get("aliases", []))
        }
        for code, t in tables.items():
            self.aliases_apart(f"province {code!r}", t.get("aliases", []), of_power, "power")
        for power in powers:
            self.aliases_apart(f"power {power.name!r}", power.aliases, of_province, "province")

    def aliases_apart(
        self, where: str, aliases: Iterable[str], names: dict[tuple[str, ...], str], what: str
    ) -> None:
        """Refuse the first alias that is one of `names` (of a power or a province)."""
        for alias in aliases:
            other = names.get(normalize(alias))
            if other is not None:
                message = f"alias {shown(alias)} is also a name of {what} {other!r}"
                raise self.fail(where, message, "aliases")

    def check_list(self, where: str, key: str, what: str, lst: Any) -> None:
        if not isinstance(lst, list) or not all(isinstance(x, str) for x in lst):
            raise self.fail(where, f"{what} must be a list of codes", key)
        if len(set(lst)) != len(lst):
            raise self.fail(where, f"{what} lists a neighbour twice", key)

    # -- borders ---------------------------------------------------------------

    def read_army_edges(self, tables: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
        listed: set[tuple[str, str]] = set()
        for code, t in tables.items():
            where = f"province {code!r}"
            for other in t.get("army", ()):
                if other not in tables:
                    raise self.fail(where, f"army neighbour {other!r} is not a province", "army")
                if other == code:
                    raise self.fail(where, "lists itself as an army neighbour", "army")
                if tables[other]["kind"] == Kind.SEA.value:
                    raise self.fail(where, f"army neighbour {other!r} is a sea", "army")
                listed.add((code, other))
        for a, b in sorted(listed):
            if (b, a) not in listed:
                raise self.fail(
                    f"province {b!r}",
                    f"asymmetric army border: {a!r} lists {b!r} but {b!r} does not list {a!r}",
                    "army",
                )
        return sorted((a, b) for a, b in listed if a < b)

    def read_fleet_edges(
        self, tables: dict[str, dict[str, Any]]
    ) -> list[tuple[Location, Location]]:
        listed: set[tuple[Location, Location]] = set()
        for code, t in tables.items():
            where = f"province {code!r}"
            key = "fleet" if "fleet" in t else "coasts"
            sides = {None: t["fleet"]} if "fleet" in t else t.get("coasts", {})
            for coast, neighbours in sides.items():
                here = Location(code, coast)
                for token in neighbours:
                    there = self.fleet_target(where, key, tables, token)
                    if there.province == code:
                        raise self.fail(
                            where, f"fleet border {here} - {there} stays in the province", key
                        )
                    listed.add((here, there))
        for a, b in sorted(listed):
            if (b, a) not in listed:
                t = tables[b.code]
                raise self.fail(
                    f"province {b.province!r}",
                    f"asymmetric fleet border: {str(a)!r} lists {str(b)!r} "
                    f"but {str(b)!r} does not list {str(a)!r}",
                    "fleet" if "fleet" in t else "coasts",
                )
        return sorted((a, b) for a, b in listed if a < b)

    def fleet_target(
        self, where: str, key: str, tables: dict[str, dict[str, Any]], token: str
    ) -> Location:
        code, _, coast = token.partition("/")
        if code not in tables:
            raise self.fail(where, f"fleet neighbour {token!r} is not a province", key)
        target = tables[code]
        if target["kind"] == Kind.LAND.value:
            raise self.fail(where, f"fleet neighbour {token!r} is a land province", key)
        coasts = target.get("coasts", {})
        if coasts and coast not in coasts:
            raise self.fail(
                where,
                f"fleet neighbour {token!r} must name one of the coasts {sorted(coasts)}",
                key,
            )
        if not coasts and coast:
            raise self.fail(
                where, f"fleet neighbour {token!r}: {code!r} has no separate coasts", key
            )
        return Location(code, coast or None)

    # -- powers ----------------------------------------------------------------

    def read_powers(self, raw: Any, tables: dict[str, dict[str, Any]]) -> list[Power]:
        if not isinstance(raw, dict) or not raw:
            raise self.fail("top level", "expected [powers.<Name>] tables")
        powers: list[Power] = []
        seen_names: dict[tuple[str, ...], str] = {}
        home_of: dict[str, str] = {}
        standing: dict[str, str] = {}  # province -> the power whose unit starts there
        for name, t in raw.items():
            where = f"power {name!r}"
            if (
                not isinstance(t, dict)
                or not _POWER_KEYS <= set(t) <= _POWER_KEYS | _POWER_OPTIONAL
            ):
                raise self.fail(
                    where,
                    f"expected the keys {sorted(_POWER_KEYS)} and optionally "
                    f"{sorted(_POWER_OPTIONAL)}",
                )
            adjective, aliases, home = t["adjective"], t.get("aliases", []), t["home"]
            texts = [name, adjective, *aliases] if isinstance(aliases, list) else []
            if not texts or not all(isinstance(x, str) and normalize(x) for x in texts):
                raise self.fail(
                    where, "name, `adjective` and `aliases` must be non-empty strings", "aliases"
                )
            for text, key in zip(
                texts, ("", "adjective", *["aliases"] * len(aliases)), strict=True
            ):
                self.check_name(where, text, key, power=True)
            for text in texts:
                other = seen_names.setdefault(normalize(text), name)
                if other != name:
                    raise self.fail(
                        where, f"name {text!r} is also used by power {other!r}", "aliases"
                    )
            if not isinstance(home, list) or len(set(map(str, home))) != len(home):
                raise self.fail(where, "`home` must be a list of distinct province codes", "home")
            for code in home:
                if code not in tables:
                    raise self.fail(where, f"home centre {code!r} is not a province", "home")
                if not tables[code].get("centre", False):
                    raise self.fail(where, f"home centre {code!r} is not a supply centre", "home")
                owner = home_of.setdefault(code, name)
                if owner != name:
                    raise self.fail(
                        where, f"home centre {code!r} is also a home centre of {owner}", "home"
                    )
            if not isinstance(t.get("start", []), list):
                raise self.fail(where, '`start` must be a list of units such as "A par"', "start")
            start = tuple(self.start_unit(where, tables, text) for text in t.get("start", []))
            for _, location in start:
                other = standing.setdefault(location.code, name)
                if other != name or sum(x.province == location.province for _, x in start) > 1:
                    raise self.fail(where, f"two units start in {location.province!r}", "start")
            powers.append(Power(name, adjective, tuple(aliases), tuple(sorted(home)), start))
        return powers

    def start_unit(
        self, where: str, tables: dict[str, dict[str, Any]], text: Any
    ) -> tuple[UnitType, Location]:
        """A unit of `start`: "A par", "F stp/sc", on a place its type may stand."""
        kind, _, token = text.partition(" ") if isinstance(text, str) else ("", "", "")
        if kind not in ("A", "F") or not token:
            raise self.fail(
                where, f'`start` unit {shown(text)}: expected "A code" or "F code"', "start"
            )
        code, _, coast = token.partition("/")
        if code not in tables:
            raise self.fail(
                where,
                f"`start` unit {shown(text)}: {shown(code)} is not a province",
                "start",
            )
        t = tables[code]
        province = Province(code, t["name"], Kind(t["kind"]), coasts=tuple(t.get("coasts", {})))
        problem = standing_problem(province, UnitType(kind), coast or None)
        if problem is not None:
            raise self.fail(where, f"`start` unit {text!r}: {problem}", "start")
        return UnitType(kind), Location(code, coast or None)
