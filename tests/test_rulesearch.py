"""Searching the rule books: the search agrees with adjudicating rule book by rule book (and
with the blind enumeration it replaces), its descriptions describe exactly the sets found,
and influence, solve and fit find what cases/rules/rule-search.toml says the DATC and the
games' sites give."""

from __future__ import annotations

import itertools
import json
import random
import tomllib
import zlib
from functools import cache

import pytest
from conftest import ROOT, all_cases, first_fast, slow
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import solver
from solver.cli import app
from solver.crosschecking.replay import transition_matches
from solver.errors import DipsatError
from solver.formats.mila import read_game
from solver.formats.rulebooks import rule_book
from solver.rulesearch import tracing
from solver.rulesearch.compare import case_outcomes
from solver.rulesearch.describe import Cube, merged
from solver.rulesearch.influence import influence
from solver.rulesearch.tracing import Tree, blindly, branches, options
from solver.values.rules import DATC_2025, POLICIES, RULE_BOOKS, RuleBook, conflicting

SEARCHES = tomllib.loads((ROOT / "cases" / "rules" / "rule-search.toml").read_text("utf-8"))
STANDARD = [c for c in all_cases() if not c.multiverse]
BY_ID = {c.id: c for c in all_cases()}
MULTIVERSE = ["MV.1", "O.E.1", "3.A.1"]  # a few 5D cases: their steps read many policies


def random_books(count: int, seed: int) -> list[RuleBook]:
    """Rule books with every policy drawn at random (none that `conflicting` refuses)."""
    rng = random.Random(seed)
    books: list[RuleBook] = []
    while len(books) < count:
        values = {p: rng.choice(options(p)) for p in POLICIES}
        if not conflicting(values):
            books.append(RuleBook(f"random-{len(books)}", **values))
    return books


def disagreements(run, books, base=DATC_2025) -> list[str]:
    """The rule books under which the search's leaf for a book is not what running the
    computation under that book gives."""
    tree = Tree(branches(run, base))
    return [b.name for b in books if tree.leaf(b).result != run(b)]


@pytest.mark.parametrize("case_id", first_fast(MULTIVERSE + [c.id for c in STANDARD], 12))
def test_the_search_agrees_with_adjudicating_under_each_rule_book(case_id):
    """The adjudicator reads a policy wherever the policy decides something: the leaf a
    rule book falls in is what adjudicating the case under that rule book gives."""
    case = BY_ID[case_id]
    books = [*RULE_BOOKS.values(), *random_books(6, seed=zlib.crc32(case_id.encode()))]
    assert disagreements(case_outcomes(case), books) == []


def test_a_policy_reached_around_the_rule_book_is_caught():
    """Fault injection: a run that finds its rule book by name (a global), not through the
    book it is given, reads no policy: the search sees one leaf, and the agreement check
    objects under every rule book that decides the case differently."""
    honest = case_outcomes(BY_ID["6.F.17"])

    def by_name(book):
        return honest(RULE_BOOKS.get(book.name, DATC_2025))

    assert set(disagreements(by_name, list(RULE_BOOKS.values()))) == {
        "1971",
        "1982",
        "2000",
        "2023",
        "dptg",
    }


def test_a_search_that_records_other_values_than_it_hands_out_is_caught(monkeypatch):
    """Fault injection in the search itself: each policy is handed out at its base value
    whatever the branch, so the leaves are labelled with values the run never saw."""
    original = tracing._Chooser.value

    def always_base(self, policy):
        original(self, policy)
        return getattr(self.base, policy)

    monkeypatch.setattr(tracing._Chooser, "value", always_base)
    found = disagreements(case_outcomes(BY_ID["6.F.17"]), list(RULE_BOOKS.values()))
    assert "1982" in found and "2025" not in found


def test_a_computation_that_is_not_a_function_of_its_reads_is_refused():
    flips = itertools.count()

    def unstable(book):
        return book.brannan if next(flips) % 2 else book.multi_route

    with pytest.raises(RuntimeError, match="read"):
        list(branches(unstable, DATC_2025))


