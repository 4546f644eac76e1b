"""dipsat against MILA and pydip, on the same inputs, in one run.

    python -m benchmarks.run [--turns 2000] [--out docs/performance.md]

Each engine's section runs in a fresh process of its own (so peak memory is its own); the
engines' core calls are timed on prepared inputs: dipsat `adjudicate(position, orders)`
(legality, model, solve, outcomes), MILA `Game.process()` on a prepared game, pydip
`resolve_turn` on prepared commands.  Inputs: seeded random 34-unit movement turns, the
movement phases of every DATC case, the movement phases of the real games, and multiverse
steps with 1 to 64 timelines of 34 units each.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.values.orders import Given
    from solver.values.position import Position

    Turn = tuple[Position, list[Given]]

Call = Callable[[], object]
Row = dict[str, Any]

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "data" / "games"


# -- inputs -------------------------------------------------------------------------------------
def random_inputs(count: int) -> list[Turn]:
    from solver.tools.crosscheck.generate import random_turn

    return [random_turn(f"bench-{i}", units=(34, 34)) for i in range(count)]


def datc_inputs() -> list[Turn]:
    from solver.formats.cases import case_files, read_cases

    turns: list[Turn] = []
    for path in case_files([ROOT / "cases" / "datc"]):
        for case in read_cases(path):
            if case.movement is not None and case.position.phase.kind.value == "movement":
                turns.append((case.position, [o.given for o in case.movement.orders]))
    return turns


def game_inputs() -> list[Turn]:
    from solver.formats.mila import read_game

    turns: list[Turn] = []
    for path in sorted(GAMES.glob("*.json")):
        for phase in read_game(path).phases:
            if phase.phase is not None and phase.phase.kind.value == "movement":
                turns.append((phase.position(), list(phase.orders)))
    return turns


# -- engines ------------------------------------------------------------------------------------
def prepare(engine: str, turns: Sequence[Turn]) -> list[Call | None]:
    """Per turn, a callable that runs the engine's core adjudication (None: not expressible)."""
    from solver.tools.crosscheck.protocol import request

    prepared: list[Call | None] = []
    if engine.startswith("dipsat"):
        from solver.judge.movement import adjudicate
        from solver.judge.solve import SolverConfig

        # "dipsat-solver": the unoptimised path, every turn through CP-SAT
        config = SolverConfig(propagate=engine == "dipsat")
        return [functools.partial(adjudicate, p, o, config=config) for p, o in turns]
    from solver.tools.adapters import mila as adapter

    for i, (position, orders) in enumerate(turns):
        try:
            checked = adapter.check_request(request(str(i), position, orders))
            prepared.append(_mila(checked) if engine == "mila" else _pydip(checked))
        except Exception:  # an order the engine cannot express
            prepared.append(None)
    return prepared


def _mila(checked: Any) -> Call:
    from solver.tools.adapters.mila import ordered_game

    process: Call = ordered_game(checked).process
    return process


def _pydip(checked: Any) -> Call:
    from pydip.player.command.command import HoldCommand
    from pydip.turn import resolve as pydip_resolve

    from solver.tools.adapters.pydip import _Turn

    turn = _Turn(checked)
    commands = [turn.movement_command(power, order) for power, order in checked.orders]
    ordered = {c.unit.position for c in commands}
    for player in turn.players.values():
        commands.extend(HoldCommand(player, u) for u in player.units if u.position not in ordered)
    return lambda: pydip_resolve.resolve_turn(turn.map, commands)


def timed(calls: Sequence[Call | None]) -> list[float]:
    times = []
    for call in calls:
        if call is None:
            continue
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


