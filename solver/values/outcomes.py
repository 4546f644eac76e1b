"""Outcomes of orders in the DATC v3.2 vocabulary, with typed reasons.

A result is a `Result`; a reason is one of a few small values: `Bounced`, `CutBy`,
`DislodgedBy`, `NoPath`, `ParadoxRule` (with the `BackupRule` that settled the paradox),
`Illegal` and `Invalid` (each with a code, `Illegality` or `Invalidity`, and its sentence).
Code compares codes; the sentences are for people.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Generic, Self, TypeVar

from topology.files import shown

from ..errors import DipsatError
from .orders import CODES, Given, Names
from .position import Unit


class Result(enum.StrEnum):
    """What became of an order, as the DATC writes it."""

    STANDS = "stands"  # a hold (or an order ignored): the unit stays
    SUCCEEDS = "succeeds"  # a move, retreat, build or disband that happens
    FAILS = "fails"
    GIVEN = "given"  # a support that is not cut
    CUT = "cut"
    AVAILABLE = "available"  # a convoy that is not disrupted
    DISRUPTED = "disrupted"
    INVALID = "invalid"  # possible, but not matching the other orders: it fails
    ILLEGAL = "illegal"  # impossible: the order is ignored
    UNRESOLVED = "unresolved"  # a paradox the rule book gives no answer to


class BackupRule(enum.StrEnum):
    """How a dependency cycle (a core) was settled (DATC 5.B and the rule book's paradox
    policy, `solver.values.rules.ConvoyParadox`)."""

    UNIQUE = "unique"  # it has exactly one consistent resolution: no rule needed
    SZYKMAN = "szykman"  # a convoy paradox: its convoys fail
    CIRCULAR_MOVEMENT = "circular movement"  # its moves succeed
    ALL_FAIL = "all fail"  # circular movement that cannot succeed: moves and supports fail
    ALL_HOLD = "all hold"  # a convoy paradox: its moves fail
    DPTG = "dptg"  # the consistent resolution in which all its convoys fail
    UNRESOLVED = "unresolved"  # the rule book gives no answer

    @property
    def overrules(self) -> bool:
        """Does the rule set decisions against their equations (all but unique and dptg)?"""
        return self not in (BackupRule.UNIQUE, BackupRule.DPTG)


class Illegality(enum.StrEnum):
    """Why an order is illegal: impossible on the board whatever the other orders are
    (DATC 4.E.1), or not an order of this phase; the unit holds as if it had no order."""

    NOT_A_MOVEMENT_ORDER = "not-a-movement-order"
    NOT_A_RETREAT_ORDER = "not-a-retreat-order"
    NOT_AN_ADJUSTMENT_ORDER = "not-an-adjustment-order"
    NO_UNIT = "no-unit"
    NOT_DISLODGED = "not-dislodged"
    NO_UNIT_OF_POWER = "no-unit-of-power"
    FOREIGN_UNIT = "foreign-unit"
    FOREIGN_DISLODGED = "foreign-dislodged"
    NO_POWER = "no-power"
    NOT_ON_THAT_COAST = "not-on-that-coast"
    NO_SUCH_BOARD = "no-such-board"
    FLEET_CONVOYED = "fleet-convoyed"
    OWN_PROVINCE = "own-province"
    NO_SUCH_COAST = "no-such-coast"
    ARMY_TO_SEA = "army-to-sea"
    ARMY_TO_COAST = "army-to-coast"
    UNREACHABLE = "unreachable"
    FLEET_INLAND = "fleet-inland"
    FLEET_CANNOT_REACH = "fleet-cannot-reach"
    COAST_NEEDED = "coast-needed"
    NO_CONVOY_ROUTE = "no-convoy-route"
    NOTHING_TO_SUPPORT = "nothing-to-support"
    SUPPORTS_ITSELF = "supports-itself"
    SUPPORT_OUT_OF_REACH = "support-out-of-reach"
    SUPPORTED_MOVE_IMPOSSIBLE = "supported-move-impossible"
    CONVOY_NOT_AT_SEA = "convoy-not-at-sea"
    NOTHING_TO_CONVOY = "nothing-to-convoy"
    OFF_ROUTE = "off-route"
    SECOND_ORDER = "second-order"
    REPLACED_ORDER = "replaced-order"
    SEVERAL_ORDERS = "several-orders"
    RETREAT_NOT_ALLOWED = "retreat-not-allowed"
    ALREADY_DISBANDED = "already-disbanded"
    NO_MORE_DISBANDS = "no-more-disbands"
    NO_MORE_BUILDS = "no-more-builds"
    NOT_A_HOME_CENTRE = "not-a-home-centre"
    NOT_A_CENTRE = "not-a-centre"
    NOT_OWNED = "not-owned"
    OCCUPIED = "occupied"
    BUILD_TYPE_NEEDED = "build-type-needed"
    FLEET_BUILT_INLAND = "fleet-built-inland"
    BUILD_COAST_NEEDED = "build-coast-needed"
    NO_COAST_TO_BUILD = "no-coast-to-build"
    NOT_ON_A_HEAD = "not-on-a-head"
    PHASE_FIRST = "phase-first"
    BOARD_BUSY = "board-busy"
    NOTHING_OWED = "nothing-owed"
    RETREAT_OFF_BOARD = "retreat-off-board"
    RETREATS_FIRST = "retreats-first"
    RETREAT_WHERE_DISLODGED = "retreat-where-dislodged"
    GAME_OVER = "game-over"

    @property
    def template(self) -> str:
        """The sentence, with `{}` for each thing it names."""
        return _ILLEGAL[self]


class Invalidity(enum.StrEnum):
    """Why an order is invalid: possible, but not matching the other orders; it takes part
    as an order of its kind and fails (DATC 4.E.1)."""

    NO_CONVOY_ORDERED = "no-convoy-ordered"  # 6.D.8, 6.G.8
    SUPPORTED_UNIT_MOVES = "supported-unit-moves"  # a hold support for a moving unit, 6.D.7
    NOT_ORDERED_SO = "not-ordered-so"  # the supported or convoyed move is not ordered, 6.D.9
    ON_OTHER_COAST = "on-other-coast"  # a fleet ordered from the coast it is not on, 6.B.11

    @property
    def template(self) -> str:
        """The sentence, with `{}` for each thing it names."""
        return _INVALID[self]


_ILLEGAL: dict[Illegality, str] = {
    Illegality.NOT_A_MOVEMENT_ORDER: "not an order for a movement phase",
    Illegality.NOT_A_RETREAT_ORDER: "not a retreat-phase order: only retreats and disbands",
    Illegality.NOT_AN_ADJUSTMENT_ORDER: "not an order for an adjustment phase",
    Illegality.NO_UNIT: "there is no unit in {}",
    Illegality.NOT_DISLODGED: "no dislodged unit in {}",
    Illegality.NO_UNIT_OF_POWER: "{} has no unit in {}",
    Illegality.FOREIGN_UNIT: "the unit in {} belongs to {}",
    Illegality.FOREIGN_DISLODGED: "the dislodged unit belongs to {}",
    Illegality.NO_POWER: "the order does not say which power gives it",
    Illegality.NOT_ON_THAT_COAST: "{} is not on the {} coast",
    Illegality.NO_SUCH_BOARD: "there is no board for {}",
    Illegality.FLEET_CONVOYED: "only armies can be convoyed",
    Illegality.OWN_PROVINCE: "a unit cannot move to its own province",
    Illegality.NO_SUCH_COAST: "{} has no coast {} for this unit",
    Illegality.ARMY_TO_SEA: "an army cannot move to sea",
    Illegality.ARMY_TO_COAST: "an army does not move to a coast",
    Illegality.UNREACHABLE: "{} is not adjacent and no fleets could convoy there",
    Illegality.FLEET_INLAND: "a fleet cannot move inland",
    Illegality.FLEET_CANNOT_REACH: "a fleet in {} cannot reach {}",
    Illegality.COAST_NEEDED: "the coast of {} must be given",
    Illegality.NO_CONVOY_ROUTE: "no fleets could convoy to {}",
    Illegality.NOTHING_TO_SUPPORT: "there is no unit in {} to support",
    Illegality.SUPPORTS_ITSELF: "a unit cannot support itself",
    Illegality.SUPPORT_OUT_OF_REACH: "{} cannot reach {}",
    Illegality.SUPPORTED_MOVE_IMPOSSIBLE: "the supported move is impossible: {}",
    Illegality.CONVOY_NOT_AT_SEA: "only a fleet at sea can convoy",
    Illegality.NOTHING_TO_CONVOY: "there is no army in {} to convoy",
    Illegality.OFF_ROUTE: "{} is on no convoy route from {} to {}",
    Illegality.SECOND_ORDER: "{} already has an order",
    Illegality.REPLACED_ORDER: "a later order to {} replaces it",
    Illegality.SEVERAL_ORDERS: "{} has several orders",
    Illegality.RETREAT_NOT_ALLOWED: "{} cannot retreat to {}",
    Illegality.ALREADY_DISBANDED: "{} is already disbanded",
    Illegality.NO_MORE_DISBANDS: "{} has no more units to disband",
    Illegality.NO_MORE_BUILDS: "{} has no more builds",
    Illegality.NOT_A_HOME_CENTRE: "{} is not a home centre of {}",
    Illegality.NOT_A_CENTRE: "{} is not a supply centre",
    Illegality.NOT_OWNED: "{} does not own {}",
    Illegality.OCCUPIED: "{} is occupied",
    Illegality.BUILD_TYPE_NEEDED: "a build on the coast must say army or fleet",
    Illegality.FLEET_BUILT_INLAND: "a fleet cannot be built inland in {}",
    Illegality.BUILD_COAST_NEEDED: "a fleet in {} needs a coast",
    Illegality.NO_COAST_TO_BUILD: "{} has no {} coast",
    Illegality.NOT_ON_A_HEAD: "only units on a head board take orders; {} is not on one",
    Illegality.PHASE_FIRST: "{} settles its {} first: it moves next step",
    Illegality.BOARD_BUSY: "{} settles its {} this step",
    Illegality.NOTHING_OWED: "{} owes no retreat or adjustment phase",
    Illegality.RETREAT_OFF_BOARD: "a retreat stays on its own board, {}: it cannot go to {}",
    Illegality.RETREATS_FIRST: "units dislodged in the multiverse retreat first: only retreats",
    Illegality.RETREAT_WHERE_DISLODGED: "in a retreat pause a unit is ordered where it was "
    "dislodged: {}",
    Illegality.GAME_OVER: "{} has won: the game is over",
}
_INVALID: dict[Invalidity, str] = {
    Invalidity.NO_CONVOY_ORDERED: "no convoy was ordered along any route",
    Invalidity.SUPPORTED_UNIT_MOVES: "{} is ordered to move",
    Invalidity.NOT_ORDERED_SO: "{} is not ordered to move to {}",
    Invalidity.ON_OTHER_COAST: "the fleet is on the {} coast",
}


Code = TypeVar("Code", Illegality, Invalidity)


@cache
def _readers(codes: type[Code]) -> list[tuple[re.Pattern[str], Code]]:
    """Each code's sentence as a pattern: those that open with fixed words first (a sentence
    may end with another, "the supported move is impossible: ..."), then the most specific
    (the longest fixed text) first."""
    found: list[tuple[re.Pattern[str], Code, tuple[bool, int]]] = []
    for code in codes:
        fixed = code.template.split("{}")
        pattern = "(.+)".join(re.escape(part) for part in fixed)
        found.append((re.compile(pattern), code, (not fixed[0], -len("".join(fixed)))))
    found.sort(key=lambda entry: entry[2])
    return [(pattern, code) for pattern, code, _ in found]


def _code_of(codes: type[Code], text: str) -> Code:
    """The code whose sentence the text is.

    Raises:
        DipsatError: no code's sentence reads so.
    """
    readers: list[tuple[re.Pattern[str], Code]] = _readers(codes)
    for pattern, code in readers:
        if pattern.fullmatch(text):
            return code
    raise DipsatError(f"no {codes.__name__} reads {shown(text, 60)}")


# -- reasons -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Sentence(Generic[Code]):
    """A code and its sentence, with what the sentence names filled in."""

    code: Code
    why: str

    @classmethod
    def because(cls, code: Code, *names: object) -> Self:
        return cls(code, code.template.format(*names))

    @classmethod
    def read(cls, why: str) -> Self:
        """The reason a sentence states (as saved games keep it).

        Raises:
            DipsatError: no reason of this kind states it.
        """
        return cls(_code_of(cls.codes(), why), why)

    @classmethod
    def codes(cls) -> type[Code]:
        """The enum of the codes."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.why


