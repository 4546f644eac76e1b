"""MILA's maps, converted by topology.milamap: each board agrees with MILA's own engine
(places, army and fleet borders, supports, centres, powers, units, settings), the shipped
variants are fresh conversions, the standard one agrees with dipsat's standard board, and
bad maps are refused with the file and the line at fault."""

from __future__ import annotations

import doctest
import hashlib
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache

import pytest
from conftest import DATA, ROOT, dipsat, first_fast, slow, under_hash_seeds

from topology import Board, BuildSites, Location, MapDataError, load_board, standard
from topology.loader import board_from_text
from topology.milamap import (
    find_mila_map,
    load_mila_map,
    mila_map_names,
    mila_map_text,
)

MAPS = [
    "ancmed",
    "ancmed_age_of_empires",
    "colonial",
    "empire",
    "known_world_901",
    "modern",
    "pure",
    "standard",
    "standard_age_of_empires",
    "standard_age_of_empires_2",
    "standard_fleet_rome",
    "standard_france_austria",
    "standard_germany_italy",
    "world",
]
"""The maps of MILA's diplomacy 1.1.2."""

VARIANTS = ROOT / "topology" / "data" / "variants"
HAND_WRITTEN = DATA / "mila_maps"  # small maps of ours that use every feature of the format
OWN_MAPS = ["islands.map", "islands_variant.map"]


@cache
def board(source: str) -> Board:
    return load_mila_map(source)


@cache
def mila(source: str):
    """MILA's own reading of the map, without the convoy tables it would build (and
    cache in the home folder) for a map it has not cached. ``Map.__init__`` does nothing
    for a name in its cache, even with ``use_cache=False``: then the cached map is it."""
    engine = pytest.importorskip("diplomacy.engine.map")
    cached = engine.MAP_CACHE.get(source)
    return cached if cached is not None else engine.Map(source, use_cache=False)


def own_map(name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, Board]:
    """MILA's reading and ours of a hand-written map (MILA finds MAP and USES files in the
    working folder)."""
    monkeypatch.chdir(HAND_WRITTEN)
    path = str(HAND_WRITTEN / name)
    return mila(path), board(path)


def places(m) -> set[str]:
    """MILA's places of play, upper case, coasts included (SHUT ones are not)."""
    return {loc.upper() for loc in m.locs if m.area_type(loc) != "SHUT"}


def location(text: str) -> Location:
    return Location.parse(text.lower())


def disagreements(m, b: Board) -> list[str]:
    """Every way the board ``b`` differs from MILA's map ``m`` (empty: they agree)."""
    found: list[str] = []
    ours = {str(loc).upper() for loc in b.locations()}
    if places(m) != ours:
        found.append(f"places: MILA only {places(m) - ours}, dipsat only {ours - places(m)}")
        return found
    provinces = sorted(p for p in places(m) if "/" not in p)
    fleet_places = set(b.fleet_graph().nodes)
    for here in provinces:
        for there in provinces:
            army = b.army_adjacent(here.lower(), there.lower())
            for order in ("-", "S"):  # an army supports where it could move
                if bool(m.abuts("A", here, order, there)) != army:
                    found.append(f"A {here} {order} {there}: MILA {not army}, dipsat {army}")
    for here in sorted(places(m)):
        for there in sorted(places(m)):
            fleet = b.fleet_adjacent(location(here), location(there))
            if bool(m.abuts("F", here, "-", there)) != fleet:
                found.append(f"F {here} - {there}: MILA {not fleet}, dipsat {fleet}")
        for there in provinces:  # a fleet supports into a province it could move to
            reach = here.lower() in fleet_places and bool(
                b.fleet_coasts_towards(location(here), there.lower())
            )
            if bool(m.abuts("F", here, "S", there)) != reach:
                found.append(f"F {here} S {there}: MILA {not reach}, dipsat {reach}")
    return found


def test_the_installed_package_has_the_maps_converted_here():
    pytest.importorskip("diplomacy")
    assert list(mila_map_names()) == MAPS


@pytest.mark.parametrize("name", first_fast(MAPS, 2))
def test_the_conversion_loads_and_every_border_agrees_with_milas_engine(name):
    m, b = mila(name), board(name)
    assert b.name == name
    assert m.error == []
    assert disagreements(m, b) == []


@pytest.mark.parametrize("name", first_fast(MAPS, 2))
def test_centres_powers_homes_and_units_agree_with_milas_engine(name):
    m, b = mila(name), board(name)
    assert b.centres == {c.lower() for c in m.scs}
    assert len(b.powers) == len(m.powers)
    for key in m.powers:  # MILA's key of a power (NEUTRALSTATE) finds it
        power = b.lookup_power(key)
        assert b.home_centres(power) == tuple(sorted(c.lower() for c in m.homes[key]))
        units = {f"{kind} {place}".upper() for kind, place in b.starting_units(power)}
        assert units == set(m.units[key])
        assert b.lookup_power(m.own_word[key]) == power


