"""Saved games changed by several programs at once: no change is lost, no game made twice.

Issue 20: two `dipsat game order` on one file at once both said their order was accepted
and one was lost (half of 20 tries), an order given during `game adjudicate` was lost once
in 20, and two `game new` of one name both said they made it. The tests below race real
processes: each imports dipsat first, then waits for a signal (a file appearing) so that
all of them read the game within the same few milliseconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import ROOT, slow

from solver.errors import SaveFileError
from solver.formats import savegame
from solver.formats.savegame import (
    GameBusyError,
    changing,
    create,
    load,
    locked,
    new_game,
    save,
)

pytestmark = slow  # processes and threads at once

ORDERS = [
    "England: F LON - NTH",
    "England: F EDI - NWG",
    "England: A LVP - YOR",
    "France: A PAR - BUR",
    "France: A MAR - SPA",
    "France: F BRE - MAO",
    "Germany: A MUN - RUH",
    "Germany: A BER - KIE",
]

RACER = """
import sys, time
from pathlib import Path
from solver.errors import SaveFileError
from solver.formats.savegame import changing, create, new_game

folder, rounds, order = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
(folder / f"ready-{order}").touch()
for n in range(rounds):
    while not (folder / f"go-{n}").exists():
        time.sleep(0.001)
    path = folder / f"game-{n}.json"
    try:  # every racer makes the game: one succeeds
        create(new_game(), path)
        print("made", flush=True)
    except SaveFileError as error:
        print(error, flush=True)
    with changing(path) as change:  # then every racer gives its order
        game, problems = change.game.submit([order])
        assert not problems, problems
        change.save(game)
    print("accepted", flush=True)
