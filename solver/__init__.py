"""dipsat: a Diplomacy adjudicator that states the rules as constraints.

    >>> import solver
    >>> opening = solver.Position.opening()
    >>> result = solver.adjudicate(opening, '''
    ...     Germany: A Munich - Burgundy
    ...     France: A Paris - Burgundy
    ... ''')
    >>> print(result.outcomes[0])
    Germany: A Munich - Burgundy: fails (bounced by A Paris)
    >>> result.after.phase.code
    'F1901M'
    >>> solver.adjudicate(opening, "", rules="1982").rules is solver.RULE_BOOKS["1982"]
    True

Values (positions, orders, rule books, outcomes, resolutions) are immutable and carry the
board they are on; `adjudicate`, `explore`, `parse_orders` and `check` are pure functions of
them, under a rule book given as a value or by name (`rule_book` also reads one from a
file); `read_cases` reads case files; a `Multiverse` steps 5D Diplomacy.  docs/api.md is the
tour, and its reference lists every name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import compiled  # noqa: F401 (first: DIPSAT_PURE chooses the sources)
from .values import pictures as _pictures

if TYPE_CHECKING:
    from topology import Board, Kind, Location, UnitType, load_board, standard, variant

    from .api import (
        Orders,
        adjudicate,
        adjudicate_many,
        check,
        explore,
        fit_rules,
        influence,
        parse_orders,
        read_cases,
        solve_rules,
    )
    from .errors import (
        CaseFormatError,
        DipsatError,
        IllegalOrderError,
        LimitError,
        OrderSyntaxError,
        PositionError,
        SaveFileError,
        SolverTimeout,
    )
    from .exploring.conformance import CaseResult, Failure
    from .exploring.explore import CoreReport, EditionChoice
    from .formats.cases import Case
    from .formats.rulebooks import rule_book
    from .judge.solver_settings import time_limit
    from .multiverse.state import Fork, MBoard, Multiverse, MultiverseStep
    from .rulesearch.fit import Fit
    from .rulesearch.influence import CaseInfluence
    from .rulesearch.solve import Solution
    from .values.decisions import Decision, DecisionKind
    from .values.orders import (
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
    from .values.outcomes import (
        BackupRule,
        Bounced,
        CutBy,
        DislodgedBy,
        Illegal,
        Illegality,
        Invalid,
        Invalidity,
        NoPath,
        Outcome,
        ParadoxRule,
        Reason,
        Result,
    )
    from .values.position import DislodgedUnit, Phase, PhaseKind, Position, Season, Unit
    from .values.resolution import (
        AdjustmentResolution,
        Core,
        PhaseResolution,
        Resolution,
        Retreating,
        RetreatResolution,
    )
    from .values.rules import EDITIONS, RULE_BOOKS, RuleBook

_HOMES: dict[str, str] = {
    "AdjustmentResolution": ".values.resolution",
    "BackupRule": ".values.outcomes",
    "Board": "topology",
    "Bounced": ".values.outcomes",
    "Build": ".values.orders",
    "Case": ".formats.cases",
    "CaseFormatError": ".errors",
    "CaseInfluence": ".rulesearch.influence",
    "CaseResult": ".exploring.conformance",
    "Convoy": ".values.orders",
    "Core": ".values.resolution",
    "CoreReport": ".exploring.explore",
    "CutBy": ".values.outcomes",
    "Decision": ".values.decisions",
    "DecisionKind": ".values.decisions",
    "DipsatError": ".errors",
    "Disband": ".values.orders",
    "DislodgedBy": ".values.outcomes",
    "DislodgedUnit": ".values.position",
    "EDITIONS": ".values.rules",
    "EditionChoice": ".exploring.explore",
    "Failure": ".exploring.conformance",
    "Fit": ".rulesearch.fit",
    "Fork": ".multiverse.state",
    "Given": ".values.orders",
    "Hold": ".values.orders",
    "Illegal": ".values.outcomes",
    "IllegalOrderError": ".errors",
    "LimitError": ".errors",
    "Illegality": ".values.outcomes",
    "Invalid": ".values.outcomes",
    "Invalidity": ".values.outcomes",
    "Kind": "topology",
    "Location": "topology",
    "MBoard": ".multiverse.state",
    "Move": ".values.orders",
    "Multiverse": ".multiverse.state",
    "MultiverseStep": ".multiverse.state",
    "NoPath": ".values.outcomes",
    "Order": ".values.orders",
    "OrderSyntaxError": ".errors",
    "Orders": ".api",
    "Outcome": ".values.outcomes",
    "ParadoxRule": ".values.outcomes",
    "Phase": ".values.position",
    "PhaseKind": ".values.position",
    "PhaseResolution": ".values.resolution",
    "Place": ".values.orders",
    "Position": ".values.position",
    "PositionError": ".errors",
    "RULE_BOOKS": ".values.rules",
    "Reason": ".values.outcomes",
    "Resolution": ".values.resolution",
    "Result": ".values.outcomes",
    "Retreat": ".values.orders",
    "RetreatResolution": ".values.resolution",
    "Retreating": ".values.resolution",
    "RuleBook": ".values.rules",
    "SaveFileError": ".errors",
    "Season": ".values.position",
    "Solution": ".rulesearch.solve",
    "SolverTimeout": ".errors",
    "SupportHold": ".values.orders",
    "SupportMove": ".values.orders",
    "Unit": ".values.position",
    "UnitRef": ".values.orders",
    "UnitType": "topology",
    "Waive": ".values.orders",
    "adjudicate": ".api",
    "adjudicate_many": ".api",
    "check": ".api",
    "explore": ".api",
    "fit_rules": ".api",
    "influence": ".api",
    "load_board": "topology",
    "parse_orders": ".api",
    "read_cases": ".api",
    "rule_book": ".formats.rulebooks",
    "solve_rules": ".api",
    "standard": "topology",
    "time_limit": ".judge.solver_settings",
    "variant": "topology",
}
"""Where each public name lives: `import solver` loads a module only when one of its names
is first used (a script that adjudicates never loads the solver, the explorer or networkx)."""


def _picture(value: object) -> str:
    """A value's picture in a notebook: the renderer loads only when one is first drawn."""
    from .render.notebook import svg_of

    return svg_of(value)


