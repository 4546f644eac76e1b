"""Every output of the command line on the shipped data, written to a folder, so that a
refactor can be shown to change none of them:

    python -m benchmarks.outputs before/       # on the old commit
    python -m benchmarks.outputs after/        # on the new one
    diff -r before/ after/                     # nothing

Covered: `check` (text, JSON, HTML), `adjudicate` (text and JSON), `explore` (text and
JSON) and `render` of every case under cases/, `compare-rules` between 2025 and every other
rule book, `replay` of the games under tests/data/games under three rule books, `parse` of
every notation example, a game played through `dipsat game`, and cross-checks against MILA
and pydip on random turns.  Everything runs in this one process (typer's test runner), in
a fixed order; each output is one file named after its command line.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(str(p) for p in (ROOT / "tests" / "data" / "games").glob("*.json"))
RULE_BOOKS = ("1971", "1982", "2000", "2023", "dptg", "webdiplomacy")


def case_ids(path: Path) -> list[str]:
    """The ids of a case file, read from its text (not through dipsat's own reader)."""
    text = path.read_text(encoding="utf-8")
    return re.findall(r"(?im)^\s*case\s+(\S+?)\s*(?::|$)", text)


class Recorder:
    def __init__(self, out: Path, tmp: Path) -> None:
        from solver.cli import app

        self.app = app
        self.out = out
        self.tmp = tmp
        self.runner = CliRunner()
        self.count = 0

    def run(self, name: str, *args: str) -> None:
        """Run `dipsat ARGS` and keep its exit status, standard output and error."""
        result = self.runner.invoke(self.app, list(args), catch_exceptions=True)
        text = f"$ dipsat {' '.join(args)}\nexit {result.exit_code}\n"
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            text += f"exception {type(result.exception).__name__}: {result.exception}\n"
        text += "--- stdout\n" + result.stdout + "--- stderr\n" + result.stderr
        path = self.out / f"{name}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = text.replace(str(self.tmp), "<tmp>").replace(str(ROOT), "<root>")
        path.write_text(text, encoding="utf-8")
        self.count += 1

    def keep(self, name: str, file: Path) -> None:
        """Keep a file a command wrote."""
        target = self.out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if file.exists():
            data = file.read_bytes().replace(str(self.tmp).encode(), b"<tmp>")
            target.write_bytes(data)
        else:
            target.write_text("(not written)\n", encoding="utf-8")


def record(out: Path) -> int:
    cases = sorted((ROOT / "cases").rglob("*.cases"))
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        rec = Recorder(out, tmp)
        rec.run("check/text", "check", "cases/")
        rec.run("check/json", "check", "cases/", "--json")
        rec.run("check/json-1982", "check", "cases/datc", "--json", "--rules", "1982")
        rec.run("check/html", "check", "cases/", "--html", str(tmp / "report.html"))
        rec.keep("check/report.html", tmp / "report.html")
        for path in cases:
            rel = path.relative_to(ROOT)
            for case in case_ids(path):
                stem = f"{rel.with_suffix('')}/{case}"
                rec.run(f"adjudicate/{stem}", "adjudicate", str(rel), "--case", case)
                rec.run(f"adjudicate/{stem}.json", "adjudicate", str(rel), "--case", case, "--json")
                rec.run(f"explore/{stem}", "explore", str(rel), "--case", case)
                rec.run(f"explore/{stem}.json", "explore", str(rel), "--case", case, "--json")
                svg = tmp / "case.svg"
                svg.unlink(missing_ok=True)
                rec.run(f"render/{stem}", "render", str(rel), "--case", case, "--out", str(svg))
                rec.keep(f"render/{stem}.svg", svg)
        for edition in ("2025", "1982", "dptg"):
            page = tmp / f"6F14-{edition}.html"
            rec.run(
                f"explore/html-6F14-{edition}",
                *("explore", "cases/datc/6F.cases", "--case", "6.F.14"),
                *("--rules", edition, "--html", str(page)),
            )
            rec.keep(f"explore/6F14-{edition}.html", page)
        for other in RULE_BOOKS:
            rec.run(f"compare/2025-{other}", "compare-rules", "2025", other, "cases/")
            rec.run(
                f"compare/2025-{other}.json", "compare-rules", "2025", other, "cases/", "--json"
            )
        page = tmp / "compare.html"
        rec.run("compare/html", "compare-rules", "2025", "1982", "cases/datc", "--html", str(page))
        rec.keep("compare/2025-1982.html", page)
        for book in ("2025", "webdiplomacy", "1971"):
            rec.run(f"replay/{book}", "replay", "--rules", book, *GAMES)
            rec.run(f"replay/{book}.json", "replay", "--rules", book, "--json", *GAMES)
        for number, step in enumerate(("1", "5", "12", "S1902M")):
            png = tmp / "game.svg"
            png.unlink(missing_ok=True)
            rec.run(f"render/game-{number}", "render", GAMES[0], "--step", step, "--out", str(png))
            rec.keep(f"render/game-{number}.svg", png)
        for name in ("notations.txt", "datc_v3_2_orders.txt", "mdatc_orders.txt", "bad_orders.txt"):
            orders = tmp / name
            lines = (ROOT / "tests" / "data" / name).read_text(encoding="utf-8").splitlines()
            texts = [line.partition("=>")[0] for line in lines if not line.startswith("#")]
            for number, text in enumerate(texts):
                orders.write_text(text + "\n", encoding="utf-8")
                rec.run(f"parse/{name}/{number:04d}", "parse", str(orders))
        play_games(rec, tmp)
        random_turns(out)
        rec.run("crosscheck/mila", "crosscheck", "--against", "mila", "--turns", "300", "--json")
        rec.run("crosscheck/pydip", "crosscheck", "--against", "pydip", "--turns", "300", "--json")
    return rec.count


def play_games(rec: Recorder, tmp: Path) -> None:
    """A standard and a multiverse game through `dipsat game`, every file kept."""
    game = tmp / "game.json"
    rec.run("game/new", "game", "new", str(game))
    turns = [
        [
            ["England: F London - North Sea", "England: A Liverpool - Yorkshire", "F EDI - NWG"],
            ["France: A Paris - Burgundy", "France: A Marseilles S A Paris - Burgundy"],
            ["Germany: A Munich - Burgundy", "Frnace: A Paris H", "Germany: A Berlin - Kiel"],
        ],
        [
            ["England: F North Sea C A Yorkshire - Norway", "England: A Yorkshire - Norway"],
            ["France: A Burgundy - Munich", "France: A Marseilles S A Burgundy - Munich"],
            ["Germany: A Munich H", "Russia: F StP/sc - Bot", "Russia: A Mos - Stp"],
        ],
        [["England: Build F London", "England: Waive"], ["France: Build A Paris"]],
        [["England: F Norway - St Petersburg(nc)"], ["Turkey: A Con - Bul", "F Ank - Bla"]],
    ]
    for turn, moves in enumerate(turns):
        for number, orders in enumerate(moves):
            rec.run(f"game/order-{turn}-{number}", "game", "order", str(game), *orders)
        rec.run(f"game/adjudicate-{turn}", "game", "adjudicate", str(game))
        rec.run(f"game/show-{turn}", "game", "show", str(game))
        rec.keep(f"game/game-{turn}.json", game)
    svg = tmp / "game.svg"
    rec.run("game/render", "render", str(game), "--out", str(svg))
    rec.keep("game/render.svg", svg)
    multi = tmp / "multi.json"
    rec.run("game/multi-new", "game", "new", str(multi), "--multiverse")
    steps = [
        ["Germany: A Munich - Tyrolia", "Austria: A Vienna - Bohemia"],
        ["Germany: A Tyrolia - a-Munich@0", "Austria: A Bohemia - Munich"],
        ["Germany: A b-Munich@1 - Bohemia", "Austria: A a-Munich@2 H"],
    ]
    for number, orders in enumerate(steps):
        rec.run(f"game/multi-order-{number}", "game", "order", str(multi), *orders)
        rec.run(f"game/multi-adjudicate-{number}", "game", "adjudicate", str(multi))
        rec.run(f"game/multi-show-{number}", "game", "show", str(multi))
        rec.keep(f"game/multi-{number}.json", multi)
    rec.run("game/multi-render", "render", str(multi), "--out", str(svg))
    rec.keep("game/multi-render.svg", svg)


def random_turns(out: Path, count: int = 600) -> None:
    """Seeded random turns adjudicated from the library under three rule books: every
    outcome with its reason, the dislodged units with their retreats, the next position."""
    # The modules as they were named before the layout in subpackages, else as now: the
    # same script runs on the commits before and after a refactor.
    try:
        from solver.adjudicate import adjudicate  # type: ignore[import-not-found]
        from solver.crosscheck.generate import random_turn  # type: ignore[import-not-found]
        from solver.rules import rule_book  # type: ignore[import-not-found]
    except ImportError:
        from solver.crosschecking.generate import random_turn
        from solver.formats.rulebooks import rule_book
        from solver.judge.movement import adjudicate

    turns = [random_turn(f"outputs-{i}", units=(18, 34)) for i in range(count)]
    for name in ("2025", "1971", "dptg"):
        lines = []
        for number, (position, orders) in enumerate(turns):
            done = adjudicate(position, orders, rule_book(name))
            # a unit named as orders write it (`Position.name`; `str` before it existed)
            unit = getattr(done.after, "name", str)
            lines.append(f"turn {number}")
            lines += [f"  {o.given} => {o.label} ({o.reason})" for o in done.outcomes]
            lines += [
                f"  dislodged {unit(r.unit)} -> {[str(x) for x in r.options]}"
                for r in done.dislodged
            ]
            lines += [f"  core {c.rule} {c.solutions} {c.labels}" for c in done.cores]
            lines.append(f"  after {done.after.phase}: {[unit(u) for u in done.after.units]}")
        (out / f"random-{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the folder to write (replaced if it exists)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    count = record(out)
    print(f"{count} outputs written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