"""
ROUNDS = 3


@pytest.fixture(scope="module")
def raced(tmp_path_factory) -> tuple[Path, list[list[str]]]:
    """Eight processes, one per order, let go at once on each of three games: each makes
    the game, then gives its order to it. The folder and what each printed."""
    folder = tmp_path_factory.mktemp("race")
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(folder), str(ROUNDS), order],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for order in ORDERS
    ]
    try:
        deadline = time.monotonic() + 120
        while len(list(folder.glob("ready-*"))) < len(ORDERS):
            assert all(r.poll() is None for r in racers), [r.communicate() for r in racers]
            assert time.monotonic() < deadline, "the racers did not start"
            time.sleep(0.01)
        for n in range(ROUNDS):
            (folder / f"go-{n}").touch()
        outputs = []
        for racer in racers:
            out, err = racer.communicate(timeout=120)
            assert racer.returncode == 0, err
            outputs.append(out.splitlines())
        return folder, outputs
    finally:
        for racer in racers:
            if racer.poll() is None:
                racer.kill()
                racer.wait()


def test_orders_given_at_once_by_eight_processes_are_all_kept(raced):
    """Every game ends with all eight orders (without the lock, nearly every round kept
    only some of them, each process saying its order was accepted)."""
    folder, outputs = raced
    assert [out[1::2] for out in outputs] == [["accepted"] * ROUNDS] * len(ORDERS)
    for n in range(ROUNDS):
        kept = sorted(str(g) for g in load(folder / f"game-{n}.json").orders)
        assert len(kept) == len(ORDERS), kept


def test_of_eight_processes_making_one_game_exactly_one_succeeds(raced):
    folder, outputs = raced
    for n in range(ROUNDS):
        said = sorted(out[2 * n] for out in outputs)
        refused = f"{folder / f'game-{n}.json'}: already exists; choose another file"
        assert said == [refused] * (len(ORDERS) - 1) + ["made"], said
    assert not list(folder.glob(".*"))  # no temporary file and no lock file is left


def test_a_new_game_never_replaces_a_file(tmp_path):
    path = tmp_path / "g.json"
    path.write_text("my notes")
    with pytest.raises(SaveFileError) as caught:
        create(new_game(), path)
    assert str(caught.value) == f"{path}: already exists; choose another file"
    assert path.read_text() == "my notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_a_new_game_is_not_made_through_a_symbolic_link(tmp_path):
    """Issue 29: a link to no file made the game wherever the link led (as root, a link
    planted in a shared folder could make a file in /etc). A new game's name is taken by
    a link as by a file, as O_EXCL takes it; a folder reached through a link is fine."""
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere" / "absent.json")
    (tmp_path / "elsewhere").mkdir()
    with pytest.raises(SaveFileError) as caught:
        create(new_game(), link)
    said = f"{link}: a symbolic link, not followed to make a new game; choose another file"
    assert str(caught.value) == said
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["elsewhere", "link.json"]
    (tmp_path / "folder").symlink_to("elsewhere")
    create(new_game(), tmp_path / "folder" / "g.json")
    assert load(tmp_path / "elsewhere" / "g.json") == new_game()


def holds(pid: int, game: Path) -> bool:
    """Whether process `pid` has the game file open (Linux: its descriptors in /proc)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(game):
                return True
        except OSError:
            continue
    return False


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_an_order_given_while_the_game_is_adjudicated_waits_and_is_kept(tmp_path):
    """`dipsat game order` started while the game is being adjudicated (here by the
    library, holding the lock) waits for the adjudication and gives its order to the new
    phase; before the lock it could read the old game and save it over the new one."""
    path = tmp_path / "g.json"
    save(new_game(), path)
    with changing(path) as change:
        command = [sys.executable, "-m", "solver", "game", "order", str(path)]
        order = subprocess.Popen(
            [*command, "England: F LON - NTH"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while not holds(order.pid, path):  # it is waiting for the lock
            assert order.poll() is None, order.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.01)
        game, _ = change.game.adjudicated()
        change.save(game)
        assert order.poll() is None  # it still waits
    out, err = order.communicate(timeout=60)
    assert (order.returncode, out, err) == (0, "1 of 1 order(s) accepted\n", "")
    game = load(path)
    assert str(game.position.phase) == "Fall 1901 movement"
    assert [str(g) for g in game.orders] == ["England: F London - North Sea"]


def test_a_change_waits_for_the_lock_then_gives_up_saying_so(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from solver.cli import app

    path = tmp_path / "g.json"
    save(new_game(), path)
    before = path.read_bytes()
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:  # another thread: its lock is another open file, as in a process
        with locked(path):
            taken.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert taken.wait(30)
        started = time.monotonic()
        with pytest.raises(GameBusyError) as caught, changing(path, timeout=0.3):
            pass
        assert time.monotonic() - started >= 0.3
        busy = f"{path}: another dipsat command is changing this game; try again"
        assert str(caught.value) == busy
        monkeypatch.setattr(savegame.locking, "LOCK_TIMEOUT_SECONDS", 0.2)
        for command in (["order", str(path), "England: F LON - NTH"], ["adjudicate", str(path)]):
            result = CliRunner().invoke(app, ["game", *command])
            assert (result.exit_code, result.stderr) == (2, busy + "\n")
        result = CliRunner().invoke(app, ["game", "new", str(tmp_path / "g.json")])
        exists = f"{path}: already exists; choose another file\n"  # a new game takes no lock
        assert (result.exit_code, result.stderr) == (2, exists)
    finally:
        release.set()
        holder.join()
    assert path.read_bytes() == before
    with changing(path, timeout=0.3) as change:  # released: free again
        assert change.game == new_game()


def test_a_lock_inside_a_lock_on_one_game_is_refused_at_once(tmp_path):
    path = tmp_path / "g.json"
    save(new_game(), path)
    link = tmp_path / "link.json"
    link.symlink_to(path)
    with (
        changing(path),
        pytest.raises(GameBusyError, match="a lock inside a lock"),
        changing(link),
    ):
        pass


def test_a_game_that_is_not_there_is_not_locked(tmp_path):
    """A mistyped name is an error that leaves no lock file behind; a missing folder too."""
    with pytest.raises(SaveFileError) as caught, changing(tmp_path / "typo.json"):
        pass
    assert str(caught.value) == f"{tmp_path / 'typo.json'}: cannot read: No such file or directory"
    with pytest.raises(SaveFileError) as caught:
        create(new_game(), tmp_path / "no" / "g.json")
    assert str(caught.value).endswith("g.json: cannot write: No such file or directory")
    assert list(tmp_path.iterdir()) == []


def test_changing_a_game_leaves_no_file_beside_it(tmp_path):
    """Issue 29: every command that changed a game left a `.g.json.lock` beside it. The
    lock is now on the game file itself."""
    from typer.testing import CliRunner

    from solver.cli import app

    path = tmp_path / "g.json"
    for command in (
        ["new", str(path)],
        ["order", str(path), "England: F LON - NTH", "France: A PAR - BUR"],
        ["withdraw", str(path), "France"],
        ["adjudicate", str(path)],
        ["show", str(path)],
    ):
        result = CliRunner().invoke(app, ["game", *command])
        assert result.exit_code == 0, result.stderr
    with changing(path) as change:  # the library's change, saved twice
        change.save(change.game.submit(["Germany: F KIE - DEN"])[0])
        change.save(change.game.submit(["Germany: A BER - KIE"])[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]
    assert len(load(path).orders) == 2


def test_a_lock_on_a_game_that_is_not_there_is_refused(tmp_path):
    with pytest.raises(SaveFileError) as caught, locked(tmp_path / "g.json"):
        pass
    assert str(caught.value) == f"{tmp_path / 'g.json'}: cannot read: No such file or directory"
    assert list(tmp_path.iterdir()) == []


def test_the_lock_stays_on_the_game_through_each_save_of_a_change(tmp_path):
    """A save renames a new file over the game: the lock moves to the new file before the
    rename, so a change waiting for the lock never reads between two saves of another
    change (it would then save over the second, and lose it)."""
    path = tmp_path / "g.json"
    save(new_game(), path)
    first, waiting = threading.Event(), threading.Event()
    seen: list[list[str]] = []

    def other() -> None:  # another thread: its lock is another open file, as in a process
        first.wait(30)
        waiting.set()
        with changing(path, timeout=30) as change:
            seen.append([str(g) for g in change.game.orders])
            change.save(change.game.submit(["Germany: A MUN - RUH"])[0])

    thread = threading.Thread(target=other)
    thread.start()
    try:
        with changing(path) as change:
            change.save(change.game.submit(["England: F LON - NTH"])[0])
            first.set()
            assert waiting.wait(30)
            time.sleep(0.5)  # the other change waits all this while
            change.save(change.game.submit(["France: A PAR - BUR"])[0])
    finally:
        first.set()
        thread.join(60)
    assert seen == [["England: F London - North Sea", "France: A Paris - Burgundy"]]
    assert [str(g) for g in load(path).orders] == [
        "England: F London - North Sea",
        "France: A Paris - Burgundy",
        "Germany: A Munich - Ruhr",
    ]