@dataclass(frozen=True, slots=True)
class Illegal(_Sentence[Illegality]):
    """The order is illegal; `why` is the sentence of `code` with what it names."""

    @classmethod
    def codes(cls) -> type[Illegality]:
        return Illegality


@dataclass(frozen=True, slots=True)
class Invalid(_Sentence[Invalidity]):
    """The order is invalid; `why` is the sentence of `code` with what it names."""

    @classmethod
    def codes(cls) -> type[Invalidity]:
        return Invalidity


@dataclass(frozen=True, slots=True, repr=False)
class Bounced:
    """A move that failed: `by` the units that stood in the way (the one standing in the
    province first, then the other units moving there).  `names` is the board that names
    them in the text; it is not part of the value."""

    by: tuple[Unit, ...]
    names: Names = field(default=CODES, compare=False)

    def __str__(self) -> str:
        return "bounced by " + ", ".join(unit.text(self.names) for unit in self.by)

    def __repr__(self) -> str:
        return f"<Bounced: {self}>"


@dataclass(frozen=True, slots=True)
class NoPath:
    def __str__(self) -> str:
        return "no convoy path"


@dataclass(frozen=True, slots=True, repr=False)
class CutBy:
    """A support cut: `by` the units that attacked the supporter and cut it."""

    by: tuple[Unit, ...]
    names: Names = field(default=CODES, compare=False)

    def __str__(self) -> str:
        return "cut by " + ", ".join(unit.text(self.names) for unit in self.by)

    def __repr__(self) -> str:
        return f"<CutBy: {self}>"