@pytest.mark.parametrize("name", first_fast(MAPS, 2))
def test_the_solo_count_first_year_and_build_rule_agree_with_milas_engine(name):
    m, b = mila(name), board(name)
    victory = m.victory[0] if m.victory else len(m.scs) // 2 + 1  # as diplomacy's Game
    assert b.victory == victory
    assert b.start_year == m.first_year
    assert (b.builds is BuildSites.ANYWHERE) == ("BUILD_ANY" in m.rules)


@pytest.mark.parametrize("name", first_fast(MAPS, 2))
def test_every_name_of_a_province_finds_it(name):
    m, b = mila(name), board(name)
    for full_name, code in m.loc_name.items():
        if "/" not in code and m.area_type(code) != "SHUT":
            assert b.lookup(full_name) == code.lower()
    for code, province in b.provinces.items():
        assert b.lookup(code) == code
        for alias in province.aliases:
            assert b.lookup(alias) == code


@pytest.mark.parametrize("name", first_fast(MAPS, 2))
def test_the_shipped_variant_is_a_fresh_conversion(name):
    pytest.importorskip("diplomacy")
    shipped = (VARIANTS / f"{name}.toml").read_bytes()
    assert shipped == mila_map_text(name).encode("utf-8")
    assert mila_map_text(find_mila_map(name)) == mila_map_text(name)


def test_every_shipped_variant_is_one_of_the_maps():
    assert sorted(p.stem for p in VARIANTS.glob("*.toml")) == MAPS


@slow
def test_the_conversion_is_the_same_bytes_every_time_and_in_every_process():
    script = (
        "import hashlib\nfrom topology.milamap import mila_map_text\n"
        f"print(hashlib.sha256(''.join(map(mila_map_text, {MAPS!r})).encode()).hexdigest())"
    )
    pytest.importorskip("diplomacy")
    here = hashlib.sha256("".join(map(mila_map_text, MAPS)).encode()).hexdigest()
    assert mila_map_text("world") == mila_map_text("world")
    assert under_hash_seeds(script, "0", "1") == [f"{here}\n".encode()] * 2


def test_the_standard_map_agrees_with_dipsats_standard_board():
    ours, theirs = standard(), load_board(VARIANTS / "standard.toml")
    assert set(theirs.provinces) == set(ours.provinces)
    for code, province in ours.provinces.items():
        other = theirs.provinces[code]
        assert (other.kind, other.is_centre, other.coasts, other.home) == (
            province.kind,
            province.is_centre,
            province.coasts,
            province.home,
        ), code
    assert set(theirs.army_graph().edges) == set(ours.army_graph().edges)
    assert {frozenset(e) for e in theirs.fleet_graph().edges} == {
        frozenset(e) for e in ours.fleet_graph().edges
    }
    assert theirs.centres == ours.centres
    assert theirs.powers == ours.powers
    for power in ours.powers:
        assert theirs.home_centres(power) == ours.home_centres(power)
        assert set(theirs.starting_units(power)) == set(ours.starting_units(power))
        assert theirs.power_adjective(power) == ours.power_adjective(power)
    assert (theirs.victory, theirs.builds, theirs.start_year) == (18, BuildSites.HOME, 1901)


# -- the features of the format, on maps of our own -------------------------------------


@pytest.mark.parametrize("name", OWN_MAPS)
def test_a_hand_written_map_agrees_with_milas_engine(name, monkeypatch):
    m, b = own_map(name, monkeypatch)
    assert m.error == []  # a valid map for MILA
    assert disagreements(m, b) == []
    assert b.centres == {c.lower() for c in m.scs}
    for key in m.powers:
        power = b.lookup_power(key)
        assert b.home_centres(power) == tuple(sorted(c.lower() for c in m.homes[key]))
        units = {f"{kind} {place}".upper() for kind, place in b.starting_units(power)}
        assert units == set(m.units[key])
    assert (b.victory, b.start_year) == (m.victory[0], m.first_year)
    assert (b.builds is BuildSites.ANYWHERE) == ("BUILD_ANY" in m.rules)


def test_what_the_hand_written_maps_show(monkeypatch):
    _, base = own_map("islands.map", monkeypatch)
    assert "roc" not in base.provinces  # The Rock is SHUT
    assert base.provinces["isl"].kind.value == "coast"  # a PORT
    assert not base.army_adjacent("nor", "isl") and base.fleet_adjacent(
        location("NOR"), location("ISL")
    )  # "Isl": fleets only
    assert base.army_adjacent("nor", "sou")  # "sou": armies only
    assert not base.fleet_adjacent(location("NOR"), location("SOU"))
    assert base.provinces["mid"].coasts == ("nc", "sc")
    assert base.lookup_power("Southern Lands") == base.lookup_power("SOUTHLANDS") == "South-Lands"
    assert base.lookup("north port") == "nor"
    assert base.powers == ("Hermit", "North", "South-Lands")  # Hermit is a dummy, kept
    _, variant = own_map("islands_variant.map", monkeypatch)
    assert variant.powers == ("North", "South-Lands", "West")  # Hermit UNPLAYED
    assert "isl" in variant.centres and variant.home_centres("West") == ("isl",)
    assert variant.home_centres("North") == ("mid", "nor")  # two INHABITS lines
    assert variant.home_centres("South-Lands") == ("hil", "sou")  # HOME
    assert variant.starting_units("North")[0][1] == Location("mid", "nc")  # after UNITS
    assert not variant.army_adjacent("nor", "sou")  # AMEND ... -sou
    assert not variant.army_adjacent("hil", "mid")  # HIL redefined
    assert variant.lookup("Great Hills") == "hil"  # USES islands_names
    assert (variant.victory, variant.start_year, variant.builds.value) == (4, 1910, "anywhere")


