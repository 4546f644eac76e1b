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

from topology import Board, Kind, Location, UnitType, load_board, standard, variant

from . import compiled  # noqa: F401 (first: DIPSAT_PURE chooses the sources)
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
from .formats.cases import Case
from .formats.rulebooks import rule_book
from .judge.solve import time_limit
from .multiverse.state import Fork, MBoard, Multiverse, MultiverseStep
from .tools.conformance import CaseResult, Failure
from .tools.explore import CoreReport, EditionChoice
from .tools.rulesearch.fit import Fit
from .tools.rulesearch.influence import CaseInfluence
from .tools.rulesearch.solve import Solution
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
