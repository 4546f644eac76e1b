"""The cross-check protocol: one JSON request per line in, one JSON reply per line out.

Places, units and orders are written as MILA strings ('A PAR', 'F STP/SC', 'A EDI - NWY
VIA'), powers as upper-case English names.  The full description and the JSON Schema are in
docs/crosscheck.md and docs/crosscheck.schema.json.  Replies from another program are
untrusted data: `read_reply` checks every field and raises `ProtocolError` with what was
expected.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from topology import Board, Location, UnitType, UnknownNameError

from ..errors import DipsatError
from ..formats.mila import place_text, position_json, read_position, unit_text
from ..values.orders import (
    Build,
    Convoy,
    Disband,
    Given,
    Hold,
    Move,
    Order,
    Place,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from ..values.outcomes import Outcome, Result
from ..values.position import Position, Unit

_DONE = (Result.SUCCEEDS, Result.GIVEN, Result.AVAILABLE)  # what "true" reports
VERSION = "dipsat-crosscheck/1"
MAX_REPLY_BYTES = 1_000_000
_LOCATION = re.compile(r"^[A-Z][A-Z0-9]*(/[NSEW]C)?$")
_UNIT = re.compile(r"^[AF] [A-Z][A-Z0-9]*(/[NSEW]C)?$")


class ProtocolError(DipsatError):
    """A reply that does not follow the protocol."""


def reply_too_long(limit: int) -> ProtocolError:
    """The error for a reply line over the bound, however it was noticed."""
    return ProtocolError(f"reply longer than {limit:,} bytes")


def order_text(order: Order, unit: Unit | None = None) -> str:
    """An order as a MILA string.  `unit`, when known, gives the type and coast the board
    has, so the string describes the real unit."""

    def ref(r: UnitRef) -> str:
        kind = r.type.value if r.type else "A"
        return f"{kind} {place_text(r.place)}"

    head = (
        unit_text(unit) if unit is not None else (ref(order.unit) if hasattr(order, "unit") else "")
    )
    match order:
        case Hold():
            return f"{head} H"
        case Move(dest=dest, via_convoy=via):
            return f"{head} - {place_text(dest)}" + (" VIA" if via else "")
        case SupportHold(supported=s):
            return f"{head} S {ref(s)}"
        case SupportMove(supported=s, dest=dest):
            return f"{head} S {ref(s)} - {place_text(dest)}"
        case Convoy(army=a, dest=dest):
            return f"{head} C {ref(a)} - {place_text(dest)}"
        case Retreat(dest=dest):
            return f"{head} R {place_text(dest)}"
        case Disband():
            return f"{head} D"
        case Build():
            return f"{head} B"
        case Waive():
            return "WAIVE"
    raise AssertionError(order)


def request(request_id: str, position: Position, orders: Sequence[Given]) -> dict[str, Any]:
    """The request for one phase."""
    by_unit = {u.province: u for u in position.units}
    by_unit.update({d.unit.province: d.unit for d in position.dislodged})
    texts: dict[str, list[str]] = {}
    for given in orders:
        order = given.order
        unit = by_unit.get(order.unit.place.province) if hasattr(order, "unit") else None
        power = (given.power or (unit.power if unit else "")).upper()
        texts.setdefault(power, []).append(order_text(order, unit))
    board = {} if position.map.name == "standard" else {"map": position.map.name}
    return {
        "protocol": VERSION,
        "id": request_id,
        **board,
        **position_json(position),
        "orders": texts,
    }


def reply(
    request_id: str,
    outcomes: Sequence[Outcome],
    after: Position,
    dislodged: Mapping[Unit, Sequence[Location]],
) -> dict[str, Any]:
    """Our reply: per ordered unit whether its order succeeded, the dislodged units with
    their retreat options, and the units on the board afterwards."""
    results: dict[str, bool] = {}
    for outcome in outcomes:
        order = outcome.given.order
        if isinstance(order, Move | SupportHold | SupportMove | Convoy):
            key = place_text(Place(order.unit.place.province, None))
            if key not in results:  # the first order to a unit is the one in force
                results[key] = outcome.result in _DONE
    units: dict[str, list[str]] = {}
    for unit in after.units:
        units.setdefault(unit.power.upper(), []).append(unit_text(unit))
    return {
        "id": request_id,
        "results": dict(sorted(results.items())),
        "dislodged": {
            unit_text(u): sorted(place_text(o) for o in options)
            for u, options in sorted(dislodged.items())
        },
        "units": {p: sorted(v) for p, v in sorted(units.items())},
    }


def read_reply(line: str, request_id: str, board: Board | None = None) -> dict[str, Any]:
    """Check a reply line from another program; a ProtocolError says what was wrong.

    With the `board` of the request, each power is read as that board names it, by any of
    its names or aliases, and written as dipsat writes it: engines spell powers their own
    way (MILA's `PACIFICRUSSIA` is dipsat's `PACIFIC-RUSSIA` on `world`), and a power is
    compared by who it is, not by its spelling."""
    if len(line) > MAX_REPLY_BYTES or len(line.encode(errors="replace")) > MAX_REPLY_BYTES:
        raise reply_too_long(MAX_REPLY_BYTES)
    try:
        data = json.loads(line)
    except json.JSONDecodeError as err:
        raise ProtocolError(
            f"expected a JSON object on one line: {err.msg} at column {err.colno}"
        ) from err
    except (ValueError, RecursionError) as err:  # an integer too long, nesting too deep
        raise ProtocolError(f"expected a JSON object on one line: {err}") from err
    if not isinstance(data, dict):
        raise ProtocolError("expected a JSON object")
    if data.get("id") != request_id:
        raise ProtocolError(f"expected id {request_id!r}, found {data.get('id')!r}")
    if "error" in data:
        if not isinstance(data["error"], str):
            raise ProtocolError("expected 'error' to be a string")
        return {"id": request_id, "error": data["error"][:500]}
    results = data.get("results")
    if not isinstance(results, dict) or not all(
        isinstance(k, str) and _LOCATION.match(k) and isinstance(v, bool)
        for k, v in results.items()
    ):
        raise ProtocolError("expected 'results' to map places such as 'PAR' to true/false")
    dislodged = data.get("dislodged", {})
    if not isinstance(dislodged, dict) or not all(
        isinstance(k, str)
        and _UNIT.match(k)
        and isinstance(v, list)
        and all(isinstance(x, str) and _LOCATION.match(x) for x in v)
        for k, v in dislodged.items()
    ):
        raise ProtocolError("expected 'dislodged' to map units such as 'A PAR' to lists of places")
    units = data.get("units")
    if not isinstance(units, dict) or not all(
        isinstance(k, str)
        and isinstance(v, list)
        and all(isinstance(x, str) and _UNIT.match(x) for x in v)
        for k, v in units.items()
    ):
        raise ProtocolError("expected 'units' to map powers to lists of units such as 'A PAR'")
    found: dict[str, list[str]] = {}
    for power, listed in sorted(units.items()):
        if listed:
            found.setdefault(_power(power, board), []).extend(listed)
    return {
        "id": request_id,
        "results": dict(sorted(results.items())),
        "dislodged": {k: sorted(v) for k, v in sorted(dislodged.items())},
        "units": {k: sorted(v) for k, v in sorted(found.items())},
    }


def _power(name: str, board: Board | None) -> str:
    """A power of a reply as dipsat writes it (upper case), found on the board by any of
    its names; without a board, the name in upper case."""
    if board is None:
        return name.upper()
    try:
        return board.lookup_power(name).upper()
    except UnknownNameError:
        known = ", ".join(p.upper() for p in board.powers)
        raise ProtocolError(
            f"expected a power of {board.name!r} ({known}), found {name!r}"
        ) from None


__all__ = [
    "VERSION",
    "ProtocolError",
    "UnitType",
    "order_text",
    "read_reply",
    "reply",
    "request",
    "unit_text",
]


def read_request(data: dict[str, Any]) -> tuple[Position, list[Given]]:
    """A request as a position and orders (for serving dipsat behind the protocol)."""
    from topology import MapDataError, variant

    from ..values.notation import parse_given

    try:
        board = variant(str(data.get("map", "standard")))
    except MapDataError as err:
        raise ProtocolError(str(err)) from err

    def power_of(name: str) -> str:
        try:
            return board.lookup_power(name)
        except ValueError as err:
            raise ProtocolError(f"expected a power, found {name!r}") from err

    try:
        position = read_position(data, board)
        kind = position.phase.kind.value
        orders = [
            replace(parse_given(text, board, kind), power=power_of(p))
            for p, texts in data.get("orders", {}).items()
            for text in texts
        ]
    except (KeyError, TypeError, AttributeError) as err:
        raise ProtocolError(f"malformed request: {err}") from err
    except DipsatError as err:
        raise ProtocolError(str(err)) from err
    return position, orders
