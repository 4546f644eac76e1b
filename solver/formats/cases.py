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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from topology import (
    AmbiguousNameError,
    Board,
    Location,
    MapDataError,
    UnitType,
    UnknownNameError,
    standard,
    standing_problem,
    variant,
)

from ..cycle.game import Game, OneBoard
from ..errors import CaseFormatError, OrderSyntaxError, PositionError
from ..multiverse.state import Multiverse, on_board
from ..values.notation import parse_given
from ..values.orders import Given, Hold, Place, Waive, apply_board_defaults
from ..values.position import (
    Phase,
    PhaseKind,
    Position,
    Season,
    Unit,
    opening_phase,
)

MAX_CASE_FILE_BYTES = 4_000_000
EDITION_NAMES = ("1971", "1982", "2000", "2023", "2025", "dptg", "webdiplomacy")
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
    revised: bool = False  # a recorded order of a past board, adjudicated again (multiverse)
    by_edition: dict[str, str] = field(default_factory=dict)  # '[1971: fails]' overrides

    def expected_under(self, edition: str) -> str | None:
        return self.by_edition.get(edition, self.expected)


Automatic = tuple[str, str, dict[str, tuple[str, ...]]]
"""(power, province, {edition: provinces}): the units civil disorder removes."""


@dataclass(frozen=True, slots=True)
class Block:
    kind: PhaseKind
    orders: tuple[CaseOrder, ...]
    automatic: tuple[Automatic, ...] = ()  # removed by civil disorder
    revised: tuple[CaseOrder, ...] = ()  # multiverse: recorded orders adjudicated again
    after: After | None = None  # multiverse: what the step leaves, asserted before the next


@dataclass(frozen=True, slots=True)
class After:
    """What a case expects after a phase or step: the units standing, the owners of the
    centres, the power that has won ("" for no one) and, in a multiverse, the boards and
    the units owing a retreat; None where it says nothing."""

    units: tuple[Unit, ...] | None = None
    centres: tuple[tuple[str, str], ...] | None = None
    solo: str | None = None
    boards: tuple[str, ...] | None = None
    retreating: tuple[Unit, ...] | None = None


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
    after_boards: tuple[str, ...] | None = None  # multiverse: the boards expected, 'b@1'
    after_retreating: tuple[Unit, ...] | None = None  # multiverse: units owing a retreat
    after_centres: tuple[tuple[str, str], ...] | None = None  # (centre, owner) at the end
    after_solo: str | None = None  # the power expected to have won, or "" for no one
    after_by_edition: dict[str, After] = field(default_factory=dict)  # 'AFTER [1971]'

    @property
    def multiverse(self) -> bool:
        return self.meta.get("variant") == "multiverse"

    def __repr__(self) -> str:
        return f"<Case {self.id}: {self.title}>"

    def game(self) -> Game:
        """The game the case plays, from its position: a multiverse, or one board."""
        return Multiverse.start(self.position) if self.multiverse else OneBoard(self.position)

    def after_under(self, edition: str) -> After:
        """The end a case expects under an edition: its own AFTER [EDITIONS] section, or
        the plain AFTER."""
        plain = After(
            self.after,
            self.after_centres,
            self.after_solo,
            self.after_boards,
            self.after_retreating,
        )
        return self.after_by_edition.get(edition, plain)

    @property
    def edition(self) -> str:
        """The edition its plain expectations are written for."""
        return self.meta.get("rules", "2025")

    @property
    def paradox_editions(self) -> tuple[str, ...]:
        """Editions under which the case is a paradox the rule book gives no answer to."""
        return tuple(self.meta.get("paradox", "").split())

    def automatic_under(self, block: Block, edition: str) -> tuple[tuple[str, str], ...]:
        """The civil-disorder removals a block expects under an edition."""
        return tuple(
            sorted(
                (power, p)
                for power, base, variants in block.automatic
                for p in variants.get(edition, (base,))
            )
        )

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
    centres: dict[str, tuple[str, int]] = field(default_factory=dict)  # owner and line
    blocks: list[tuple[PhaseKind, list[CaseOrder | Automatic]]] = field(default_factory=list)
    power: str | None = None
    season: tuple[int, int] | None = None  # multiverse header 'Germany 2:0': (timeline, turn)
    after: list[Unit] | None = None  # the units expected after the last phase
    after_boards: tuple[str, ...] | None = None
    after_retreating: list[Unit] = field(default_factory=list)
    after_centres: dict[str, tuple[str, int]] | None = None
    after_solo: str | None = None
    section: tuple[str, ...] | None = None  # the editions of the AFTER section being read
    plain_after: After | None = None  # the plain AFTER, once an edition's section opens
    step_afters: dict[int, After] = field(default_factory=dict)  # block index -> its AFTER
    after_by_edition: dict[str, After] = field(default_factory=dict)
    revising: bool = False

    @property
    def multiverse(self) -> bool:
        return self.meta.get("variant") == "multiverse"


