"""Reading case files: positions, orders and expected outcomes as DATC-like text.

The format is documented in docs/case-format.md.  In short::

    case 6.A.6: ORDERING A UNIT OF ANOTHER COUNTRY
    England owns F London

    Germany:
    F London - North Sea => illegal

Every error names the file, line and column and says what was expected.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from topology import (
    AmbiguousNameError,
    Board,
    Key,
    Location,
    MapDataError,
    Spot,
    UnitType,
    UnknownNameError,
    standard,
    standing_problem,
    variant,
)
from topology.files import NumberError, TextFileError, probe, read_text, shown, whole_number

from ..cycle.game import Game, OneBoard
from ..errors import CaseFormatError, DipsatError, OrderSyntaxError, PositionError
from ..multiverse.state import MBoard, Multiverse, Pause, Record, on_board, on_map, spot, turn_phase
from ..values.decisions import DISLODGED, MOVE, Decision
from ..values.notation import parse_given
from ..values.orders import (
    MOVEMENT_ORDERS,
    Build,
    Given,
    Hold,
    Move,
    Place,
    Waive,
    apply_board_defaults,
    named_places,
    timeline_index,
    timeline_name,
)
from ..values.outcomes import Outcome, Result
from ..values.position import (
    DislodgedUnit,
    Phase,
    PhaseKind,
    Position,
    Season,
    Unit,
    opening_phase,
)
from ..values.rules import RULE_BOOKS
from .rulebooks import rule_book

MAX_CASE_FILE_BYTES = 4_000_000
MAX_ORDERS_PER_PHASE = 10_000
"""The most orders one phase of a case gives (a unit may have several: DATC 6.I.7)."""
EDITION_NAMES = tuple(RULE_BOOKS)  # the rule books a case may state expectations for
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


KEYWORDS = ("RETREATS", "ADJUSTMENTS", "MOVEMENT", "AFTER", "REVISED", "RECORDED")
"""The words that start a section of a case (docs/case-format.md)."""


def _keyword_like(text: str) -> str | None:
    """The keyword a line of one word may be a misspelling of ('RETREAT': RETREATS)."""
    words = text.split("#", 1)[0].split()
    if len(words) != 1:
        return None
    close = difflib.get_close_matches(words[0].upper(), KEYWORDS, n=1, cutoff=0.75)
    return close[0] if close else None


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
    after_by_edition: dict[str, After] = field(default_factory=dict)  # ... under a rule book

    def after_under(self, edition: str) -> After | None:
        """What the step leaves under an edition: its own 'AFTER [EDITIONS]' section before
        the next step, or the plain one."""
        return self.after_by_edition.get(edition, self.after)


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
    forks: tuple[str, ...] | None = None  # 'c from b@0': the forks of the step, exactly
    revisited: tuple[str, ...] | None = None  # past boards adjudicated again, exactly
    options: tuple[tuple[Unit, tuple[Location, ...]], ...] = ()  # 'retreating ... to X, Y'
    standoffs: tuple[Spot, ...] | None = None  # provinces of boards left empty by a standoff


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
    world: Multiverse | None = None  # the multiverse a case starts from, if not a@0 alone
    after_forks: tuple[str, ...] | None = None
    after_revisited: tuple[str, ...] | None = None
    after_options: tuple[tuple[Unit, tuple[Location, ...]], ...] = ()
    after_standoffs: tuple[Spot, ...] | None = None

    @property
    def multiverse(self) -> bool:
        return is_multiverse(self.meta.get("variant", ""))

    @property
    def expects_something(self) -> bool:
        """Does the case state anything to compare: an outcome after '=>', a civil-disorder
        removal, an AFTER section or a paradox line?"""
        for block in self.blocks:
            if any(o.expected or o.by_edition for o in (*block.orders, *block.revised)):
                return True
            if block.automatic or block.after is not None or block.after_by_edition:
                return True
        return (
            self.after_under(self.edition) != After(options=()) or bool(self.after_by_edition)
        ) or bool(self.paradox_editions)

    def __repr__(self) -> str:
        return f"<Case {self.id}: {self.title}>"

    def game(self) -> Game:
        """The game the case plays, from its position (or world): a multiverse, or one
        board."""
        if self.world is not None:
            return self.world
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
            self.after_forks,
            self.after_revisited,
            self.after_options,
            self.after_standoffs,
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
    units: dict[Key, tuple[Unit, int]] = field(default_factory=dict)
    setup: set[Key] = field(default_factory=set)  # provinces placed by set-up lines
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
    step_afters: dict[int, tuple[After | None, dict[str, After]]] = field(default_factory=dict)
    # block index -> its plain AFTER and those of editions
    after_by_edition: dict[str, After] = field(default_factory=dict)
    revising: bool = False
    world: _World | None = None  # a multiverse case's set-up of several boards
    recording: bool = False  # reading the RECORDED section
    after_forks: tuple[str, ...] | None = None
    after_revisited: tuple[str, ...] | None = None
    after_options: list[tuple[Unit, tuple[Location, ...]]] = field(default_factory=list)
    after_standoffs: tuple[Spot, ...] | None = None

    @property
    def multiverse(self) -> bool:
        return is_multiverse(self.meta.get("variant", ""))


def is_multiverse(variant: str) -> bool:
    """Does a 'variant:' line's value make a multiverse case ('multiverse', or
    'multiverse ancmed' on a board it names)?"""
    return variant.split(maxsplit=1)[:1] == ["multiverse"]


@dataclass
class _World:
    """The set-up of a multiverse case that starts from several boards (docs/case-format.md,
    "A multiverse to start from"): each read line kept with its line number."""

    boards: dict[tuple[int, int], int] = field(default_factory=dict)  # board -> line
    adjusting: set[tuple[int, int]] = field(default_factory=set)
    units: dict[tuple[int, int], dict[Key, tuple[Unit, int]]] = field(default_factory=dict)
    retreating: list[tuple[tuple[int, int], Unit]] = field(default_factory=list)
    centres: dict[tuple[int, int], dict[str, str]] = field(default_factory=dict)
    no_centres: bool = False
    forks: dict[int, tuple[int, int]] = field(default_factory=dict)
    recorded: list[tuple[CaseOrder, int]] = field(default_factory=list)
    won: str | None = None  # 'solo: France': the game was won before the case starts


def _column_after(line: str, marker: str) -> int:
    """1-based column of the first non-blank character after a marker."""
    index = line.index(marker) + len(marker)
    return index + len(line[index:]) - len(line[index:].lstrip()) + 1


def normalise_label(text: str) -> str:
    return ", ".join(w.strip().lower() for w in text.split(","))


_META = re.compile(r"^(phase|source|note|title|variant|rules|paradox)\s*:\s*(.*)$")
_OWNS = re.compile(r"^(\S+)\s+owns\s+(retreating\s+)?(.*)$")
# A power header, 'England:', 'England' or 'Germany 2:0'. Possessive quantifiers (*+, ++)
# never give back what they took: the match is linear in the line's length (a name that
# could give its digits back to the numbers made a long line take quadratic time).
_HEADER = re.compile(
    r"^([^\W\d_][\w.-]*+(?:\s++[^\W\d_][\w.-]*+)?+)\s*+(?:([0-9]++):([0-9]++)\s*+:?|(:))?$"
)
# '[1971 1982: fails]': no bracket inside a group, so each '[' is read up to the next one
# at most (an unclosed '[' read to the end of the line from every '[' was quadratic)
_EDITIONS = re.compile(r"\[([^\][:]*):([^\][]*)\]")
_BRACKETED = re.compile(r"\[[^\][]*\]")
_AUTOMATIC = re.compile(r"(?i)^automatic\s+disband\b\s*(.*)$")
_AFTER = re.compile(r"^AFTER(?:\s*\[([^\]]*)\])?$")


class _CaseReader:
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
        if draft.multiverse and not draft.blocks and self.world_line(draft, number, line, stripped):
            return None
        if draft.recording and stripped == "---":
            draft.recording = False  # the step's orders follow
            draft.power = draft.season = None
            return None
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
        if owns and not draft.blocks and draft.world is not None and not draft.recording:
            return self.world_owns(draft, number, line, owns)
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
        if key == "phase":
            try:
                Phase.parse(value)
            except DipsatError as err:
                raise self.fail(number, str(err), _column_after(line, ":")) from err
        if key == "rules" and value.endswith(".toml"):  # a rule book of the case's own
            draft.meta[key] = self.rule_book_file(number, line, value)
            return
        if key in ("rules", "paradox"):
            unknown = [e for e in value.split() if e not in EDITION_NAMES]
            if unknown or not value.split():
                expected = f"expected editions ({', '.join(EDITION_NAMES)})"
                raise self.fail(number, expected, _column_after(line, ":"))
        if key == "variant":
            if draft.units or draft.centres:
                raise self.fail(number, "'variant:' comes before the units and centres it places")
            self.board = self.variant(number, line, value)

    def rule_book_file(self, number: int, line: str, value: str) -> str:
        """The rule-book file a 'rules:' line names (relative to the case file), read once
        here so that a fault in it is reported at this line."""
        path = str(Path(self.path).parent / value)
        try:
            rule_book(path)
        except DipsatError as err:
            raise self.fail(number, str(err), _column_after(line, ":")) from err
        return path

    def variant(self, number: int, line: str, value: str) -> Board:
        """The board a 'variant:' line names: a variant's name, or a map file (relative to
        the case file); 'multiverse NAME' is the multiverse on that board, and 'multiverse'
        alone on the board the case has otherwise (the file's, else the one `--variant`
        names, else the standard one)."""
        value = value.strip()
        if is_multiverse(value):
            value = value[len("multiverse") :].strip()
            if not value:
                return self.default
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
            indent = len(line) - len(line.lstrip()) + 1
            turn = self.count(number, header.group(2), indent + header.start(2))
            draft.season = (self.count(number, header.group(3), indent + header.start(3)), turn)
        if not draft.blocks and not draft.recording:  # the orders below start the first phase
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
                raise self.fail(number, f"{expected}, found {shown(unit_text)}", at)
            return order.unit.place.province

        per_edition = {
            e: tuple(province(u) for u in v.split(";") if u.strip().lower() != "none")
            for e, v in variants.items()
        }
        assert draft.power is not None  # line() reads orders only under a power header
        orders.append((draft.power, province(text), per_edition))

    def order_line(self, draft: _Draft, number: int, line: str) -> None:
        """An order, with what it is expected to come to: 'A Paris - Burgundy => fails'
        (in the RECORDED section, what it came to)."""
        kind, orders = draft.blocks[-1] if draft.blocks else (PhaseKind.MOVEMENT, [])
        order_text, expected, by_edition = line, None, {}
        if "=>" in line:
            order_text, _, outcome = line.partition("=>")
            outcome, variants = self.editions(number, line, outcome)
            by_edition = {e: self.label(number, line, v) for e, v in variants.items()}
            expected = self.label(number, line, outcome)
        try:
            given = parse_given(order_text, self.board, None if draft.multiverse else kind.value)
        except OrderSyntaxError as err:
            near = _keyword_like(order_text)
            hint = f" (did you mean the keyword {near}?)" if near else ""
            raise self.fail(number, err.message + hint, err.column) from err
        if draft.season is not None:
            given = replace(given, order=apply_board_defaults(given.order, *draft.season))
        if given.power is not None and given.power != draft.power:
            raise self.fail(number, f"order for {given.power} under the header of {draft.power}")
        given = replace(given, power=draft.power)
        if draft.recording and draft.world is not None:
            if expected is None:
                raise self.fail(number, "expected the outcome the recorded order came to")
            if any(p.timeline is None or p.turn is None for p in named_places(given.order)):
                raise self.fail(number, "expected a recorded order with its boards written out")
            draft.world.recorded.append((CaseOrder(given, expected, number), number))
            return
        if len(orders) >= MAX_ORDERS_PER_PHASE:
            raise self.fail(number, f"more than {MAX_ORDERS_PER_PHASE:,} orders in one phase")
        orders.append(CaseOrder(given, expected, number, draft.revising, by_edition))
        first_block = len(draft.blocks) == 1  # later blocks order the units the game has then
        implied = draft.world is None and not isinstance(given.order, Waive)
        if kind is PhaseKind.MOVEMENT and first_block and implied:
            self.imply_unit(draft, number, line, given)

    def editions(self, number: int, line: str, text: str) -> tuple[str, dict[str, str]]:
        """Split '[1971 1982: fails]' groups off an expectation: (the rest, edition -> text)."""
        variants: dict[str, str] = {}
        for match in _EDITIONS.finditer(text):
            for edition in match.group(1).split():
                if edition not in EDITION_NAMES:
                    raise self.fail(
                        number,
                        f"expected an edition ({', '.join(EDITION_NAMES)}), found {shown(edition)}",
                        line.find(edition) + 1,
                    )
                variants[edition] = match.group(2).strip()
        rest = _BRACKETED.sub("", text).strip()
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
                f"found {shown(label)}",
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
        twice = [e for e in names if e in draft.after_by_edition or e in (draft.section or ())]
        if twice:
            raise self.fail(number, f"edition {twice[0]} has its AFTER section already")
        if draft.after is not None or draft.section is not None:
            self.close_after(draft)
        draft.section = names
        draft.after = []

    def close_step_after(self, draft: _Draft) -> None:
        """Keep the AFTER sections read between two steps of a multiverse case: what the
        step before them leaves (under each edition they name)."""
        assert draft.after is not None  # line() calls this only in an AFTER section
        self.close_after(draft)
        editions = dict(draft.after_by_edition)
        draft.step_afters[len(draft.blocks) - 1] = (draft.plain_after, editions)
        draft.plain_after, draft.after_by_edition, draft.section = None, {}, None
        draft.after = None

    def read_after(self, draft: _Draft) -> After:
        """The AFTER section read so far, its lines then forgotten for the next one."""
        read = After(
            None if draft.after is None else tuple(sorted(draft.after)),
            None
            if draft.after_centres is None
            else tuple(sorted((c, p) for c, (p, _) in draft.after_centres.items())),
            draft.after_solo,
            draft.after_boards,
            tuple(sorted(draft.after_retreating)) if draft.multiverse else None,
            draft.after_forks,
            draft.after_revisited,
            tuple(sorted(draft.after_options)),
            draft.after_standoffs,
        )
        draft.after_centres = draft.after_solo = draft.after_boards = None
        draft.after_forks = draft.after_revisited = draft.after_standoffs = None
        draft.after_retreating, draft.after_options = [], []
        return read

    def close_after(self, draft: _Draft) -> None:
        """Keep the AFTER section read so far: the plain one, or an edition's."""
        read = self.read_after(draft)
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
        if solo:
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
                    f"expected boards such as 'a@0 b@1', found {shown(bad[0])}",
                    _column_after(line, ":"),
                )
            draft.after_boards = names
            return
        listed = re.match(r"^(forks|revisited|standoffs)\s*:\s*(.*)$", stripped)
        if listed and draft.multiverse:
            return self.after_list(draft, number, line, listed.group(1), listed.group(2))
        if not owns:
            raise self.fail(number, "expected 'POWER owns A|F PLACE' after AFTER")
        options = None
        if owns.group(2) and " to " in owns.group(3):  # 'retreating A b-Tyrolia@1 to X, Y'
            what, _, where = owns.group(3).partition(" to ")
            owns = _OWNS.match(f"{owns.group(1)} owns {owns.group(2)}{what}")
            assert owns is not None  # the same line, its options left out
            options = where
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
        if options is not None:
            places = [] if options.strip() == "none" else options.split(",")
            board = on_map(unit.location)[1] if draft.multiverse else None
            found = []
            for text in places:
                place = self.settle_text(number, line, text.strip(), unit.type)
                found.append(place if board is None else on_board(place, board))
            draft.after_options.append((unit, tuple(sorted(found))))

    def after_list(self, draft: _Draft, number: int, line: str, key: str, value: str) -> None:
        """'forks: c from b@0, d from a@1' (the forks of the step, each with the board it
        came from) or 'revisited: a@0 b@0' (the past boards it adjudicated again); 'none'
        for none."""
        column = _column_after(line, ":")
        if key == "standoffs":
            found = [] if value.strip() == "none" else value.split(",")
            draft.after_standoffs = tuple(
                sorted(self.board_place(number, line, p.strip()) for p in found)
            )
            return
        if key == "revisited":
            names = () if value.strip() == "none" else tuple(sorted(value.split()))
            for name in names:
                self.board_key(number, name, column)
            draft.after_revisited = names
            return
        forks = [] if value.strip() == "none" else [f.strip() for f in value.split(",")]
        for fork in forks:
            match = re.fullmatch(r"([a-z]{1,2})\s+from\s+([a-z]{1,2}@\d+)", fork)
            if not match:
                raise self.fail(
                    number, f"expected forks such as 'c from b@0', found {shown(fork)}", column
                )
        draft.after_forks = tuple(sorted(" ".join(f.split()) for f in forks))

    def board_place(self, number: int, line: str, text: str) -> Spot:
        """A province of a board, 'b-Tyrolia@1', as the joint board's key ('tyr@1:1')."""
        column = line.find(text) + 1
        match = re.fullmatch(r"([a-z]{1,2})-(.+)@(\d+)", text)
        if not match:
            raise self.fail(
                number, f"expected a place such as b-Tyrolia@1, found {shown(text)}", column
            )
        try:
            province = self.board.lookup(match.group(2))
        except (UnknownNameError, AmbiguousNameError) as err:
            raise self.fail(number, f"expected a province: {err}", column) from err
        turn = self.count(number, match.group(3), column + match.start(3))
        return spot(province, timeline_index(match.group(1)), turn)

    def settle_text(self, number: int, line: str, text: str, unit_type: UnitType) -> Location:
        """A place a unit of that type may retreat to, as written: 'Spain(nc)', 'Bohemia'."""
        column = line.find(text) + 1
        try:
            order = parse_given(f"{unit_type.value} {text}", self.board).order
        except OrderSyntaxError as err:
            raise self.fail(
                number, f"expected a place to retreat to: {err.message}", column
            ) from err
        if not isinstance(order, Hold):
            raise self.fail(number, f"expected a place to retreat to, found {shown(text)}", column)
        return self.settle(number, order.unit.place, unit_type, column)

    def board_key(self, number: int, name: str, column: int) -> tuple[int, int]:
        """A board named as 'b@1': (timeline, turn)."""
        match = re.fullmatch(r"([a-z]{1,2})@(\d+)", name)
        if not match:
            raise self.fail(number, f"expected a board such as 'b@1', found {shown(name)}", column)
        return timeline_index(match.group(1)), self.count(number, match.group(2), column)

    def count(self, number: int, text: str, column: int) -> int:
        """A turn or timeline number of a line ('2' of 'Germany 2:0', '1' of 'b@1'), read
        only if it has few enough digits (`topology.files.whole_number`)."""
        try:
            return whole_number(text)
        except NumberError as err:
            raise self.fail(number, str(err), column) from err

    def world_line(self, draft: _Draft, number: int, line: str, stripped: str) -> bool:
        """A line of the multiverse a case starts from ('boards: a@0 b@0', 'adjusting: b@2',
        'centres: none', 'fork: c from b@0', 'RECORDED'): whether the line was one."""
        if stripped == "RECORDED":
            if draft.world is None:
                raise self.fail(number, "expected 'boards:' before RECORDED: the boards it names")
            draft.recording, draft.power = True, None
            return True
        match = re.match(r"^(boards|adjusting|centres|fork|solo)\s*:\s*(.*)$", stripped)
        if not match or draft.recording:
            return False
        key, value = match.group(1), match.group(2).strip()
        column = _column_after(line, ":")
        if key == "boards":
            if draft.world is not None:
                raise self.fail(number, "'boards:' is given twice")
            if draft.units:
                raise self.fail(number, "'boards:' comes before the units it places")
            draft.world = _World()
            for name in value.split():
                board = self.board_key(number, name, column + value.find(name))
                if board in draft.world.boards:
                    raise self.fail(number, f"board {name} is listed twice", column)
                draft.world.boards[board] = number
            if not draft.world.boards:
                raise self.fail(number, "expected boards such as 'a@0 b@0'", column)
            return True
        world = draft.world
        if world is None:
            raise self.fail(number, f"expected 'boards:' before '{key}:'")
        if key == "adjusting":
            for name in value.split():
                board = self.board_key(number, name, column + value.find(name))
                if board not in world.boards:
                    raise self.fail(number, f"board {name} is not among the boards", column)
                world.adjusting.add(board)
        elif key == "solo":
            world.won = self.power(number, line, value)
        elif key == "centres":
            if value != "none":
                raise self.fail(number, "expected 'centres: none'", column)
            world.no_centres = True
        else:
            fork = re.fullmatch(r"([a-z]{1,2})\s+from\s+([a-z]{1,2}@\d+)", value)
            if not fork:
                raise self.fail(
                    number, f"expected 'fork: c from b@0', found {shown(value)}", column
                )
            source = self.board_key(number, fork.group(2), column)
            if source not in world.boards:
                raise self.fail(number, f"board {fork.group(2)} is not among the boards", column)
            world.forks[timeline_index(fork.group(1))] = source
        return True

    def world_owns(self, draft: _Draft, number: int, line: str, owns: re.Match[str]) -> None:
        """'Germany owns A b-Munich@1', 'Austria owns retreating A a-Tyrolia@0' or
        'Russia owns SC a-Sevastopol@2': a unit or centre on one board of the world."""
        world = draft.world
        assert world is not None  # line() calls this only in a world's set-up
        what = owns.group(3).strip()
        column = line.index(what) + 1
        centre = re.fullmatch(r"(?i)SC\s+([a-z]{1,2})-(.+)@(\d+)", what)
        if centre:
            power = self.power(number, line, owns.group(1))
            turn = self.count(number, centre.group(3), column + centre.start(3))
            board = (timeline_index(centre.group(1).lower()), turn)
            try:
                province = self.board.lookup(centre.group(2).strip())
            except (UnknownNameError, AmbiguousNameError) as err:
                raise self.fail(number, f"expected a supply centre: {err}", column) from err
            if not self.board.province(province).is_centre:
                raise self.fail(number, f"{shown(centre.group(2))} is no supply centre", column)
            self.world_board(world, number, board, column)
            owners = world.centres.setdefault(board, {})
            if province in owners:
                raise self.fail(number, f"{province} is owned twice on that board", column)
            owners[province] = power
            return
        if re.match(r"(?i)^SC\s", what):
            raise self.fail(
                number, "expected a centre with its board, such as SC b-Berlin@2", column
            )
        unit = self.owned(number, line, owns, coordinates=True)
        assert isinstance(unit, Unit)  # a centre was read above
        plain, board = on_map(unit.location)
        self.world_board(world, number, board, column)
        placed = world.units.setdefault(board, {})
        if plain.province in placed:
            other, at = placed[plain.province]
            raise self.fail(number, f"{other.text(self.board)} stands there already (line {at})")
        standing = Unit(plain, unit.type, unit.power)
        placed[plain.province] = (standing, number)
        if owns.group(2):
            world.retreating.append((board, standing))

    def world_board(self, world: _World, number: int, board: tuple[int, int], column: int) -> None:
        if board not in world.boards:
            name = f"{timeline_name(board[0])}@{board[1]}"
            raise self.fail(number, f"board {name} is not among the boards", column)

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
                number,
                f"expected a power ({powers}), found {shown(text)}",
                line.index(text) + 1,
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
                        number,
                        f"{expected}: {shown(centre.group(1))} is no supply centre",
                        column,
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
        problem = standing_problem(self.board.province(place.province), unit_type, place.coast)
        if place.coast is not None and problem is not None:  # a set-up line names no odd coast
            raise self.fail(number, problem, column)
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
                *draft.step_afters.get(index, (None, {})),
            )
            for index, (kind, orders) in enumerate(draft.blocks)
        )
        if draft.multiverse and not blocks:  # nothing ordered: one step, every unit holds
            blocks = (Block(PhaseKind.MOVEMENT, ()),)
        world = self.world(draft) if draft.world is not None else None
        if world is not None:
            position = world.boards[0].position
        if draft.after is not None or draft.section is not None:
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
            plain.boards,
            plain.retreating,
            plain.centres,
            plain.solo,
            dict(draft.after_by_edition),
            world,
            plain.forks,
            plain.revisited,
            plain.options,
            plain.standoffs,
        )

    def world(self, draft: _Draft) -> Multiverse:
        """The multiverse a case's set-up describes: its boards with their units and
        centres, the recorded orders of the past with their results, the units owing a
        retreat (the world then starts in a retreat pause)."""
        world = draft.world
        assert world is not None  # finish() calls this only for a case with a world
        if draft.units or draft.centres:
            raise self.fail(draft.line, "a case with 'boards:' places every unit on its board")
        last = {t: max(n for u, n in world.boards if u == t) for t, _ in world.boards}
        for key in world.adjusting:
            if key[1] != last[key[0]] or key[1] % 2:
                name = f"{timeline_name(key[0])}@{key[1]}"
                raise self.fail(
                    world.boards[key], f"{name} cannot owe adjustments: only a head after a fall"
                )
        home = {c: p for p in self.board.powers for c in self.board.home_centres(p)}
        records: dict[tuple[int, int], list[tuple[Given, Outcome]]] = {}
        for order, number in world.recorded:
            assert not isinstance(order.given.order, Waive)  # recorded orders name boards
            here = order.given.order.unit.place
            on = (here.timeline or 0, here.turn or 0)  # order_line requires both
            if on not in world.boards:
                raise self.fail(number, f"{here.text(self.board)} is on no board of the world")
            records.setdefault(on, []).append((order.given, _recorded(order)))
        boards = []
        for key in sorted(world.boards):
            timeline, turn = key
            try:
                phase = turn_phase(turn, self.board)
            except DipsatError as err:  # a turn past the last year
                name = f"{timeline_name(timeline)}@{turn}"
                raise self.fail(world.boards[key], f"board {name}: {err}") from err
            if key in world.adjusting:
                phase = Phase(phase.year - 1, Season.WINTER, PhaseKind.ADJUSTMENT)
            centres = {} if world.no_centres else dict(home)
            centres.update(world.centres.get(key, {}))
            units = tuple(u for u, _ in world.units.get(key, {}).values())
            try:
                position = Position(phase, units, tuple(centres.items()), board=self.board)
            except PositionError as err:
                raise self.fail(world.boards[key], f"board cannot be: {err}") from err
            entries = records.get(key, [])
            record = None
            if entries:
                record = Record(
                    tuple(g for g, _ in entries),
                    _decisions(key, entries),
                    tuple(o for _, o in entries),
                )
            built = {
                g.order.unit.place.province
                for g, o in entries
                if isinstance(g.order, Build) and o.result is Result.SUCCEEDS
            }
            created = None
            if built:
                created = position.derive(
                    position.phase, tuple(u for u in units if u.province not in built)
                )
            boards.append(MBoard(timeline, turn, position, record, created))
        origins = tuple(sorted((t, world.forks.get(t)) for t in last))
        pause = None
        if world.retreating:
            waiting = tuple(
                sorted(
                    (
                        (key, DislodgedUnit(unit, _attacker(records.get(key, []), unit), False))
                        for key, unit in world.retreating
                    ),
                    key=lambda w: (w[0], w[1].unit.province),
                )
            )
            pause = Pause(waiting, ())
        return Multiverse(tuple(boards), origins, pause, world.won)


