"""The winter adjustment phase (DATC 6.I, 6.J): builds, disbands and civil disorder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from topology import Board, BuildSites, Kind, Location, UnitType

from ..errors import DipsatError
from ..values.calendar import adjustment, after_adjustment, build_sites, owned_centres
from ..values.orders import Build, Disband, Given, Waive
from ..values.outcomes import Illegal, Illegality, Outcome, Result
from ..values.position import PhaseKind, Position, Unit
from ..values.resolution import AdjustmentResolution
from ..values.rules import (
    DATC_2025,
    CivilDisorder,
    CivilDisorderSteps,
    CivilDisorderTies,
    RuleBook,
)


def adjudicate_adjustments(
    position: Position, orders: Sequence[Given], rules: RuleBook = DATC_2025
) -> AdjustmentResolution:
    """Builds and disbands in submission order, the first legal ones counting; then civil
    disorder for any disbands still owed."""
    if position.phase.kind is not PhaseKind.ADJUSTMENT:
        raise DipsatError(f"{position.phase} is not an adjustment phase")
    board = position.map
    allowance = {power: adjustment(position, power) for power in board.powers}
    used: dict[str, int] = dict.fromkeys(board.powers, 0)
    built: list[Unit] = []
    disbanded: list[Unit] = []
    outcomes: list[Outcome] = []
    for given in orders:
        result, done = _judge(position, given, allowance, used, built, disbanded)
        if isinstance(done, Illegal):
            outcomes.append(Outcome(given, result, reason=done))
            continue
        outcomes.append(Outcome(given, Result.SUCCEEDS))
        if isinstance(given.order, Build) and done is not None:
            built.append(done)
        elif isinstance(given.order, Disband) and done is not None:
            disbanded.append(done)
    automatic: list[Unit] = []
    for power in board.powers:
        owed = -allowance[power] - used[power] if allowance[power] < 0 else 0
        if owed > 0:
            remaining = [u for u in position.units if u.power == power and u not in disbanded]
            automatic += civil_disorder(position, power, remaining, rules)[:owed]
    gone = set(disbanded) | set(automatic)
    units = tuple(u for u in position.units if u not in gone) + tuple(built)
    after = after_adjustment(position, units)
    return AdjustmentResolution(
        position=position,
        orders=tuple(orders),
        rules=rules,
        outcomes=tuple(outcomes),
        after=after,
        built=tuple(built),
        disbanded=tuple(disbanded),
        civil_disorder=tuple(sorted(automatic)),
    )


def _judge(
    position: Position,
    given: Given,
    allowance: Mapping[str, int],
    used: dict[str, int],
    built: Sequence[Unit],
    disbanded: Sequence[Unit],
) -> tuple[Result, Unit | Illegal | None]:
    """(SUCCEEDS, the unit built or disbanded, None for a waive), or (ILLEGAL or FAILS, why);
    a success counts against the power's allowance."""
    board = position.map
    order = given.order
    power = given.power

    def illegal(code: Illegality, *names: object) -> tuple[Result, Illegal]:
        return Result.ILLEGAL, Illegal.because(code, *names)

    def fails(code: Illegality, *names: object) -> tuple[Result, Illegal]:
        return Result.FAILS, Illegal.because(code, *names)

    if not isinstance(order, Build | Disband | Waive):
        return illegal(Illegality.NOT_AN_ADJUSTMENT_ORDER)
    if power is None:
        return illegal(Illegality.NO_POWER)
    if isinstance(order, Disband):
        unit = position.unit_in(order.unit.place.province)
        if unit is None or unit.power != power:
            return illegal(Illegality.NO_UNIT_OF_POWER, power, order.unit.place.text(board))
        if unit in disbanded:
            return illegal(Illegality.ALREADY_DISBANDED, position.name(unit))
        if used[power] >= -allowance[power]:
            return illegal(Illegality.NO_MORE_DISBANDS, power)
        used[power] += 1
        return Result.SUCCEEDS, unit
    if isinstance(order, Waive):
        if used[power] >= allowance[power]:
            return illegal(Illegality.NO_MORE_BUILDS, power)
        used[power] += 1
        return Result.SUCCEEDS, None
    place = order.unit.place
    province = board.province(place.province)
    if place.province not in build_sites(board, power):
        if board.builds is BuildSites.ANYWHERE:
            return illegal(Illegality.NOT_A_CENTRE, province.name)
        return illegal(Illegality.NOT_A_HOME_CENTRE, province.name, power)
    if position.owner(place.province) != power:
        return illegal(Illegality.NOT_OWNED, power, province.name)
    if position.unit_in(place.province) is not None or any(
        u.province == place.province for u in built
    ):
        return illegal(Illegality.OCCUPIED, province.name)
    if used[power] >= allowance[power]:  # after the place: say first what is wrong there
        return illegal(Illegality.NO_MORE_BUILDS, power)
    unit_type = order.unit.type
    if unit_type is None:
        if province.kind is not Kind.LAND:
            return fails(Illegality.BUILD_TYPE_NEEDED)  # 4.C.3
        unit_type = UnitType.ARMY
    coast = None
    if unit_type is UnitType.FLEET:
        if province.kind is Kind.LAND:
            return illegal(Illegality.FLEET_BUILT_INLAND, province.name)
        if province.coasts:
            if place.coast is None:
                return fails(Illegality.BUILD_COAST_NEEDED, province.name)  # 6.B.14
            if place.coast not in province.coasts:
                return illegal(Illegality.NO_COAST_TO_BUILD, province.name, place.coast)
            coast = place.coast
    used[power] += 1
    return Result.SUCCEEDS, Unit(Location(place.province, coast), unit_type, power)