# -- sections (each run in its own process) -----------------------------------------------------
def section(engine: str, name: str, turns: int) -> Row:
    read: dict[str, Callable[[], list[Turn]]] = {
        "random": lambda: random_inputs(turns),
        "datc": datc_inputs,
        "games": game_inputs,
    }
    inputs = read[name]()
    calls = prepare(engine, inputs)
    warm = [c for c in calls if c is not None][:20]
    timed(warm)  # warm-up: imports, first solve
    if engine == "mila":  # a prepared MILA game is used up by process(): prepare it again
        calls = prepare(engine, inputs)
    times = timed(calls)
    propagated = _propagated(inputs) if engine == "dipsat" else None
    return {
        "propagated": propagated,
        "engine": engine,
        "section": name,
        "turns": len(times),
        "skipped": len(inputs) - len(times),
        "median_ms": statistics.median(times) * 1000,
        "p90_ms": sorted(times)[int(0.9 * len(times))] * 1000,
        "total_s": sum(times),
        "per_second": len(times) / sum(times),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _propagated(inputs: Sequence[Turn]) -> int:
    """How many of the turns propagation settles on its own, without CP-SAT."""
    from solver.judge.movement import judge
    from solver.judge.propagate import propagate
    from solver.values.rules import DATC_2025

    count = 0
    for position, orders in inputs:
        structure = judge(position, orders, DATC_2025).structure
        count += len(propagate(structure, {})[0]) == len(structure.decisions)
    return count


REPEATS = 5


def multiverse_section(timelines: int) -> Row:
    """One multiverse step with the given number of timelines of 34 units each, against
    as many separate standard turns (each the best of REPEATS runs)."""
    from solver.judge.movement import adjudicate
    from solver.multiverse.state import MBoard, Multiverse
    from solver.multiverse.step import step
    from solver.tools.crosscheck.generate import random_turn
    from solver.values.orders import Given, apply_board_defaults
    from solver.values.rules import RULE_BOOKS

    boards, orders, singles = [MBoard(0, 0, random_turn("mv-root", (34, 34))[0])], [], []
    for t in range(timelines):
        position, given = random_turn(f"mv-{timelines}-{t}", units=(34, 34))
        boards.append(MBoard(t, 1, position))
        orders += [Given(g.power, apply_board_defaults(g.order, t, 1)) for g in given]
        singles.append((position, given))
    origins = tuple((t, None if t == 0 else (0, 0)) for t in range(timelines))
    mv = Multiverse(tuple(sorted(boards, key=lambda b: b.key)), origins)
    step(Multiverse.start(singles[0][0]), singles[0][1])  # warm-up
    joint = separate = under_o = float("inf")
    for _ in range(REPEATS):  # the best of a few: one step is a fraction of a second
        start = time.perf_counter()
        step(mv, orders)
        joint = min(joint, time.perf_counter() - start)
        start = time.perf_counter()
        step(mv, orders, RULE_BOOKS["O"])  # Oliveriver's rule set: history rewritten
        under_o = min(under_o, time.perf_counter() - start)
        start = time.perf_counter()
        for position, given in singles:
            adjudicate(position, given)
        separate = min(separate, time.perf_counter() - start)
    return {
        "timelines": timelines,
        "step_s": joint,
        "step_o_s": under_o,
        "separate_s": separate,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def stages_section(turns: int, passes: int = 3) -> Row:
    """Microseconds per random 34-unit turn in each stage of dipsat's adjudication (the
    mean: the solver's share is nothing in most turns), and how many turns the solver saw.
    Each stage's figure is the best of a few passes over the same turns, made anew for each
    (nothing a pass keeps with a position helps the next): other work on the machine only
    ever slows a pass down.  The cyclic garbage collector is paused during a pass: its
    sweeps over the turns held in memory would land in whichever stage set them off."""
    best = dict.fromkeys(STAGES, float("inf"))
    solved = 0
    for _ in range(passes):
        totals, solved = _stages_pass(random_inputs(turns))
        best = {stage: min(best[stage], seconds) for stage, seconds in totals.items()}
    from solver.compiled import compiled_modules

    return {
        "turns": turns,
        "passes": passes,
        "solved": solved,
        "compiled": list(compiled_modules()),
        "us": {stage: seconds / turns * 1e6 for stage, seconds in best.items()},
    }


def _stages_pass(inputs: Sequence[Turn]) -> tuple[dict[str, float], int]:
    """Seconds spent in each stage over the turns, and how many turns the solver saw."""
    from solver.judge.fallback import settle
    from solver.judge.legality import analyse
    from solver.judge.propagate import propagate
    from solver.judge.resolution import resolve
    from solver.judge.structure import Structure
    from solver.values.calendar import after_movement
    from solver.values.rules import DATC_2025

    totals = dict.fromkeys(STAGES, 0.0)
    solved = 0
    clock = time.perf_counter
    warm = inputs[:20]  # a warm-up: imports, the first solve
    gc.collect()
    gc.disable()
    for i, (position, orders) in enumerate([*warm, *inputs]):
        t0 = clock()
        turn = analyse(position, orders, DATC_2025)
        t1 = clock()
        structure = Structure.of(turn)
        t2 = clock()
        known, _ = propagate(structure, {})
        t3 = clock()
        # settle propagates again, then solves what is left: on a structure of its own (not
        # timed), so that its propagation runs as cold as the one above
        fresh = Structure.of(turn)
        t3_fresh = clock()
        settlement = settle(fresh)
        t4 = clock()
        resolve(turn, fresh, settlement, after_movement)
        t5 = clock()
        if i < len(warm):
            continue
        spent = (t1 - t0, t2 - t1, t3 - t2, max(0.0, (t4 - t3_fresh) - (t3 - t2)), t5 - t4)
        for stage, seconds in zip(STAGES, spent, strict=True):
            totals[stage] += seconds
        solved += len(known) < len(structure.decisions)
    gc.enable()
    return totals, solved


STAGES = ("judging the orders", "structure", "propagation", "solver (cores)", "outcomes")
"""The stages of a movement turn: legality, the static structure, propagation of the
equations, CP-SAT on the cores propagation leaves, the outcomes and next position."""


def growth_section(board: str, units: int, turns: int) -> Row:
    """Median milliseconds per random movement turn with `units` units on a board."""
    from solver.judge.movement import adjudicate
    from solver.tools.crosscheck.generate import random_turn
    from topology import variant

    on = variant(board)
    inputs = [random_turn(f"grow-{board}-{units}-{i}", (units, units), on) for i in range(turns)]
    for position, orders in inputs[:5]:
        adjudicate(position, orders)
    times = timed([functools.partial(adjudicate, p, o) for p, o in inputs])
    return {"board": board, "units": units, "median_ms": statistics.median(times) * 1000}


def batch_section(turns: int) -> Row:
    """`solver.adjudicate_many` on random 34-unit turns, on one core: turns per second."""
    import solver

    inputs = random_inputs(turns)
    solver.adjudicate_many(inputs[:20])  # warm-up
    start = time.perf_counter()
    solver.adjudicate_many(inputs)
    seconds = time.perf_counter() - start
    return {"turns": len(inputs), "per_second": len(inputs) / seconds}


def replay_section(games: int, workers: int) -> Row:
    """`dipsat replay` of `games` game files (copies of the shipped ones) with `workers`
    processes: seconds, end to end in this process (reading, adjudicating, comparing)."""
    import shutil
    import tempfile

    from solver.tools.replay import replay
    from solver.values.rules import RULE_BOOKS

    sources = sorted(GAMES.glob("*.json")) + sorted((GAMES / "mila").glob("*.json"))
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for i in range(games):
            source = sources[i % len(sources)]
            files.append(Path(folder) / f"{source.stem}-{i}.json")
            shutil.copyfile(source, files[-1])
        start = time.perf_counter()
        report = replay(files, RULE_BOOKS["mila"], workers=workers)
        seconds = time.perf_counter() - start
    return {
        "games": games,
        "workers": workers,
        "seconds": seconds,
        "transitions": report.transitions,
    }


SOLVED = (
    ("6.F.17", "A Brest - London => succeeds"),
    ("6.F.18", "paradox => unresolved"),
    ("6.F.19", "F Rome - Tyrrhenian Sea => succeeds"),
    ("6.G.8", "A Belgium - Holland via convoy => succeeds"),
)
"""The `rulebooks solve` questions timed (DATC chapter 4's own examples)."""


def rulesearch_section(limit: int | None = None) -> Row:
    """The searches over rule books: `influence` over the DATC cases, `solve` on four of
    them, `fit` on the shipped webDiplomacy and MILA games (the first `limit` of each), and
    the blind enumeration the search replaces, timed on one case."""
    import math

    from solver.formats.cases import case_files, read_cases
    from solver.tools.compare import case_outcomes
    from solver.tools.rulesearch.fit import fit
    from solver.tools.rulesearch.influence import influence
    from solver.tools.rulesearch.solve import solve
    from solver.tools.rulesearch.tracing import blindly, branches, options
    from solver.values.rules import BOARD_POLICIES, DATC_2025

    cases = [c for f in case_files([ROOT / "cases" / "datc"]) for c in read_cases(f)]
    by_id = {c.id: c for c in cases}
    cases = cases[:limit]
    start = time.perf_counter()
    runs = sum(influence(c, DATC_2025).runs for c in cases)
    influence_s = time.perf_counter() - start
    solved = []
    for case_id, expected in SOLVED:
        start = time.perf_counter()
        found = solve(by_id[case_id], [expected], DATC_2025)
        solved.append({"case": case_id, "runs": found.runs, "seconds": time.perf_counter() - start})
    fits = []
    for name, pattern in (("webdiplomacy", "game_*.json"), ("mila", "mila/standard-*.json")):
        games = sorted(GAMES.glob(pattern))[:limit]
        start = time.perf_counter()
        found_fit = fit(games, DATC_2025)
        fits.append(
            {
                "games": name,
                "files": found_fit.games,
                "transitions": found_fit.transitions,
                "runs": found_fit.runs,
                "seconds": time.perf_counter() - start,
            }
        )
    run = case_outcomes(by_id["6.F.17"])
    convoy = ["multi_route", "convoy_cut", "convoy_paradox", "convoy_to_adjacent"]
    convoy += ["via_fallback", "brannan"]
    start = time.perf_counter()
    blind = sum(1 for _ in blindly(run, DATC_2025, convoy))
    blind_s = time.perf_counter() - start
    start = time.perf_counter()
    searched = sum(1 for _ in branches(run, DATC_2025))
    searched_s = time.perf_counter() - start
    return {
        "cases": len(cases),
        "influence_runs": runs,
        "influence_s": influence_s,
        "solved": solved,
        "fits": fits,
        "blind_runs": blind,
        "blind_s": blind_s,
        "searched_runs": searched,
        "searched_s": searched_s,
        "standard_books": math.prod(len(options(p)) for p in BOARD_POLICIES),
        "standard_policies": len(BOARD_POLICIES),
    }


def throughput(engine: str, turns: int, workers: int) -> Row:
    """Turns per second with `workers` processes at once, each adjudicating its share of the
    random turns (inputs prepared before the clock starts; the slowest worker sets the pace)."""
    jobs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "benchmarks.run",
                "--part",
                engine,
                str(turns),
                str(workers),
                str(w),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
        )
        for w in range(workers)
    ]
    parts = [json.loads(j.communicate()[0]) for j in jobs]
    seconds = max(p["seconds"] for p in parts)
    return {
        "engine": engine,
        "workers": workers,
        "per_second": sum(p["turns"] for p in parts) / seconds,
    }


