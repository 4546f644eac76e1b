"""Tests of the topology package against facts of the standard Diplomacy board."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

import topology
from topology import (
    STANDARD_PATH,
    AmbiguousNameError,
    Board,
    Kind,
    Location,
    MapDataError,
    UnitType,
    UnknownNameError,
    load_board,
    normalize,
    standard,
)

DATA = Path(__file__).parent / "data"
RAW = tomllib.loads(STANDARD_PATH.read_text(encoding="utf-8"))
RAW_BY_CODE = {p["code"]: p for p in RAW["province"]}


@pytest.fixture(scope="module")
def board() -> Board:
    return standard()


def loc(key: str) -> Location:
    return Location.parse(key)


# -- the raw data file ------------------------------------------------------------------


def raw_fleet_lists() -> dict[str, list[str]]:
    """Fleet neighbour lists of the data file, keyed by location ("spa/nc")."""
    lists: dict[str, list[str]] = {}
    for code, p in RAW_BY_CODE.items():
        if "fleet" in p:
            lists[code] = p["fleet"]
        for coast, neighbours in p.get("coasts", {}).items():
            lists[f"{code}/{coast}"] = neighbours
    return lists


def test_raw_army_borders_are_listed_at_both_ends() -> None:
    one_sided = [
        (code, other)
        for code, p in RAW_BY_CODE.items()
        for other in p.get("army", [])
        if code not in RAW_BY_CODE[other].get("army", [])
    ]
    assert one_sided == []


def test_raw_fleet_borders_are_listed_at_both_ends() -> None:
    lists = raw_fleet_lists()
    one_sided = [
        (here, there) for here, ns in lists.items() for there in ns if here not in lists[there]
    ]
    assert one_sided == []


def test_graphs_hold_exactly_the_raw_borders(board: Board) -> None:
    army = {frozenset((c, o)) for c, p in RAW_BY_CODE.items() for o in p.get("army", [])}
    fleet = {frozenset((h, t)) for h, ns in raw_fleet_lists().items() for t in ns}
    assert {frozenset(e) for e in board.army_graph().edges} == army
    assert {frozenset(e) for e in board.fleet_graph().edges} == fleet
    assert len(army) == 111
    assert len(fleet) == 141


# -- provinces, centres and powers ----------------------------------------------------


def test_province_counts(board: Board) -> None:
    kinds = [p.kind for p in board.provinces.values()]
    assert len(board.provinces) == 75
    assert (kinds.count(Kind.LAND), kinds.count(Kind.COAST), kinds.count(Kind.SEA)) == (14, 42, 19)
    assert list(board.provinces) == sorted(board.provinces)
    assert board.name == "standard"


def test_switzerland_is_not_a_province(board: Board) -> None:
    assert "swi" not in board.provinces
    for text in ("Switzerland", "SWI"):
        with pytest.raises(UnknownNameError):
            board.lookup(text)


def test_supply_centres(board: Board) -> None:
    assert len(board.centres) == 34
    assert all(board.provinces[c].is_centre for c in board.centres)
    neutral = {c for c in board.centres if board.provinces[c].home is None}
    assert neutral == {
        "bel",
        "bul",
        "den",
        "gre",
        "hol",
        "nwy",
        "por",
        "rum",
        "ser",
        "spa",
        "swe",
        "tun",
    }


def test_home_centres(board: Board) -> None:
    assert board.powers == ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
    homes = {power: board.home_centres(power) for power in board.powers}
    assert homes == {
        "Austria": ("bud", "tri", "vie"),
        "England": ("edi", "lon", "lvp"),
        "France": ("bre", "mar", "par"),
        "Germany": ("ber", "kie", "mun"),
        "Italy": ("nap", "rom", "ven"),
        "Russia": ("mos", "sev", "stp", "war"),
        "Turkey": ("ank", "con", "smy"),
    }
    assert sum(len(h) for h in homes.values()) == 22
    for power, codes in homes.items():
        assert all(board.province(c).home == power for c in codes)


def test_powers_by_any_name(board: Board) -> None:
    assert board.power_adjective("France") == "French"
    assert board.power_adjective("TUR") == "Turkish"
    cases = {
        "AUS": "Austria", "austrian": "Austria", "Austria-Hungary": "Austria",
        "ENG": "England", "Inglaterra": "England", "english": "England",
        "FRA": "France", "Francia": "France", "GER": "Germany", "Alemania": "Germany",
        "ITA": "Italy", "Italia": "Italy", "RUS": "Russia", "Rusia": "Russia",
        "TUR": "Turkey", "Turquía": "Turkey", "TURQUIA": "Turkey", "turkish": "Turkey",
    }  # fmt: skip
    assert {text: board.lookup_power(text) for text in cases} == cases
    assert board.home_centres("russian") == board.home_centres("Russia")
    for text in ("Spain", "F", "A", "Fra.nce", "Ital"):
        with pytest.raises(UnknownNameError):
            board.lookup_power(text)


def test_split_provinces(board: Board) -> None:
    split = {c: p.coasts for c, p in board.provinces.items() if p.coasts}
    assert split == {"bul": ("ec", "sc"), "spa": ("nc", "sc"), "stp": ("nc", "sc")}


# -- graphs ---------------------------------------------------------------------------


def test_army_graph_has_no_sea(board: Board) -> None:
    nodes = set(board.army_graph())
    assert nodes == {c for c, p in board.provinces.items() if p.kind is not Kind.SEA}


def test_fleet_graph_has_no_land(board: Board) -> None:
    nodes = set(board.fleet_graph())
    provinces = {loc(n).province for n in nodes}
    assert all(board.provinces[p].kind is not Kind.LAND for p in provinces)
    assert provinces == {c for c, p in board.provinces.items() if p.kind is not Kind.LAND}
    assert {"spa", "stp", "bul"}.isdisjoint(nodes)
    assert {"spa/nc", "spa/sc", "stp/nc", "stp/sc", "bul/ec", "bul/sc"} <= nodes
    assert len(nodes) == 64


def test_province_graph_merges_coasts(board: Board) -> None:
    g = board.province_graph()
    assert set(g) == set(board.provinces)
    expected = {frozenset(e) for e in board.army_graph().edges} | {
        frozenset(loc(n).province for n in e) for e in board.fleet_graph().edges
    }
    assert {frozenset(e) for e in g.edges} == expected
    assert nx.is_connected(g)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ska", "bal"),
        ("ska", "bot"),
        ("nth", "mao"),
        ("nao", "nth"),
        ("rom", "ven"),
        ("tys", "adr"),
    ],
)
def test_not_fleet_adjacent(board: Board, a: str, b: str) -> None:
    assert not board.fleet_adjacent(loc(a), loc(b))
    assert not board.fleet_adjacent(loc(b), loc(a))


def test_seas_that_do_not_touch(board: Board) -> None:
    g = board.province_graph()
    assert not g.has_edge("ska", "bal")
    assert not g.has_edge("nth", "mao")


def test_tyrrhenian_sea_neighbours(board: Board) -> None:
    assert set(board.fleet_graph().adj["tys"]) == {"lyo", "wes", "tun", "ion", "nap", "rom", "tus"}


@pytest.mark.parametrize(
    ("a", "b", "army", "fleet"),
    [
        ("ank", "con", True, True),
        ("ank", "smy", True, False),
        ("ank", "arm", True, True),
        ("rom", "ven", True, False),
        ("apu", "rom", True, False),
        ("kie", "ber", True, True),
        ("kie", "hol", True, True),
        ("kie", "den", True, True),
        ("den", "swe", True, True),
        ("con", "smy", True, True),
        ("con", "bul", True, None),
        ("lvp", "edi", True, False),
        ("naf", "tun", True, True),
        ("por", "spa", True, None),
        ("fin", "nwy", True, False),
        ("syr", "arm", True, False),
        ("pie", "ven", True, False),
        ("bul", "gre", True, None),
    ],
)
def test_land_and_sea_borders(board: Board, a: str, b: str, army: bool, fleet: bool | None) -> None:
    assert board.army_adjacent(a, b) is army
    assert board.army_adjacent(b, a) is army
    if fleet is not None:
        assert board.fleet_adjacent(loc(a), loc(b)) is fleet
        assert board.fleet_adjacent(loc(b), loc(a)) is fleet


def test_munich_has_no_fleet_borders(board: Board) -> None:
    assert "mun" not in board.fleet_graph()
    assert not board.fleet_adjacent(loc("kie"), loc("mun"))


@pytest.mark.parametrize(
    ("coast", "neighbours"),
    [
        ("spa/nc", {"gas", "mao", "por"}),
        ("spa/sc", {"lyo", "mao", "mar", "por", "wes"}),
        ("stp/nc", {"bar", "nwy"}),
        ("stp/sc", {"bot", "fin", "lvn"}),
        ("bul/ec", {"bla", "con", "rum"}),
        ("bul/sc", {"aeg", "con", "gre"}),
    ],
)
def test_split_coast_neighbours(board: Board, coast: str, neighbours: set[str]) -> None:
    assert set(board.fleet_graph().adj[coast]) == neighbours


def test_spain_north_coast_not_from_the_mediterranean(board: Board) -> None:
    for sea in ("lyo", "wes"):
        assert not board.fleet_adjacent(loc(sea), loc("spa/nc"))
        assert board.fleet_adjacent(loc(sea), loc("spa/sc"))


def test_two_coasts_never_connect(board: Board) -> None:
    for code, p in board.provinces.items():
        for c1 in p.coasts:
            for c2 in p.coasts:
                assert not board.fleet_adjacent(Location(code, c1), Location(code, c2))


@pytest.mark.parametrize(
    ("src", "dest", "coasts"),
    [
        ("mao", "spa", ("nc", "sc")),
        ("por", "spa", ("nc", "sc")),
        ("gas", "spa", ("nc",)),
        ("lyo", "spa", ("sc",)),
        ("wes", "spa", ("sc",)),
        ("mar", "spa", ("sc",)),
        ("bla", "bul", ("ec",)),
        ("rum", "bul", ("ec",)),
        ("aeg", "bul", ("sc",)),
        ("con", "bul", ("ec", "sc")),
        ("nwy", "stp", ("nc",)),
        ("bot", "stp", ("sc",)),
        ("fin", "stp", ("sc",)),
        ("nth", "nwy", (None,)),
        ("spa/nc", "por", (None,)),
        ("ska", "bal", ()),
        ("bal", "stp", ()),
        ("spa", "por", ()),  # the bare split province is no fleet location
    ],
)
def test_fleet_coasts_towards(
    board: Board, src: str, dest: str, coasts: tuple[str | None, ...]
) -> None:
    assert board.fleet_coasts_towards(loc(src), dest) == coasts


def test_graphs_are_frozen_and_cached(board: Board) -> None:
    for graph in (board.army_graph(), board.fleet_graph(), board.province_graph()):
        assert nx.is_frozen(graph)
        with pytest.raises(nx.NetworkXError):
            graph.add_edge("ska", "bal")
    assert board.fleet_graph() is board.fleet_graph()


def test_board_is_immutable(board: Board) -> None:
    with pytest.raises(TypeError):
        board.provinces["xyz"] = board.provinces["adr"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        board.name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        board.province("adr").name = "Adriatic"  # type: ignore[misc]
    assert standard() is board
    assert topology.STANDARD is board


# -- locations ------------------------------------------------------------------------


def test_locations(board: Board) -> None:
    places = board.locations()
    assert len(places) == 75 + 6
    assert list(places) == sorted(places)
    assert Location("spa") in places and Location("spa", "nc") in places
    assert Location("mun") in places and Location("nth") in places


def test_location_text_and_order() -> None:
    assert str(Location("stp", "nc")) == "stp/nc"
    assert str(Location("stp")) == "stp"
    assert Location.parse("bul/ec") == Location("bul", "ec")
    assert sorted(
        [Location("spa", "sc"), Location("spa"), Location("por"), Location("spa", "nc")]
    ) == [
        Location("por"),
        Location("spa"),
        Location("spa", "nc"),
        Location("spa", "sc"),
    ]
    with pytest.raises(ValueError, match="coast"):
        Location("spa", "xc")


def test_unit_type_and_kind_text() -> None:
    assert str(UnitType.ARMY) == "A"
    assert str(UnitType.FLEET) == "F"
    assert Kind("coast") is Kind.COAST


# -- civil-disorder distances (DATC 6.J) ----------------------------------------------

CIVIL_DISORDER = tomllib.loads(
    (DATA / "civil_disorder_distances.toml").read_text(encoding="utf-8")
)["case"]


@pytest.mark.parametrize("case", CIVIL_DISORDER, ids=[c["id"] for c in CIVIL_DISORDER])
def test_civil_disorder_distances(board: Board, case: dict) -> None:
    dist = board.distances_to(board.lookup(name) for name in case["owned"])
    got = {name: dist[board.lookup(name)] for name in case["distances"]}
    assert got == case["distances"]


def test_distances_to_edge_cases(board: Board) -> None:
    assert board.distances_to([]) == {}
    dist = board.distances_to(["mos"])
    assert len(dist) == 75 and dist["mos"] == 0
    assert dist["stp"] == dist["war"] == dist["sev"] == 1
    with pytest.raises(UnknownNameError):
        board.distances_to(["xyz"])


# -- names ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("St. Petersburg", ("st", "petersburg")),
        ("Mid-Atlantic Ocean", ("mid", "atlantic", "ocean")),
        ("Moscú", ("moscu",)),
        ("  StP(nc) ", ("stp", "nc")),
        ("Bul_E", ("bul", "e")),
        ("spa/sc", ("spa", "sc")),
        ("Côte d'Azur", ("cote", "d", "azur")),
        ("", ()),
    ],
)
def test_normalize(text: str, words: tuple[str, ...]) -> None:
    assert normalize(text) == words


@given(st.text())
def test_normalize_is_idempotent(text: str) -> None:
    words = normalize(text)
    assert normalize(" ".join(words)) == words
    assert all(words)


def test_every_code_and_name_looks_up(board: Board) -> None:
    for code, p in board.provinces.items():
        assert board.lookup(code) == code
        assert board.lookup(code.upper()) == code
        assert board.lookup(p.name) == code
        assert board.lookup(p.name.upper()) == code
        for alias in p.aliases:
            assert board.lookup(alias) == code


def test_no_name_is_shared_by_two_provinces(board: Board) -> None:
    assert {k: v for k, v in board.name_index.items() if len(v) > 1} == {}


DATC_NAMES = {
    "Adriatic Sea": "adr", "Gulf of Lyon": "lyo", "Helgoland Bight": "hel",
    "Mid-Atlantic Ocean": "mao", "North Atlantic Ocean": "nao", "St Petersburg": "stp",
    "North Africa": "naf", "Eastern Mediterranean": "eas", "Western Mediterranean": "wes",
    "Tyrolia": "tyr", "Tyrrhenian Sea": "tys", "Marseilles": "mar", "Rumania": "rum",
}  # fmt: skip
DATC_SHORT = {
    "Mid": "mao", "Tyn": "tys", "Tys": "tys", "StP": "stp", "Bul": "bul", "NAf": "naf",
    "Nwg": "nwg", "Eng": "eng", "Nth": "nth", "Hel": "hel", "Lyo": "lyo", "Wes": "wes",
    "Eas": "eas", "Ion": "ion", "Aeg": "aeg",
}  # fmt: skip
DAIDE = {
    "ECH": "eng", "GOL": "lyo", "GOB": "bot", "NAO": "nao", "NWG": "nwg", "MAO": "mao",
    "NTH": "nth", "TYS": "tys", "TYR": "tyr", "HEL": "hel", "SKA": "ska", "LVN": "lvn",
}  # fmt: skip
GODIP = {
    "nat": "nao",
    "nrg": "nwg",
    "mid": "mao",
    "gol": "lyo",
    "eng": "eng",
    "bot": "bot",
    "tys": "tys",
}
FIVE_D = {"LYO": "lyo", "Lvn": "lvn", "Heligoland Bight": "hel", "York": "yor", "NWG": "nwg"}
COMMON = {
    "Gulf of Lions": "lyo", "Gulf of Lyons": "lyo", "St. Petersburg": "stp",
    "Saint Petersburg": "stp", "Heligoland Bight": "hel", "Helgoland": "hel",
    "Marseille": "mar", "Tyrol": "tyr", "Mid Atlantic": "mao", "North Atlantic": "nao",
    "Norwegian": "nwg", "English Channel": "eng", "Channel": "eng", "Romania": "rum",
    "Rumania": "rum", "Constantinople": "con", "Syria": "syr", "Smyrna": "smy",
}  # fmt: skip
SPANISH = {
    "Moscú": "mos", "moscu": "mos", "San Petersburgo": "stp", "San Petesburgo": "stp",
    "Sebastopol": "sev", "Livonia": "lvn", "Ucrania": "ukr", "Varsovia": "war",
    "Londres": "lon", "Edimburgo": "edi", "Gales": "wal", "Mar del Norte": "nth",
    "Canal de la Mancha": "eng", "Atlántico Norte": "nao", "Atlántico Medio": "mao",
    "Mar de Noruega": "nwg", "Mar de Barents": "bar", "Mar de Irlanda": "iri",
    "Golfo de Botnia": "bot", "Mar Báltico": "bal", "Heligoland": "hel",
    "Dinamarca": "den", "Suecia": "swe", "Noruega": "nwy", "Finlandia": "fin",
    "Prusia": "pru", "Silesia": "sil", "Berlín": "ber", "Múnich": "mun", "Bohemia": "boh",
    "Tirol": "tyr", "Viena": "vie", "Galitzia": "gal", "Budapest": "bud", "Trieste": "tri",
    "Venecia": "ven", "Piamonte": "pie", "Toscana": "tus", "Roma": "rom", "Apulia": "apu",
    "Nápoles": "nap", "Mar Tirreno": "tys", "Mar Jónico": "ion", "Mar Adriático": "adr",
    "Golfo de León": "lyo", "Mediterráneo Occidental": "wes",
    "Mediterráneo Oriental": "eas", "Mar Egeo": "aeg", "Mar Negro": "bla", "Grecia": "gre",
    "Rumanía": "rum", "Constantinopla": "con", "Esmirna": "smy", "Siria": "syr",
    "Armenia": "arm", "África del Norte": "naf", "Túnez": "tun", "Picardía": "pic",
    "Borgoña": "bur", "Gascuña": "gas", "Marsella": "mar", "España": "spa",
    "Bélgica": "bel", "Holanda": "hol", "París": "par", "MAR ADRIATICO": "adr",
}  # fmt: skip


@pytest.mark.parametrize(
    "table",
    [DATC_NAMES, DATC_SHORT, DAIDE, GODIP, FIVE_D, COMMON, SPANISH],
    ids=["datc", "datc-short", "daide", "godip", "5d", "common", "spanish"],
)
def test_alias_tables(board: Board, table: dict[str, str]) -> None:
    assert {text: board.lookup(text) for text in table} == table


def test_lookup_ignores_case_and_accents(board: Board) -> None:
    assert board.lookup("Moscú") == board.lookup("moscu") == board.lookup("MOSCU") == "mos"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Gulf of Ly", "lyo"),
        ("Tyrrh", "tys"),
        ("Mid-Atl", "mao"),
        ("Sevas", "sev"),
        ("Mar del N", "nth"),
    ],
)
def test_unique_prefix_looks_up(board: Board, text: str, code: str) -> None:
    assert board.lookup(text) == code


def test_ambiguous_prefix(board: Board) -> None:
    with pytest.raises(AmbiguousNameError) as info:
        board.lookup("Nor")
    assert info.value.candidates == ("naf", "nao", "nth", "nwg", "nwy")
    for name in ("North Africa", "North Atlantic Ocean", "North Sea", "Norwegian Sea", "Norway"):
        assert name in str(info.value)
    assert isinstance(info.value, ValueError)


def test_candidates_by_prefix(board: Board) -> None:
    assert board.candidates_by_prefix(("liv",)) == ("lvn", "lvp")
    assert board.candidates_by_prefix(("gulf", "of")) == ("bot", "lyo")
    assert board.candidates_by_prefix(("gulf", "of", "b")) == ("bot",)
    assert board.candidates_by_prefix(()) == ()
    with pytest.raises(AmbiguousNameError):
        board.lookup("Liv")


@pytest.mark.parametrize("text", ["Atlantis", "", "  ", "Switzerland", "Norway Sea Fleet"])
def test_unknown_names(board: Board, text: str) -> None:
    with pytest.raises(UnknownNameError):
        board.lookup(text)


def test_name_index_keys_are_normalized(board: Board) -> None:
    for key in board.name_index:
        assert normalize(" ".join(key)) == key
    assert board.name_index[("gulf", "of", "lions")] == frozenset({"lyo"})


# -- malformed map files ----------------------------------------------------------------

# the standard map's text, without its drawing (a file beside it, which a copy elsewhere lacks)
TEXT = re.sub(r"(?m)^drawing = .*$", "", STANDARD_PATH.read_text(encoding="utf-8"))


def province_block(code: str) -> str:
    start = TEXT.index(f'code = "{code}"')
    end = TEXT.index("[[province]]", start)
    return TEXT[start:end]


def broken(code: str, old: str, new: str) -> str:
    block = province_block(code)
    assert old in block
    return TEXT.replace(block, block.replace(old, new))


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        (
            broken("syr", 'army = ["arm", "smy"]', 'army = ["arm"]'),
            ["'smy'", "'syr'", "asymmetric army"],
        ),
        (broken("bla", '"bul/ec", ', ""), ["'bla'", "'bul/ec'", "asymmetric fleet"]),
        (broken("syr", '"arm", "smy"', '"arm", "smy", "xyz"'), ["province 'syr'", "'xyz'"]),
        (broken("syr", '"arm", "smy"', '"arm", "smy", "eas"'), ["province 'syr'", "sea"]),
        (
            broken("syr", 'fleet = ["eas", "smy"]', 'fleet = ["eas", "smy", "ukr"]'),
            ["'ukr'", "land"],
        ),
        (
            broken("tyr", 'army = ["boh"', 'fleet = ["adr"]\narmy = ["boh"'),
            ["province 'tyr'", "fleet"],
        ),
        (broken("bla", '"bul/ec"', '"bul"'), ["province 'bla'", "coasts"]),
        (broken("bla", '"con"', '"con/nc"'), ["province 'bla'", "'con/nc'"]),
        (broken("bul", "ec = [", "xc = ["), ["province 'bul'", "'xc'"]),
        (broken("ska", 'kind = "sea"', 'kind = "lake"'), ["province 'ska'", "kind"]),
        (TEXT.replace('home = ["bud", "tri", "vie"]', 'home = ["bud", "tri", "gal"]'), ["'gal'"]),
        (TEXT + '\n[[province]]\ncode = "ska"\n', ["province 'ska'", "twice"]),
        (
            TEXT.replace('name = "standard"', 'name = "standard'),
            ["not valid TOML", "broken.toml:18:17:"],
        ),
        (
            TEXT.replace('name = "standard"', 'name = "standard"\nstart_year = 10000'),
            ["`start_year` must be a whole number from 1 to 9999"],
        ),
    ],
    ids=[
        "asymmetric-army",
        "asymmetric-fleet",
        "unknown-code",
        "army-to-sea",
        "fleet-to-land",
        "fleet-key-on-land",
        "coast-missing",
        "coast-on-unsplit",
        "bad-coast",
        "bad-kind",
        "home-not-centre",
        "duplicate",
        "toml-syntax",
        "start-after-9999",
    ],
)
def test_malformed_map_is_rejected(tmp_path: Path, text: str, fragments: list[str]) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapDataError) as info:
        load_board(path)
    message = str(info.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message


def test_asymmetric_border_names_both_ends(tmp_path: Path) -> None:
    path = tmp_path / "asym.toml"
    path.write_text(broken("kie", 'army = ["ber", "den",', 'army = ["ber",'), encoding="utf-8")
    with pytest.raises(
        MapDataError, match=r"asymmetric army border: 'den' lists 'kie' but 'kie' does not"
    ):
        load_board(path)


def test_copy_of_standard_loads(tmp_path: Path) -> None:
    path = tmp_path / "copy.toml"
    path.write_text(TEXT, encoding="utf-8")
    copy = load_board(path)
    assert copy is not standard()
    assert set(copy.army_graph().edges) == set(standard().army_graph().edges)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(MapDataError, match="cannot read"):
        load_board(tmp_path / "nope.toml")


def line_of(text: str, anchor: str, key: str) -> int:
    """The line of the first ``key = ...`` line at or after the line holding ``anchor``."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if anchor in line)
    return next(n for n in range(start, len(lines)) if lines[n].startswith(f"{key} ")) + 1


