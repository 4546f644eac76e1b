"""The MILA `diplomacy` engine behind the cross-check protocol:
`python -m solver.crosschecking.mila_adapter`.

Reads one request per line on stdin and writes one reply per line on stdout (see
docs/crosscheck.md).  Every request gets a fresh `Game` with the rules `NO_CHECK` (illegal
orders are kept and reported 'void') and `IGNORE_ERRORS`; the phase, units and centres are
set directly.  Movement, retreat and adjustment phases are supported.

Conventions of this adapter:
- a move, support or convoy succeeded when MILA adjudicated that kind of order for the unit
  (it did not drop or rewrite it) and gave it no result label ('bounce', 'cut', 'void', ...);
- only the first order to a unit is passed on (the protocol's rule; MILA would hold a unit
  given two orders, or keep the last);
- in a retreat phase MILA offers every adjacent empty place; the adapter removes the
  attacker's province (unless it attacked by convoy), as MILA itself does after a movement
  phase.  Provinces left empty by a standoff are not in the protocol, so they stay open.

`serve` and `check_request` are shared with the pydip adapter.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

VERSION = "dipsat-crosscheck/1"  # as solver.crosschecking.protocol.VERSION
PHASE = re.compile(r"^(?:[SF]\d{4}[MR]|W\d{4}A)$")
UNIT = re.compile(r"^[AF] [A-Z][A-Z0-9]*(?:/[NSEW]C)?$")
PLACE = re.compile(r"^[A-Z][A-Z0-9]*(?:/[NSEW]C)?$")
MAP = re.compile(r"^[a-z][a-z0-9_]*$")
MOVE_KINDS = frozenset("-SC")  # the orders that get a result: move, support, convoy


class RequestError(ValueError):
    """A request this adapter cannot adjudicate; the reply carries the message."""


@dataclass(frozen=True, slots=True)
class Request:
    """A checked request.  `orders` keeps only the first order to each unit, in order."""

    id: str
    phase: str
    units: dict[str, list[str]]
    centers: dict[str, list[str]]
    dislodged: dict[str, dict[str, tuple[str, bool]]]  # power -> unit -> (from, by_convoy)
    orders: list[tuple[str, str]]  # (power, order)
    map: str = "standard"  # the name of the engine's map the phase is played on

    @property
    def kind(self) -> str:
        """'M', 'R' or 'A'."""
        return self.phase[-1]


def _str_lists(data: Any, what: str, pattern: re.Pattern[str] | None) -> dict[str, list[str]]:
    if not isinstance(data, dict):
        raise RequestError(f"expected {what!r} to be an object")
    out: dict[str, list[str]] = {}
    for power, items in data.items():
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            raise RequestError(f"expected {what}[{power!r}] to be a list of strings")
        bad = [x for x in items if pattern is not None and not pattern.match(x)]
        if bad:
            raise RequestError(f"unreadable {what} entry {bad[0]!r}")
        out[power_key(power)] = [" ".join(x.upper().split()) for x in items]
    return out


def power_key(name: str) -> str:
    """A power's name as MILA keys it: upper case, letters and digits only ('New-York' is
    NEWYORK)."""
    return re.sub(r"[^A-Z0-9]", "", name.upper())


def _province(place: str) -> str:
    """The province of a place as MILA writes it: 'STP' of 'STP/SC' (a code of any length)."""
    return place.partition("/")[0]


def first_orders(orders: dict[str, list[str]]) -> list[tuple[str, str]]:
    """The orders in request order, keeping only the first order to each province's unit."""
    seen: set[str] = set()
    kept = []
    for power, texts in orders.items():
        for text in texts:
            words = text.split()
            if len(words) >= 2 and words[0] in ("A", "F"):
                province = _province(words[1])
                if province in seen:
                    continue
                seen.add(province)
            kept.append((power, text))
    return kept


def check_request(data: Any) -> Request:
    """Check the fields of a request object; a RequestError says what is wrong."""
    if data.get("protocol") != VERSION:
        raise RequestError(f"expected protocol {VERSION!r}, found {data.get('protocol')!r}")
    phase = data.get("phase")
    if not isinstance(phase, str) or not PHASE.match(phase):
        raise RequestError(f"expected a phase such as 'S1901M', found {phase!r}")
    dislodged_raw = data.get("dislodged", {})
    if not isinstance(dislodged_raw, dict):
        raise RequestError("expected 'dislodged' to be an object")
    dislodged: dict[str, dict[str, tuple[str, bool]]] = {}
    for power, units in dislodged_raw.items():
        if not isinstance(units, dict):
            raise RequestError(f"expected dislodged[{power!r}] to be an object")
        for unit, info in units.items():
            origin = info.get("from") if isinstance(info, dict) else None
            if not UNIT.match(unit) or not isinstance(origin, str) or not PLACE.match(origin):
                raise RequestError(f"unreadable dislodged unit {unit!r}: {info!r}")
            dislodged.setdefault(power_key(power), {})[unit] = (
                _province(origin),
                bool(info.get("by_convoy", False)),
            )
    if dislodged and phase[-1] != "R":
        raise RequestError("dislodged units outside a retreat phase")
    board = data.get("map", "standard")
    if not isinstance(board, str) or not MAP.match(board):
        raise RequestError(f"expected a map name such as 'standard', found {board!r}")
    return Request(
        id=data["id"],
        phase=phase,
        units=_str_lists(data.get("units", {}), "units", UNIT),
        centers=_str_lists(data.get("centers", {}), "centers", PLACE),
        dislodged=dislodged,
        orders=first_orders(_str_lists(data.get("orders", {}), "orders", None)),
        map=board,
    )


