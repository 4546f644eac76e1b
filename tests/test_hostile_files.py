"""Every reader of a file (case files, rule books, game records, saved games, map files,
MILA maps) shares one way of reading text (topology/files.py): these tests give each the
same hostile files and expect the same documented refusal, naming the file.

The classes of issue 20: reads without bound (a device such as /dev/zero has no size to
check first), a byte-order mark, invalid UTF-8 placed by line and column, JSON and TOML
nested too deeply or holding numbers too long for Python."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import dipsat, fuzz_examples, slow
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.errors import DipsatError
from solver.formats.cases import read_cases
from solver.formats.mila import read_game
from solver.formats.rulebooks import load_rule_book
from solver.formats.savegame import load_any, new_game, save
from topology import MapDataError, load_board
from topology.milamap import load_mila_map

ROOT = Path(__file__).resolve().parents[1]


def _saved_game(folder: Path) -> Path:
    path = folder / "game.json"
    if not path.exists():
        save(new_game("2025"), path)
    return path


# name -> (the reader, a valid file of its kind (or a function making one), its suffix)
READERS: dict[str, tuple[Callable[[Path], Any], Callable[[Path], Path], str]] = {
    "case file": (read_cases, lambda _: ROOT / "cases/datc/6A.cases", ".cases"),
    "rule book": (
        load_rule_book,
        lambda _: ROOT / "cases/multiverse/mixes/j-pause.toml",
        ".toml",
    ),
    "game record": (read_game, lambda _: ROOT / "tests/data/games/mila/standard-01.json", ".json"),
    "saved game": (load_any, _saved_game, ".json"),
    "map file": (load_board, lambda _: ROOT / "topology/data/variants/pure.toml", ".toml"),
    "MILA map": (load_mila_map, lambda _: ROOT / "tests/data/mila_maps/islands.map", ".map"),
}
JSON_READERS = ("game record", "saved game")
TOML_READERS = ("rule book", "map file")
ERRORS = (DipsatError, MapDataError)


def refusal(reader: Callable[[Path], Any], path: Path) -> str:
    """The message a reader refuses a file with (failing the test if it reads it, or
    raises anything but a documented error)."""
    with pytest.raises(ERRORS) as caught:
        reader(path)
    message = str(caught.value)
    assert str(path) in message, message  # every refusal names the file
    return message


@pytest.mark.parametrize("kind", READERS)
def test_a_file_without_end_is_refused_at_the_size_limit(kind: str, tmp_path: Path) -> None:
    """/dev/zero reports size 0 and never ends: the bound counts bytes actually read."""
    reader, _, suffix = READERS[kind]
    zeros = tmp_path / f"zeros{suffix}"
    zeros.symlink_to("/dev/zero")
    message = refusal(reader, zeros)
    assert re.search(r"larger than [\d,]+ bytes", message), message


@pytest.mark.parametrize("kind", READERS)
def test_a_byte_order_mark_is_skipped(kind: str, tmp_path: Path) -> None:
    reader, valid, suffix = READERS[kind]
    source = valid(tmp_path)
    plain, marked = (tmp_path / folder / f"file{suffix}" for folder in ("plain", "marked"))
    for path in (plain, marked):
        path.parent.mkdir()
        shutil.copy(source, path)  # a MILA map inherits files beside it: none here
    marked.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())
    first, second = (repr(reader(p)).replace(str(p.parent), "FOLDER") for p in (plain, marked))
    assert first == second


@pytest.mark.parametrize("kind", READERS)
def test_invalid_utf8_is_placed_by_line_and_column(kind: str, tmp_path: Path) -> None:
    reader, valid, suffix = READERS[kind]
    bad = tmp_path / f"bad{suffix}"  # column 7 of line 3: six characters before
    bad.write_bytes(b"\n\n" + "Zürich".encode() + b"\xff" + valid(tmp_path).read_bytes())
    message = refusal(reader, bad)
    assert re.search(r"(\b3:7\b|line 3, column 7)", message), message
    assert "expected UTF-8 text, found byte 0xff" in message


@pytest.mark.parametrize("kind", JSON_READERS + TOML_READERS)
def test_deep_nesting_and_long_numbers_are_syntax_errors(kind: str, tmp_path: Path) -> None:
    reader, _, suffix = READERS[kind]
    json_like = kind in JSON_READERS
    texts = {
        "deep": ("[" * 100_000 + "]" * 100_000) if json_like else "a = " + "[" * 5000 + "]" * 5000,
        "long": '{"phases": ' + "7" * 5000 + "}" if json_like else "base = " + "7" * 5000,
    }
    for name, text in texts.items():
        path = tmp_path / f"{name}{suffix}"
        path.write_text(text, encoding="utf-8")
        message = refusal(reader, path)
        assert f"not valid {'JSON' if json_like else 'TOML'}" in message, message
        assert ("nested too deeply" if name == "deep" else "more than 4300 digits") in message


@pytest.mark.parametrize("kind", READERS)
@settings(
    max_examples=fuzz_examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    cut=st.floats(0, 1),
    junk=st.binary(max_size=40),
    at=st.floats(0, 1),
    bom=st.booleans(),
)
def test_any_bytes_give_a_value_or_a_documented_error(
    kind: str, tmp_path: Path, cut: float, junk: bytes, at: float, bom: bool
) -> None:
    """A valid file cut short, with random bytes put in, with or without a byte-order
    mark: every reader reads it or raises a documented error naming the file."""
    reader, valid, suffix = READERS[kind]
    raw = valid(tmp_path).read_bytes()
    raw = raw[: int(len(raw) * cut)]
    where = int(len(raw) * at)
    raw = (b"\xef\xbb\xbf" if bom else b"") + raw[:where] + junk + raw[where:]
    path = tmp_path / f"fuzzed{suffix}"
    path.write_bytes(raw)
    try:
        reader(path)
    except ERRORS as error:
        assert str(path) in str(error), str(error)


@slow
@pytest.mark.parametrize(
    "command",
    [
        ("check", "/dev/zero"),
        ("parse", "/dev/zero"),
        ("replay", "/dev/zero"),
        ("game", "show", "/dev/zero"),
        ("check", "--rules", "/dev/zero", "cases/datc/6A.cases"),
        ("check", "--variant", "/dev/zero.toml", "cases/datc/6A.cases"),
    ],
)
def test_the_command_line_refuses_a_device_without_end(command: tuple[str, ...]) -> None:
    result = dipsat(*command)
    assert result.returncode == 2, result.stderr
    assert "larger than" in result.stderr or "cannot read" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_parse_bounds_what_it_reads_from_standard_input() -> None:
    result = dipsat("parse", "-", stdin="A Munich - Ruhr\n" * 300_000)  # 4.8 MB
    assert result.returncode == 2
    assert result.stderr.startswith("<stdin>: larger than 4,000,000 bytes")
