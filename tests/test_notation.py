"""The order parser: every notation, canonical printing, round trips and bad input."""

from __future__ import annotations

import pytest
from conftest import DATA, table
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import OrderSyntaxError
from solver.values.notation import parse_given, parse_order
from solver.values.orders import (
    Build,
    Convoy,
    Disband,
    Given,
    Hold,
    Move,
    Place,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from topology import UnitType, standard, variant, variant_names


def order_lines(name: str) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize(("text", "canonical"), table("notations.txt"))
def test_notation_reads_as_canonical(text, canonical):
    assert str(parse_given(text, standard())) == canonical


@pytest.mark.parametrize("name", variant_names())
def test_every_power_of_every_board_reads_before_its_order(name):
    """'British-Columbia: A Calgary Holds': a power whose name joins words by hyphens (on
    empire, world and known_world_901) reads as a prefix, as dipsat prints it, on one board
    and on a multiverse board; its orders were refused ('found unknown name British'), and
    a saved game holding one could not be read back."""
    board = variant(name)
    for power in board.powers:
        unit_type, location = board.starting_units(power)[0]
        for timeline, turn in ((None, None), (1, 2)):
            place = Place(location.province, location.coast, timeline, turn)
            given = Given(power, Hold(UnitRef(place, unit_type)), board)
            assert parse_given(str(given), board) == given, str(given)


@pytest.mark.parametrize("name", ["datc_v3_2_orders.txt", "mdatc_orders.txt"])
def test_every_document_order_round_trips(name):
    lines = order_lines(name)
    assert len(lines) > 30
    for line in lines:
        first = parse_given(line, standard())
        assert parse_given(str(first), standard()) == first, line


def test_datc_document_has_all_its_orders():
    assert len(order_lines("datc_v3_2_orders.txt")) == 840


@pytest.mark.parametrize(("text", "error"), table("bad_orders.txt"))
def test_bad_orders_name_the_column(text, error):
    with pytest.raises(OrderSyntaxError) as caught:
        parse_given(text, standard())
    assert str(caught.value).startswith(error)
    assert caught.value.column >= 1


def test_retreat_phase_reads_a_move_as_retreat():
    assert isinstance(parse_order("A Holland - Belgium", standard(), phase="retreat"), Retreat)
    assert isinstance(parse_order("A Holland - Belgium", standard()), Move)


def test_daide_in_a_retreat_phase_takes_only_retreat_verbs():
    """MTO is a movement verb: in a retreat phase it is an error, not a move that would print
    as text reading back as a retreat."""
    with pytest.raises(OrderSyntaxError) as caught:
        parse_given("( ENG AMY HOL ) MTO BEL", standard(), phase="retreat")
    assert str(caught.value) == "column 17: expected RTO or DSB (a retreat phase), found 'MTO'"
    retreat = parse_given("( ENG AMY HOL ) RTO BEL", standard(), phase="retreat")
    assert isinstance(retreat.order, Retreat)
    assert parse_given(str(retreat), standard(), phase="retreat") == retreat
    assert isinstance(parse_order("( ENG AMY HOL ) DSB", standard(), phase="retreat"), Disband)


def test_ambiguous_name_lists_candidates():
    with pytest.raises(OrderSyntaxError, match=r"could be .*Norway, Norwegian Sea"):
        parse_order("F Nor - Swe", standard())


# -- property tests ------------------------------------------------------------------------
_VALID_SAMPLES = [line.split(": ", 1)[-1] for line in order_lines("datc_v3_2_orders.txt")[::7]]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_parses_or_raises_syntax_error(text):
    try:
        parse_given(text, standard())
    except OrderSyntaxError as error:
        assert isinstance(error, ValueError)
        assert 1 <= error.column <= len(text) + 1


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(_VALID_SAMPLES),
    st.integers(0, 80),
    st.integers(0, 4),
    st.text(alphabet="()-/:@ ABFSCHnsce0123456789", max_size=4),
)
def test_mutated_orders_parse_or_raise_syntax_error(order, at, cut, insert):
    at = min(at, len(order))
    text = order[:at] + insert + order[at + cut :]
    try:
        result = parse_given(text, standard())
    except OrderSyntaxError as error:
        assert 1 <= error.column <= len(text) + 1
    else:
        assert parse_given(str(result), standard()) == result


_CODES = sorted(standard().provinces)


@st.composite
def places(draw):
    province = draw(st.sampled_from(_CODES))
    coasts = standard().province(province).coasts
    coast = draw(st.sampled_from((None, *coasts))) if coasts else None
    if draw(st.booleans()):
        return Place(province, coast, draw(st.integers(0, 30)), draw(st.integers(0, 40)))
    return Place(province, coast)


@st.composite
def units(draw):
    return UnitRef(draw(places()), draw(st.sampled_from((None, UnitType.ARMY, UnitType.FLEET))))


orders = st.one_of(
    st.builds(Hold, units()),
    st.builds(Move, units(), places(), st.booleans()),
    st.builds(SupportHold, units(), units()),
    st.builds(SupportMove, units(), units(), places()),
    st.builds(Convoy, units(), units(), places()),
    st.builds(Retreat, units(), places()),
    st.builds(Disband, units()),
    st.builds(Build, units()),
    st.just(Waive()),
)


@settings(max_examples=500, deadline=None)
@given(orders)
def test_printed_orders_parse_back(order):
    assert parse_order(str(order), standard()) == order


def test_the_maintainers_check_of_the_datc_order_lines_finds_a_difference(tmp_path):
    """tests/data/datc_orders_source.py compares the committed DATC order lines with an
    extraction of the document (kept outside the project): here one made to agree, then
    one with a line changed, which it names."""
    import json
    import subprocess
    import sys

    lines = order_lines("datc_v3_2_orders.txt")
    orders = [dict(zip(("power", "order"), line.split(": ", 1), strict=True)) for line in lines]
    blocks = [{"power": o["power"], "orders": [{"order": o["order"]}]} for o in orders]
    script = [sys.executable, str(DATA / "datc_orders_source.py")]
    for changed, code in ((None, 0), (41, 1)):
        if changed is not None:
            blocks[changed]["orders"][0]["order"] = "A Nowhere Holds"
        path = tmp_path / "cases.json"
        path.write_text(json.dumps({"cases": [{"blocks": blocks}]}), encoding="utf-8")
        done = subprocess.run([*script, str(path)], capture_output=True, text=True)
        assert done.returncode == code, done.stderr
    assert "order line 42: committed" in done.stderr
