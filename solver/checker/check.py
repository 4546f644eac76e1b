"""An independent checker of a movement resolution, DATC chapter 5, sharing no code with
the adjudicator.

`check_resolution` reads the orders afresh (`solver.checker.reading`), works out the turn
they make (`solver.checker.turn`), and verifies the resolution against it: the verdict on
each order and the set of decisions (`solver.checker.verdicts`), each equation — MOVE,
PATH and SEA, SUPPORT, CONVOY, DISLODGED — from the strengths recomputed here, and the
outcomes and dislodgements the decisions make.  A decision set by a backup rule that
overrules the equations is exempt from its own equation but must follow the rule
(`solver.checker.backup`); one set by circular movement is not exempt; a decision kept from
history is exempt.
"""

from __future__ import annotations

from topology import Key, UnitType

from ..values.decisions import CONVOY, DISLODGED, MOVE, PATH, SEA, SUPPORT, Decision, DecisionKind
from ..values.orders import Move, SupportMove
from ..values.rules import ConvoyCut, DislodgedPrevent, MultiRoute
from .backup import backup_problems, overruled
from .claim import Claim
from .decided import ClaimedDecisions
from .turn import TurnReading
from .verdicts import (
    decision_set_problems,
    dislodgement_problems,
    outcome_problems,
    standing_problems,
    standoff_problems,
    verdict_problems,
)


def check_resolution(resolution: Claim) -> list[str]:
    """Every problem with the resolution, named; an empty list when the checker agrees."""
    turn = TurnReading.read(resolution.position, resolution.orders, resolution.rules)
    decided = ClaimedDecisions(turn, resolution.values)
    problems = verdict_problems(resolution, turn)
    problems += decision_set_problems(resolution, turn)
    problems += backup_problems(resolution, turn)
    problems += EquationCheck(resolution, turn, decided).problems()
    problems += outcome_problems(resolution, turn, decided)
    problems += dislodgement_problems(resolution, turn, decided)
    problems += standoff_problems(resolution, turn, decided)
    problems += standing_problems(resolution, turn, decided)
    return problems


class Strengths:
    """The strengths of chapter 5, recomputed from the claimed decisions."""

    def __init__(self, turn: TurnReading, decided: ClaimedDecisions) -> None:
        self.turn = turn
        self.decided = decided

    def given(self, supporters: list[Key], not_power: str | None = None) -> int:
        """How many of these supports are given (not counting one power's)."""
        units = self.turn.units
        return sum(
            1
            for s in supporters
            if self.decided(SUPPORT, s) and (not_power is None or units[s].power != not_power)
        )

    def hold(self, province: Key) -> int:
        """HOLD STRENGTH of a province: 0 if empty or left, 1 for a unit whose move fails,
        else 1 plus its given hold supports."""
        turn = self.turn
        if province not in turn.units:
            return 0
        order = turn.in_force.get(province)
        if order is not None and isinstance(order.order, Move):  # active, or invalid: fails
            return 0 if self.decided.succeeds(province) else 1
        return 1 + self.given(turn.hold_supporters(province))

    def attack(self, mover: Key) -> int:
        """ATTACK STRENGTH: 0 without a path; into an empty province, or one whose unit
        leaves (its move succeeds, not head to head with this one), 1 plus every given
        support; else 0 against a unit of the mover's own power, and otherwise 1 plus the
        given supports of powers other than the attacked unit's."""
        turn, decided = self.turn, self.decided
        if not decided.path(mover):
            return 0
        q = turn.dest(mover)
        supporters = turn.move_supporters(mover)
        leaves = decided.succeeds(q) and decided.head_to_head(mover) != q
        if q not in turn.units or leaves:
            return 1 + self.given(supporters)
        if turn.units[q].power == turn.units[mover].power:
            return 0
        return 1 + self.given(supporters, turn.units[q].power)

    def defend(self, mover: Key) -> int:
        """DEFEND STRENGTH of a move in a head-to-head battle."""
        return 1 + self.given(self.turn.move_supporters(mover))

    def prevent(self, mover: Key) -> int:
        """PREVENT STRENGTH: nothing without a path, after losing a head-to-head battle, or
        (4.A.7, `never`) once dislodged by the unit from its destination."""
        turn, decided = self.turn, self.decided
        if not decided.path(mover):
            return 0
        opponent = decided.head_to_head(mover)
        if opponent is not None and decided.succeeds(opponent):
            return 0
        back = turn.coming_back(mover)
        never = turn.rules.dislodged_prevent is DislodgedPrevent.NEVER
        if never and back is not None and decided.succeeds(back) and decided.dislodged(mover):
            return 0
        return 1 + self.given(turn.move_supporters(mover))

    def cut_by(self, mover: Key, supporter: Key) -> bool:
        """Does this attack (with a path) cut the support?  Not by the supporter's own
        power, nor from where the support is aimed, nor when the edition's clause shields
        the support (4.A.2)."""
        turn = self.turn
        if turn.units[mover].power == turn.units[supporter].power:
            return False
        if turn.origin(mover) == turn.aim(supporter):
            return False
        return not self.shielded(mover, supporter)

    def shielded(self, mover: Key, supporter: Key) -> bool:
        """4.A.2: the edition's paradox clause keeps the convoyed army from cutting the
        support, or from dislodging its way through it."""
        turn = self.turn
        if not turn.convoyed(mover):
            return False
        support = turn.supports[supporter]
        into = support.dest if isinstance(support.order, SupportMove) else None
        by_fleet = turn.units[supporter].type is UnitType.FLEET
        rule = turn.rules.convoy_cut
        if rule is ConvoyCut.RULE_1971:  # a fleet's support of a fleet against a convoyer
            supported = support.target
            fleet_supported = supported is not None and turn.units[supported].type is UnitType.FLEET
            return by_fleet and fleet_supported and into in turn.convoy_fleets(mover)
        if rule is ConvoyCut.RULE_1982:  # a fleet's support of an action in a convoying sea
            return by_fleet and turn.aim(supporter) in turn.convoys
        if rule is ConvoyCut.RULE_2000:  # a support against a fleet the convoy needs
            return into in turn.necessary_fleets(mover)
        return False

    def convoy_chain(self, mover: Key) -> bool:
        """PATH (and SEA): a route all of whose convoys are available (4.A.1: in 1971,
        every fleet on every route must be)."""
        turn = self.turn
        if turn.rules.multi_route is MultiRoute.ANY_ROUTE:
            fleets = turn.convoy_fleets(mover)
            return bool(fleets) and all(self.decided(CONVOY, f) for f in fleets)
        available = frozenset(f for f in turn.convoyers(mover) if self.decided(CONVOY, f))
        return turn.seas.chain_exists(mover, turn.dest(mover), available)


