"""An independent checker of DATC chapter 5, written without the solver or the model.

Given a resolution, it recomputes every strength from the recorded decisions and verifies
each equation: MOVE, SUPPORT, CONVOY, PATH and DISLODGED.  A decision set by the backup
rule is exempt from its own equation but must follow the rule.  It shares only the legality
pre-check with the adjudicator; the equations, head-to-head detection, support matching and
convoy chains are derived here afresh.
"""

from __future__ import annotations

from collections import deque

from topology import Kind, UnitType

from ..judge.legality import Checked, Status
from ..judge.routes import minimal_routes
from ..values.orders import Convoy, Move, SupportHold, SupportMove
from ..values.resolution import Resolution
from ..values.rules import ConvoyCut, DislodgedPrevent, MultiRoute

_RULE_VALUE = {
    "szykman": False,
    "circular movement": True,
    "all fail": False,
    "all hold": False,
    "unresolved": False,
}


def check_resolution(resolution: Resolution) -> list[str]:
    """Every equation the resolution breaks, named; an empty list when it satisfies them all."""
    board = resolution.turn.board
    rules = resolution.turn.rules
    values = resolution.values
    forced = resolution.forced
    orders: dict[str, Checked] = {u.province: c for u, c in resolution.turn.orders if c}
    units = {u.province: u for u, _ in resolution.turn.orders}
    active = {p: c for p, c in orders.items() if c.status is Status.ACTIVE}
    moves = {p: c for p, c in active.items() if isinstance(c.order, Move)}
    problems: list[str] = []

    def decided(kind: str, p: str) -> bool:
        return values.get((kind, p), False)

    def path(p: str) -> bool:
        return decided("path", p) if moves[p].by_convoy else moves[p].reachable

    def by_sea(p: str) -> bool:
        """1971: an army that may swap by convoy goes by sea when its convoy works."""
        return moves[p].fallback and bool(routes_of(p)) and decided("sea", p)

    def succeeds(p: str) -> bool:
        return p in moves and decided("move", p)

    def dislodged(p: str) -> bool:
        return decided("dislodged", p)

    def into(q: str) -> list[str]:
        return sorted(p for p, c in moves.items() if c.dest.province == q)

    def supports_of_move(p: str) -> list[str]:
        return [s for s, c in active.items() if isinstance(c.order, SupportMove) and c.target == p]

    def given_count(supporters: list[str], not_power: str | None = None) -> int:
        return sum(
            1
            for s in supporters
            if decided("support", s) and (not_power is None or units[s].power != not_power)
        )

    def convoyers(p: str) -> set[str]:
        return {
            f
            for f, c in active.items()
            if isinstance(c.order, Convoy)
            and c.target == p
            and c.dest.province == moves[p].dest.province
        }

    def routes_of(p: str) -> list[tuple[str, ...]]:
        return list(minimal_routes(board, p, moves[p].dest.province, frozenset(convoyers(p))))

    def routes(p: str) -> list[tuple[str, ...]]:
        return routes_of(p) if moves[p].by_convoy else []

    def origin(p: str) -> str:
        """Where the attack comes from: 4.A.4 (Brannan) makes it the last fleet."""
        lasts = {r[-1] for r in routes(p)}
        return lasts.pop() if rules.brannan and len(lasts) == 1 else p

    def head_to_head(p: str) -> str | None:
        for q, other in moves.items():
            if q == p or moves[p].dest.province != origin(q) or other.dest.province != origin(p):
                continue
            brannan_pair = origin(p) != p or origin(q) != q
            if brannan_pair or not (moves[p].by_convoy or other.by_convoy):
                return None if by_sea(p) or by_sea(q) else q
        return None

    def comes_back(p: str) -> str | None:
        """4.A.7 (a): the unit at the destination moving to p's province, by any route."""
        q = moves[p].dest.province
        return q if q in moves and moves[q].dest.province == p else None

    def cut_by(m: str, s: str, aim: str) -> bool:
        if units[m].power == units[s].power or origin(m) == aim:
            return False
        return not shielded(m, s, aim)

    def shielded(m: str, s: str, aim: str) -> bool:
        """The edition's paradox clause keeps the convoyed army from m from cutting."""
        if not moves[m].by_convoy:
            return False
        order = active[s]
        into = order.dest.province if isinstance(order.order, SupportMove) else None
        fleets = {f for r in routes(m) for f in r}
        needed = set.intersection(*(set(r) for r in routes(m))) if routes(m) else set()
        fleet_supports = units[s].type is UnitType.FLEET
        fleet_supported = units[order.target].type is UnitType.FLEET
        convoying_seas = {f for f, c in active.items() if isinstance(c.order, Convoy)}
        return {
            ConvoyCut.RULE_1971: fleet_supports and fleet_supported and into in fleets,
            ConvoyCut.RULE_1982: fleet_supports and aim in convoying_seas,
            ConvoyCut.RULE_2000: into in needed,
        }.get(rules.convoy_cut, False)

    def hold(q: str) -> int:
        if q not in units:
            return 0
        checked = orders.get(q)
        if (
            checked is not None
            and isinstance(checked.order, Move)
            and (checked.status is not Status.ILLEGAL)
        ):
            return 0 if succeeds(q) else 1
        hold_supporters = [
            s for s, c in active.items() if isinstance(c.order, SupportHold) and c.target == q
        ]
        return 1 + given_count(hold_supporters)

    def attack(p: str) -> int:
        if not path(p):
            return 0
        q = moves[p].dest.province
        supporters = supports_of_move(p)
        if q not in units or (succeeds(q) and head_to_head(p) != q):
            return 1 + given_count(supporters)
        if units[q].power == units[p].power:
            return 0
        return 1 + given_count(supporters, units[q].power)

    def prevent(p: str) -> int:
        if not path(p):
            return 0
        opponent = head_to_head(p)
        if opponent is not None and succeeds(opponent):
            return 0
        back = comes_back(p)
        never = rules.dislodged_prevent is DislodgedPrevent.NEVER
        if never and back is not None and succeeds(back) and dislodged(p):
            return 0
        return 1 + given_count(supports_of_move(p))

    def convoy_chain(p: str) -> bool:
        if rules.multi_route is MultiRoute.ANY_ROUTE:  # 4.A.1 (1971): every fleet on a route
            fleets_on_routes = {f for r in routes_of(p) for f in r}
            return bool(fleets_on_routes) and all(decided("convoy", f) for f in fleets_on_routes)
        move = moves[p]
        fleets = {
            f
            for f, c in active.items()
            if isinstance(c.order, Convoy)
            and c.target == p
            and c.dest.province == move.dest.province
            and decided("convoy", f)
        }
        border = board.neighbours
        seen = {f for f in fleets if p in border(f)}
        queue = deque(seen)
        while queue:
            sea = queue.popleft()
            if move.dest.province in border(sea):
                return True
            for nxt in border(sea):
                if nxt in fleets and nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return False

    def verify(kind: str, p: str, expected: bool, detail: str) -> None:
        actual = decided(kind, p)
        key = (kind, p)
        label = f"{kind}[{orders[p].order if p in orders else units[p]}]"
        if key in resolution.recorded:
            return  # kept from the recorded history of a past board
        if key in forced:
            rule = next((c.rule for c in resolution.cores if key in c.decisions), None)
            if rule is None or _RULE_VALUE.get(rule) != forced[key] or actual != forced[key]:
                problems.append(f"{label} was set by a backup rule it does not follow")
            return
        if actual != expected:
            problems.append(
                f"{kind.upper()} equation broken for {label}: recorded {actual}, "
                f"the equation gives {expected} ({detail})"
            )

    for p in sorted(moves):
        a = attack(p)
        opponent = head_to_head(p)
        q = moves[p].dest.province
        if opponent is not None:
            resist, what = 1 + given_count(supports_of_move(opponent)), "defend"
        else:
            resist, what = hold(q), "hold"
        if opponent not in (None, q):  # 4.A.4: the opponent came by convoy; a unit holds here
            resist = max(resist, hold(q))
        rivals = {r: prevent(r) for r in into(q) if r != p}
        ok = a > resist and all(a > v for v in rivals.values())
        verify("move", p, ok, f"attack {a}, {what} {resist}, prevent {sorted(rivals.values())}")
        if moves[p].by_convoy:
            verify("path", p, convoy_chain(p), "chain of available convoys")
        elif moves[p].fallback and routes_of(p):
            verify("sea", p, convoy_chain(p), "chain of available convoys")
    for s, c in sorted(active.items()):
        if isinstance(c.order, SupportHold | SupportMove):
            aim = c.dest.province if isinstance(c.order, SupportMove) else c.target
            cutters = [m for m in into(s) if path(m) and cut_by(m, s, aim)]
            dislodgers = [m for m in into(s) if succeeds(m) and not shielded(m, s, aim)]
            verify(
                "support",
                s,
                not cutters and not dislodgers,
                f"cut by {cutters}, dislodged by {dislodgers}",
            )
        if isinstance(c.order, Convoy):
            verify("convoy", s, not dislodged(s), f"dislodged {dislodged(s)}")
    for p in sorted(units):
        entering = [m for m in into(p) if succeeds(m)]
        expected = not succeeds(p) and bool(entering)
        if expected != dislodged(p) and ("dislodged", p) not in resolution.recorded:
            problems.append(
                f"DISLODGED equation broken for {units[p]}: recorded {dislodged(p)}, "
                f"moves in {entering}, own move succeeds {succeeds(p)}"
            )
        if len(entering) > 1:
            problems.append(f"two units enter {board.province(p).name}: {entering}")
    for q in {c.dest.province for c in moves.values()} - set(units):
        if len([m for m in into(q) if succeeds(m)]) > 1:
            problems.append(f"two units enter {board.province(q).name}")
    if any(
        board.province(c.dest.province).kind is Kind.SEA and units[p].type.value == "A"
        for p, c in moves.items()
    ):
        problems.append("an army moves to sea")
    return problems