def part(engine: str, turns: int, workers: int, index: int) -> Row:
    inputs = random_inputs(turns)[index::workers]
    calls = [c for c in prepare(engine, inputs) if c is not None]
    timed(calls[:10])  # warm-up
    if engine == "mila":
        calls = [c for c in prepare(engine, inputs) if c is not None]
    time.sleep(max(0.0, 1.0 - time.monotonic() % 1.0))  # start together, roughly
    return {"turns": len(calls), "seconds": sum(timed(calls))}


def run_in_child(*args: str, tree: Path | None = None, pure: bool = False) -> Row:
    """Run a section in a process of its own; with `tree`, on the dipsat of that source
    tree (an earlier version), by this version's benchmark code; `pure`: with the judge
    read from its Python sources (DIPSAT_PURE=1), compiled or not."""
    shown = " ".join(args).lstrip("-") + (" (pure Python)" if pure else "")
    print(f"benchmarks: {shown}", file=sys.stderr, flush=True)
    path = [str(tree or ROOT), os.environ.get("PYTHONPATH", "")]
    env = {k: v for k, v in os.environ.items() if k != "DIPSAT_PURE"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in path if p)
    if pure:
        env["DIPSAT_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args],
        cwd=tree or ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"benchmarks: the section {' '.join(args)} failed:\n{out.stderr}")
    row: Row = json.loads(out.stdout)
    return row