class EquationCheck:
    """Each equation of chapter 5, verified against the claimed decisions."""

    def __init__(self, claim: Claim, turn: TurnReading, decided: ClaimedDecisions) -> None:
        self.claim = claim
        self.turn = turn
        self.decided = decided
        self.strength = Strengths(turn, decided)
        self.overruled = overruled(claim)
        self.found: list[str] = []

    def problems(self) -> list[str]:
        self.move_equations()
        self.support_and_convoy_equations()
        self.dislodged_equations()
        self.board_problems()
        return self.found

    def verify(self, kind: DecisionKind, province: Key, expected: bool, detail: str) -> None:
        """The claimed value of a decision is what its equation gives, unless a backup rule
        overrules the equation (`solver.checker.backup` checks the rule) or it is kept
        from history."""
        key: Decision = (kind, province)
        if key in self.claim.recorded or key in self.overruled:
            return
        actual = self.decided(kind, province)
        if actual != expected:
            self.found.append(
                f"{kind.upper()} equation broken for {self.turn.label(key)}: recorded {actual}, "
                f"the equation gives {expected} ({detail})"
            )

    def move_equations(self) -> None:
        """MOVE: the attack beats the resistance at the destination and every rival's
        PREVENT; PATH or SEA.  The resistance is the opponent's DEFEND head to head, else
        the HOLD there; when the opponent is not at the destination (4.A.4, Brannan: a
        convoyed army whose attack comes from the fleet there), it is the greater of the
        opponent's DEFEND and that fleet's HOLD."""
        turn, strength = self.turn, self.strength
        for p in sorted(turn.moves):
            q = turn.dest(p)
            attack = strength.attack(p)
            opponent = self.decided.head_to_head(p)
            if opponent is not None:
                resist, what = strength.defend(opponent), "defend"
            else:
                resist, what = strength.hold(q), "hold"
            if opponent not in (None, q):  # 4.A.4: a convoyed opponent; a unit holds here too
                resist = max(resist, strength.hold(q))
            rivals = sorted(strength.prevent(r) for r in turn.into(q) if r != p)
            ok = attack > resist and all(attack > v for v in rivals)
            self.verify(MOVE, p, ok, f"attack {attack}, {what} {resist}, prevent {rivals}")
            if turn.convoyed(p):
                self.verify(PATH, p, strength.convoy_chain(p), "chain of available convoys")
            elif turn.fallback(p):
                self.verify(SEA, p, strength.convoy_chain(p), "chain of available convoys")

    def support_and_convoy_equations(self) -> None:
        """SUPPORT: given unless cut or dislodged (save as 4.A.2 shields it); CONVOY:
        available unless the fleet is dislodged."""
        turn, decided, strength = self.turn, self.decided, self.strength
        for s in sorted(turn.supports):
            attackers = turn.into(s)
            cutters = [m for m in attackers if decided.path(m) and strength.cut_by(m, s)]
            dislodgers = [
                m for m in attackers if decided.succeeds(m) and not strength.shielded(m, s)
            ]
            given = not cutters and not dislodgers
            self.verify(SUPPORT, s, given, f"cut by {cutters}, dislodged by {dislodgers}")
        for f in sorted(turn.convoys):
            self.verify(CONVOY, f, not decided.dislodged(f), f"dislodged {decided.dislodged(f)}")

    def dislodged_equations(self) -> None:
        """DISLODGED: the unit does not leave and another unit moves in."""
        turn, decided = self.turn, self.decided
        for p in sorted(turn.units):
            entering = [m for m in turn.into(p) if decided.succeeds(m)]
            expected = not decided.succeeds(p) and bool(entering)
            detail = f"moves in {entering}, own move succeeds {decided.succeeds(p)}"
            self.verify(DISLODGED, p, expected, detail)

    def board_problems(self) -> None:
        """No two units enter one province, empty or not.  (No army goes to sea: the
        reading makes such a move illegal, `reading.Bar.ARMY_AT_SEA`.)"""
        turn, decided = self.turn, self.decided
        for q in sorted({turn.dest(p) for p in turn.moves}):
            entering = [m for m in turn.into(q) if decided.succeeds(m)]
            if len(entering) > 1:
                self.found.append(f"two units enter {turn.name(q)}: {entering}")