def _recorded(order: CaseOrder) -> Outcome:
    """A recorded order's result, from its label ('fails, dislodged', 'dislodged')."""
    assert order.expected is not None
    words = order.expected.split(", ")
    fate = {"dislodged", "destroyed"}
    first = next((w for w in words if w not in fate), "stands")
    return Outcome(
        order.given,
        Result(first),
        dislodged="dislodged" in words or "destroyed" in words,
        destroyed="destroyed" in words,
    )


def _decisions(
    key: tuple[int, int], entries: Iterable[tuple[Given, Outcome]]
) -> dict[Decision, bool]:
    """The decisions a board's recorded results imply: which moves succeeded and which
    units were dislodged."""
    found: dict[Decision, bool] = {}
    for given, outcome in entries:
        if isinstance(given.order, MOVEMENT_ORDERS):
            here = spot(given.order.unit.place.province, *key)
            if isinstance(given.order, Move):
                found[(MOVE, here)] = outcome.result is Result.SUCCEEDS
            found[(DISLODGED, here)] = outcome.dislodged
    return found


def _attacker(entries: Iterable[tuple[Given, Outcome]], unit: Unit) -> str:
    """Where the recorded move that dislodged a unit came from, on its own board ("" if it
    came from another board or none is recorded)."""
    for given, outcome in entries:
        order = given.order
        if (
            isinstance(order, Move)
            and outcome.result is Result.SUCCEEDS
            and order.dest.province == unit.province
            and (order.dest.timeline, order.dest.turn)
            == (order.unit.place.timeline, order.unit.place.turn)
        ):
            return order.unit.place.province
    return ""


def read_cases(path: str | Path, board: Board | None = None) -> list[Case]:
    """All cases of one file, on ``board`` (the standard board by default) where a case
    names no variant."""
    try:
        text = read_text(path, MAX_CASE_FILE_BYTES)
    except TextFileError as err:
        raise CaseFormatError(err.message, str(path), err.line, err.column) from err
    return _CaseReader(str(path), board).read(text)


def case_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """The case files under the given paths (`*.cases`), sorted."""
    for path in map(Path, paths):
        found = probe(path)
        if found == "folder":
            yield from sorted(path.rglob("*.cases"))
        elif found:
            yield path
        else:
            raise CaseFormatError("cannot read: No such file or directory", str(path), 0)