CONVOY_POLICIES = [
    "multi_route",
    "convoy_cut",
    "convoy_paradox",
    "convoy_to_adjacent",
    "via_fallback",
    "brannan",
]


@pytest.mark.parametrize("case_id", first_fast(["6.F.17", "6.F.19", "6.G.8", "6.G.11"]))
def test_the_search_agrees_with_blind_enumeration(case_id):
    """The unoptimised reference: every combination of the six convoy policies, adjudicated
    one by one, against the search's leaves."""
    run = case_outcomes(BY_ID[case_id])
    tree = Tree(branches(run, DATC_2025))
    base = {p: getattr(DATC_2025, p) for p in POLICIES}
    compared = 0
    for table, result in blindly(run, DATC_2025, CONVOY_POLICIES):
        assert tree.leaf({**base, **table}).result == result, table
        compared += 1
    assert compared == 2 * 4 * 4 * 3 * 3 * 2
    assert len(tree.leaves) < compared  # the search ran fewer


SMALL = ["multi_route", "convoy_paradox", "civil_disorder_ties"]
ROWS = list(itertools.product(*(options(p) for p in SMALL)))


@settings(max_examples=200, deadline=None)
@given(st.sets(st.sampled_from(ROWS)))
def test_a_description_covers_exactly_the_rule_books_described(rows):
    cubes = merged(Cube.of(dict(zip(SMALL, row, strict=True))) for row in rows)
    covered = {
        row for row in ROWS if any(c.holds(dict(zip(SMALL, row, strict=True))) for c in cubes)
    }
    assert covered == rows
    assert len(cubes) <= max(1, len(rows))


def cases_decided(policies: list[str]) -> set[str]:
    return {i.case for i in datc_influence() if set(i.matter) & set(policies)}


@cache
def datc_influence() -> list:
    """The influence of each DATC case, found once per process when a test first needs it."""
    return [influence(c, DATC_2025) for c in STANDARD if c.id.startswith("6.")]


@pytest.mark.parametrize("entry", SEARCHES["influence"], ids=lambda e: e["issue"])
def test_influence_finds_the_datc_chapter_4_lists(entry):
    """Each issue's policies decide the cases the DATC names, plus the ones docs/rules.md
    explains, minus the ones it explains."""
    expected = (set(entry["datc"]) | set(entry["also"])) - set(entry["missing"])
    assert cases_decided(entry["policies"]) == expected


def test_every_difference_from_the_datc_lists_is_explained_in_the_docs():
    text = (ROOT / "docs" / "rules.md").read_text("utf-8")
    section = text.split("## The search against the DATC's lists", 1)[1].split("\n## ", 1)[0]
    for entry in SEARCHES["influence"]:
        for case_id in entry["also"] + entry["missing"]:
            assert case_id in section, f"{entry['issue']}: {case_id} is not explained"


@pytest.mark.parametrize(
    "entry", SEARCHES["solve"], ids=lambda e: f"{e['case']}: {' / '.join(e['expect'])}"
)
def test_solve_describes_the_rule_books_the_datc_names(entry):
    found = solver.solve_rules(BY_ID[entry["case"]], entry["expect"])
    assert found.description == entry["description"]
    assert list(found.books) == entry["books"]


@slow
@pytest.mark.parametrize("entry", SEARCHES["fit"], ids=lambda e: e["preset"])
def test_fit_finds_the_preset_of_the_site_that_played_the_games(entry):
    games = sorted(ROOT.glob(entry["games"]))
    found = solver.fit_rules(games)
    preset = RULE_BOOKS[entry["preset"]]
    assert found.games == len(games) > 0
    assert found.mismatches == entry["mismatches"]
    assert found.pinned, "the games pin nothing down"
    assert all(getattr(preset, p) == v for p, v in found.pinned)
    assert any(c.holds({p: getattr(preset, p) for p in POLICIES}) for c in found.best)
    assert dict(found.books)[entry["preset"]] == found.mismatches
    assert len(found.unexplained) + len(found.against_best) >= found.mismatches