_pictures.register(_picture)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "EDITIONS",
    "RULE_BOOKS",
    "AdjustmentResolution",
    "BackupRule",
    "Board",
    "Bounced",
    "Build",
    "Case",
    "CaseFormatError",
    "CaseInfluence",
    "CaseResult",
    "Convoy",
    "Core",
    "CoreReport",
    "CutBy",
    "Decision",
    "DecisionKind",
    "DipsatError",
    "Disband",
    "DislodgedBy",
    "DislodgedUnit",
    "EditionChoice",
    "Failure",
    "Fit",
    "Fork",
    "Given",
    "Hold",
    "Illegal",
    "IllegalOrderError",
    "Illegality",
    "Invalid",
    "Invalidity",
    "Kind",
    "LimitError",
    "Location",
    "MBoard",
    "Move",
    "Multiverse",
    "MultiverseStep",
    "NoPath",
    "Order",
    "OrderSyntaxError",
    "Orders",
    "Outcome",
    "ParadoxRule",
    "Phase",
    "PhaseKind",
    "PhaseResolution",
    "Place",
    "Position",
    "PositionError",
    "Reason",
    "Resolution",
    "Result",
    "Retreat",
    "RetreatResolution",
    "Retreating",
    "RuleBook",
    "SaveFileError",
    "Season",
    "Solution",
    "SolverTimeout",
    "SupportHold",
    "SupportMove",
    "Unit",
    "UnitRef",
    "UnitType",
    "Waive",
    "adjudicate",
    "adjudicate_many",
    "check",
    "explore",
    "fit_rules",
    "influence",
    "load_board",
    "parse_orders",
    "read_cases",
    "rule_book",
    "solve_rules",
    "standard",
    "time_limit",
    "variant",
]
