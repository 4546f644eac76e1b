"""Shrinking a disagreement to a minimal case, and writing it in the case format."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from ..judge.movement import adjudicate
from ..values.orders import Given, order_text
from ..values.position import Position
from ..values.rules import DATC_2025, RuleBook, is_edition

Disagrees = Callable[[Position, Sequence[Given]], bool]


def _referenced(orders: Sequence[Given]) -> set[str]:
    found = set()
    for given in orders:
        order = given.order
        for name in ("unit", "supported", "army"):
            if hasattr(order, name):
                found.add(getattr(order, name).place.province)
        if hasattr(order, "dest"):
            found.add(order.dest.province)
    return found


def shrink(
    position: Position, orders: Sequence[Given], disagrees: Disagrees, budget: int = 400
) -> tuple[Position, list[Given]]:
    """Drop orders, then units, one at a time while the disagreement persists."""
    orders = list(orders)
    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        for i in reversed(range(len(orders))):
            trial = orders[:i] + orders[i + 1 :]
            tries += 1
            if disagrees(position, trial):
                orders = trial
                changed = True
        needed = _referenced(orders)
        for unit in sorted(position.units, reverse=True):
            if unit.province in needed:
                continue
            smaller = replace(position, units=tuple(u for u in position.units if u != unit))
            tries += 1
            if disagrees(smaller, orders):
                position = smaller
                changed = True
    return position, orders


def case_text(
    case_id: str,
    title: str,
    position: Position,
    orders: Sequence[Given],
    theirs: str,
    found: Mapping[str, tuple[object, object]],
    rules: RuleBook = DATC_2025,
) -> str:
    """A case file: the position as set-up lines, the orders with dipsat's outcomes under
    `rules` (named in the case unless 2025), and what the other engine said, as comments."""
    resolution = adjudicate(position, orders, rules)
    lines = [f"case {case_id}: {title}"]
    if position.map.name != "standard":
        lines.append(f"variant: {position.map.name}")
    if rules.name != "2025":  # a rule book of a file is named in a comment only
        lines.append(f"rules: {rules.name}" if is_edition(rules) else f"# rules: {rules.name}")
    lines.append(f"# dipsat and {theirs} disagree; what differs (dipsat, {theirs}):")
    lines += [f"#   {key}: {a} / {b}" for key, (a, b) in found.items()]
    for unit in position.units:
        lines.append(f"{unit.power} owns {position.name(unit)}")
    by_power: dict[str, list[str]] = {}
    for outcome in resolution.outcomes:
        power = outcome.given.power
        assert power is not None  # generated and recorded orders come with their power
        text = order_text(outcome.given.order, position.map)
        by_power.setdefault(power, []).append(f"{text} => {outcome.label}")
    for power, texts in sorted(by_power.items()):
        lines += ["", f"{power}:", *texts]
    return "\n".join(lines) + "\n"
