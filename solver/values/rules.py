"""Rule books: one named policy per disputed issue of DATC chapter 4, as an immutable value.

Named editions follow the DATC's account of each rulebook: `1971`, `1982`, `2000`, `2023`,
`2025` (the DATC v3.2 preferences, the default) and `dptg`, plus `webdiplomacy` for the site
the shipped real games were played on, `godip` and `mila` for those two engines, and `J`,
`O`, `O-strict` for the two rule sets of 5D Diplomacy.  A custom rule book is a small TOML
file, read by `solver.formats.rulebooks`:

    base = "2025"
    [policies]
    convoy_paradox = "all-hold"

Every policy is explained, with the cases that show it, in docs/rules.md.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any, get_type_hints

from topology.files import shown

from ..errors import CaseFormatError, DipsatError, did_you_mean, expect_type


class MultiRoute(enum.Enum):
    """4.A.1: a convoy with several routes."""

    ALL_ROUTES = "all-routes"  # disrupted only when every route is (1982 and later)
    ANY_ROUTE = "any-route"  # disrupted when any route is (1971)


class ConvoyCut(enum.Enum):
    """4.A.2: which supports a convoyed army does not cut (the editions' paradox clauses)."""

    ALWAYS = "always"  # it cuts as any attack does (the Szykman and DPTG editions)
    RULE_1971 = "1971"  # not a support for an attack on a fleet convoying it
    RULE_1982 = "1982"  # not a support of any action in a sea holding a fleet convoying it
    RULE_2000 = "2000"  # not a support for an attack on a fleet necessary for its convoy


class ConvoyParadox(enum.Enum):
    """4.A.2: what settles a convoy paradox that is left after the cut rule."""

    SZYKMAN = "szykman"  # the convoys of the paradox fail
    ALL_HOLD = "all-hold"  # every move of the paradox fails
    DPTG = "dptg"  # the resolution disrupting all its convoys, if one does; else all hold
    NONE = "none"  # the rulebook gives no answer: reported as an unresolved paradox


class ConvoyToAdjacent(enum.Enum):
    """4.A.3: when does an army moving to an adjacent province go by convoy?"""

    OWN_FLEET_OR_VIA = "own-fleet-or-via"  # its own power convoys it, or "via convoy" (2025)
    ANY_FLEET = "any-fleet"  # whenever a fleet of any power convoys it (1971: kidnapping)
    VIA_ONLY = "via-only"  # only when its order says "via convoy" (DPTG, webDiplomacy)


class ViaFallback(enum.Enum):
    """4.A.3: an army ordered "via convoy" to an adjacent province that no chain of fleets
    is ordered to convoy (the DATC: "it is ambiguous whether the land route is a fallback")."""

    NONE = "none"  # it goes by convoy all the same and fails; illegal where no fleets stand
    # that could carry it (2025)
    LAND = "land"  # it moves over land, as if "via convoy" were not written (godip)
    LAND_IF_CONVOYABLE = "land-if-convoyable"  # over land, but illegal (the army holds) where
    # no fleets stand that could carry it (MILA)


class DislodgedPrevent(enum.Enum):
    """4.A.7: does a dislodged unit still bounce others in its attacker's province?"""

    UNLESS_HEAD_TO_HEAD = "unless-head-to-head"  # it loses that only in a head-to-head battle
    NEVER = "never"  # a unit dislodged from the province it attacks never bounces there


class UnreachableCoast(enum.Enum):
    """4.B.3: a move to a coast it cannot reach while the other coast is reachable."""

    ILLEGAL = "illegal"
    IGNORED = "ignored"


class SupportCoast(enum.Enum):
    """4.B.4: a support that leaves the coast open when both coasts are possible."""

    ANY = "any"  # legal for both coasts
    OWN_UNIT = "own-unit"  # legal only when supporting one's own unit
    ILLEGAL = "illegal"


class WrongCoast(enum.Enum):
    """4.B.5 and 4.B.6: a wrong but unneeded, or an unknown, coast."""

    IGNORED = "ignored"
    ILLEGAL = "illegal"


class SeveralOrders(enum.Enum):
    """4.D.3: several orders to one unit."""

    FIRST = "first"  # the first (legal) order counts (2025)
    LAST = "last"  # the last legal order counts (MILA: a later order replaces an earlier one)
    NONE = "none"  # the orders are illegal and the unit holds


class CivilDisorder(enum.Enum):
    """4.D.8: which units go when a power orders too few disbands: the farthest from"""

    OWNED_CENTRES = "owned-centres"  # the nearest centre it owns (2023, 2025)
    HOME_CENTRES = "home-centres"  # the nearest of its home centres (1971 to 2000, DPTG)


class CivilDisorderSteps(enum.Enum):
    """4.D.8: how a unit's distance from those centres is counted."""

    ANY_BORDER = "any-border"  # every border, for an army and a fleet alike (2023, 2025;
    # godip)
    UNIT_MOVES = "unit-moves"  # a fleet counts its own moves, an army any border, seas
    # included (1971 to 2000 as the DPTG and DATC v2 read them; MILA)


class CivilDisorderTies(enum.Enum):
    """4.D.8: among units equally far, fleets go before armies; then, in the order of"""

    NAME = "name"  # the English province names (the rulebooks)
    CODE = "code"  # the board's province codes (MILA's, on the standard board)
    GODIP_CODE = "godip-code"  # godip's province codes, a fleet's coast included


class StepScope(enum.Enum):
    """Multiverse: what a step does to a head board that owes a retreat or adjustment."""

    TURN = "turn"  # settle the owed phases first, then take part in the movement
    PHASE = "phase"  # settle one owed phase and stop: one phase per head, as in a game


class RepeatFork(enum.Enum):
    """Multiverse: a past board that already forked changes again."""

    NEW_TIMELINE = "new-timeline"  # always a new timeline (rule set J's implementation)
    REUSE_IDENTICAL = "reuse-identical"  # not if an earlier fork of it starts the same


class TimelineAdjacency(enum.Enum):
    """Multiverse: which timelines are adjacent (units reach across adjacent ones)."""

    BRANCHES = "branches"  # one branched off the other, or both off one board (rule set J)
    NUMBERED = "numbered"  # their numbers differ by one, whatever their parentage (O)


class CrossBoardMoves(enum.Enum):
    """Multiverse: where a unit can go on another board within reach."""

    NEIGHBOURS = "neighbours"  # the provinces its own borders, as on its board (rule set J)
    LOOSE = "loose"  # its own province, or one it could go to on its board (O, loose)
    STRICT = "strict"  # its own province and coast only (O, strict)


class ForkWhen(enum.Enum):
    """Multiverse: when a past board adjudicated again forks a new timeline."""

    OUTCOME_CHANGED = "outcome-changed"  # a move into it or a dislodgement on it comes out
    # differently from its record, or a new move into it succeeds (rule set J)
    BOARD_DIFFERS = "board-differs"  # its next board, made again, differs from every next
    # board it has (O)


class Winters(enum.Enum):
    """When a winter is a phase of its own (in a multiverse, a board's step of its own)."""

    OWED = "owed"  # only when some power builds or disbands (the rules; rule set J)
    ALWAYS = "always"  # every winter, adjustments or not (O: a winter board after every fall)


class PastOrders(enum.Enum):
    """Multiverse: which recorded orders a step that reaches the past adjudicates again."""

    NAMED_BOARDS = "named-boards"  # those of the past boards its orders name; the boards
    # their records name take part with their recorded decisions (rule set J)
    SHARED_PLACES = "shared-places"  # every order sharing a place (a province of one board)
    # with a new one, transitively, illegal ones too (O)


class PastResults(enum.Enum):
    """Multiverse: what becomes of a past order's result when a step adjudicates it again."""

    KEPT = "kept"  # its record stands; the new result lives in the board made from it (J)
    REWRITTEN = "rewritten"  # its record takes the new result, and later steps start from it (O)


class PastRetreats(enum.Enum):
    """Multiverse: where a unit dislodged by a step that reaches the past retreats."""

    NEXT_BOARD = "next-board"  # on the board made after its own (a fork, or a head's next
    # board), which opens in a retreat phase (rule set J)
    PAUSE = "pause"  # on its own board, in a pause: no other order counts until it has (O)


class Victory(enum.Enum):
    """Multiverse: who wins."""

    ANY_HEAD = "any-head"  # the board's victory count (18) on some head board
    DISTINCT_CENTRES = "distinct-centres"  # that many distinct centres over all heads, alone on top


_CONSTRAINED = ("past_retreats", "past_results")
"""The policies whose values constrain each other (`conflicting`)."""


def conflicting(values: Mapping[str, Any]) -> str | None:
    """Why some of these policies' values cannot go together in a rule book, or None; a
    policy missing from `values` is free."""
    if (
        values.get("past_retreats") is PastRetreats.PAUSE
        and values.get("past_results") is PastResults.KEPT
    ):
        return (
            "past_retreats = pause needs past_results = rewritten: a retreat made on a "
            "past board is recorded there"
        )
    return None


@dataclass(frozen=True, slots=True)
class RuleBook:
    name: str
    multi_route: MultiRoute = MultiRoute.ALL_ROUTES  # 4.A.1
    convoy_cut: ConvoyCut = ConvoyCut.ALWAYS  # 4.A.2
    convoy_paradox: ConvoyParadox = ConvoyParadox.SZYKMAN  # 4.A.2
    convoy_to_adjacent: ConvoyToAdjacent = ConvoyToAdjacent.OWN_FLEET_OR_VIA  # 4.A.3
    via_fallback: ViaFallback = ViaFallback.NONE  # 4.A.3
    intent_fallback: bool = False  # 4.A.3: an army its own fleet convoys to an adjacent
    # province (no "via convoy") goes over land when the convoy fails (MILA)
    brannan: bool = False  # 4.A.4: a convoyed attack comes from the last fleet
    retreat_to_convoy_origin: bool = True  # 4.A.5
    dislodged_prevent: DislodgedPrevent = DislodgedPrevent.UNLESS_HEAD_TO_HEAD  # 4.A.7
    single_coast_default: bool = True  # 4.B.2: no coast given, one reachable: that one
    unreachable_coast: UnreachableCoast = UnreachableCoast.ILLEGAL  # 4.B.3
    support_coast: SupportCoast = SupportCoast.ANY  # 4.B.4
    wrong_coast: WrongCoast = WrongCoast.IGNORED  # 4.B.5, 4.B.6
    several_orders: SeveralOrders = SeveralOrders.FIRST  # 4.D.3
    civil_disorder: CivilDisorder = CivilDisorder.OWNED_CENTRES  # 4.D.8
    civil_disorder_steps: CivilDisorderSteps = CivilDisorderSteps.ANY_BORDER  # 4.D.8
    civil_disorder_ties: CivilDisorderTies = CivilDisorderTies.NAME  # 4.D.8
    multiverse_step: StepScope = StepScope.TURN
    repeat_fork: RepeatFork = RepeatFork.NEW_TIMELINE
    victory: Victory = Victory.ANY_HEAD
    timeline_adjacency: TimelineAdjacency = TimelineAdjacency.BRANCHES
    diagonal_moves: bool = True  # a board one turn away on an adjacent timeline is in reach
    cross_board_moves: CrossBoardMoves = CrossBoardMoves.NEIGHBOURS
    past_orders: PastOrders = PastOrders.NAMED_BOARDS
    past_results: PastResults = PastResults.KEPT
    past_retreats: PastRetreats = PastRetreats.NEXT_BOARD
    winters: Winters = Winters.OWED
    fork_when: ForkWhen = ForkWhen.OUTCOME_CHANGED

    def __post_init__(self) -> None:
        """Each policy as its type: an option's name becomes the option (`"all-hold"` for
        `ConvoyParadox.ALL_HOLD`); anything else is refused.

        Raises:
            DipsatError: naming the policy and the values it takes, or the policy that a
                retreat pause needs.
        """
        expect_type("name", self.name, str, "the rule book's name as text")
        for name, kind in _KINDS.items():
            value = getattr(self, name)
            if not isinstance(value, kind):
                object.__setattr__(self, name, _policy(name, value))
        conflict = conflicting({p: getattr(self, p) for p in _CONSTRAINED})
        if conflict:
            raise DipsatError(conflict)


POLICIES = {f.name: f for f in fields(RuleBook) if f.name != "name"}
BOARD_POLICIES = tuple(POLICIES)[: tuple(POLICIES).index("multiverse_step")]
"""The policies of a game on one board (DATC chapter 4); the others are the multiverse's."""
_KINDS: dict[str, Any] = {
    name: kind for name, kind in get_type_hints(RuleBook).items() if name in POLICIES
}
"""Each policy's type: bool, or the enum of its options."""
DATC_2025 = RuleBook("2025")
_OLD = RuleBook(
    "old",
    retreat_to_convoy_origin=False,
    civil_disorder=CivilDisorder.HOME_CENTRES,
    civil_disorder_steps=CivilDisorderSteps.UNIT_MOVES,
)  # what the editions before 2023 share
EDITIONS: Mapping[str, RuleBook] = MappingProxyType(
    {
        "1971": replace(
            _OLD,
            name="1971",
            multi_route=MultiRoute.ANY_ROUTE,
            convoy_cut=ConvoyCut.RULE_1971,
            convoy_paradox=ConvoyParadox.NONE,
            convoy_to_adjacent=ConvoyToAdjacent.ANY_FLEET,
        ),
        "1982": replace(
            _OLD, name="1982", convoy_cut=ConvoyCut.RULE_1982, convoy_paradox=ConvoyParadox.NONE
        ),
        "2000": replace(
            _OLD, name="2000", convoy_cut=ConvoyCut.RULE_2000, convoy_paradox=ConvoyParadox.NONE
        ),
        "2023": RuleBook("2023", convoy_cut=ConvoyCut.RULE_2000, convoy_paradox=ConvoyParadox.NONE),
        "2025": DATC_2025,
        "dptg": replace(
            _OLD,
            name="dptg",
            convoy_paradox=ConvoyParadox.DPTG,
            convoy_to_adjacent=ConvoyToAdjacent.VIA_ONLY,
        ),
    }
)
WEBDIPLOMACY = RuleBook(
    "webdiplomacy",
    convoy_to_adjacent=ConvoyToAdjacent.VIA_ONLY,
    civil_disorder=CivilDisorder.HOME_CENTRES,
    civil_disorder_steps=CivilDisorderSteps.UNIT_MOVES,
)
GODIP = RuleBook(
    "godip",
    via_fallback=ViaFallback.LAND,
    civil_disorder=CivilDisorder.HOME_CENTRES,
    civil_disorder_ties=CivilDisorderTies.GODIP_CODE,
)
"""godip (github.com/zond/godip), the engine of diplicity and other sites: docs/rules.md
names the source of each choice."""
MILA = RuleBook(
    "mila",
    via_fallback=ViaFallback.LAND_IF_CONVOYABLE,
    intent_fallback=True,
    several_orders=SeveralOrders.LAST,
    civil_disorder=CivilDisorder.HOME_CENTRES,
    civil_disorder_steps=CivilDisorderSteps.UNIT_MOVES,
    civil_disorder_ties=CivilDisorderTies.CODE,
)
"""The MILA engine (the `diplomacy` package, 1.1.2): docs/rules.md names the source of each
choice, and docs/crosscheck.md its bugs, which no policy reproduces."""
ENGINES: Mapping[str, RuleBook] = MappingProxyType({"godip": GODIP, "mila": MILA})
RULE_SET_J = replace(DATC_2025, name="J")
"""The MDATC author's 5D rule set: the multiverse defaults, on the 2025 rules."""
RULE_SET_O = RuleBook(
    "O",
    convoy_to_adjacent=ConvoyToAdjacent.ANY_FLEET,
    single_coast_default=False,  # a fleet order names its coast, or it is illegal
    wrong_coast=WrongCoast.ILLEGAL,
    multiverse_step=StepScope.PHASE,
    repeat_fork=RepeatFork.REUSE_IDENTICAL,
    victory=Victory.DISTINCT_CENTRES,
    timeline_adjacency=TimelineAdjacency.NUMBERED,
    diagonal_moves=False,
    cross_board_moves=CrossBoardMoves.LOOSE,
    past_orders=PastOrders.SHARED_PLACES,
    past_results=PastResults.REWRITTEN,
    past_retreats=PastRetreats.PAUSE,
    winters=Winters.ALWAYS,
    fork_when=ForkWhen.BOARD_DIFFERS,
)
"""Oliveriver's 5D engine with its loose adjacency; `O-strict` with its strict one."""
MULTIVERSE_RULE_SETS: Mapping[str, RuleBook] = MappingProxyType(
    {
        "J": RULE_SET_J,
        "O": RULE_SET_O,
        "O-strict": replace(RULE_SET_O, name="O-strict", cross_board_moves=CrossBoardMoves.STRICT),
    }
)
RULE_BOOKS: Mapping[str, RuleBook] = MappingProxyType(
    {**EDITIONS, "webdiplomacy": WEBDIPLOMACY, **ENGINES, **MULTIVERSE_RULE_SETS}
)


def policy_named(name: str, purpose: str = "") -> str:
    """The policy a name stands for, however it is read (a rule-book file, `--hold`, the
    Python API): `convoy_cut`, or as files may write it, `convoy-cut`; `purpose` (" to
    hold") follows the name in the message.

    Raises:
        DipsatError: no policy has that name: the message suggests the nearest, else lists
            them all.
    """
    policy = name.replace("-", "_")
    if policy in POLICIES:
        return policy
    near = did_you_mean(name, POLICIES)
    if near:
        raise DipsatError(
            f"unknown policy {name!r:.60}{purpose}{near}; docs/rules.md explains each policy"
        )
    raise DipsatError(f"unknown policy {name!r:.60}{purpose}; the policies: {', '.join(POLICIES)}")


def named_rules(rules: str | RuleBook) -> RuleBook:
    """A rule book itself, or the edition or preset of that name (`solver.rule_book` also
    reads rule-book files).

    Raises:
        TypeError: `rules` is neither.
        DipsatError: no rule book has that name (the message lists those that do).
    """
    if isinstance(rules, RuleBook):
        return rules
    names, files = ", ".join(RULE_BOOKS), "; solver.rule_book reads a rule-book file"
    expect_type("rules", rules, str, f"a rule book or its name ({names})")
    book = RULE_BOOKS.get(rules)
    if book is None:
        near = did_you_mean(rules, RULE_BOOKS)
        raise DipsatError(f"unknown rule book {shown(rules, 60)}{near}; known: {names}{files}")
    return book


def policy_table(book: RuleBook) -> dict[str, str | bool]:
    """Every policy of a rule book by name, as JSON would keep it (true/false, or the
    option's name); `from_policy_table` reads it back."""
    return {
        name: value if isinstance(value := getattr(book, name), bool) else value.value
        for name in POLICIES
    }


def from_policy_table(name: str, table: dict[str, Any], where: str) -> RuleBook:
    """A rule book from a complete table of policies (`policy_table`).

    Raises:
        CaseFormatError: a policy is missing, unknown or set to a value it does not take.
    """
    table = upgraded(table, where, complete=True)
    missing = sorted(POLICIES.keys() - table.keys())
    unknown = sorted(table.keys() - POLICIES.keys())
    if missing or unknown:
        named = [f"{key}{did_you_mean(key, missing or POLICIES)}" for key in unknown]
        raise CaseFormatError(
            f"expected every policy once; missing: {', '.join(missing) or 'none'}; "
            f"unknown: {', '.join(named) or 'none'}",
            where,
        )
    values = {key: policy_value(key, value, where) for key, value in table.items()}
    try:
        return RuleBook(name, **values)
    except DipsatError as err:
        raise CaseFormatError(str(err), where) from None


HISTORY = {
    "kept": {"past_orders": "named-boards", "past_results": "kept", "past_retreats": "next-board"},
    "rewritten": {
        "past_orders": "shared-places",
        "past_results": "rewritten",
        "past_retreats": "pause",
    },
}
"""`history`, the policy that earlier versions had in place of these three (saved games
and rule-book files may still name it): J's value and O's."""
STEPS_OF = {"home-centres": "unit-moves", "owned-centres": "any-border"}
"""How civil disorder counted from each kind of centre before the counting was a policy."""
ADDED = {"via_fallback": "none", "intent_fallback": False, "civil_disorder_ties": "name"}
"""Policies newer than some saved games: absent from a table, what every rule book did."""


def upgraded(table: Mapping[str, Any], where: str, complete: bool = False) -> dict[str, Any]:
    """A table of policies as this version reads what an earlier one wrote: `history` as
    the three policies it stood for (a table that also sets one of them is refused), and
    `civil_disorder` set without `civil_disorder_steps` counting as it then did, and (for
    a `complete` table, as a saved game keeps) the policies added since (`ADDED`) at the
    value every rule book had then.

    Raises:
        CaseFormatError: `history` has a value it did not take, or comes with those three.
    """
    found = dict(table)
    if "history" in found:
        value = found.pop("history")
        if not isinstance(value, str) or value not in HISTORY:
            raise CaseFormatError(
                f"history: expected kept or rewritten, found {shown(value, 60)}", where
            )
        both = sorted(found.keys() & HISTORY[value].keys())
        if both:
            raise CaseFormatError(
                f"history stands for {', '.join(HISTORY[value])}: set those", where
            )
        found.update(HISTORY[value])
    centres = found.get("civil_disorder")
    if "civil_disorder_steps" not in found and isinstance(centres, str) and centres in STEPS_OF:
        found["civil_disorder_steps"] = STEPS_OF[centres]
    return {**ADDED, **found} if complete else found


def is_edition(book: RuleBook) -> bool:
    """True for a rule book that is one of the named ones, unchanged."""
    return RULE_BOOKS.get(book.name) == book


def policy_options(name: str) -> tuple[Any, ...]:
    """The values a policy takes: false and true, or its enum's options in order."""
    kind = _KINDS[name]
    return (False, True) if kind is bool else tuple(kind)


def policy_value(name: str, value: object, where: str) -> Any:
    """A policy's value from how TOML or JSON writes it (true/false, or an option's name).

    Raises:
        CaseFormatError: the value is not one the policy takes.
    """
    try:
        return _policy(name, value)
    except DipsatError as err:
        raise CaseFormatError(str(err), where) from None


def _policy(name: str, value: object) -> Any:
    """A policy's value from true/false or an option's name.

    Raises:
        DipsatError: the value is not one the policy takes.
    """
    kind = _KINDS[name]
    if kind is bool:
        if not isinstance(value, bool):
            raise DipsatError(f"{name}: expected true or false, found {shown(value, 60)}")
        return value
    choices = [m.value for m in kind]
    if value not in choices:
        raise DipsatError(
            f"{name}: expected one of {', '.join(choices)}, found {shown(value, 60)}"
            f"{did_you_mean(value, choices)}"
        )
    return kind(value)
