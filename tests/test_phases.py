"""Phase sequencing and game end: what the case format cannot say directly."""

from __future__ import annotations

from solver.cycle.game import advance
from solver.values.calendar import game_status
from solver.values.notation import parse_given
from solver.values.position import Phase, Position, Unit
from topology import Location, UnitType, standard


def army(province: str, power: str) -> Unit:
    return Unit(Location(province), UnitType.ARMY, power)


def position(phase: str, units, centres=()) -> Position:
    return Position(Phase.parse(phase), tuple(units), tuple(centres), board=standard())


def test_spring_goes_to_fall_and_fall_to_winter_with_new_owners():
    spring = position("S1901M", [army("mun", "Germany")], [("mun", "Germany")])
    fall = advance(spring, [parse_given("Germany: A Munich - Ruhr", standard())]).after
    assert str(fall.phase) == "Fall 1901 movement"
    winter = advance(fall, [parse_given("Germany: A Ruhr - Belgium", standard())]).after
    assert str(winter.phase) == "Winter 1901 adjustment"
    assert winter.owner("bel") == "Germany"
    assert winter.owner("mun") == "Germany"  # an empty centre keeps its owner


def test_an_empty_winter_is_skipped():
    fall = position("F1901M", [army("mun", "Germany")], [("mun", "Germany")])
    after = advance(fall, []).after
    assert str(after.phase) == "Spring 1902 movement"


def test_ownership_changes_only_after_fall():
    spring = position("S1901M", [army("ruh", "Germany")], [("mun", "Germany")])
    fall = advance(spring, [parse_given("Germany: A Ruhr - Belgium", standard())]).after
    assert fall.owner("bel") is None


def test_a_fall_retreat_leads_to_the_adjustments():
    units = [army("bur", "France"), army("ruh", "France"), army("mun", "Germany")]
    fall = position("F1901M", units, [("mun", "Germany"), ("mar", "France"), ("par", "France")])
    orders = [
        parse_given("France: A Burgundy - Munich", standard()),
        parse_given("France: A Ruhr Supports A Burgundy - Munich", standard()),
    ]
    retreat = advance(fall, orders).after
    assert str(retreat.phase) == "Fall 1901 retreat"
    winter = advance(retreat, []).after  # the unordered dislodged army disbands
    assert str(winter.phase) == "Winter 1901 adjustment"
    assert winter.owner("mun") == "France"
    assert all(u.power == "France" for u in winter.units)


def test_solo_and_elimination():
    centres = sorted(standard().centres)
    solo = position(
        "W1905A",
        [army("mun", "Germany")],
        [(c, "Germany") for c in centres[:18]] + [(centres[18], "Italy")],
    )
    status = game_status(solo)
    assert status.solo == "Germany"
    assert "Italy" not in status.eliminated
    assert set(status.eliminated) == set(standard().powers) - {"Germany", "Italy"}