# -- report -------------------------------------------------------------------------------------
GROWTH = {"standard": (8, 16, 34, 50, 70), "known_world_901": (8, 34, 64, 128, 200)}
"""Units per turn for the growth curves: the standard board, and the largest variant."""
TIMELINES = (1, 2, 4, 8, 16, 32, 64, 128, 256)


def alternate_stages(turns: int, passes: int, before: Path | None) -> list[Row]:
    """The stages of this version, compiled and from its Python sources, and of the one in
    the source tree `before` if given: a pass of each in turn (whatever else the machine
    does weighs on all alike); each stage's figure is its best pass."""
    variants: list[tuple[Path | None, bool]] = [(None, False), (None, True)]
    if before is not None:
        variants.append((before, False))
    runs: list[list[Row]] = [[] for _ in variants]
    for _ in range(passes):
        for (tree, pure), rows in zip(variants, runs, strict=True):
            args = ("--stages", str(turns), "--passes", "1")
            rows.append(run_in_child(*args, tree=tree, pure=pure))
    return [{**r[0], "passes": passes, "us": _best(r)} for r in runs]


PURE = "dipsat (pure Python)"
"""The row of dipsat with its judge read from its Python sources (`DIPSAT_PURE=1`)."""


def _build(compiled: list[str]) -> str:
    """What the report's dipsat ran: which modules compiled, if any."""
    if not compiled:
        return "pure Python (no compiled build: setup.py)"
    names = ", ".join(m.rpartition(".")[2] for m in compiled)
    return (
        f"{len(compiled)} modules of solver/judge compiled with mypyc ({names}; setup.py); "
        "the rows and column marked pure Python read them from their sources"
    )


