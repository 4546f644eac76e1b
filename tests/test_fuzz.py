"""Fuzzing the saved-game loader: any file either loads or is refused with `SaveFileError`.

Every test here takes its number of examples from DIPSAT_FUZZ_EXAMPLES (default 50), so

    DIPSAT_FUZZ_EXAMPLES=5000 .venv/bin/python -m pytest tests/test_fuzz.py

is the longer run described in docs/reliability.md.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from conftest import fuzz_examples, played
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from solver.errors import DipsatError, SaveFileError
from solver.formats.savegame import SavedGame, load, save, to_json

EXAMPLES = fuzz_examples(50)

_FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


# -- the games to mutate -------------------------------------------------------------------------


# Seed 9 passes through a retreat phase (a dislodged unit), seed 3 through a winter.
_SEEDS = (3, 9)


@cache
def _game_text(seed: int) -> str:
    return to_json(played(4, f"fuzz-{seed}"))


def test_games_to_mutate_are_valid(tmp_path):
    """The mutations below start from games that load (else they would test nothing)."""
    kinds = set()
    for seed in _SEEDS:
        path = tmp_path / f"{seed}.json"
        path.write_text(_game_text(seed), encoding="utf-8")
        game = load(path)
        assert len(game.history) == 4
        kinds |= {p.position.phase.kind.value for p in game.history}
        kinds.add(game.position.phase.kind.value)
    assert kinds == {"movement", "retreat", "adjustment"}


# -- the property --------------------------------------------------------------------------------
def _load_or_refused(path: Path) -> SavedGame | None:
    """Load `path`: a SavedGame, or None when refused with a SaveFileError naming the file.
    Any other exception fails the test."""
    try:
        return load(path)
    except SaveFileError as err:
        assert isinstance(err, DipsatError)
        assert str(path) in str(err), str(err)
        return None


def _round_trips(game: SavedGame, folder: Path) -> None:
    """What loaded can be saved again and reloads to an equal value, with the same bytes."""
    again = folder / "again.json"
    save(game, again)
    reloaded = load(again)
    assert reloaded == game
    assert to_json(reloaded) == to_json(game)


def _check(text_or_bytes: str | bytes, folder: Path) -> None:
    path = folder / "game.json"
    if isinstance(text_or_bytes, bytes):
        path.write_bytes(text_or_bytes)
    else:
        path.write_bytes(text_or_bytes.encode("utf-8"))
    game = _load_or_refused(path)
    event("refused" if game is None else "loaded")  # shown by --hypothesis-show-statistics
    if game is not None:
        _round_trips(game, folder)


# -- (a) arbitrary input -------------------------------------------------------------------------
@_FUZZ
@given(st.text(max_size=400))
def test_loader_refuses_any_text_with_a_save_file_error(tmp_path, text):
    _check(text, tmp_path)


@_FUZZ
@given(st.binary(max_size=400))
def test_loader_refuses_any_bytes_with_a_save_file_error(tmp_path, data):
    _check(data, tmp_path)


# -- (b), (c) mutated saved games ----------------------------------------------------------------
_LINE_EDIT = st.tuples(
    st.sampled_from(("delete", "duplicate", "swap", "cut line")),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
)


@_FUZZ
@given(
    st.sampled_from(_SEEDS),
    st.lists(_LINE_EDIT, min_size=1, max_size=6),
    st.none() | st.integers(0, 10**6),
)
def test_loader_on_games_with_lines_edited_or_cut(tmp_path, seed, edits, cut):
    lines = _game_text(seed).splitlines(keepends=True)
    for op, n, m in edits:
        if not lines:
            break
        i, j = n % len(lines), m % len(lines)
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines[i] = lines[i][: m % (len(lines[i]) + 1)]
    text = "".join(lines)
    if cut is not None:  # the file cut short at a random point
        text = text[: cut % (len(text) + 1)]
    _check(text, tmp_path)


# Odd strings: control characters, and the names the format uses, in the wrong place.
# A lone surrogate (valid as the JSON escape \\ud800) once broke saving: it is kept in.
_ODD_STRINGS = st.sampled_from(
    (
        "",
        "\ud800",
        "\x00",
        "\n",
        "ENGLAND",
        "england",
        "A PAR",
        "F STP/SC",
        "F STP/NC",
        "F SPA/EC",
        "A MUN",
        "PAR",
        "STP",
        "S1901M",
        "F1901R",
        "W1901A",
        "X1901M",
        "2025",
        "1971",
        "dipsat-game",
        "England: A Liverpool - Yorkshire",
        "France: A Paris H",
        "Russia: F St Petersburg(sc) - Gulf of Bothnia",
        "Germany: build A Munich",
        "Austria: waive",
        "Italy: A Venice R Tuscany",
        "succeeds",
        "fails, dislodged",
    )
)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | _ODD_STRINGS
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _nodes(data: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON value, as the list of keys and indices leading to it."""
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _nodes(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += _nodes(value, (*path, i))
    return found


def _kind(value: Any) -> str:
    return type(value).__name__  # bool, int, float, str, list, dict, NoneType


def _edit(data: Any, path: tuple, op: str, value: Any, key: str) -> Any:
    """`data` with the node at `path` replaced, deleted or renamed (rename: a dict key)."""
    if not path:
        return value if op == "replace" else data
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if op == "replace":
        parent[last] = value
    elif op == "delete":
        del parent[last]
    elif isinstance(parent, dict):  # rename the key
        parent[key] = parent.pop(last)
    else:  # in a list: insert the value before this element
        parent.insert(last, value)
    return data


@_FUZZ
@given(
    st.sampled_from(_SEEDS),
    st.lists(
        st.tuples(
            st.sampled_from(("replace", "replace", "delete", "rename")),
            st.integers(0, 10**6),
            _JSON,
            st.text(max_size=6) | _ODD_STRINGS,
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_loader_on_games_with_json_values_replaced(tmp_path, seed, edits):
    data = json.loads(_game_text(seed))
    for op, n, value, key in edits:
        nodes = _nodes(data)
        path = nodes[n % len(nodes)]
        if op == "replace":
            old = data
            for step in path:
                old = old[step]
            if _kind(value) == _kind(old) and value != old and not isinstance(value, str):
                value = [value]  # a value of another type
        data = _edit(data, path, op, value, key)
    _check(json.dumps(data, indent=1, sort_keys=True), tmp_path)


def test_a_lone_surrogate_in_an_outcome_survives_a_save(tmp_path):
    data = json.loads(_game_text(_SEEDS[0]))
    data["history"][0]["outcomes"][0]["reason"] = "\ud800"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="ascii")  # the escape, as a hand edit
    game = load(path)
    _round_trips(game, tmp_path)


def test_an_integer_of_5000_digits_is_a_save_file_error(tmp_path):
    path = tmp_path / "game.json"
    path.write_text('{"format": "dipsat-game", "version": ' + "1" * 5000 + "}")
    assert _load_or_refused(path) is None