def test_fit_says_which_transitions_no_rule_book_explains(tmp_path):
    """A record edited so that a unit moves where its order could not take it: no rule book
    replays that transition."""
    game = json.loads((ROOT / "tests/data/games/mila/standard-01.json").read_text("utf-8"))
    after = game["phases"][1]["state"]["units"]["AUSTRIA"]
    after[after.index("A SER")] = "A GAL"  # A Budapest was ordered to Serbia
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(game), "utf-8")
    found = solver.fit_rules([edited])
    # the move no order made, and the fall turn played from the edited position
    assert [(t.phase, t.next) for t in found.unexplained] == [
        ("S1901M", "F1901M"),
        ("F1901M", "W1901A"),
    ]
    assert found.mismatches == 2
    assert all(t.why for t in found.unexplained)  # what replay says differs


def rulebooks(*args: str):
    """`dipsat rulebooks ARGS` in this process, as typer's test runner runs it."""
    return CliRunner().invoke(app, ["rulebooks", *args])


def solve_6f18(expect: str, *args: str):
    return rulebooks("solve", "cases/datc/6F.cases", "--case", "6.F.18", "--expect", expect, *args)


def test_the_command_line_answers_and_refuses_clearly(monkeypatch):
    monkeypatch.chdir(ROOT)
    shown = solve_6f18("A London - Belgium => succeeds")
    assert shown.exit_code == 0, shown.stderr
    assert "hold under: convoy_cut = 1982" in shown.stdout
    assert "named rule books among them: 1982" in shown.stdout
    as_json = rulebooks("influence", "cases/datc/6B.cases", "--case", "6.B.8", "--json")
    data = json.loads(as_json.stdout)
    assert data["cases"][0]["decided_by"] == ["single_coast_default", "support_coast"]
    bad = solve_6f18("A London - Belgium succeeds")
    assert bad.exit_code == 2
    assert "expected 'ORDER => OUTCOME'" in bad.stderr and "Traceback" not in bad.stderr
    unknown = solve_6f18("A Paris - Burgundy => succeeds")
    assert unknown.exit_code == 2
    assert "has no order or outcome 'A Paris - Burgundy'" in unknown.stderr
    no_game = rulebooks("fit", "cases/datc/6F.cases")
    assert no_game.exit_code == 2 and no_game.stdout == ""
    assert "6F.cases: line 1, column 1: not valid JSON" in no_game.stderr
    assert "no game could be read" in no_game.stderr


def test_a_base_rule_book_holds_the_others_still():
    """Under the 1982 edition as the base, 6.F.18's London army reaches Belgium, and the
    policies 1982 sets are the ones shown as its values."""
    found = solver.influence(BY_ID["6.F.18"], rules="1982")[0]
    cut = next(a for a in found.alone if a.policy == "convoy_cut")
    assert cut.effects[0].values[0] is RULE_BOOKS["1982"].convoy_cut
    assert cut.effects[0].changes == ()
    assert any(c.now == "succeeds" for e in cut.effects[1:] for c in e.changes) is False


def test_policies_held_still_are_not_searched_and_a_search_too_large_says_so(monkeypatch):
    monkeypatch.chdir(ROOT)
    case = BY_ID["6.F.17"]
    with pytest.raises(DipsatError, match=r"more than 3 runs: .* hold some still"):
        list(branches(case_outcomes(case), DATC_2025, limit=3))
    held = ["convoy_paradox", "brannan", "retreat_to_convoy_origin"]
    found = influence(case, DATC_2025, held)
    assert found.runs == len(options("convoy_cut")) and found.matter == ("convoy_cut",)
    with pytest.raises(DipsatError, match="unknown policy 'convoy'"):
        influence(case, DATC_2025, ["convoy"])
    shown = rulebooks("influence", "cases/datc/6F.cases", "--case", "6.F.17", "--hold", "convoy")
    assert shown.exit_code == 2 and "unknown policy 'convoy' to hold" in shown.stderr