def civil_disorder(
    position: Position, power: str, units: Sequence[Unit], rules: RuleBook = DATC_2025
) -> list[Unit]:
    """The power's units in the order civil disorder removes them (DATC 4.D.8): farthest
    first from the centres `civil_disorder` names, counted as `civil_disorder_steps` says;
    at equal distance fleets before armies, then by `civil_disorder_ties`."""
    board = position.map
    if rules.civil_disorder is CivilDisorder.OWNED_CENTRES:
        sources = set(owned_centres(position, power))
    else:
        sources = set(board.home_centres(power))
    by_fleet_moves = rules.civil_disorder_steps is CivilDisorderSteps.UNIT_MOVES
    any_border = board.distances_to(sources) if sources else {}
    far = {
        u: _fleet_distance(board, sources, u)
        if by_fleet_moves and u.type is UnitType.FLEET
        else any_border.get(u.location.code, float("inf"))
        for u in units
    }

    def tie(unit: Unit) -> str:
        if rules.civil_disorder_ties is CivilDisorderTies.NAME:
            return board.province(unit.province).name
        if rules.civil_disorder_ties is CivilDisorderTies.CODE:
            return unit.location.code
        code = board.code_in("godip", unit.location.code)
        coast = unit.location.coast if unit.type is UnitType.FLEET else None
        return f"{code}/{coast}" if coast else code

    def key(unit: Unit) -> tuple[float, bool, str]:
        return (-far[unit], unit.type is not UnitType.FLEET, tie(unit))

    return sorted(units, key=key)


def _fleet_distance(board: Board, sources: set[str], unit: Unit) -> float:
    """Fleet moves from the fleet's place (its coast) to the nearest of the provinces."""
    import networkx as nx  # only a winter with a power in civil disorder needs it

    graph = board.fleet_graph()
    targets = [n for n in graph if Location.parse(n).province in sources]
    if not targets:
        return float("inf")
    lengths = nx.multi_source_dijkstra_path_length(graph, targets)
    return float(lengths.get(str(unit.location), float("inf")))
