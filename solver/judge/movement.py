"""The one judge of a movement phase: position + orders -> resolution.

Every caller goes through here — a game's movement phase, the multiverse's joint turn and
its re-adjudication of the past, the paradox explorer, the cross-checker and the search over
rule books: no caller wires the stages itself.  The stages, each in a module of its own:

1. legality (`legality.analyse`): each order judged, each unit's order in force;
2. the structure (`structure.Structure`): the static facts of the turn, by unit number;
3. settling (`fallback.settle`): propagation, the cores, CP-SAT and the backup rule;
4. the resolution (`resolution.resolve`): outcomes, dislodgements, the next position.

`adjudicate` runs them all.  `judge` stops after the first two and returns a `Judgement`,
for the callers that look inside a turn (the orders in force, the dependency graph, the
resolutions of a core) or settle it their own way (a multiverse settles its joint turn
group of boards by group, with decisions kept from history).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from topology import Key

from ..errors import DipsatError
from ..values.calendar import after_movement
from ..values.decisions import Decision
from ..values.orders import Given
from ..values.position import PhaseKind, Position
from ..values.resolution import Resolution
from ..values.rules import DATC_2025, RuleBook
from .checked import Checked, JudgedTurn
from .cores import cores_in_order, reads_of
from .fallback import CoreFound, Settlement, settle
from .legality import analyse
from .results import NextPosition, decision_values, resolve
from .solver_settings import SolverConfig, current_config
from .structure import Structure

if TYPE_CHECKING:
    import networkx as nx


def adjudicate(
    position: Position,
    orders: Sequence[Given],
    rules: RuleBook = DATC_2025,
    config: SolverConfig | None = None,
    recorded: Mapping[Decision, bool] | None = None,
    then: NextPosition = after_movement,
) -> Resolution:
    """Adjudicate a movement phase on the position's board (`recorded`: decisions kept
    from history, as a multiverse's past boards keep them; `then`: what follows the
    movement, the next phase of the game by default)."""
    return judge(position, orders, rules).settle(config, recorded).resolution(then)


def judge(position: Position, orders: Sequence[Given], rules: RuleBook = DATC_2025) -> Judgement:
    """The orders of a movement phase judged, and the turn's structure: ready to settle."""
    if position.phase.kind is not PhaseKind.MOVEMENT:
        raise DipsatError(
            f"{position.phase} is not a movement phase; "
            "retreat and adjustment phases come with the full game cycle"
        )
    turn = analyse(position, orders, rules)
    return Judgement(turn, Structure.of(turn))


@dataclass(frozen=True, slots=True, eq=False)
class Judgement:
    """A movement turn judged: its orders as judged (`turn`) and its structure."""

    turn: JudgedTurn
    structure: Structure

    @property
    def checked(self) -> tuple[Checked, ...]:
        """Each submitted order as judged, in submission order."""
        return self.turn.checked

    def order_in_force(self, province: Key) -> Checked | None:
        """The order in force of the unit in a province (None: it holds, or none stands
        there)."""
        unit = self.structure.number.get(province)
        return None if unit is None else self.structure.order_of[unit]

    def numbered(self, recorded: Mapping[Decision, bool] | None) -> dict[int, bool]:
        """Decisions given as values, by number, in the order given (those that are not
        decisions of this turn left out)."""
        found: dict[int, bool] = {}
        if recorded:
            s = self.structure
            in_turn = set(s.decisions)
            for decision, value in recorded.items():
                d = s.number_of(decision)
                if d is not None and d in in_turn:
                    found[d] = value
        return found

    def settle(
        self,
        config: SolverConfig | None = None,
        recorded: Mapping[Decision, bool] | None = None,
        group_of: Callable[[Key], int] | None = None,
    ) -> Settled:
        """Every decision settled (`recorded`: decisions kept from history, which keep their
        values).  `group_of`: the group of each unit's province, when units of different
        groups neither read nor move into each other's (a multiverse's boards that no order
        links): each group is settled alone, its cores listed group after group, in the
        order of the groups' numbers."""
        s = self.structure
        history = self.numbered(recorded)
        groups = _groups(s, group_of) if group_of is not None else None
        if groups is None:
            return Settled(self, settle(s, config, history))
        config = config or current_config()
        parts = []
        for ds in groups:
            mine = set(ds)
            parts.append(settle(s, config, {d: v for d, v in history.items() if d in mine}, ds))
        return Settled(self, _merged(parts, history), tuple(parts), tuple(groups))

    def dependencies(self, recorded: Mapping[Decision, bool] | None = None) -> nx.DiGraph:
        """The dependency graph: each decision with an edge to every decision its equation
        reads (`recorded` decisions have no equation), in the turn's order."""
        import networkx as nx

        value = self.structure.value
        reads = self._reads(recorded)
        return nx.DiGraph({value(d): [value(r) for r in rs] for d, rs in reads.items()})

    def cores(self, recorded: Mapping[Decision, bool] | None = None) -> list[tuple[Decision, ...]]:
        """The cycles of the dependency graph (its strongly connected parts with a cycle),
        each before those that read it; none for a turn without a cycle."""
        value = self.structure.value
        return [tuple(map(value, core)) for core in cores_in_order(self._reads(recorded))]

    def _reads(self, recorded: Mapping[Decision, bool] | None) -> dict[int, list[int]]:
        from .cpsat import build

        return reads_of(build(self.structure, self.numbered(recorded)).depends)

    def label(self, decision: Decision) -> str:
        """A decision named after its order: 'move[A Munich - Tyrolia]'."""
        d = self.structure.number_of(decision)
        if d is None:
            raise DipsatError(f"{decision} is no decision of this turn")
        return self.structure.label(d)

    def resolutions(
        self,
        fixed: Mapping[Decision, bool],
        scope: Collection[Decision],
        limit: int,
        config: SolverConfig | None = None,
    ) -> list[dict[Decision, bool]]:
        """Up to `limit` consistent values of the decisions in `scope`, the others `fixed`
        or left to their equations, in a canonical order (CP-SAT)."""
        from .cpsat import build, solutions

        s = self.structure
        numbered = self.numbered(fixed)
        include = sorted(d for d in map(s.number_of, scope) if d is not None)
        found = solutions(build(s, numbered, include), limit, config)
        return [decision_values(s, f) for f in found]


