"""One parser for the order notations users bring.

Reads DATC long and short forms ("A Munich - Tyrolia", "F Tyn C A Tun-Nap"), MILA and
webDiplomacy strings ("A EDI - NWY VIA", "F STP/SC - BOT", "A SWE R FIN", "A PAR B",
"WAIVE"), DAIDE order syntax ("( ENG FLT LON ) MTO NTH") and both multiverse notations
("A a-Munich@1 - a-Tyrolia@0", "A Munich 1:0 - Tyrolia 0:0").  Province names go through the
board's alias table, so Spanish names work as well as codes.

Parsing is syntax only: the result is a typed order; whether it is legal on a board is decided
by `solver.judge.legality`.  Every failure is an `OrderSyntaxError` carrying the column.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace

from topology import AmbiguousNameError, Board, UnitType, UnknownNameError, normalize
from topology.files import NumberError, shown, whole_number

from ..errors import OrderSyntaxError
from .orders import (
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
    apply_board_defaults,
    timeline_index,
)

# a word starts with a letter and may hold digits after it, as a province code may ('ab1')
_TOKEN = re.compile(
    r"\s*(?:(?P<word>[^\W\d_][^\W_]*(?:'[^\W\d_]+)?)|(?P<num>\d+)|(?P<arrow>->|=>|→)|(?P<punct>\S))"
)

# Keyword spellings, compared after `_fold` (lower case, no accents).
_UNIT_TYPES = {
    "a": UnitType.ARMY,
    "army": UnitType.ARMY,
    "amy": UnitType.ARMY,
    "ejercito": UnitType.ARMY,
    "f": UnitType.FLEET,
    "fleet": UnitType.FLEET,
    "flt": UnitType.FLEET,
    "flota": UnitType.FLEET,
}
_HOLD = {"h", "hold", "holds", "hld", "stand", "stands", "mantiene", "mantener", "resiste"}
_SUPPORT = {"s", "sup", "support", "supports", "supporting", "apoya", "apoyo", "sostiene"}
_CONVOY = {"c", "cvy", "convoy", "convoys", "convoying", "convoya", "transporta"}
_RETREAT = {"r", "rto", "retreat", "retreats", "retira", "retirada"}
_DISBAND = {"d", "dsb", "rem", "disband", "disbands", "remove", "removes", "destroy", "disuelve"}
_BUILD = {"b", "bld", "build", "builds", "construye", "construir"}
_WAIVE = {"waive", "waives", "wve", "decline", "declines", "renuncia"}
_VIA = {"via", "by"}
_COASTS = {
    "nc": "nc",
    "ncs": "nc",
    "n": "nc",
    "north": "nc",
    "norte": "nc",
    "sc": "sc",
    "scs": "sc",
    "s": "sc",
    "south": "sc",
    "sur": "sc",
    "ec": "ec",
    "ecs": "ec",
    "e": "ec",
    "east": "ec",
    "este": "ec",
    "wc": "wc",
    "wcs": "wc",
    "w": "wc",
    "west": "wc",
    "oeste": "wc",
}
_COAST_TAIL = {"coast", "costa", "c"}
_PHASE_KINDS = {"movement", "retreat", "adjustment"}


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # word | num | arrow | punct
    text: str
    column: int  # 1-based
    spaced: bool  # whitespace before it

    @property
    def folded(self) -> str:
        return _fold(self.text)


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:  # only trailing whitespace is left
            break
        kind = match.lastgroup or "punct"
        start = match.start(kind)
        tokens.append(_Token(kind, match.group(kind), start + 1, start > pos or pos == 0))
        pos = match.end()
    return tokens


class _Parser:
    def __init__(self, text: str, board: Board, phase: str | None) -> None:
        self.text = text
        self.board = board
        self.phase = phase
        self.tokens = _tokenize(text)
        self.i = 0

    # -- token helpers -------------------------------------------------------------------
    def peek(self, offset: int = 0) -> _Token | None:
        j = self.i + offset
        return self.tokens[j] if j < len(self.tokens) else None

    def at_end(self) -> bool:
        return self.i >= len(self.tokens)

    def error(self, expected: str, token: _Token | None = None) -> OrderSyntaxError:
        token = token if token is not None else self.peek()
        if token is None:
            return OrderSyntaxError(
                f"expected {expected}, found end of order", self.text, len(self.text.rstrip()) + 1
            )
        return OrderSyntaxError(
            f"expected {expected}, found {token.text!r}", self.text, token.column
        )

    def accept_word(self, words: set[str]) -> _Token | None:
        token = self.peek()
        if token is not None and token.kind == "word" and token.folded in words:
            self.i += 1
            return token
        return None

    def accept_punct(self, chars: str) -> _Token | None:
        token = self.peek()
        if token is not None and token.kind in ("punct", "arrow") and token.text in chars:
            self.i += 1
            return token
        return None

    def expect_punct(self, char: str, what: str) -> _Token:
        token = self.accept_punct(char)
        if token is None:
            raise self.error(what)
        return token

    # -- places ------------------------------------------------------------------------------
    def at_timeline_prefix(self) -> bool:
        """`a-Munich`: one or two lower-case letters joined by a hyphen to a province name."""
        token, hyphen, after = self.peek(), self.peek(1), self.peek(2)
        return not (
            token is None
            or hyphen is None
            or after is None
            or token.kind != "word"
            or not re.fullmatch(r"[a-z]{1,2}", token.text)
            or hyphen.text != "-"
            or hyphen.spaced
            or after.spaced
            or after.kind != "word"
            or (token.folded,) in self.board.name_index
        )

    def timeline_prefix(self) -> int | None:
        if not self.at_timeline_prefix():
            return None
        token = self.peek()
        assert token is not None  # at_timeline_prefix saw it
        self.i += 2
        return timeline_index(token.text)

    def province(self) -> str:
        """Longest run of words (joined by attached '-' or '.') that names a province."""
        start = self.peek()
        if start is None or start.kind != "word":
            raise self.error("a province")
        spans: list[tuple[int, tuple[str, ...]]] = []  # (end index, normalized words)
        words: list[str] = []
        j = self.i
        while len(words) < 5:
            words.append(self.tokens[j].text)
            spans.append((j + 1, normalize(" ".join(words))))
            nxt = self.peek(j + 1 - self.i)
            after = self.peek(j + 2 - self.i)
            if nxt is not None and nxt.kind == "word":
                j += 1  # "North Sea"
            elif (
                nxt is not None
                and nxt.text in "-."
                and not nxt.spaced
                and after is not None
                and after.kind == "word"
                and (nxt.text == "." or not after.spaced)
            ):
                j += 2  # "Mid-Atlantic", "St. Petersburg"
            else:
                break
        for end, key in reversed(spans):
            codes = self.board.name_index.get(key)
            if codes:
                if len(codes) > 1:
                    raise self._ambiguous(start, codes)
                self.i = end
                return next(iter(codes))
        for end, key in reversed(spans):
            if len(" ".join(key)) < 3:
                continue
            candidates = self.board.candidates_by_prefix(key)
            if len(candidates) == 1:
                self.i = end
                return candidates[0]
            if candidates:
                raise self._ambiguous(start, candidates)
        near = self.board.nearest_name(start.text)
        hint = f" (did you mean {near}?)" if near else ""
        raise OrderSyntaxError(
            f"expected a province, found unknown name {start.text!r}{hint}",
            self.text,
            start.column,
        )

    def _ambiguous(self, token: _Token, codes: Iterable[str]) -> OrderSyntaxError:
        names = ", ".join(sorted(self.board.province(c).name for c in codes))
        return OrderSyntaxError(
            f"ambiguous province name {token.text!r}: could be {names}", self.text, token.column
        )

    def coast(self) -> str | None:
        """'(nc)', '(north coast)', '/nc', '_N' after a province."""
        token, inner = self.peek(), self.peek(1)
        if token is None or inner is None or inner.kind != "word":
            return None
        if token.text == "(" and (
            self._coast_word(inner) or (not token.spaced and inner.folded not in _VIA)
        ):
            self.i += 1
            coast = self._coast_words()
            self.expect_punct(")", "')' after the coast")
            return coast
        if token.text in "/_" and not token.spaced:
            self.i += 1
            return self._coast_words()
        return None

    @staticmethod
    def _coast_word(token: _Token) -> bool:
        return token.folded.replace(".", "") in _COASTS

    def _coast_words(self) -> str:
        token = self.peek()
        if token is None or token.kind != "word" or not self._coast_word(token):
            raise self.error("a coast (nc, sc, ec or wc)")
        self.i += 1
        coast = _COASTS[token.folded]
        if len(token.folded) == 1 and self.accept_punct("."):  # "n.c."
            self.accept_word({"c"})
            self.accept_punct(".")
        else:
            self.accept_word(_COAST_TAIL)
        return coast

    def board_suffix(self) -> tuple[int | None, int | None]:
        """`@3` (turn) or ` 3:1` (turn:timeline) after a place."""
        if self.accept_punct("@"):
            token = self.peek()
            if token is None or token.kind != "num":
                raise self.error("a turn number after '@'")
            self.i += 1
            return None, self.number(token)
        token, colon, second = self.peek(), self.peek(1), self.peek(2)
        if (
            token is not None
            and token.kind == "num"
            and colon is not None
            and colon.text == ":"
            and second is not None
            and second.kind == "num"
        ):
            self.i += 3
            return self.number(second), self.number(token)
        return None, None

    def number(self, token: _Token) -> int:
        """A turn or timeline number: ASCII digits, not too many (`whole_number`)."""
        try:
            return whole_number(token.text)
        except NumberError as err:
            raise OrderSyntaxError(str(err), self.text, token.column) from None

    def place(self) -> Place:
        timeline = self.timeline_prefix()
        province = self.province()
        coast = self.coast()
        t2, turn = self.board_suffix()
        if coast is None:
            coast = self.coast()
        return Place(province, coast, timeline if timeline is not None else t2, turn)

    def unit(self, allow_nationality: bool = False) -> UnitRef:
        if allow_nationality:
            self._skip_nationality()
        token = self.peek()
        unit_type = None
        # "a" and "f" are unit letters and timeline names ("a-Munich")
        if (
            token is not None
            and token.kind == "word"
            and token.folded in _UNIT_TYPES
            and not self.at_timeline_prefix()
        ):
            unit_type = _UNIT_TYPES[token.folded]
            self.i += 1
        return UnitRef(self.place(), unit_type)

    def _skip_nationality(self) -> None:
        """'Supports Turkish F Con - Bul': the nationality is ignored (DATC 4.C.5/4.C.6)."""
        token, following = self.peek(), self.peek(1)
        if token is None or token.kind != "word" or following is None:
            return
        try:
            self.board.lookup_power(token.text)
        except (UnknownNameError, AmbiguousNameError):
            return
        if following.kind == "word" and (
            following.folded in _UNIT_TYPES or ((following.folded,) in self.board.name_index)
        ):
            self.i += 1

    # -- orders ------------------------------------------------------------------------------
    def move_arrow(self) -> bool:
        if self.accept_punct("-") or self.accept_punct("->") or self.accept_punct("→"):
            return True
        if self.accept_word({"moves", "move", "m", "mto", "retreats", "retreat"}):
            self.accept_word({"to"})
            return True
        return bool(self.accept_word({"to"}))

    def via(self) -> bool:
        if self.accept_punct("("):
            if not self.accept_word(_VIA):
                raise self.error("'via convoy'")
            self.accept_word(_CONVOY)
            self.expect_punct(")", "')'")
            return True
        if self.accept_word(_VIA):  # MILA writes a bare "VIA"
            if not self.accept_word(_CONVOY) and not self.at_end():
                raise self.error("'convoy' after 'via'")
            return True
        return False

    def given(self) -> Given:
        power, timeline, turn = self.power_prefix()
        order = self.order()
        if not self.at_end():
            raise self.error("end of order")
        if timeline is not None or turn is not None:
            order = apply_board_defaults(order, timeline, turn)
        return Given(power, order, self.board)

    def power_prefix(self) -> tuple[str | None, int | None, int | None]:
        """'England:' before an order, or the MDATC season header 'Germany 2:0' (the
        default board of the order), or a bare power name before the unit."""
        token = self.peek()
        if token is None or token.kind != "word":
            return None, None, None
        found = self.power_name()
        if found is None:
            following = self.peek(1)
            if following is not None and following.text == ":":
                raise OrderSyntaxError(
                    f"expected a power before ':', found {token.text!r}", self.text, token.column
                )
            return None, None, None
        power, end = found
        start = self.i
        self.i = end
        timeline = turn = None
        number, colon, second = self.peek(), self.peek(1), self.peek(2)
        if (
            number is not None
            and number.kind == "num"
            and colon is not None
            and colon.text == ":"
            and second is not None
            and second.kind == "num"
        ):
            self.i += 3
            turn, timeline = self.number(number), self.number(second)
        if self.accept_punct(":") or turn is not None:
            return power, timeline, turn
        following = self.peek()
        if following is not None and following.kind == "word" and following.folded in _UNIT_TYPES:
            return power, None, None
        self.i = start
        return None, None, None

    def power_name(self) -> tuple[str, int] | None:
        """The power named by the longest run of words from here joined by attached hyphens
        ('England', 'British-Columbia' on empire, 'Neutral-State'), and where it ends."""
        found = None
        j = self.i
        while True:
            try:
                words = "".join(t.text for t in self.tokens[self.i : j + 1])
                found = (self.board.lookup_power(words), j + 1)
            except (UnknownNameError, AmbiguousNameError):
                pass
            hyphen, after = self.peek(j + 1 - self.i), self.peek(j + 2 - self.i)
            if not (
                hyphen is not None
                and hyphen.text == "-"
                and not hyphen.spaced
                and after is not None
                and after.kind == "word"
                and not after.spaced
            ):
                return found
            j += 2

    def order(self) -> Order:
        if self.at_end():
            raise self.error("an order")
        if self.at_timeline_prefix():  # "b-Munich Holds": b is a timeline, not Build
            return self.after_unit(self.unit())
        if self.accept_word(_WAIVE):
            return Waive()
        if self.accept_word(_BUILD):
            return Build(self.unit())
        if self.accept_word(_DISBAND):
            return Disband(self.unit())
        return self.after_unit(self.unit())

    def after_unit(self, unit: UnitRef) -> Order:
        if self.at_end():
            return Hold(unit)
        if self.accept_word(_HOLD):
            return Hold(unit)
        if self.accept_word(_SUPPORT):
            supported = self.unit(allow_nationality=True)
            if self.at_end() or self.accept_word(_HOLD):
                return SupportHold(unit, supported)
            if not self.move_arrow():
                raise self.error("'-' and a destination, or the end of a hold support")
            return SupportMove(unit, supported, self.place())
        if self.accept_word(_CONVOY):
            army = self.unit(allow_nationality=True)
            if not self.move_arrow():
                raise self.error("'-' and the convoy's destination")
            return Convoy(unit, army, self.place())
        if self.accept_word(_RETREAT):
            self.accept_word({"to"})
            return Retreat(unit, self.place())
        if self.accept_word(_DISBAND):
            return Disband(unit)
        if self.accept_word(_BUILD):
            return Build(unit)
        if self.move_arrow():
            dest = self.place()
            if self.phase == "retreat":
                return Retreat(unit, dest)
            return Move(unit, dest, self.via())
        raise self.error("an order verb (Holds, -, Supports, Convoys, R, Disband, Build)")


class _DaideParser(_Parser):
    """DAIDE order syntax: `( ( ENG FLT NTH ) CVY ( ENG AMY LON ) CTO NWY )`."""

    def given(self) -> Given:
        second = self.peek(1)
        wrapped = second is not None and second.text == "("
        if wrapped:
            self.expect_punct("(", "'('")
        power, order = self.daide_order()
        if wrapped:
            self.expect_punct(")", "')' closing the order")
        if not self.at_end():
            raise self.error("end of order")
        return Given(power, order, self.board)

    def daide_unit(self) -> tuple[str, UnitRef]:
        self.expect_punct("(", "'(' opening a unit")
        power = self.daide_power()
        token = self.peek()
        if token is None or token.kind != "word" or token.folded not in ("amy", "flt"):
            raise self.error("AMY or FLT")
        self.i += 1
        unit_type = _UNIT_TYPES[token.folded]
        place = self.daide_place()
        self.expect_punct(")", "')' closing the unit")
        return power, UnitRef(place, unit_type)

    def daide_power(self) -> str:
        token = self.peek()
        if token is None or token.kind != "word":
            raise self.error("a power (AUS ENG FRA GER ITA RUS TUR)")
        try:
            power = self.board.lookup_power(token.text)
        except (UnknownNameError, AmbiguousNameError) as err:
            raise self.error("a power (AUS ENG FRA GER ITA RUS TUR)") from err
        self.i += 1
        return power

    def daide_place(self) -> Place:
        if self.accept_punct("("):
            province = self.province()
            token = self.peek()
            if token is None or token.kind != "word" or token.folded not in _COASTS:
                raise self.error("a coast (NCS, SCS, ECS, WCS)")
            self.i += 1
            self.expect_punct(")", "')' after the coast")
            return Place(province, _COASTS[token.folded])
        return Place(self.province())

    def daide_order(self) -> tuple[str | None, Order]:
        third = self.peek(2)
        if third is not None and third.folded == "wve":  # ( ENG WVE )
            self.expect_punct("(", "'('")
            power = self.daide_power()
            self.i += 1
            self.expect_punct(")", "')'")
            return power, Waive()
        power, unit = self.daide_unit()
        verb = self.peek()
        if verb is None or verb.kind != "word":
            raise self.error("a DAIDE order (HLD MTO SUP CVY CTO RTO DSB BLD REM)")
        self.i += 1
        if self.phase == "retreat" and verb.folded in ("mto", "cto", "hld", "sup", "cvy"):
            # DAIDE has a verb of its own for a retreat; a movement verb here is a mistake,
            # not a retreat (and it would print as a move that reads back as a retreat)
            raise self.error("RTO or DSB (a retreat phase)", verb)
        match verb.folded:
            case "hld":
                return power, Hold(unit)
            case "mto":
                return power, Move(unit, self.daide_place())
            case "cto":
                dest = self.daide_place()
                if self.accept_word({"via"}):  # the route is not part of the order (DATC 4.A.6)
                    self.expect_punct("(", "'(' opening the convoy route")
                    while (token := self.peek()) is not None and token.text != ")":
                        self.province()
                    self.expect_punct(")", "')' closing the convoy route")
                return power, Move(unit, dest, via_convoy=True)
            case "sup":
                _, supported = self.daide_unit()
                if self.accept_word({"mto"}):
                    return power, SupportMove(unit, supported, self.daide_place())
                return power, SupportHold(unit, supported)
            case "cvy":
                _, army = self.daide_unit()
                if not self.accept_word({"cto"}):
                    raise self.error("CTO")
                return power, Convoy(unit, army, self.daide_place())
            case "rto":
                return power, Retreat(unit, self.daide_place())
            case "dsb" | "rem":
                return power, Disband(unit)
            case "bld":
                return power, Build(unit)
        raise self.error("a DAIDE order (HLD MTO SUP CVY CTO RTO DSB BLD REM)", verb)


MAX_ORDER_CHARS = 400  # the longest real order, with multiverse coordinates, is under 150


def parse_given(text: str, board: Board, phase: str | None = None) -> Given:
    """Parse one order line, optionally prefixed by 'Power:'.

    `phase` ('movement', 'retreat' or 'adjustment') only changes how a plain move reads:
    in a retreat phase "A Holland - Belgium" is a retreat, as the DATC writes it.
    """
    if phase is not None and phase not in _PHASE_KINDS:
        raise ValueError(f"unknown phase kind {shown(phase, 60)}")
    _bounded(text, "an order")
    stripped = text.strip()
    if not stripped:
        raise OrderSyntaxError("expected an order, found an empty line", text, 1)
    waive = re.fullmatch(r"(?i)\s*([A-Z]{3})\s+WVE\s*", text)
    if waive:
        text = f"( {waive.group(1)} WVE )"
    cls = _DaideParser if stripped.startswith("(") or waive else _Parser
    parser = cls(text, board, phase)
    return parser.given()


def _bounded(text: str, what: str) -> None:
    """Refuse a text longer than any order (read token by token, a long one is slow)."""
    if len(text) > MAX_ORDER_CHARS:
        raise OrderSyntaxError(
            f"expected {what} of at most {MAX_ORDER_CHARS} characters, found {len(text)}",
            text[:MAX_ORDER_CHARS],
            MAX_ORDER_CHARS + 1,
        )


def parse_order(text: str, board: Board, phase: str | None = None) -> Order:
    """Parse one order (a leading 'Power:' is accepted and dropped)."""
    return parse_given(text, board, phase).order


def parse_unit(text: str, board: Board) -> UnitRef:
    """One unit as a position lists it, 'A Paris' or 'F St Petersburg(sc)': no power
    before it and no order after it.

    Raises:
        OrderSyntaxError: anything else, with the column.
    """
    _bounded(text, "a unit")
    parser = _Parser(text, board, None)
    first = parser.peek()
    if first is not None and parser.power_prefix()[0] is not None:
        raise OrderSyntaxError(
            f"expected a unit such as 'A Paris' (the line names its power), found {first.text!r}",
            text,
            first.column,
        )
    unit = parser.unit()
    if not parser.at_end():
        raise parser.error("the end of the unit (a position lists units, not orders)")
    return unit


# 'England:' alone on a line. The possessive *+ never gives back what it took, so a long
# line is matched in linear time (a lazy name before \s* was quadratic); the name's
# trailing spaces are stripped where it is read.
_HEADER = re.compile(r"^\s*+(?P<power>[^\W\d_][\w .'-]*+)\s*+:\s*+$")


def read_order_lines(
    text: str, board: Board, phase: str | None = None
) -> list[tuple[int, str, Given]]:
    """Orders one per line, each optionally prefixed by 'Power:'; a line holding only
    'Power:' gives the power of the orders below it that name none (as the DATC writes
    them).  Blank lines
    and '#' comments are skipped.

    Raises:
        OrderSyntaxError: a line that cannot be read, with its line and column.
    """
    found: list[tuple[int, str, Given]] = []
    header: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        match = _HEADER.match(body)
        if match:
            power = match["power"].rstrip()
            try:
                header = board.lookup_power(power)
            except (UnknownNameError, AmbiguousNameError):
                known = ", ".join(board.powers)
                raise OrderSyntaxError(
                    f"expected a power ({known}), found {shown(power)}",
                    body,
                    match.start("power") + 1,
                    number,
                ) from None
            continue
        try:
            given = parse_given(body, board, phase)
        except OrderSyntaxError as err:
            raise OrderSyntaxError(err.message, body, err.column, number) from None
        if header is not None and given.power is None:
            given = replace(given, power=header)
        found.append((number, line, given))
    return found