def _best(rows: list[Row]) -> dict[str, float]:
    return {stage: min(r["us"][stage] for r in rows) for stage in rows[0]["us"]}


def report(
    turns: int, games: int = 1000, before: tuple[Path, str] | None = None, passes: int = 3
) -> str:
    """The report; `before`: the source tree of an earlier version and its name, whose
    stages are measured too, a pass of each version in turn."""
    engines = ["dipsat", "mila", "pydip"]
    rows = {
        (e, s): run_in_child("--section", e, s, str(turns))
        for s in ("random", "datc", "games")
        for e in [*engines, "dipsat-solver"]
    }
    for s in ("random", "datc", "games"):
        rows[(PURE, s)] = run_in_child("--section", "dipsat", s, str(turns), pure=True)
    print("benchmarks: throughput on every core", file=sys.stderr, flush=True)
    parallel = {e: throughput(e, min(turns, 1000), os.cpu_count() or 1) for e in engines}
    batch = run_in_child("--batch", str(turns))
    stages, pure, *earlier_rows = alternate_stages(turns, passes, before[0] if before else None)
    earlier = earlier_rows[0] if earlier_rows else None
    growth = [
        run_in_child("--growth", board, str(units), str(max(50, turns // 10)))
        for board, counts in GROWTH.items()
        for units in counts
    ]
    multiverse = [run_in_child("--multiverse", str(k)) for k in TIMELINES]
    replays = [run_in_child("--replay", str(games), str(w)) for w in (1, 2)]
    search = run_in_child("--rulesearch")
    random_dipsat = rows[("dipsat", "random")]
    lines = [
        "# Performance",
        "",
        "Measured by `python -m benchmarks.run` in one run; each engine's section runs in a "
        "process of its own. Times are the engines' core calls on prepared inputs: dipsat "
        "`adjudicate(position, orders)` (legality, model, solving and outcomes), MILA "
        "`Game.process()`, pydip `resolve_turn()`.",
        "",
        f"- machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}; Python {platform.python_version()}",
        f"- versions: dipsat {version('dipsat')}, ortools {version('ortools')}, "
        f"diplomacy (MILA) {version('diplomacy')}, pydip {version('pydip')}",
        f"- the judge: {_build(stages['compiled'])}",
        f"- inputs: {turns} seeded random 34-unit movement turns; the movement phases of "
        "the DATC cases (pydip cannot express illegal orders: those are skipped); the movement "
        f"phases of the {len(list(GAMES.glob('*.json')))} real games in tests/data/games",
        "",
        "## Latency per turn (ms) and ratios",
        "",
        "| inputs | engine | turns | median | p90 | total s | dipsat/engine (median) |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in ("random", "datc", "games"):
        mine = rows[("dipsat", s)]
        for e in [*engines, PURE, "dipsat-solver"]:
            r = rows[(e, s)]
            ratio = mine["median_ms"] / r["median_ms"]
            skipped = f" ({r['skipped']} skipped)" if r["skipped"] else ""
            lines.append(
                f"| {s} | {e} | {r['turns']}{skipped} | {r['median_ms']:.2f} | "
                f"{r['p90_ms']:.2f} | {r['total_s']:.2f} | {ratio:.2f} |"
            )
    pydip_rate = rows[("pydip", "random")]["per_second"]
    lines += [
        "",
        "## Throughput (turns per second, random turns)",
        "",
        "`dipsat (adjudicate_many)` is the batch entry point, `solver.adjudicate_many`, on the "
        "same turns in one process.",
        "",
        "| engine | one core | all cores | peak memory (MB) | one core / pydip's |",
        "|---|---|---|---|---|",
    ]
    for e in engines:
        lines.append(
            f"| {e} | {rows[(e, 'random')]['per_second']:.0f} | "
            f"{parallel[e]['per_second']:.0f} | {rows[(e, 'random')]['peak_mb']:.0f} | "
            f"{rows[(e, 'random')]['per_second'] / pydip_rate:.2f} |"
        )
    lines.append(
        f"| {PURE} | {rows[(PURE, 'random')]['per_second']:.0f} | | | "
        f"{rows[(PURE, 'random')]['per_second'] / pydip_rate:.2f} |"
    )
    lines.append(
        f"| dipsat (adjudicate_many) | {batch['per_second']:.0f} | | | "
        f"{batch['per_second'] / pydip_rate:.2f} |"
    )
    total_us = sum(stages["us"].values())
    lines += [
        "",
        "## Where the time goes",
        "",
        f"Per random 34-unit turn, the mean time of each stage of `adjudicate` over "
        f"{stages['turns']} turns (each stage the best of {stages['passes']} passes, the "
        "cyclic garbage collector paused); CP-SAT "
        f"ran on {stages['solved']} of them (the others propagation settles alone, "
        "docs/how-it-works.md section 4)."
        + " The column pure Python is the same adjudicator with its judge read from its "
        "Python sources (`DIPSAT_PURE=1`), its passes taken in turn with these."
        + (
            f" The column {before[1]} is the same measurement of dipsat as it was at "
            f"{before[1]}, its passes taken in turn with these."
            if before and earlier
            else ""
        ),
        "",
        "| stage | µs per turn | share | pure Python | compiled / pure |"
        + (f" {before[1]} |" if before else ""),
        "|---|---|---|---|---|" + ("---|" if before else ""),
    ]
    pure_us = sum(pure["us"].values())
    for stage, spent in stages["us"].items():
        then = f" {earlier['us'][stage]:.0f} |" if earlier else ""
        lines.append(
            f"| {stage} | {spent:.0f} | {spent / total_us:.0%} | {pure['us'][stage]:.0f} | "
            f"{spent / pure['us'][stage]:.2f} |{then}"
        )
    then = f" {sum(earlier['us'].values()):.0f} |" if earlier else ""
    lines.append(f"| all | {total_us:.0f} | | {pure_us:.0f} | {total_us / pure_us:.2f} |{then}")
    lines += [
        "",
        f"Propagation settles {random_dipsat['propagated']} of {turns} random turns, "
        f"{rows[('dipsat', 'datc')]['propagated']} of {rows[('dipsat', 'datc')]['turns']} "
        f"DATC turns and {rows[('dipsat', 'games')]['propagated']} of "
        f"{rows[('dipsat', 'games')]['turns']} game turns without building a CP-SAT model; "
        "`dipsat-solver` is the same adjudicator with propagation off, every turn through "
        "CP-SAT (identical results, checked by tests/test_propagate.py). The DATC suite is "
        "dominated by its paradox cases, which need the solver and the backup rule.",
        "",
        "## Growth with the number of units",
        "",
        "Median time per random movement turn with that many units, on the standard board "
        "and on the largest shipped variant, known_world_901 (269 provinces, 109 centres).",
        "",
        "| board | units | median (ms) | per unit (µs) |",
        "|---|---|---|---|",
    ]
    for g in growth:
        lines.append(
            f"| {g['board']} | {g['units']} | {g['median_ms']:.2f} | "
            f"{g['median_ms'] / g['units'] * 1000:.0f} |"
        )
    lines += [
        "",
        "## Multiverse: one step against as many separate standard turns",
        "",
        f"Each time is the best of {REPEATS} runs. The step is timed under rule set J (the "
        "default) and under rule set O, which gathers the orders a step touches across the "
        "whole history (docs/multiverse.md); each timeline's board has 34 units.",
        "",
        "| timelines | step (s) | step under O (s) | separate turns (s) | step / separate "
        "| O / J | step / previous | peak memory (MB) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    previous = None
    for m in multiverse:
        growth_ratio = f"{m['step_s'] / previous:.2f}" if previous else ""
        previous = m["step_s"]
        lines.append(
            f"| {m['timelines']} | {m['step_s']:.3f} | {m['step_o_s']:.3f} | "
            f"{m['separate_s']:.3f} | {m['step_s'] / m['separate_s']:.2f} | "
            f"{m['step_o_s'] / m['step_s']:.2f} | {growth_ratio} | {m['peak_mb']:.0f} |"
        )
    one, two = replays
    lines += [
        "",
        "## A corpus across processes",
        "",
        f"`dipsat replay --rules mila` of {one['games']} game files (copies of the shipped "
        f"real and MILA games, {one['transitions']} transitions), end to end in one "
        "process, and spread with `--workers 2` (the report is the same).",
        "",
        "| workers | seconds | speed-up |",
        "|---|---|---|",
        f"| 1 | {one['seconds']:.1f} | 1.00 |",
        f"| 2 | {two['seconds']:.1f} | {one['seconds'] / two['seconds']:.2f} |",
        "",
        "## Searching the rule books",
        "",
        "`dipsat rulebooks` (docs/rules.md) branches only on the policies a computation "
        f"reads. The {search['standard_books']:,} rule books the standard game's "
        f"{search['standard_policies']} policies make are never adjudicated one by one: on "
        "DATC 6.F.17 the search takes "
        f"{search['searched_runs']} runs ({search['searched_s'] * 1000:.0f} ms) where the "
        f"blind enumeration of only the six convoy policies takes {search['blind_runs']} "
        f"({search['blind_s'] * 1000:.0f} ms).",
        "",
        "| search | inputs | runs | seconds |",
        "|---|---|---|---|",
        f"| influence | the {search['cases']} DATC cases | {search['influence_runs']} | "
        f"{search['influence_s']:.2f} |",
        *(f"| solve | {s['case']} | {s['runs']} | {s['seconds']:.3f} |" for s in search["solved"]),
        *(
            f"| fit | {f['files']} {f['games']} games, {f['transitions']} transitions | "
            f"{f['runs']} | {f['seconds']:.1f} |"
            for f in search["fits"]
        ),
        "",
        "## How dipsat is made fast",
        "",
        "- **Propagation before the solver.** The equations in `solver/judge/model.py` are "
        "evaluated once with three-valued literals and strength intervals; a turn whose "
        "decisions are all forced never builds a CP-SAT model. The rules stay written once: "
        "propagation overrides only the model's seven constraint shapes.",
        "- **Only the cores go to CP-SAT.** Propagated values that read only known "
        "decisions are fixed; the solver enumerates each paradox core (up to two solutions) "
        "with everything upstream fixed, and what follows the cores is propagated again.",
        "- **A solver set for tiny models.** One worker, fixed seed, no presolve, probing, "
        "symmetry or linearization (`solver/judge/solve.py`), and a `CpModel` without the "
        "camel-case aliases OR-Tools adds to every instance.",
        "- **No networkx in the hot path.** Cycle detection is a small depth-first search "
        "over the recorded reads, and the cores of a turn with a cycle (one random turn in "
        "seven, nearly always settled by propagation) are found from the same reads, in the "
        "order networkx would give (`solver/judge/cores.py`).",
        "- **Per-turn work done once, or not at all.** The trivially known decisions (a move "
        "over land has its path, an unattacked unit is not dislodged) and the decision order "
        "are computed once per turn in `Structure`; the texts of units and orders, and the "
        "names of CP-SAT variables, are made only when read (a turn that propagation settles "
        "reads a few, for its outcomes' reasons); propagation keeps one literal per decision, "
        "records what each equation reads only in its first pass, and its shapes are plain "
        "loops over slotted values; orders in force are keyed by province.",
        "- **A compiled judge.** `pip install -e .` compiles the modules of `solver/judge` "
        "that model, propagate, settle and resolve a turn with mypyc (setup.py): the same "
        "source, type-checked, run as C; the judging of orders stays Python (its classes "
        "derive from one another, which mypyc 2.4 reports wrongly to the garbage collector, "
        "tests/test_compiled.py).",
        "- **Multiverse bookkeeping.** One joint turn per step on a lazily answered "
        "spacetime board, settled and resolved group of boards by group (boards no order "
        "links share no decision, so a paradox on one board does not make a graph of all); "
        "orders whose coordinates are complete are not rebuilt; the cyclic garbage collector "
        "is paused during a step.",
        "- **Corpora across processes.** `replay` and `crosscheck` spread their files and "
        "turns over `--workers` processes or a `--dask` cluster, results in the order given.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--out", default=str(ROOT / "docs" / "performance.md"))
    parser.add_argument("--section", nargs=3, metavar=("ENGINE", "INPUTS", "TURNS"))
    parser.add_argument("--part", nargs=4, metavar=("ENGINE", "TURNS", "WORKERS", "INDEX"))
    parser.add_argument("--multiverse", type=int)
    parser.add_argument("--stages", type=int, metavar="TURNS")
    parser.add_argument("--growth", nargs=3, metavar=("BOARD", "UNITS", "TURNS"))
    parser.add_argument("--batch", type=int, metavar="TURNS")
    parser.add_argument("--replay", nargs=2, type=int, metavar=("GAMES", "WORKERS"))
    parser.add_argument("--games", type=int, default=1000, help="game files of the replay")
    parser.add_argument("--rulesearch", action="store_true")
    parser.add_argument("--passes", type=int, default=3, help="passes of --stages")
    parser.add_argument(
        "--before",
        nargs=2,
        metavar=("TREE", "NAME"),
        help="the source tree of an earlier version (say, a git worktree) and its name: its "
        "stages are measured too, in turn with this version's",
    )
    args = parser.parse_args()
    if args.section:
        engine, name, turns = args.section
        print(json.dumps(section(engine, name, int(turns))))
    elif args.part:
        engine, turns, workers, index = args.part
        print(json.dumps(part(engine, int(turns), int(workers), int(index))))
    elif args.multiverse:
        print(json.dumps(multiverse_section(args.multiverse)))
    elif args.stages:
        print(json.dumps(stages_section(args.stages, args.passes)))
    elif args.growth:
        board, units, turns = args.growth
        print(json.dumps(growth_section(board, int(units), int(turns))))
    elif args.batch:
        print(json.dumps(batch_section(args.batch)))
    elif args.replay:
        print(json.dumps(replay_section(*args.replay)))
    elif args.rulesearch:
        print(json.dumps(rulesearch_section()))
    else:
        before = (Path(args.before[0]).resolve(), args.before[1]) if args.before else None
        text = report(args.turns, args.games, before, args.passes)
        Path(args.out).write_text(text, encoding="utf-8")
        print(text)


if __name__ == "__main__":
    main()