def _column_after(line: str, marker: str) -> int:
    """1-based column of the first non-blank character after a marker."""
    index = line.index(marker) + len(marker)
    return index + len(line[index:]) - len(line[index:].lstrip()) + 1


def normalise_label(text: str) -> str:
    return ", ".join(w.strip().lower() for w in text.split(","))


_META = re.compile(r"^(phase|source|note|title|variant|rules|paradox)\s*:\s*(.*)$")
_OWNS = re.compile(r"^(\S+)\s+owns\s+(retreating\s+)?(.*)$")
_HEADER = re.compile(r"^([^\W\d_][\w.-]*(?:\s+[^\W\d_][\w.-]*)?)\s*(?:(\d+):(\d+)\s*:?|(:))?$")
_AUTOMATIC = re.compile(r"(?i)^automatic\s+disband\b\s*(.*)$")
_AFTER = re.compile(r"^AFTER(?:\s*\[([^\]]*)\])?$")


class _Reader:
    def __init__(self, path: str, board: Board | None = None) -> None:
        self.path = path
        self.default = board or standard()  # the board of a case that names no variant
        self.board = self.default
        self.file_meta: dict[str, str] = {}  # a 'variant:' line before the first case

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
            file_variant = _META.match(stripped)
            if draft is None and file_variant and file_variant.group(1) == "variant":
                value = file_variant.group(2).strip()
                self.default = self.board = self.variant(number, line, value)
                self.file_meta["variant"] = value
                continue
            if head:
                if draft is not None:
                    cases.append(self.finish(draft))
                self.board = self.default
                case_id = head.group(1)
                if case_id in seen:
                    raise self.fail(
                        number, f"case {case_id} already defined on line {seen[case_id]}"
                    )
                seen[case_id] = number
                draft = _Draft(case_id, (head.group(2) or "").strip(), number, dict(self.file_meta))
                continue
            if draft is None:
                raise self.fail(
                    number,
                    "expected a 'case ID: TITLE' line (or a 'variant: NAME' line for the whole"
                    " file) before anything else",
                )
            self.line(draft, number, line, stripped)
        if draft is not None:
            cases.append(self.finish(draft))
        return cases

    def line(self, draft: _Draft, number: int, line: str, stripped: str) -> None:
        """One line of a case: the first kind of line it can be, in this order."""
        meta = _META.match(stripped)
        if meta and not draft.blocks:
            return self.meta_line(draft, number, line, meta)
        after = _AFTER.match(stripped)
        if after:
            return self.open_after(draft, number, line, after.group(1))
        owns = _OWNS.match(stripped)
        if draft.after is not None and draft.multiverse and stripped == "---":
            self.close_step_after(draft)  # an AFTER between steps: the next step follows
        if draft.after is not None:
            return self.after_line(draft, number, line, stripped, owns)
        if draft.multiverse and stripped in ("---", "REVISED"):
            if stripped == "---":
                draft.blocks.append((PhaseKind.MOVEMENT, []))
            draft.revising = stripped == "REVISED"
            draft.power = draft.season = None
            return None
        if stripped.lower() in _PHASE_MARKERS:
            draft.blocks.append((_PHASE_MARKERS[stripped.lower()], []))
            draft.power = None
            return None
        if owns and not draft.blocks:
            owned = self.owned(number, line, owns)
            if isinstance(owned, Unit):
                self.place_unit(draft, number, owned, setup=True)
            else:
                self.own_centre(draft, number, line, *owned)
            return None
        if self.header_line(draft, number, line, stripped):
            return None
        if draft.power is None:
            raise self.fail(number, "expected a power header such as 'England:' before orders")
        # header_line opened the first block when it set the power
        automatic = _AUTOMATIC.match(stripped)
        if automatic:
            column = len(line) - len(line.lstrip()) + automatic.start(1) + 1
            return self.automatic_line(draft, number, line, automatic.group(1), column)
        return self.order_line(draft, number, line)

    def meta_line(self, draft: _Draft, number: int, line: str, meta: re.Match[str]) -> None:
        """'rules: 1982', 'variant: multiverse', 'phase: F1901M' and the like."""
        key, value = meta.group(1), meta.group(2).strip()
        draft.meta[key] = value
        if key in ("rules", "paradox"):
            unknown = [e for e in value.split() if e not in EDITION_NAMES]
            if unknown or not value.split():
                expected = f"expected editions ({', '.join(EDITION_NAMES)})"
                raise self.fail(number, expected, _column_after(line, ":"))
        if key == "variant":
            if draft.units or draft.centres:
                raise self.fail(number, "'variant:' comes before the units and centres it places")
            self.board = self.variant(number, line, value)

    def variant(self, number: int, line: str, value: str) -> Board:
        """The board a 'variant:' line names: 'multiverse' (on the standard board), a
        variant's name, or a map file (relative to the case file)."""
        value = value.strip()
        if value == "multiverse":
            return standard()
        if value.endswith((".toml", ".map")) and not value.startswith("mila:"):
            value = str(Path(self.path).parent / value)
        try:
            return variant(value)
        except MapDataError as err:
            raise self.fail(number, str(err), _column_after(line, ":")) from err

    def header_line(self, draft: _Draft, number: int, line: str, stripped: str) -> bool:
        """'England:', a bare power name as the MDATC writes it, or the MDATC season header
        'Germany 2:0' (the default board of the orders below): whether the line was one."""
        header = _HEADER.match(stripped)
        if header and header.group(2) is None and header.group(4) is None:
            try:  # a bare power name, as the MDATC writes its headers
                self.board.lookup_power(header.group(1))
            except (UnknownNameError, AmbiguousNameError):
                return False
        if not header:
            return False
        draft.power = self.power(number, line, header.group(1))
        draft.season = None
        if header.group(2) is not None:
            draft.season = (int(header.group(3)), int(header.group(2)))
        if not draft.blocks:  # the orders below start the first phase
            draft.blocks.append((self.first_kind(draft), []))
        return True

    def automatic_line(self, draft: _Draft, number: int, line: str, rest: str, column: int) -> None:
        """'Automatic disband A Munich [1971: F Kiel]': the units civil disorder removes
        (`rest` follows 'disband', at `column`), each a plain unit such as 'A Munich'."""
        kind, orders = draft.blocks[-1]
        if kind is not PhaseKind.ADJUSTMENT:
            raise self.fail(number, "'Automatic disband' belongs to an adjustment phase")
        text, variants = self.editions(number, line, rest)
        expected = "expected a unit such as 'A Munich' after 'Automatic disband'"

        def province(unit_text: str) -> str:
            unit_text = unit_text.strip()
            if not unit_text:
                raise self.fail(number, f"{expected}, found nothing", column)
            at = column + max(rest.find(unit_text), 0)
            try:
                given = parse_given(unit_text, self.board)
            except OrderSyntaxError as err:
                raise self.fail(number, f"{expected}: {err.message}", at + err.column - 1) from err
            order = given.order
            if not isinstance(order, Hold) or order.unit.type is None or given.power is not None:
                raise self.fail(number, f"{expected}, found {unit_text!r}", at)
            return order.unit.place.province

        per_edition = {
            e: tuple(province(u) for u in v.split(";") if u.strip().lower() != "none")
            for e, v in variants.items()
        }
        assert draft.power is not None  # line() reads orders only under a power header
        orders.append((draft.power, province(text), per_edition))

    def order_line(self, draft: _Draft, number: int, line: str) -> None:
        """An order, with what it is expected to come to: 'A Paris - Burgundy => fails'."""
        kind, orders = draft.blocks[-1]
        order_text, expected, by_edition = line, None, {}
        if "=>" in line:
            order_text, _, outcome = line.partition("=>")
            outcome, variants = self.editions(number, line, outcome)
            by_edition = {e: self.label(number, line, v) for e, v in variants.items()}
            expected = self.label(number, line, outcome)
        try:
            given = parse_given(order_text, self.board, None if draft.multiverse else kind.value)
        except OrderSyntaxError as err:
            raise self.fail(number, err.message, err.column) from err
        if draft.season is not None:
            given = replace(given, order=apply_board_defaults(given.order, *draft.season))
        if given.power is not None and given.power != draft.power:
            raise self.fail(number, f"order for {given.power} under the header of {draft.power}")
        given = replace(given, power=draft.power)
        orders.append(CaseOrder(given, expected, number, draft.revising, by_edition))
        first_block = len(draft.blocks) == 1  # later blocks order the units the game has then
        if kind is PhaseKind.MOVEMENT and first_block and not isinstance(given.order, Waive):
            self.imply_unit(draft, number, line, given)

    def editions(self, number: int, line: str, text: str) -> tuple[str, dict[str, str]]:
        """Split '[1971 1982: fails]' groups off an expectation: (the rest, edition -> text)."""
        variants: dict[str, str] = {}
        for match in re.finditer(r"\[([^\]:]*):([^\]]*)\]", text):
            for edition in match.group(1).split():
                if edition not in EDITION_NAMES:
                    raise self.fail(
                        number,
                        f"expected an edition ({', '.join(EDITION_NAMES)}), found {edition!r}",
                        line.find(edition) + 1,
                    )
                variants[edition] = match.group(2).strip()
        rest = re.sub(r"\[[^\]]*\]", "", text).strip()
        if "[" in rest or "]" in rest:
            raise self.fail(number, "expected '[EDITIONS: OUTCOME]'", line.find("[") + 1)
        return rest, variants

    def label(self, number: int, line: str, text: str) -> str:
        label = normalise_label(text)
        bad = [w for w in label.split(", ") if w not in OUTCOME_WORDS]
        if bad or not label:
            raise self.fail(
                number,
                f"expected an outcome ({', '.join(sorted(OUTCOME_WORDS))}) after '=>', "
                f"found {label!r}",
                _column_after(line, "=>"),
            )
        return label

    def open_after(self, draft: _Draft, number: int, line: str, editions: str | None) -> None:
        """'AFTER', or 'AFTER [1971 1982]': what those editions expect at the end instead
        (one-board cases; the plain AFTER, if any, comes first)."""
        if editions is None:
            if draft.after is not None:
                raise self.fail(number, "AFTER is given twice; 'AFTER [EDITIONS]' varies it")
            draft.after = []
            return
        names = tuple(editions.split())
        unknown = [e for e in names if e not in EDITION_NAMES]
        if unknown or not names:
            expected = f"expected editions ({', '.join(EDITION_NAMES)}) in 'AFTER [...]'"
            raise self.fail(number, expected, line.find("[") + 1)
        if draft.multiverse:
            raise self.fail(number, "'AFTER [EDITIONS]' is for cases on one board")
        twice = [e for e in names if e in draft.after_by_edition or e in (draft.section or ())]
        if twice:
            raise self.fail(number, f"edition {twice[0]} has its AFTER section already")
        self.close_after(draft)
        draft.section = names
        draft.after, draft.after_centres, draft.after_solo = [], None, None

    def close_step_after(self, draft: _Draft) -> None:
        """Keep an AFTER section read between two steps of a multiverse case: what the
        step before it leaves."""
        assert draft.after is not None  # line() calls this only in an AFTER section
        draft.step_afters[len(draft.blocks) - 1] = After(
            tuple(sorted(draft.after)),
            None,
            None,
            draft.after_boards,
            tuple(sorted(draft.after_retreating)),
        )
        draft.after, draft.after_boards, draft.after_retreating = None, None, []

    def close_after(self, draft: _Draft) -> None:
        """Keep the AFTER section read so far: the plain one, or an edition's."""
        read = After(
            None if draft.after is None else tuple(sorted(draft.after)),
            None
            if draft.after_centres is None
            else tuple(sorted((c, p) for c, (p, _) in draft.after_centres.items())),
            draft.after_solo,
        )
        if draft.section is None:
            draft.plain_after = read
        for edition in draft.section or ():
            draft.after_by_edition[edition] = read

    def after_line(
        self, draft: _Draft, number: int, line: str, stripped: str, owns: re.Match[str] | None
    ) -> None:
        """A line of the AFTER section: units (with 'retreating' and coordinates in a
        multiverse) and, in a multiverse, 'boards: a@0 a@1 b@1'; on one board, centres
        ('France owns SC Paris': the owners of all centres at the end are those listed)
        and 'solo: France' (or 'solo: none')."""
        solo = re.match(r"^solo\s*:\s*(.*)$", stripped)
        if solo and not draft.multiverse:
            name = solo.group(1).strip()
            if not name:
                column = _column_after(line, ":")
                raise self.fail(number, "expected a power or 'none' after 'solo:'", column)
            draft.after_solo = "" if name.lower() == "none" else self.power(number, line, name)
            return
        boards = re.match(r"^boards\s*:\s*(.*)$", stripped)
        if boards and draft.multiverse:
            names = tuple(sorted(boards.group(1).split()))
            bad = [n for n in names if not re.fullmatch(r"[a-z]{1,2}@\d+", n)]
            if bad:
                raise self.fail(
                    number,
                    f"expected boards such as 'a@0 b@1', found {bad[0]!r}",
                    _column_after(line, ":"),
                )
            draft.after_boards = names
            return
        if not owns:
            raise self.fail(number, "expected 'POWER owns A|F PLACE' after AFTER")
        unit = self.owned(number, line, owns, coordinates=draft.multiverse)
        if not isinstance(unit, Unit):
            if draft.multiverse:
                raise self.fail(number, "expected a unit, not a centre, after AFTER")
            centre, power = unit
            if draft.after_centres is None:
                draft.after_centres = {}
            if centre in draft.after_centres:
                earlier = draft.after_centres[centre][1]
                name = self.board.province(centre).name
                raise self.fail(
                    number,
                    f"{name} is owned twice (also on line {earlier})",
                    _column_after(line, "owns"),
                )
            draft.after_centres[centre] = (power, number)
            return
        if owns.group(2) and not draft.multiverse:
            raise self.fail(number, "'retreating' units are listed only in a multiverse case")
        assert draft.after is not None  # line() reads AFTER lines only after AFTER
        (draft.after_retreating if owns.group(2) else draft.after).append(unit)

    def first_kind(self, draft: _Draft) -> PhaseKind:
        return self.phase(draft).kind

    def phase(self, draft: _Draft) -> Phase:
        text = draft.meta.get("phase")
        if text is None:
            return opening_phase(self.board)
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

    def owned(
        self, number: int, line: str, owns: re.Match[str], coordinates: bool = False
    ) -> Unit | tuple[str, str]:
        """'France owns SC Paris' (a centre and its owner) or 'France owns F Spain(sc)';
        with coordinates, a unit on a multiverse board: 'Germany owns A b-Munich@1'."""
        power = self.power(number, line, owns.group(1))
        what = owns.group(3).strip()
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
        except OrderSyntaxError as err:  # placed in the line, not in the unit's text
            raise self.fail(number, f"{expected}: {err.message}", column + err.column - 1) from err
        except (UnknownNameError, AmbiguousNameError) as err:
            raise self.fail(number, f"{expected}: {err}", column) from err
        if not isinstance(order, Hold) or order.unit.type is None:
            raise self.fail(number, expected, column)
        unit_type = order.unit.type
        place = order.unit.place
        location = self.settle(number, place, unit_type, column)
        if coordinates:
            if place.timeline is None or place.turn is None:
                raise self.fail(
                    number, "expected a unit with its board, such as A b-Munich@1", column
                )
            location = on_board(location, (place.timeline, place.turn))
        elif place.timeline not in (None, 0) or place.turn not in (None, 0):
            raise self.fail(number, "units are set up on the first board, a@0", column)
        return Unit(location, unit_type, power)

    def settle(self, number: int, place: Place, unit_type: UnitType, column: int = 1) -> Location:
        """Where a unit of that type stands: a coast of the province for a fleet on one of
        several (a coast written for an army, or for a province of one coast, is dropped)."""
        province = self.board.province(place.province)
        coast = place.coast
        if unit_type.value == "A" or not province.coasts:
            coast = None
        elif coast not in province.coasts:
            raise self.fail(
                number,
                f"expected a coast of {province.name} ({', '.join(province.coasts)}) for the fleet",
                column,
            )
        problem = standing_problem(province, unit_type, coast)
        if problem is not None:  # an army at sea, a fleet inland
            raise self.fail(number, problem, column)
        return Location(place.province, coast)

    def imply_unit(self, draft: _Draft, number: int, line: str, given: Given) -> None:
        """An ordered unit stands where its order says, unless a set-up line placed it."""
        assert not isinstance(given.order, Waive)  # order_line passes no waived build
        assert given.power is not None  # order_line gives every order its header's power
        ref = given.order.unit
        if ref.place.province in draft.setup or ref.place.province in draft.units:
            return
        if ref.place.timeline not in (None, 0) or ref.place.turn not in (None, 0):
            raise self.fail(number, "the first step places its units on the first board, a@0")
        if ref.type is None:
            raise self.fail(
                number, "expected a unit type (A or F): the case places the unit from its order"
            )
        column = len(line) - len(line.lstrip()) + 1
        location = self.settle(number, ref.place, ref.type, column)
        self.place_unit(draft, number, Unit(location, ref.type, given.power))

    def place_unit(self, draft: _Draft, number: int, unit: Unit, setup: bool = False) -> None:
        if unit.province in draft.units:
            other, line = draft.units[unit.province]
            mine, theirs = unit.text(self.board), other.text(self.board)
            raise self.fail(number, f"{mine} would stand where {theirs} stands (line {line})")
        draft.units[unit.province] = (unit, number)
        if setup:
            draft.setup.add(unit.province)

    def own_centre(self, draft: _Draft, number: int, line: str, centre: str, power: str) -> None:
        if centre in draft.centres:
            name, earlier = self.board.province(centre).name, draft.centres[centre][1]
            message = f"{name} is owned twice (also on line {earlier})"
            raise self.fail(number, message, _column_after(line, "owns"))
        draft.centres[centre] = (power, number)

    def finish(self, draft: _Draft) -> Case:
        phase = self.phase(draft)
        if phase.season is Season.WINTER and phase.kind is not PhaseKind.ADJUSTMENT:
            raise self.fail(draft.line, "a winter phase is an adjustment phase")
        centres = {c: p for c, (p, _) in draft.centres.items()}
        if draft.multiverse and not centres:  # a multiverse starts as a game does
            centres = {c: p for p in self.board.powers for c in self.board.home_centres(p)}
        units = tuple(u for u, _ in draft.units.values())
        try:  # the lines were checked one by one: this is only a safety net
            position = Position(phase, units, tuple(centres.items()), board=self.board)
        except PositionError as err:
            raise self.fail(draft.line, f"the position cannot be: {err}") from err
        blocks = tuple(
            Block(
                kind,
                tuple(o for o in orders if isinstance(o, CaseOrder) and not o.revised),
                tuple(o for o in orders if isinstance(o, tuple)),
                tuple(o for o in orders if isinstance(o, CaseOrder) and o.revised),
                draft.step_afters.get(index),
            )
            for index, (kind, orders) in enumerate(draft.blocks)
        )
        retreating = tuple(sorted(draft.after_retreating)) if draft.after is not None else None
        self.close_after(draft)
        plain = draft.plain_after or After()
        return Case(
            draft.id,
            draft.title,
            self.path,
            draft.line,
            position,
            blocks,
            dict(draft.meta),
            plain.units,
            draft.after_boards,
            retreating if draft.multiverse else None,
            plain.centres,
            plain.solo,
            dict(draft.after_by_edition),
        )


def read_cases(path: str | Path, board: Board | None = None) -> list[Case]:
    """All cases of one file, on ``board`` (the standard board by default) where a case
    names no variant."""
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
    return _Reader(str(path), board).read(text)


def case_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """The case files under the given paths (`*.cases`), sorted."""
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(path.rglob("*.cases"))
        elif path.exists():
            yield path
        else:
            raise CaseFormatError("no such file or directory", str(path), 0)