@dataclass(frozen=True, slots=True, repr=False)
class DislodgedBy:
    """An order that failed because its unit was dislodged, `by` this unit."""

    by: Unit
    names: Names = field(default=CODES, compare=False)

    def __str__(self) -> str:
        return f"dislodged by {self.by.text(self.names)}"

    def __repr__(self) -> str:
        return f"<DislodgedBy: {self}>"


@dataclass(frozen=True, slots=True)
class ParadoxRule:
    """The order's fate was set by the backup rule of the paradox core it lies on."""

    rule: BackupRule
    core: tuple[str, ...]  # the core's decisions, named

    def __str__(self) -> str:
        return _RULE_TEXT.get(self.rule, self.rule)


_RULE_TEXT = {
    BackupRule.SZYKMAN: "convoy paradox: its convoys fail (Szykman rule)",
    BackupRule.CIRCULAR_MOVEMENT: "circular movement: all its moves succeed",
    BackupRule.ALL_FAIL: "paradox: its moves and supports fail",
    BackupRule.ALL_HOLD: "convoy paradox: its moves fail (all hold)",
    BackupRule.DPTG: "convoy paradox: the resolution that disrupts its convoys (DPTG)",
    BackupRule.UNRESOLVED: "convoy paradox the rule book gives no answer to",
}


Reason = Illegal | Invalid | Bounced | NoPath | CutBy | DislodgedBy | ParadoxRule


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one submitted order, in the DATC v3.2 vocabulary."""

    given: Given
    result: Result
    dislodged: bool = False
    destroyed: bool = False
    reason: Reason | None = None

    @property
    def label(self) -> str:
        """'fails, dislodged' as the DATC writes it; a holding unit shows only its fate."""
        fate = "destroyed" if self.destroyed else "dislodged" if self.dislodged else ""
        if self.result is Result.STANDS and fate:
            return fate
        return f"{self.result}, {fate}" if fate else self.result

    def __str__(self) -> str:
        """'England: A Wales - Yorkshire: fails (bounced by A Yorkshire)'."""
        reason = f" ({self.reason})" if self.reason is not None else ""
        return f"{self.given}: {self.label}{reason}"

    def __repr__(self) -> str:
        return f"<Outcome {self}>"
