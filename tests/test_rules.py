"""Rule books: every edition passes its cases, the explorer classifies the paradoxes, and
compare-rules finds the cases each chapter-4 policy changes."""

from __future__ import annotations

import ast
import codecs
import itertools
import json
from dataclasses import replace

import pytest
from conftest import DATA, ROOT, all_cases, dipsat, first_fast, slow, table

from solver.errors import DipsatError
from solver.exploring.conformance import run_case
from solver.exploring.explore import explore
from solver.formats.cases import read_cases
from solver.formats.rulebooks import rule_book
from solver.rulesearch.compare import _differing, compare, played
from solver.values.rules import (
    EDITIONS,
    POLICIES,
    RULE_BOOKS,
    ConvoyParadox,
    RuleBook,
    WrongCoast,
)

DATC = [c for c in all_cases() if c.id.startswith("6.")]
BY_ID = {c.id: c for c in DATC}


@pytest.mark.parametrize(
    "edition", first_fast([e for e in [*EDITIONS, "godip", "mila"] if e != "2025"], 2)
)
def test_every_datc_case_passes_under_every_edition(edition):
    """Each edition, and each engine's preset, with the overrides the cases give it."""
    failures = [f for case in DATC for f in run_case(case, RULE_BOOKS[edition]).failures]
    assert not failures, "\n".join(
        f"{f.case}: {f.order}: {f.expected} / {f.got}" for f in failures[:20]
    )


@pytest.mark.parametrize(("case_id", "counts"), table("paradoxes.txt"))
def test_explorer_counts_the_resolutions_of_each_core(case_id, counts):
    case = BY_ID[case_id]
    reports = explore(case.position, [o.given for o in case.movement.orders], EDITIONS["2025"])
    expected = [] if counts == "none" else sorted(int(n) for n in counts.split())
    assert sorted(r.solutions for r in reports) == expected


def test_explorer_says_which_resolution_each_edition_picks():
    case = BY_ID["6.F.14"]
    (core,) = explore(case.position, [o.given for o in case.movement.orders], EDITIONS["2025"])
    convoy = next(d for d in core.decisions if d[0] == "convoy")
    picked = core.resolutions[core.editions["2025"].picks]
    assert picked[convoy] is False  # Szykman: the convoy fails
    assert core.editions["2025"].rule == "szykman"
    assert core.kind == "convoy paradox"
    assert convoy in core.differing
    case = BY_ID["6.F.18"]
    (core,) = explore(case.position, [o.given for o in case.movement.orders], EDITIONS["2025"])
    assert core.editions["2000"].rule == "unresolved"
    assert core.editions["2000"].picks is None


def test_explorer_says_when_a_core_has_too_many_resolutions_to_list(monkeypatch, tmp_path):
    """At the cap the explorer lists none (which ones the solver found first is arbitrary)
    and says so, in the report, its JSON, the terminal and the page."""
    from typer.testing import CliRunner

    from solver.cli import app
    from solver.exploring import explore as module

    monkeypatch.setattr(module, "MAX_RESOLUTIONS", 2)
    case = BY_ID["6.F.14"]  # two consistent resolutions
    (core,) = explore(case.position, [o.given for o in case.movement.orders], EDITIONS["2025"])
    assert core.capped and core.resolutions == ()
    assert all(choice.picks is None for choice in core.editions.values())
    cases = str(ROOT / "cases" / "datc" / "6F.cases")
    done = CliRunner().invoke(app, ["explore", cases, "--case", "6.F.14"])
    assert "convoy paradox, at least 2 consistent resolution(s)" in done.output
    assert "too many to list" in done.output
    done = CliRunner().invoke(app, ["explore", cases, "--case", "6.F.14", "--json"])
    assert json.loads(done.output)["cores"][0]["capped"] is True
    page = tmp_path / "page.html"
    CliRunner().invoke(app, ["explore", cases, "--case", "6.F.14", "--html", str(page)])
    assert "at least 2 consistent resolution(s)" in page.read_text(encoding="utf-8")
    monkeypatch.setattr(module, "MAX_RESOLUTIONS", 3)
    (core,) = explore(case.position, [o.given for o in case.movement.orders], EDITIONS["2025"])
    assert not core.capped and core.solutions == 2


@pytest.mark.parametrize(("book", "cases"), table("compare_rules.txt"))
def test_compare_rules_finds_the_cases_a_policy_changes(book, cases):
    """And names the policies the file changes as what makes each case differ."""
    other = rule_book(str(DATA / "rulebooks" / book))
    changed = compare(DATC, EDITIONS["2025"], other)
    assert [d.id for d in changed] == cases.split()
    policies = {p for p in POLICIES if getattr(other, p) != getattr(EDITIONS["2025"], p)}
    for d in changed:
        assert d.exact and d.policies and set(d.policies) <= policies, d.id
        assert all(set(o.policies) <= set(d.policies) for o in d.outcomes), d.id