def test_a_misspelt_policy_to_hold_is_given_the_nearest_name(monkeypatch):
    """Not the whole list of policies: the one meant, as rule-book files are answered."""
    monkeypatch.chdir(ROOT)
    shown = solve_6f18("A London - Belgium => fails", "--hold", "convoy-cutt")
    assert shown.exit_code == 2
    assert shown.stderr.startswith(
        "unknown policy 'convoy-cutt' to hold (did you mean convoy_cut?)"
    )
    assert "fork_when" not in shown.stderr  # no list of all 28
    spelled = solve_6f18("A London - Belgium => fails", "--hold", "convoy-cut", "--json")
    assert spelled.exit_code == 0, spelled.output  # as a rule-book file may spell it
    assert "1982" in json.loads(spelled.stdout)["not_searched"]
    with pytest.raises(DipsatError, match=r"'brannon' to hold \(did you mean brannan\?\)"):
        solver.solve_rules(BY_ID["6.F.18"], "paradox => unresolved", hold=["brannon"])
    one = solver.solve_rules(BY_ID["6.F.18"], "paradox => unresolved", hold="brannan")
    free = solver.solve_rules(BY_ID["6.F.18"], "paradox => unresolved")
    assert one.runs < free.runs and "brannan = false" in one.description  # held, one name
    with pytest.raises(TypeError, match=r"hold: expected a policy.s name or names, found int"):
        solver.solve_rules(BY_ID["6.F.18"], "paradox => unresolved", hold=[3])


def test_a_turn_two_games_share_is_searched_once(tmp_path):
    source = ROOT / "tests/data/games/game_433761_ENGLAND_AG.json"
    copy = tmp_path / "copy.json"
    copy.write_bytes(source.read_bytes())
    once, twice = solver.fit_rules([source]), solver.fit_rules([source, copy])
    assert twice.runs == once.runs and twice.transitions == 2 * once.transitions
    assert twice.books == tuple((name, 2 * n) for name, n in once.books)


def test_beyond_their_limits_influence_says_it_is_incomplete_and_fit_refuses(monkeypatch):
    from solver.rulesearch import fit
    from solver.rulesearch import influence as module

    monkeypatch.setattr(module, "PRODUCT_LIMIT", 2)
    found = influence(BY_ID["6.F.17"], DATC_2025)
    assert not found.complete and found.joint == () and found.interacting == ()
    assert found.matter == ("convoy_cut", "convoy_paradox")  # those that act alone
    monkeypatch.setattr(fit, "SEARCH_LIMIT", 1)
    with pytest.raises(DipsatError, match=r"the games depend on \d+ policies"):
        solver.fit_rules([ROOT / "tests/data/games/game_433761_ENGLAND_AG.json"])


def _reading(policy: str, key: str):
    """A stand-in for a case's adjudication that reads `policy` and one other policy, and
    gives `key` an outcome that depends on both: cheap enough to search under every base."""
    other = next(p for p in POLICIES if p != policy)

    def outcomes_of(case):
        def run(book):
            first = getattr(book, policy) == options(policy)[0]
            second = getattr(book, other) == options(other)[-1]
            return ((key, "succeeds" if first or second else "fails"),)

        return run

    return outcomes_of, other


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("base", list(RULE_BOOKS))
def test_any_policy_can_be_held_under_any_named_base(monkeypatch, base, policy):
    """A search holding POLICY at BASE's value covers the rule books that keep that value:
    the named ones that set it otherwise are said to be outside it, the others listed when
    the outcome holds under them (as running under each one gives)."""
    from solver.rulesearch import solve as module

    key = "Spring 1901 movement: England: F North Sea - Picardy"
    fake, _ = _reading(policy, key)
    monkeypatch.setattr(module, "case_outcomes", fake)
    found = solver.solve_rules(BY_ID["6.A.1"], "F North Sea - Picardy => succeeds", base, [policy])
    held = getattr(RULE_BOOKS[base], policy)
    run = fake(None)
    assert found.books == tuple(
        name
        for name, book in RULE_BOOKS.items()
        if getattr(book, policy) == held and dict(run(book))[key] == "succeeds"
    )
    assert found.not_searched == tuple(
        name for name, book in RULE_BOOKS.items() if getattr(book, policy) != held
    )