@dataclass(frozen=True, slots=True, eq=False)
class Settled:
    """A judged turn with every decision settled: ready to resolve."""

    judgement: Judgement
    settlement: Settlement
    parts: tuple[Settlement, ...] = ()  # group by group, when settled so
    groups: tuple[tuple[int, ...], ...] = ()  # each group's decisions
    _values: dict[Decision, bool] = field(default_factory=dict)

    @property
    def turn(self) -> JudgedTurn:
        return self.judgement.turn

    @property
    def values(self) -> Mapping[Decision, bool]:
        """Every decision's value (as `Resolution.values` lists them)."""
        if not self._values:
            self._values.update(decision_values(self.judgement.structure, self.settlement.values))
        return self._values

    @property
    def recorded(self) -> Mapping[Decision, bool]:
        """The decisions kept from history, in the order given."""
        return decision_values(self.judgement.structure, self.settlement.recorded)

    def group_values(self) -> list[dict[Decision, bool]]:
        """Each group's decisions with their values, as the whole turn orders them."""
        s = self.judgement.structure
        return [decision_values(s, part.values) for part in self.parts]

    def resolution(self, then: NextPosition = after_movement) -> Resolution:
        """The turn's outcomes, dislodgements and the position `then` makes of it."""
        j = self.judgement
        return resolve(j.turn, j.structure, self.settlement, then)


def _groups(s: Structure, group_of: Callable[[Key], int]) -> list[tuple[int, ...]] | None:
    """The decisions of each group of units holding some, in the order of the groups'
    numbers; None when there are fewer than two such groups."""
    found: dict[int, list[int]] = {}
    of_unit = [group_of(key) for key in s.keys]
    count = s.count
    for d in s.decisions:
        found.setdefault(of_unit[d % count], []).append(d)
    if len(found) < 2:
        return None
    return [tuple(found[g]) for g in sorted(found)]


def _merged(parts: Sequence[Settlement], history: Mapping[int, bool]) -> Settlement:
    """The settlement of the whole turn from its groups', as `settle` orders it: the
    decisions settled now, sorted, then those kept from history, in the order given."""
    fresh: dict[int, bool] = {}
    forced: dict[int, bool] = {}
    for part in parts:
        fresh.update((d, v) for d, v in part.values.items() if d not in part.recorded)
        forced.update(part.forced)
    values = {d: fresh[d] for d in sorted(fresh)}
    values.update(history)
    cores: tuple[CoreFound, ...] = tuple(c for part in parts for c in part.cores)
    return Settlement(values, cores, forced, dict(history))