def _switched(first: RuleBook, second: RuleBook, policies) -> RuleBook:
    return replace(first, **{p: getattr(second, p) for p in policies})


@pytest.mark.parametrize("other", first_fast(["1971", "1982", "dptg", "mila", "O"], 2))
def test_compare_rules_names_the_fewest_policies_that_turn_one_outcome_into_the_other(other):
    """Checked by brute force, without the tracing search: under 2025 with the policies
    found switched to the other rule book's values, every outcome of the case (and each
    outcome with its own policies switched) is the other's, and no fewer policies of those
    the two set differently do it."""
    first, second = EDITIONS["2025"], RULE_BOOKS[other]
    differ = [p for p in POLICIES if getattr(first, p) != getattr(second, p)]
    found = compare(DATC, first, second)
    assert found
    for d in found:
        case = BY_ID[d.id]
        wanted = played(case, second)
        assert d.exact, d.id
        assert not _differing(played(case, _switched(first, second, d.policies)), wanted), d.id
        smaller = range(len(d.policies))
        for fewer in (c for size in smaller for c in itertools.combinations(differ, size)):
            try:
                book = _switched(first, second, fewer)
            except DipsatError:  # values no rule book holds together
                continue
            assert _differing(played(case, book), wanted), (d.id, fewer)
        for o in d.outcomes:
            book = _switched(first, second, o.policies)
            assert played(case, book).get((o.phase, o.what)) == o.second, (d.id, o.what)


@slow
def test_compare_rules_writes_a_block_per_case_unwrapped_when_piped():
    """Through a pipe, as a script reads it: each case, why it differs, each phase once,
    then each outcome that differs on a line of its own, however long; JSON says the same."""
    books = EDITIONS["2025"], EDITIONS["1982"]
    found = compare(read_cases(ROOT / "cases/datc/6F.cases"), *books)
    result = dipsat("compare-rules", "2025", "1982", "cases/datc/6F.cases")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "┃" not in text and "│" not in text  # no table
    blocks = text.split("\n\n")[1:]
    assert len(blocks) == len(found) and len(found) > 5
    for block, d in zip(blocks, found, strict=True):
        lines = block.splitlines()
        assert lines[0] == f"{d.id} {d.title}"
        assert lines[1] == f"  {d.cause()}" and "convoy_cut (always → 1982)" in lines[1]
        phases = [line for line in lines[2:] if not line.startswith("    ")]
        assert phases[: len({o.phase for o in d.outcomes})] == [
            f"  {p}:" for p in dict.fromkeys(o.phase for o in d.outcomes)
        ]
        for o in d.outcomes:
            own = f"  [{', '.join(o.policies)}]" if o.policies != d.policies else ""
            assert f"    {o.what}: {o.first} → {o.second}{own}" in lines, (d.id, o.what)
    data = json.loads(
        dipsat("compare-rules", "2025", "1982", "cases/datc/6F.cases", "--json").stdout
    )
    for entry, d in zip(data["cases"], found, strict=True):
        assert entry["policies"] == [
            {"policy": s.policy, "first": s.first.value, "second": s.second.value}
            for s in d.settings
        ]
        assert [(o["phase"], o["order"], o["policies"]) for o in entry["orders"]] == [
            (o.phase, o.what, list(o.policies)) for o in d.outcomes
        ]


@pytest.mark.parametrize(
    "cases", sorted((DATA / "rulebooks").glob("*.cases")), ids=lambda path: path.stem
)
def test_cases_written_for_a_rule_book_file_pass_under_it(cases):
    """Each tests/data/rulebooks/NAME.cases holds cases whose expectations are those of
    NAME.toml, for a policy no edition uses."""
    book = rule_book(str(cases.with_suffix(".toml")))
    failures = [f for case in read_cases(cases) for f in run_case(case, book).failures]
    assert not failures, "\n".join(f"{f.case}: {f.order}: {f.expected} / {f.got}" for f in failures)


@pytest.mark.parametrize(("text", "message"), table("bad_rulebooks.txt"))
def test_a_bad_rule_book_file_names_the_file_and_what_was_expected(tmp_path, text, message):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(codecs.escape_decode(text.encode("ascii"))[0] + b"\n")
    with pytest.raises(DipsatError) as caught:
        rule_book(str(bad))
    assert str(caught.value).startswith(f"{bad}{message}"), str(caught.value)


