"""Reading case files: positions, orders and expected outcomes as DATC-like text.

The format is documented in docs/case-format.md.  In short::

    case 6.A.6: ORDERING A UNIT OF ANOTHER COUNTRY
    England owns F London

    Germany:
    F London - North Sea => illegal

Every error names the file, line and column and says what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from topology import AmbiguousNameError, Location, UnknownNameError, standard

from .errors import CaseFormatError, OrderSyntaxError
from .notation import parse_given
from .orders import Given, Hold, Waive
from .position import SPRING_1901, Phase, PhaseKind, Position, Season, Unit

MAX_CASE_FILE_BYTES = 4_000_000
OUTCOME_WORDS = frozenset(
    {
        "stands",
        "dislodged",
        "destroyed",
        "succeeds",
        "fails",
        "invalid",
        "illegal",
        "given",
        "cut",
        "available",
        "disrupted",
    }
)
_PHASE_MARKERS = {
    "retreats": PhaseKind.RETREAT,
    "adjustments": PhaseKind.ADJUSTMENT,
    "movement": PhaseKind.MOVEMENT,
}


@dataclass(frozen=True, slots=True)
class CaseOrder:
    given: Given
    expected: str | None  # an outcome label such as "fails, dislodged", or None
    line: int


@dataclass(frozen=True, slots=True)
class Block:
    kind: PhaseKind
    orders: tuple[CaseOrder, ...]
    automatic: tuple[tuple[str, str], ...] = ()  # (power, province) removed by civil disorder


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    title: str
    path: str
    line: int
    position: Position
    blocks: tuple[Block, ...]
    meta: dict[str, str] = field(default_factory=dict)
    after: tuple[Unit, ...] | None = None

    @property
    def section(self) -> str:
        match = re.match(r"^(\d+\.[A-Z]+)\.", self.id)
        return match.group(1) if match else self.id.rsplit(".", 1)[0]

    @property
    def movement(self) -> Block | None:
        return next((b for b in self.blocks if b.kind is PhaseKind.MOVEMENT), None)


@dataclass
class _Draft:
    id: str
    title: str
    line: int
    meta: dict[str, str] = field(default_factory=dict)
    units: dict[str, tuple[Unit, int]] = field(default_factory=dict)
    setup: set[str] = field(default_factory=set)  # provinces placed by set-up lines
    centres: dict[str, str] = field(default_factory=dict)
    blocks: list[tuple[PhaseKind, list]] = field(default_factory=list)
    power: str | None = None
    after: list[Unit] | None = None  # the units expected after the last phase


def _column_after(line: str, marker: str) -> int:
    """1-based column of the first non-blank character after a marker."""
    index = line.index(marker) + len(marker)
    return index + len(line[index:]) - len(line[index:].lstrip()) + 1


def normalise_label(text: str) -> str:
    return ", ".join(w.strip().lower() for w in text.split(","))


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.board = standard()

    def fail(self, line: int, message: str, column: int = 1) -> CaseFormatError:
        return CaseFormatError(message, self.path, line, column)

    def read(self, text: str) -> list[Case]:
        cases: list[Case] = []
        draft: _Draft | None = None
        seen: dict[str, int] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].rstrip()
            stripped = line.strip()
            if not stripped:
                continue
            head = re.match(r"(?i)^case\s+(\S+?)\s*(?::\s*(.*))?$", stripped)
            if head:
                if draft is not None:
                    cases.append(self.finish(draft))
                case_id = head.group(1)
                if case_id in seen:
                    raise self.fail(
                        number, f"case {case_id} already defined on line {seen[case_id]}"
                    )
                seen[case_id] = number
                draft = _Draft(case_id, (head.group(2) or "").strip(), number)
                continue
            if draft is None:
                raise self.fail(number, "expected a 'case ID: TITLE' line before anything else")
            self.line(draft, number, line, stripped)
        if draft is not None:
            cases.append(self.finish(draft))
        return cases

    def line(self, draft: _Draft, number: int, line: str, stripped: str) -> None:
        meta = re.match(r"^(phase|source|note|title)\s*:\s*(.*)$", stripped)
        if meta and not draft.blocks:
            draft.meta[meta.group(1)] = meta.group(2).strip()
            return
        if stripped.upper() == "AFTER":
            draft.after = []
            return
        owns = re.match(r"^(\S+)\s+owns\s+(.*)$", stripped)
        if draft.after is not None:
            if not owns:
                raise self.fail(number, "expected 'POWER owns A|F PLACE' after AFTER")
            unit = self.owned(number, line, owns)
            if not isinstance(unit, Unit):
                raise self.fail(number, "expected a unit, not a centre, after AFTER")
            draft.after.append(unit)
            return
        if stripped.lower() in _PHASE_MARKERS:
            draft.blocks.append((_PHASE_MARKERS[stripped.lower()], []))
            draft.power = None
            return
        if owns and not draft.blocks:
            owned = self.owned(number, line, owns)
            if isinstance(owned, Unit):
                self.place_unit(draft, number, owned, setup=True)
            else:
                draft.centres[owned[0]] = owned[1]
            return
        header = re.match(r"^([^\W\d_][\w.-]*(?:\s+[^\W\d_][\w.-]*)?)\s*:$", stripped)
        if header:
            draft.power = self.power(number, line, header.group(1))
            if not draft.blocks:
                draft.blocks.append((self.first_kind(draft), []))
            return
        if draft.power is None:
            raise self.fail(number, "expected a power header such as 'England:' before orders")
        if not draft.blocks:
            draft.blocks.append((self.first_kind(draft), []))
        kind, orders = draft.blocks[-1]
        automatic = re.match(r"(?i)^automatic\s+disband\s+(.*)$", stripped)
        if automatic:
            if kind is not PhaseKind.ADJUSTMENT:
                raise self.fail(number, "'Automatic disband' belongs to an adjustment phase")
            try:
                ref = parse_given(automatic.group(1), self.board).order.unit
            except (OrderSyntaxError, AttributeError) as err:
                raise self.fail(
                    number,
                    f"expected a unit after 'Automatic disband': {err}",
                    _column_after(line, automatic.group(0).split()[1]),
                ) from err
            orders.append((draft.power, ref.place.province))
            return
        order_text, expected = line, None
        if "=>" in line:
            order_text, _, expected = line.partition("=>")
            expected = normalise_label(expected)
            bad = [w for w in expected.split(", ") if w not in OUTCOME_WORDS]
            if bad or not expected:
                raise self.fail(
                    number,
                    f"expected an outcome ({', '.join(sorted(OUTCOME_WORDS))})"
                    f" after '=>', found {expected!r}",
                    _column_after(line, "=>"),
                )
        try:
            given = parse_given(order_text, self.board, kind.value)
        except OrderSyntaxError as err:
            raise self.fail(number, err.message, err.column) from err
        if given.power is not None and given.power != draft.power:
            raise self.fail(number, f"order for {given.power} under the header of {draft.power}")
        given = Given(draft.power, given.order)
        orders.append(CaseOrder(given, expected, number))
        if kind is PhaseKind.MOVEMENT and not isinstance(given.order, Waive):
            self.imply_unit(draft, number, given)

    def first_kind(self, draft: _Draft) -> PhaseKind:
        return self.phase(draft).kind

    def phase(self, draft: _Draft) -> Phase:
        text = draft.meta.get("phase")
        if text is None:
            return SPRING_1901
        try:
            return Phase.parse(text)
        except ValueError as err:
            raise self.fail(draft.line, str(err)) from err

    def power(self, number: int, line: str, text: str) -> str:
        try:
            return self.board.lookup_power(text)
        except (UnknownNameError, AmbiguousNameError) as err:
            powers = ", ".join(self.board.powers)
            raise self.fail(
                number, f"expected a power ({powers}), found {text!r}", line.index(text) + 1
            ) from err

    def owned(self, number: int, line: str, owns: re.Match) -> Unit | tuple[str, str]:
        """'France owns SC Paris' (a centre and its owner) or 'France owns F Spain(sc)'."""
        power = self.power(number, line, owns.group(1))
        what = owns.group(2).strip()
        column = line.index(what) + 1
        expected = "expected 'POWER owns SC PROVINCE' or 'POWER owns A|F PLACE'"
        centre = re.match(r"(?i)^SC\s+(.*)$", what)
        try:
            if centre:
                province = self.board.lookup(centre.group(1).strip())
                if not self.board.province(province).is_centre:
                    raise self.fail(
                        number, f"{expected}: {centre.group(1)!r} is no supply centre", column
                    )
                return province, power
            order = parse_given(what, self.board).order
        except (OrderSyntaxError, UnknownNameError, AmbiguousNameError) as err:
            raise self.fail(number, f"{expected}: {err}", column) from err
        if not isinstance(order, Hold) or order.unit.type is None:
            raise self.fail(number, expected, column)
        unit_type = order.unit.type
        return Unit(self.settle(number, order.unit.place, unit_type), unit_type, power)

    def settle(self, number: int, place, unit_type) -> Location:
        province = self.board.province(place.province)
        coast = place.coast
        if unit_type.value == "A" or not province.coasts:
            coast = None
        elif coast not in province.coasts:
            raise self.fail(
                number,
                f"expected a coast of {province.name} ({', '.join(province.coasts)}) for the fleet",
            )
        return Location(place.province, coast)

    def imply_unit(self, draft: _Draft, number: int, given: Given) -> None:
        """An ordered unit stands where its order says, unless a set-up line placed it."""
        ref = given.order.unit
        if ref.place.province in draft.setup or ref.place.province in draft.units:
            return
        if ref.type is None:
            raise self.fail(
                number, "expected a unit type (A or F): the case places the unit from its order"
            )
        self.place_unit(
            draft, number, Unit(self.settle(number, ref.place, ref.type), ref.type, given.power)
        )

    def place_unit(self, draft: _Draft, number: int, unit: Unit, setup: bool = False) -> None:
        if unit.province in draft.units:
            other, line = draft.units[unit.province]
            raise self.fail(number, f"{unit} would stand where {other} stands (line {line})")
        draft.units[unit.province] = (unit, number)
        if setup:
            draft.setup.add(unit.province)

    def finish(self, draft: _Draft) -> Case:
        phase = self.phase(draft)
        if phase.season is Season.WINTER and phase.kind is not PhaseKind.ADJUSTMENT:
            raise self.fail(draft.line, "a winter phase is an adjustment phase")
        position = Position(
            phase, tuple(u for u, _ in draft.units.values()), tuple(draft.centres.items())
        )
        blocks = tuple(
            Block(
                kind,
                tuple(o for o in orders if isinstance(o, CaseOrder)),
                tuple(sorted(o for o in orders if isinstance(o, tuple))),
            )
            for kind, orders in draft.blocks
        )
        after = tuple(sorted(draft.after)) if draft.after is not None else None
        return Case(
            draft.id,
            draft.title,
            self.path,
            draft.line,
            position,
            blocks,
            dict(draft.meta),
            after,
        )


def read_cases(path: str | Path) -> list[Case]:
    """All cases of one file."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_CASE_FILE_BYTES:
            raise CaseFormatError(
                f"case file is {size} bytes; at most {MAX_CASE_FILE_BYTES} are read", str(path), 0
            )
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise CaseFormatError(f"expected UTF-8 text: {err.reason}", str(path), 0) from err
    except OSError as err:
        raise CaseFormatError(f"cannot read: {err.strerror}", str(path), 0) from err
    return _Reader(str(path)).read(text)


def case_files(paths: list[str | Path]) -> Iterator[Path]:
    """The case files under the given paths (`*.cases`), sorted."""
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(path.rglob("*.cases"))
        elif path.exists():
            yield path
        else:
            raise CaseFormatError("no such file or directory", str(path), 0)
