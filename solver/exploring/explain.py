"""What `dipsat adjudicate` shows: every phase of a case with its outcomes and reasons, and
for a multiverse every step and then the boards one by one.  Plain data, for text or JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from topology import Location

from ..cycle.game import Game, OneBoard, Played
from ..errors import DipsatError, SolverTimeout
from ..formats.cases import Case
from ..multiverse.state import Multiverse, MultiverseStep
from ..values.calendar import game_status, owned_centres
from ..values.orders import timeline_name
from ..values.outcomes import Outcome
from ..values.position import Position
from ..values.resolution import Resolution
from ..values.rules import RuleBook
from .conformance import play_block


def _orders(
    outcomes: tuple[Outcome, ...], expected: Sequence[str | None] = ()
) -> list[dict[str, Any]]:
    """Each outcome, with what the case expects of it where it says (None: nothing)."""
    wanted = list(expected) + [None] * (len(outcomes) - len(expected))
    return [
        {
            "order": str(o.given),
            "result": o.label,
            "reason": str(o.reason) if o.reason else None,
            "expected": w,
        }
        for o, w in zip(outcomes, wanted, strict=True)
    ]


def _movement(resolution: Resolution) -> dict[str, Any]:
    board = resolution.position.board
    return {
        "dislodged": [
            {
                "unit": r.unit.text(board),
                "power": r.unit.power,
                "from": board.location_name(Location(r.attacker_from)),
                "by_convoy": r.by_convoy,
                "retreats": [board.location_name(x) for x in r.options],
            }
            for r in resolution.dislodged
        ],
        "paradoxes": [
            {"rule": c.rule, "solutions": c.solutions, "core": list(c.labels)}
            for c in resolution.cores
        ],
    }


def _units(position: Position) -> list[str]:
    return [f"{u.power}: {position.name(u)}" for u in position.units]


def explain(case: Case, rules: RuleBook) -> dict[str, Any]:
    """Adjudicate a case and describe every phase (or every step of a multiverse), then
    the game it came to."""
    game = case.game()
    entries = []
    for number, block in enumerate(case.blocks, start=1):
        try:
            done = play_block(game, block, rules)
        except DipsatError as error:
            raise DipsatError(f"{case.id}: block {number}: {error}") from error
        except SolverTimeout as error:
            raise SolverTimeout(f"{case.id}: block {number}: {error}") from error
        entry = _entry(game, done, number)
        expected = [o.expected_under(rules.name) for o in block.orders]
        entry["orders"] = _orders(done.outcomes, expected)
        entries.append(entry)
        game = done.after
    stated = [o for e in entries for o in e["orders"] if o["expected"] is not None]
    met = sum(o["expected"] == o["result"] for o in stated)
    head = {
        "case": case.id,
        "title": case.title,
        "expectations": {"stated": len(stated), "met": met},
    }
    if isinstance(game, Multiverse):
        return {**head, "steps": entries, "boards": _boards(game)}
    assert isinstance(game, OneBoard)
    position = game.position
    status = game_status(position)
    won = {} if status.solo is None else {"solo_centres": len(owned_centres(position, status.solo))}
    start = case.position  # a power the case never gave a unit or a centre was not playing
    playing = {u.power for u in start.units} | {owner for _, owner in start.centres}
    return {
        **head,
        "phases": entries,
        "next_phase": str(position.phase),
        "units_after": _units(position),
        "solo": status.solo,
        **won,
        "eliminated": [p for p in status.eliminated if p in playing],
    }


def _entry(game: Game, done: Played, number: int) -> dict[str, Any]:
    """One phase or step: its orders with their outcomes, and what else it came to."""
    moved = done.movement
    if isinstance(done, MultiverseStep):
        entry: dict[str, Any] = {
            "orders": _orders(done.outcomes),
            "revised": _orders(done.revised),
            "forks": [
                {
                    "timeline": timeline_name(f.timeline),
                    "from": f"{timeline_name(f.source[0])}@{f.source[1]}",
                }
                for f in done.forks
            ],
        }
        if moved is not None:
            entry["paradoxes"] = _movement(moved)["paradoxes"]
        return entry
    entry = {"phase": done.label(number), "orders": _orders(done.outcomes)}
    if moved is not None:
        entry.update(_movement(moved))
    if done.civil_disorder is not None:
        entry["civil_disorder"] = [f"{u.power}: {u.text(game.names)}" for u in done.civil_disorder]
    return entry


def _boards(mv: Multiverse) -> list[dict[str, Any]]:
    heads = {b.key for b in mv.heads().values()}
    return [
        {
            "board": b.name,
            "head": b.key in heads,
            "phase": str(b.position.phase),
            "units": _units(b.position),
            "retreating": [
                f"{d.unit.power}: {b.position.name(d.unit)}" for d in b.position.dislodged
            ],
        }
        for b in mv.boards
    ]


def render(data: dict[str, Any]) -> list[str]:
    """The report as lines of rich markup."""
    lines = [f"[bold]{data['case']}[/] {data['title']}"]

    def orders(entries: list[dict[str, Any]], indent: str = "  ") -> None:
        for o in entries:
            reason = f"  [dim]({o['reason']})[/]" if o["reason"] else ""
            wanted = o.get("expected")
            missed = f"  [red]expected {wanted}[/]" if wanted and wanted != o["result"] else ""
            lines.append(f"{indent}{o['order']}  [cyan]{o['result']}[/]{reason}{missed}")

    for phase in data.get("phases", []):
        lines.append(f" {phase['phase']}")
        orders(phase["orders"])
        for d in phase.get("dislodged", []):
            options = ", ".join(d["retreats"]) or "none: destroyed"
            lines.append(
                f"  dislodged: {d['power']} {d['unit']} (attacked from {d['from']}); "
                f"retreats: {options}"
            )
        for p in phase.get("paradoxes", []):
            lines.append(
                f"  core ({p['rule']}, {p['solutions']} solutions): " + "; ".join(p["core"])
            )
        if phase.get("civil_disorder"):
            lines.append("  civil disorder removes: " + ", ".join(phase["civil_disorder"]))
    if "units_after" in data:
        units = ", ".join(data["units_after"]) or "no units"
        lines.append(f" then {data['next_phase']}: {units}")
        if data["solo"]:
            lines.append(f" [bold]{data['solo']} has won with {data['solo_centres']} centres[/]")
        if data["eliminated"]:
            lines.append(" eliminated: " + ", ".join(data["eliminated"]))
    for number, entry in enumerate(data.get("steps", []), start=1):
        lines.append(f" step {number}")
        orders(entry["orders"])
        if entry["revised"]:
            lines.append("  adjudicated again:")
            orders(entry["revised"], "    ")
        for f in entry["forks"]:
            lines.append(f"  [magenta]timeline {f['timeline']} forks from {f['from']}[/]")
        for p in entry.get("paradoxes", []):
            lines.append(
                f"  core ({p['rule']}, {p['solutions']} solutions): " + "; ".join(p["core"])
            )
    if "boards" in data:
        lines.append(" multiverse:")
        for b in data["boards"]:
            head = " [bold](head)[/]" if b["head"] else ""
            units = ", ".join(b["units"]) or "no units"
            lines.append(f"  {b['board']}{head} {b['phase']}: {units}")
            if b["retreating"]:
                lines.append(f"    retreating: {', '.join(b['retreating'])}")
    counts = data["expectations"]
    if counts["stated"] == counts["met"]:
        lines.append(f" [green]the {counts['stated']} expected outcome(s) all came out[/]")
    else:
        missed = counts["stated"] - counts["met"]
        lines.append(
            f" [red]{missed} of {counts['stated']} expected outcome(s) came out otherwise[/]"
        )
    return lines