def test_the_named_rule_books_cannot_be_changed():
    for named in (EDITIONS, RULE_BOOKS):
        with pytest.raises(TypeError):
            named["2025"] = RuleBook("mine")  # type: ignore[index]
    assert RULE_BOOKS["2025"].name == "2025" and len(RULE_BOOKS) == len(EDITIONS) + 6


def test_a_rule_book_made_in_code_reads_an_option_s_name_as_the_option():
    book = RuleBook("mine", convoy_paradox="all-hold", brannan=True)
    assert book.convoy_paradox is ConvoyParadox.ALL_HOLD and book.brannan is True
    assert book == RuleBook("mine", convoy_paradox=ConvoyParadox.ALL_HOLD, brannan=True)


@pytest.mark.parametrize(("setting", "message"), table("bad_policies.txt"))
def test_a_rule_book_made_in_code_refuses_a_value_its_policy_does_not_take(setting, message):
    policy, _, value = setting.partition("=")
    fields = {"name": "mine", policy.strip(): ast.literal_eval(value.strip())}
    wrong = TypeError if policy.strip() == "name" else DipsatError  # a name is text
    with pytest.raises(wrong) as caught:
        RuleBook(**fields)
    assert str(caught.value).startswith(message), str(caught.value)


def test_a_rule_book_refuses_another_policy_s_option():
    with pytest.raises(DipsatError, match="unreachable_coast: expected one of illegal, ignored"):
        RuleBook("mine", unreachable_coast=WrongCoast.ILLEGAL)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("nonsense", "unknown rule book 'nonsense'; known: 1971"),
        ("absent.toml", "absent.toml: cannot read: No such file"),
        (2025, "rules: expected a rule book or its name (1971, "),
        (["2025"], "rules: expected a rule book or its name (1971, "),
        (None, "rules: expected a rule book or its name (1971, "),
    ],
)
def test_rule_book_refuses_what_names_no_rule_book(rules, message):
    with pytest.raises(DipsatError if isinstance(rules, str) else TypeError) as caught:
        rule_book(rules)
    assert str(caught.value).startswith(message), str(caught.value)


def test_rule_book_takes_a_rule_book_a_name_or_a_file():
    assert rule_book(EDITIONS["1982"]) is EDITIONS["1982"]
    assert rule_book("1982") is EDITIONS["1982"]
    assert rule_book("webdiplomacy").name == "webdiplomacy"
    book = rule_book(str(DATA / "rulebooks" / "4A2-1982.toml"))
    assert book.name == "4A2-1982" and book != EDITIONS["2025"]
    with pytest.raises(DipsatError, match=r"unknown rule book '.*4A2-1982\.toml'; known: "):
        rule_book(str(DATA / "rulebooks" / "4A2-1982.toml"), files=False)


@slow
def test_explore_and_compare_rules_from_the_command_line():

    result = dipsat("explore", "cases/datc/6F.cases", "--case", "6.F.27", "--json")
    cores = json.loads(result.stdout)["cores"]
    assert [c["solutions"] for c in cores] == [0, 2]
    assert {c["kind"] for c in cores} == {"convoy paradox"}
    assert set(cores[1]["editions"]) == set(EDITIONS)
    result = dipsat("compare-rules", "2025", "1971", "cases/datc/6J.cases", "--json")
    ids = [c["id"] for c in json.loads(result.stdout)["cases"]]
    assert ids == ["6.J.3", "6.J.6", "6.J.11", "6.J.12"]
    book = DATA / "rulebooks" / "4A1-any-route.toml"  # a file is named by its name
    result = dipsat("compare-rules", "2025", str(book), "cases/datc/6F.cases")
    name = rule_book(str(book)).name
    assert f"between 2025 and {name}" in result.stdout and str(book) not in result.stdout


def test_fork_when_is_a_policy_of_either_history():
    """docs/multiverse.md: J forking by board contents forks MV.6's bounced origin (and
    O.B.10's fixture); O forking on changed outcomes forks O.B.10."""
    from dataclasses import replace as changed

    from solver.values.rules import ForkWhen

    files = [
        f for d in ("mdatc", "multiverse") for f in sorted((ROOT / "cases" / d).glob("*.cases"))
    ]
    cases = [c for f in files for c in read_cases(f)]
    j, o = RULE_BOOKS["J"], RULE_BOOKS["O"]
    by_board = changed(j, name="J-board", fork_when=ForkWhen.BOARD_DIFFERS)
    by_outcome = changed(o, name="O-outcome", fork_when=ForkWhen.OUTCOME_CHANGED)
    assert {d.id for d in compare(cases, j, by_board)} == {"MV.6", "O.B.10"}
    assert {d.id for d in compare(cases, o, by_outcome)} == {"O.B.10"}