def handle_line(line: str, adjudicate: Callable[[Request], dict[str, Any]]) -> dict[str, Any]:
    """The reply to one request line; never raises."""
    try:
        data = json.loads(line)
    except ValueError as err:
        return {"id": None, "error": f"malformed request: {err}"}
    if not isinstance(data, dict):
        return {"id": None, "error": "malformed request: expected a JSON object"}
    request_id = data.get("id")
    if not isinstance(request_id, str):
        return {
            "id": None,
            "error": f"malformed request: expected a string id, found {request_id!r}",
        }
    try:
        reply = adjudicate(check_request(data))
    except Exception as err:  # one bad request must not stop the adapter
        return {"id": request_id, "error": f"{type(err).__name__}: {err}"[:500]}
    return {"id": request_id, **reply}


def _claim_stdout() -> IO[str]:
    """A private handle on the real stdout; fd 1 and sys.stdout then point at stderr, so an
    engine's stray prints cannot corrupt the reply stream."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def serve(adjudicate: Callable[[Request], dict[str, Any]]) -> None:
    """Answer requests from stdin until it closes, one reply line each, flushed."""
    out = _claim_stdout()
    while line := sys.stdin.readline():
        if not line.strip():
            continue
        reply = handle_line(line, adjudicate)
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()


# -- the MILA engine ----------------------------------------------------------------------------
def _new_game(request: Request) -> Any:
    from diplomacy import Game

    game = Game(map_name=request.map)
    game.add_rule("NO_CHECK")
    game.add_rule("IGNORE_ERRORS")
    game.set_current_phase(request.phase)
    game.clear_units()
    game.clear_centers()
    powers = {*request.units, *request.centers, *request.dislodged, *(p for p, _ in request.orders)}
    unknown = sorted(powers - set(game.powers))
    if unknown:
        raise RequestError(f"MILA's {request.map} map has no power {unknown[0]!r}")
    for power, units in request.units.items():
        game.set_units(power, units)
    for power, dislodged in request.dislodged.items():  # after all others: retreats need them
        game.set_units(power, [f"*{unit}" for unit in dislodged])
    if game.error:
        raise RequestError(f"MILA rejected the position: {'; '.join(map(str, game.error))}")
    for power, centers in request.centers.items():
        game.set_centers(power, centers)
    for power, dislodged in request.dislodged.items():
        retreats = game.get_power(power).retreats
        for unit, (origin, by_convoy) in dislodged.items():
            if unit not in retreats:
                raise RequestError(f"MILA did not take the dislodged unit {unit!r}")
            if not by_convoy:
                retreats[unit] = [place for place in retreats[unit] if _province(place) != origin]
    game.error = []
    return game


def _labels(results: dict[str, Any], unit: str) -> set[str]:
    return {r.message for r in results.get(unit, ())} - {""}


def _find_unit(table: dict[str, Any], unit: str) -> str | None:
    """`unit` if MILA knows it, else the one unit MILA has in that province."""
    if unit in table:
        return unit
    same = [u for u in table if u[2:5] == unit[2:5]]
    return same[0] if len(same) == 1 else None


def ordered_game(request: Request) -> Any:
    """A MILA game at the request's position with its orders set, ready to process."""
    game = _new_game(request)
    by_power: dict[str, list[str]] = {}
    for power, order in request.orders:
        by_power.setdefault(power, []).append(order)
    for power, orders in by_power.items():
        game.set_orders(power, orders)
    return game


def adjudicate(request: Request) -> dict[str, Any]:
    """Adjudicate one phase with MILA; the reply without its id."""
    game = ordered_game(request)
    outcome = game.process().results  # of the phase processed, whatever phases MILA skips

    results: dict[str, bool] = {}
    dislodged: dict[str, list[str]] = {}
    if request.kind == "M":
        for _, order in request.orders:
            words = order.split()
            if len(words) < 3 or words[2] not in MOVE_KINDS:
                continue
            unit = _find_unit(game.command, " ".join(words[:2]))
            command = game.command.get(unit, "") if unit else ""
            results.setdefault(
                _province(words[1]),
                bool(unit and command.split()[:1] == [words[2]] and not _labels(outcome, unit)),
            )
        retreats = {
            u: options
            for power in game.get_state()["retreats"].values()
            for u, options in power.items()
        }
        dislodged = {unit: sorted(retreats.get(unit, [])) for unit in game.dislodged}
    units = {
        power: sorted(u for u in units if not u.startswith("*"))
        for power, units in game.get_state()["units"].items()
    }
    return {
        "results": dict(sorted(results.items())),
        "dislodged": dict(sorted(dislodged.items())),
        "units": {p: u for p, u in sorted(units.items()) if u},
    }


def main() -> None:
    serve(adjudicate)


if __name__ == "__main__":
    main()