@pytest.mark.parametrize("base", ["J", "O-strict", "dptg", "mila", "webdiplomacy", "godip"])
def test_holding_the_convoy_cut_rule_of_a_base_searches_the_others_around_it(monkeypatch, base):
    """The bases the hostile-input run found failing, on a case that reads convoy_cut: the
    named rule books found are those found without holding it, less those it leaves out."""
    monkeypatch.chdir(ROOT)
    expect = "A London - Belgium => fails"
    shown = solve_6f18(expect, "--rules", base, "--hold", "convoy_cut", "--json")
    assert shown.exit_code == 0, shown.output
    held = json.loads(shown.stdout)
    cut = RULE_BOOKS[base].convoy_cut
    assert held["not_searched"] == [n for n, b in RULE_BOOKS.items() if b.convoy_cut != cut]
    free = solver.solve_rules(BY_ID["6.F.18"], expect, base)
    assert held["rule_books"] == [n for n in free.books if n not in held["not_searched"]]


@slow
def test_solve_and_fit_include_the_users_own_rule_book_by_its_file_name(tmp_path, monkeypatch):
    """A base read from a TOML file is one more rule book to find: `solve` lists it among
    those giving the outcome, `fit` scores it, each by the file's name."""
    monkeypatch.chdir(ROOT)
    mine = tmp_path / "mine.toml"
    mine.write_text('base = "2025"\n[policies]\nconvoy_cut = "1982"\n', "utf-8")
    shown = solve_6f18("A London - Belgium => succeeds", "--rules", str(mine), "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["rule_books"] == ["1982", "mine.toml"]
    site = tmp_path / "site.toml"
    site.write_text('base = "webdiplomacy"\n[policies]\nsupport_coast = "illegal"\n', "utf-8")
    games = sorted(str(p) for p in ROOT.glob("tests/data/games/game_*.json"))
    shown = rulebooks("fit", *games, "--rules", str(site), "--json")
    assert shown.exit_code == 0, shown.output
    scored = json.loads(shown.stdout)["rule_books"]
    assert list(scored)[-1] == "site.toml" and scored["webdiplomacy"] == 0
    book = rule_book(str(site))
    recorded = [read_game(g) for g in games]
    missed = [
        (g.path, i)
        for g in recorded
        for i in range(len(g.phases) - 1)
        if not transition_matches(g, i, book)  # each run on its own, no search
    ]
    assert scored["site.toml"] == len(missed) > 0


def test_the_python_api_includes_a_base_rule_book_under_its_name():
    from dataclasses import replace

    from solver.values.rules import ConvoyCut

    mine = replace(DATC_2025, name="mine", convoy_cut=ConvoyCut.RULE_1982)
    found = solver.solve_rules(BY_ID["6.F.18"], "A London - Belgium => succeeds", mine)
    assert found.books == ("1982", "mine")
    same_name = replace(DATC_2025, convoy_cut=ConvoyCut.RULE_1982)  # still called 2025
    found = solver.solve_rules(BY_ID["6.F.18"], "A London - Belgium => succeeds", same_name)
    assert found.books == ("1982", "2025 (base)")
    named = solver.solve_rules(BY_ID["6.F.18"], "A London - Belgium => succeeds", "1982")
    assert named.books == ("1982",)  # a named base is listed once