@dataclass
class BadCase:
    """A case of bad_mila_maps.txt: what is wrong, the error expected, the files."""

    what: str
    expected: str = ""
    files: dict[str, list[str]] = field(default_factory=dict)


def bad_cases() -> list[BadCase]:
    cases: list[BadCase] = []
    for line in (DATA / "bad_mila_maps.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("== "):
            cases.append(BadCase(line[3:]))
        elif line.startswith("=> "):
            cases[-1].expected = line[3:]
        elif line.startswith("-- "):
            cases[-1].files[line[3:]] = []
        elif cases and cases[-1].files:
            cases[-1].files[list(cases[-1].files)[-1]].append(line)
        elif line.strip() and not line.startswith("#"):
            raise AssertionError(f"bad_mila_maps.txt: a line outside a file: {line!r}")
    return cases


@pytest.mark.parametrize("case", bad_cases(), ids=lambda case: case.what)
def test_a_bad_map_is_refused_naming_the_file_and_the_line(case, tmp_path):
    for name, lines in case.files.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(MapDataError) as error:
        mila_map_text(tmp_path / next(iter(case.files)))
    assert str(error.value).startswith(str(tmp_path / case.expected))


def test_there_are_many_bad_cases_each_with_an_expected_error():
    cases = bad_cases()
    assert len(cases) >= 30
    assert all(case.expected and case.files for case in cases)


def test_a_missing_map_or_name_is_refused(tmp_path):
    with pytest.raises(MapDataError, match="no such MILA map file"):
        mila_map_text(tmp_path / "nope.map")
    with pytest.raises(MapDataError, match="no such MILA map file"):
        mila_map_text("no_such_map_anywhere")
    broken = tmp_path / "latin1.map"
    broken.write_bytes(b"Caf\xe9 = caf\n")
    with pytest.raises(MapDataError, match=f"{broken}: cannot read MILA map file"):
        mila_map_text(broken)


def test_a_map_file_converts_without_the_diplomacy_package():
    script = (
        "import sys\nsys.modules['diplomacy'] = None  # as if it were not installed\n"
        "from topology import MapDataError\n"
        "from topology.milamap import mila_map_text, mila_maps_folder\n"
        "assert mila_maps_folder() is None\n"
        f"print(mila_map_text({str(HAND_WRITTEN / 'islands_variant.map')!r}), end='')\n"
        "try:\n    mila_map_text('standard')\nexcept MapDataError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    text = mila_map_text(HAND_WRITTEN / "islands_variant.map")
    assert done.stdout.startswith(text)
    assert done.stdout[len(text) :].startswith("standard: no such MILA map file, and the diplomacy")


# -- the command line and the documentation ---------------------------------------------


@slow
def test_variant_import_writes_the_conversion(tmp_path):
    out = tmp_path / "islands.toml"
    done = dipsat("variant", "import", str(HAND_WRITTEN / "islands_variant.map"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == mila_map_text(HAND_WRITTEN / "islands_variant.map")
    assert "7 provinces, 3 powers, 5 supply centres" in done.stdout
    assert board_from_text(out.read_text(encoding="utf-8"), out).powers == (
        "North",
        "South-Lands",
        "West",
    )


@slow
def test_variant_import_reports_file_and_line_and_exits_1(tmp_path):
    bad = tmp_path / "bad.map"
    bad.write_text("NORTH (NORTHERN) AAA\nA AAA BBB\n", encoding="utf-8")
    done = dipsat("variant", "import", str(bad), "--out", str(tmp_path / "bad.toml"))
    assert done.returncode == 1
    assert done.stderr.startswith(f"{bad}:2: expected a unit such as 'A PAR'")
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "bad.toml").exists()


def test_the_examples_of_the_documentation_run_as_written(monkeypatch):
    pytest.importorskip("diplomacy")
    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / "mila-maps.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    assert tried > 0
    assert failures == 0


def test_the_documentation_table_states_each_maps_figures():
    page = (ROOT / "docs" / "mila-maps.md").read_text(encoding="utf-8")
    for name in MAPS:
        b = load_board(VARIANTS / f"{name}.toml")
        row = next(line for line in page.splitlines() if line.startswith(f"| `{name}` |"))
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[1:7] == [
            str(len(b.provinces)),
            str(len(b.powers)),
            str(len(b.centres)),
            str(b.victory),
            str(b.start_year),
            b.builds.value,
        ], name