TOP = 'name = "standard"'


@pytest.mark.parametrize(
    ("text", "anchor", "key", "fragment"),
    [
        (TEXT.replace("victory = 18", "victory = 40"), TOP, "victory", "from 1 to 34"),
        (TEXT.replace(TOP, f'{TOP}\nbuilds = "everywhere"'), TOP, "builds", "'everywhere'"),
        (TEXT.replace(TOP, f"{TOP}\nstart_year = 0"), TOP, "start_year", "from 1 to 9999"),
        (TEXT.replace(TOP, f'{TOP}\ndrawing = "nope.toml"'), TOP, "drawing", "does not exist"),
        (TEXT.replace(TOP, f"{TOP}\nvictroy = 18"), TOP, "victroy", "unknown keys"),
        (
            broken("bul", 'ec = ["bla", "con", "rum"]', "ec = []"),
            'code = "bul"',
            "coasts",
            "no fleet neighbour",
        ),
        (
            broken("alb", 'fleet = ["adr", "gre", "ion", "tri"]', "fleet = []"),
            'code = "alb"',
            "fleet",
            'its kind is "land"',
        ),
        (
            broken("kie", 'army = ["ber", "den",', 'army = ["den",'),
            'code = "kie"',
            "army",
            "'ber' lists 'kie'",
        ),
        (
            TEXT.replace('"A bud"', '"F bud"'),
            "[powers.Austria]",
            "start",
            "a fleet cannot stand inland, in Budapest",
        ),
        (TEXT.replace('"A vie"', '"A tri"'), "[powers.Austria]", "start", "two units start"),
        (
            TEXT.replace('home = ["bud", "tri", "vie"]', 'home = ["bud", "tri", "tyr"]'),
            "[powers.Austria]",
            "home",
            "'tyr' is not a supply centre",
        ),
        (
            TEXT.replace('home = ["edi", "lon", "lvp"]', 'home = ["edi", "lon", "vie"]'),
            "[powers.England]",
            "home",
            "also a home centre of Austria",
        ),
        (TEXT.replace('lyo = "gol"', 'lyx = "gol"'), "[codes.godip]", "lyx", "no province"),
        (TEXT.replace('lyo = "gol"', 'lyo = "G-L"'), "[codes.godip]", "lyo", "lower-case code"),
        (TEXT.replace('lyo = "gol"', 'lyo = "mun"'), "[codes.godip]", "lyo", "two provinces"),
    ],
    ids=[
        "victory-beyond-the-centres",
        "unknown-build-rule",
        "year-zero",
        "drawing-missing",
        "unknown-top-key",
        "coast-without-fleet-link",
        "coast-province-without-fleet-link",
        "asymmetric-army-border",
        "start-unit-on-wrong-terrain",
        "two-start-units-in-one-province",
        "home-centre-not-a-centre",
        "home-centre-of-two-powers",
        "code-set-unknown-province",
        "code-set-bad-code",
        "code-set-code-taken",
    ],
)
def test_a_fault_names_the_file_and_line_of_its_key(
    tmp_path: Path, text: str, anchor: str, key: str, fragment: str
) -> None:
    path = tmp_path / "variant.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapDataError) as info:
        load_board(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line_of(text, anchor, key)}: "), message
    assert fragment in message


def test_the_variant_keys_reach_the_board(tmp_path: Path) -> None:
    text = TEXT.replace("victory = 18", 'victory = 20\nbuilds = "anywhere"\nstart_year = 1')
    path = tmp_path / "variant.toml"
    path.write_text(text, encoding="utf-8")
    board = load_board(path)
    assert (board.victory, board.builds.value, board.start_year) == (20, "anywhere", 1)
    assert board.origin == path.resolve() and board.drawing is None
    plain = load_board(_write(tmp_path / "plain.toml", re.sub(r"(?m)^victory = .*$", "", TEXT)))
    assert plain.victory == 18  # more than half of the 34 centres, by default
    assert (plain.builds.value, plain.start_year) == ("home", 1901)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
