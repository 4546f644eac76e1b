"""Reading and checking map files (TOML) into :class:`~topology.board.Board`."""

from __future__ import annotations

import functools
import os
import re
import tomllib
from pathlib import Path
from typing import Any

from .board import Board
from .names import normalize
from .places import COASTS, Kind, Location, Power, Province, UnitType

STANDARD_PATH = Path(__file__).parent / "data" / "standard.toml"
"""The standard map shipped with the package."""

_CODE = re.compile(r"[a-z][a-z0-9]*")
_TOP_KEYS = {"name", "powers", "province"}
_POWER_KEYS = {"adjective", "aliases", "home"}
_POWER_OPTIONAL = {"start"}
_PROVINCE_KEYS = {"code", "name", "kind", "centre", "army", "fleet", "coasts", "aliases"}


class MapDataError(ValueError):
    """A map file is unreadable or breaks a rule of the format."""


def load_board(path: str | os.PathLike[str]) -> Board:
    """Read, check and build the board in the TOML map file at ``path``.

    Raises:
        MapDataError: the file cannot be read or parsed, or its data is
            inconsistent (the message names the file and the province).
    """
    path = Path(path)
    return _Builder(path, read_toml(path, "map file")).build()


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """A TOML file's data, or a MapDataError naming the file and what went wrong."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MapDataError(f"{path}: cannot read {what}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise MapDataError(f"{path}: not valid TOML: {exc}") from exc


@functools.cache
def standard() -> Board:
    """The standard board (loaded once, then shared)."""
    return load_board(STANDARD_PATH)


class _Builder:
    """Checks the raw TOML data of one file and turns it into a Board."""

    def __init__(self, path: Path, raw: dict[str, Any]) -> None:
        self.path = path
        self.raw = raw

    def fail(self, where: str, message: str) -> MapDataError:
        return MapDataError(f"{self.path}: {where}: {message}")

    def build(self) -> Board:
        raw = self.raw
        extra = set(raw) - _TOP_KEYS
        if extra:
            raise self.fail(
                "top level", f"unknown keys {sorted(extra)}; expected {sorted(_TOP_KEYS)}"
            )
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise self.fail("top level", "`name` must be a non-empty string")
        entries = raw.get("province")
        if not isinstance(entries, list) or not entries:
            raise self.fail("top level", "expected a [[province]] array of tables")

        tables = self.read_provinces(entries)
        army_edges = self.read_army_edges(tables)
        fleet_edges = self.read_fleet_edges(tables)
        powers = self.read_powers(raw.get("powers"), tables)
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
        return Board(name, provinces, powers, army_edges, fleet_edges)

    # -- provinces -------------------------------------------------------------

    def read_provinces(self, entries: list[Any]) -> dict[str, dict[str, Any]]:
        tables: dict[str, dict[str, Any]] = {}
        for number, entry in enumerate(entries, start=1):
            where = f"province #{number}"
            if not isinstance(entry, dict):
                raise self.fail(where, "expected a table")
            code = entry.get("code")
            if not isinstance(code, str) or not _CODE.fullmatch(code):
                raise self.fail(where, f"`code` must be a lower-case code, got {code!r}")
            where = f"province {code!r}"
            if code in tables:
                raise self.fail(where, "listed twice")
            extra = set(entry) - _PROVINCE_KEYS
            if extra:
                raise self.fail(where, f"unknown keys {sorted(extra)}")
            self.check_province(where, entry)
            tables[code] = entry
        return tables

    def check_province(self, where: str, t: dict[str, Any]) -> None:
        if not isinstance(t.get("name"), str) or not normalize(t["name"]):
            raise self.fail(where, "`name` must be a non-empty string")
        kinds = [k.value for k in Kind]
        if t.get("kind") not in kinds:
            raise self.fail(where, f"`kind` must be one of {kinds}, got {t.get('kind')!r}")
        kind = Kind(t["kind"])
        if not isinstance(t.get("centre", False), bool):
            raise self.fail(where, "`centre` must be true or false")
        aliases = t.get("aliases", [])
        if not isinstance(aliases, list) or not all(
            isinstance(a, str) and normalize(a) for a in aliases
        ):
            raise self.fail(where, "`aliases` must be a list of non-empty strings")

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
                raise self.fail(where, f"a {kind.value} province {verb} `{key}`")
        if kind is Kind.SEA and t.get("centre", False):
            raise self.fail(where, "a sea cannot be a supply centre")

        for key in ("army", "fleet"):
            if key in t:
                self.check_list(where, f"`{key}`", t[key])
        if "coasts" in t:
            coasts = t["coasts"]
            if not isinstance(coasts, dict) or len(coasts) < 2:
                raise self.fail(where, "`coasts` must be a table of at least two coasts")
            for coast, lst in coasts.items():
                if coast not in COASTS:
                    raise self.fail(where, f"unknown coast {coast!r}; expected one of {COASTS}")
                self.check_list(where, f"coast {coast!r}", lst)

    def check_list(self, where: str, what: str, lst: Any) -> None:
        if not isinstance(lst, list) or not all(isinstance(x, str) for x in lst):
            raise self.fail(where, f"{what} must be a list of codes")
        if len(set(lst)) != len(lst):
            raise self.fail(where, f"{what} lists a neighbour twice")

    # -- borders ---------------------------------------------------------------

    def read_army_edges(self, tables: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
        listed: set[tuple[str, str]] = set()
        for code, t in tables.items():
            where = f"province {code!r}"
            for other in t.get("army", ()):
                if other not in tables:
                    raise self.fail(where, f"army neighbour {other!r} is not a province")
                if other == code:
                    raise self.fail(where, "lists itself as an army neighbour")
                if tables[other]["kind"] == Kind.SEA.value:
                    raise self.fail(where, f"army neighbour {other!r} is a sea")
                listed.add((code, other))
        for a, b in sorted(listed):
            if (b, a) not in listed:
                raise self.fail(
                    f"province {b!r}",
                    f"asymmetric army border: {a!r} lists {b!r} but {b!r} does not list {a!r}",
                )
        return sorted((a, b) for a, b in listed if a < b)

    def read_fleet_edges(
        self, tables: dict[str, dict[str, Any]]
    ) -> list[tuple[Location, Location]]:
        listed: set[tuple[Location, Location]] = set()
        for code, t in tables.items():
            where = f"province {code!r}"
            sides = {None: t["fleet"]} if "fleet" in t else t.get("coasts", {})
            for coast, neighbours in sides.items():
                here = Location(code, coast)
                for token in neighbours:
                    there = self.fleet_target(where, tables, token)
                    if there.province == code:
                        raise self.fail(
                            where, f"fleet border {here} - {there} stays in the province"
                        )
                    listed.add((here, there))
        for a, b in sorted(listed):
            if (b, a) not in listed:
                raise self.fail(
                    f"province {b.province!r}",
                    f"asymmetric fleet border: {str(a)!r} lists {str(b)!r} "
                    f"but {str(b)!r} does not list {str(a)!r}",
                )
        return sorted((a, b) for a, b in listed if a < b)

    def fleet_target(self, where: str, tables: dict[str, dict[str, Any]], token: str) -> Location:
        code, _, coast = token.partition("/")
        if code not in tables:
            raise self.fail(where, f"fleet neighbour {token!r} is not a province")
        target = tables[code]
        if target["kind"] == Kind.LAND.value:
            raise self.fail(where, f"fleet neighbour {token!r} is a land province")
        coasts = target.get("coasts", {})
        if coasts and coast not in coasts:
            raise self.fail(
                where, f"fleet neighbour {token!r} must name one of the coasts {sorted(coasts)}"
            )
        if not coasts and coast:
            raise self.fail(where, f"fleet neighbour {token!r}: {code!r} has no separate coasts")
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
            adjective, aliases, home = t["adjective"], t["aliases"], t["home"]
            texts = [name, adjective, *aliases] if isinstance(aliases, list) else []
            if not texts or not all(isinstance(x, str) and normalize(x) for x in texts):
                raise self.fail(where, "name, `adjective` and `aliases` must be non-empty strings")
            for text in texts:
                other = seen_names.setdefault(normalize(text), name)
                if other != name:
                    raise self.fail(where, f"name {text!r} is also used by power {other!r}")
            if not isinstance(home, list) or not home or len(set(home)) != len(home):
                raise self.fail(where, "`home` must be a non-empty list of distinct province codes")
            for code in home:
                if code not in tables:
                    raise self.fail(where, f"home centre {code!r} is not a province")
                if not tables[code].get("centre", False):
                    raise self.fail(
                        f"province {code!r}", f"home centre of {name} but not a supply centre"
                    )
                owner = home_of.setdefault(code, name)
                if owner != name:
                    raise self.fail(f"province {code!r}", f"home centre of both {owner} and {name}")
            start = tuple(self.start_unit(where, tables, text) for text in t.get("start", []))
            if not isinstance(t.get("start", []), list):
                raise self.fail(where, '`start` must be a list of units such as "A par"')
            for _, location in start:
                other = standing.setdefault(location.province, name)
                if other != name or sum(x.province == location.province for _, x in start) > 1:
                    raise self.fail(where, f"two units start in {location.province!r}")
            powers.append(Power(name, adjective, tuple(aliases), tuple(sorted(home)), start))
        return powers

    def start_unit(
        self, where: str, tables: dict[str, dict[str, Any]], text: Any
    ) -> tuple[UnitType, Location]:
        """A unit of `start`: "A par", "F stp/sc", on a place its type may stand."""
        kind, _, token = text.partition(" ") if isinstance(text, str) else ("", "", "")
        if kind not in ("A", "F") or not token:
            raise self.fail(where, f'`start` unit {text!r}: expected "A code" or "F code"')
        code, _, coast = token.partition("/")
        if code not in tables:
            raise self.fail(where, f"`start` unit {text!r}: {code!r} is not a province")
        terrain, coasts = Kind(tables[code]["kind"]), tables[code].get("coasts", {})
        if kind == "A" and (terrain is Kind.SEA or coast):
            raise self.fail(where, f"`start` unit {text!r}: an army cannot stand there")
        if kind == "F" and (
            terrain is Kind.LAND or bool(coasts) != bool(coast) or (coast and coast not in coasts)
        ):
            need = f"one of its coasts {sorted(coasts)}" if coasts else "a place by the sea"
            raise self.fail(where, f"`start` unit {text!r}: a fleet needs {need}")
        return UnitType(kind), Location(code, coast or None)
