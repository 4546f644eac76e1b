"""The engines the benchmark times, each behind one small interface: given a turn, a call that
runs the engine's core adjudication on prepared inputs (None: the engine cannot express it).

- dipsat: `solver.judge.movement.adjudicate(position, orders, rules, config)` — legality,
  structure, settling (propagation, CP-SAT on the cores) and outcomes; `dipsat-solver` is
  the same with propagation off, every turn through CP-SAT.
- MILA (`diplomacy`): `Game.process()` on a game set to the position with its orders.
- pydip: `resolve_turn(map, commands)` on prepared commands.
- dipcc (Meta's C++ engine, optional): `Game.process()` on a game read from JSON with its
  orders set.  It is never a dependency of dipsat: the benchmark uses it when its Python
  module `pydipcc` can be imported, from the folder named by DIPSAT_DIPCC if that is set.

Preparing (converting a turn into the engine's own terms) is never timed.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from functools import cache, partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.crosschecking.mila_adapter import Request
    from solver.values.orders import Given
    from solver.values.position import Position

    Turn = tuple[Position, list[Given]]

Call = Callable[[], object]
Prepare = Callable[["Position", "list[Given]", "Request | None"], "Call | None"]

DIPCC_FOLDER = "DIPSAT_DIPCC"
"""The environment variable naming the folder that holds a built `pydipcc` module."""


@cache
def dipcc_module() -> ModuleType | None:
    """Meta's dipcc Python module, if a user has built it (None otherwise)."""
    folder = os.environ.get(DIPCC_FOLDER, "")
    if folder and folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        return importlib.import_module("pydipcc")
    except ImportError:
        return None


def dipcc_origin() -> str:
    """Where the dipcc module was found, for the report."""
    module = dipcc_module()
    return str(Path(module.__file__ or "?").resolve()) if module else "not found"


def engines(with_dipcc: bool = True) -> list[str]:
    """The engines timed turn by turn: dipsat, its every-turn-through-CP-SAT variant, MILA,
    pydip, and dipcc when it is available."""
    found = ["dipsat", "dipsat-solver", "mila", "pydip"]
    if with_dipcc and dipcc_module() is not None:
        found.append("dipcc")
    return found


def request_of(position: Position, orders: Sequence[Given]) -> Request | None:
    """The turn as a checked cross-check request (MILA strings), the input MILA, pydip and
    dipcc are prepared from (None: it cannot be written so)."""
    from solver.crosschecking.mila_adapter import check_request
    from solver.crosschecking.protocol import request

    try:
        return check_request(request("bench", position, orders))
    except Exception:  # a position the protocol cannot carry: every other engine skips it
        return None


def preparer(engine: str) -> Prepare:
    """The function that prepares one turn for `engine`."""
    table: dict[str, Prepare] = {
        "dipsat": partial(_dipsat, propagate=True),
        "dipsat-solver": partial(_dipsat, propagate=False),
        "mila": _mila,
        "pydip": _pydip,
        "dipcc": _dipcc,
    }
    return table[engine]


def _dipsat(
    position: Position, orders: list[Given], checked: Request | None, propagate: bool
) -> Call:
    from solver.judge.movement import adjudicate
    from solver.judge.solver_settings import SolverConfig
    from solver.values.rules import DATC_2025

    config = SolverConfig(propagate=propagate)
    return partial(adjudicate, position, orders, DATC_2025, config)


def _mila(position: Position, orders: list[Given], checked: Request | None) -> Call | None:
    from solver.crosschecking.mila_adapter import ordered_game

    if checked is None:
        return None
    try:
        process: Call = ordered_game(checked).process
    except Exception:  # an order or position MILA cannot take
        return None
    return process


def _pydip(position: Position, orders: list[Given], checked: Request | None) -> Call | None:
    if checked is None:
        return None
    try:
        return _pydip_call(checked)
    except Exception:  # pydip's constructors assert legality: an illegal order is skipped
        return None


def _pydip_call(checked: Request) -> Call:
    from pydip.player.command.command import HoldCommand
    from pydip.turn import resolve as pydip_resolve

    from solver.crosschecking.pydip_adapter import _Turn

    turn = _Turn(checked)
    commands = [turn.movement_command(power, order) for power, order in checked.orders]
    ordered = {c.unit.position for c in commands}
    for player in turn.players.values():
        commands.extend(HoldCommand(player, u) for u in player.units if u.position not in ordered)
    return partial(pydip_resolve.resolve_turn, turn.map, commands)


def _dipcc(position: Position, orders: list[Given], checked: Request | None) -> Call | None:
    game = dipcc_game(checked)
    return None if game is None else game.process


def dipcc_game(checked: Request | None) -> Any:
    """A dipcc game at the request's position with its orders staged, ready to process
    (None: dipcc is not available, or the turn is not on the standard board, or dipcc
    refuses a unit or an order).  The position goes in as a one-phase game in dipcc's JSON
    (its phase name, units and centres); the orders are set power by power."""
    pydipcc = dipcc_module()
    if pydipcc is None or checked is None or checked.map != "standard" or checked.kind != "M":
        return None
    state = {"name": checked.phase, "units": checked.units, "centers": checked.centers}
    phase = {"name": checked.phase, "state": state, "orders": {}}
    by_power: dict[str, list[str]] = {}
    for power, order in checked.orders:
        by_power.setdefault(power, []).append(order)
    try:
        game = pydipcc.Game.from_json(json.dumps({"phases": [phase]}))
        for power, texts in by_power.items():
            game.set_orders(power, texts)
    except Exception:  # dipcc checks what it reads: a turn it refuses is skipped
        return None
    return game


def dipcc_reply(checked: Request) -> dict[str, Any] | None:
    """dipcc's adjudication of a request as a cross-check reply, for the agreement check:
    the units after the phase and the dislodged units with their retreat options.  dipcc
    does not say which orders succeeded, so `results` stays empty (the units show whether
    each move took place)."""
    game = dipcc_game(checked)
    if game is None:
        return None
    game.process()
    state = game.get_state()
    dislodged = {
        unit: sorted(options)
        for retreats in state.get("retreats", {}).values()
        for unit, options in retreats.items()
    }
    units = {
        power: sorted(u for u in found if not u.startswith("*"))
        for power, found in state["units"].items()
    }
    return {
        "results": {},
        "dislodged": dict(sorted(dislodged.items())),
        "units": {p: u for p, u in sorted(units.items()) if u},
    }


def agreement(turns: Sequence[Turn]) -> dict[str, Any]:
    """dipcc against dipsat on these turns: how many dipcc could take, how many agree on
    the units after the phase and the dislodged units with their retreat options, and what
    differs in the others (turn index: aspect -> (dipsat, dipcc))."""
    from solver.crosschecking.disagreements import differences
    from solver.crosschecking.engines import DipsatEngine

    ours = DipsatEngine()
    compared = agreed = 0
    disagreements: dict[str, dict[str, Any]] = {}
    for index, (position, orders) in enumerate(turns):
        checked = request_of(position, orders)
        theirs = dipcc_reply(checked) if checked is not None else None
        if theirs is None:
            continue
        mine = ours.adjudicate(str(index), position, orders)
        found = differences({**mine, "results": {}}, theirs)
        compared += 1
        if found:
            disagreements[str(index)] = {k: [a, b] for k, (a, b) in found.items()}
        else:
            agreed += 1
    return {"turns": len(turns), "compared": compared, "agreed": agreed, "differ": disagreements}
