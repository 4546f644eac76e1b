"""The HTML pages of `dipsat check --html` and `dipsat explore --html`, read back as a tree."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser

import pytest
from conftest import ROOT, first_fast, slow
from typer.testing import CliRunner

from solver.checker.check import check_resolution
from solver.cli import app
from solver.exploring.conformance import run
from solver.exploring.explore import explore_case
from solver.exploring.pages import check_page, explore_page
from solver.exploring.scenes import case_scenes
from solver.formats.cases import read_cases
from solver.formats.rulebooks import rule_book
from solver.judge.movement import adjudicate
from solver.values.rules import EDITIONS

F_CASES = ROOT / "cases" / "datc" / "6F.cases"
WRONG = """case T.1: A WRONG EXPECTATION
England:
F London - North Sea => fails
A Liverpool Holds => stands
"""
# the explore pages drawn, with the consistent resolutions of each core (in order)
EXPLORED = {"6.F.14": [2], "6.F.16": [0], "6.F.27": [0, 2]}
# what a decision's value makes of its order, as the order's class in the picture
DRAWN = {
    "move": ("fails", "succeeds"),
    "support": ("cut", "given"),
    "convoy": ("disrupted", "available"),
}
VOID = {"meta", "br", "hr", "img", "link", "input"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def all(self, tag: str, cls: str | None = None) -> list[Node]:
        return [n for n in self.walk() if n.tag == tag and (cls is None or cls in n.classes)]

    def content(self) -> str:
        return " ".join(" ".join(t.split()) for n in self.walk() for t in n.text if t.strip())


class Tree(HTMLParser):
    """The page as nested nodes; an end tag that closes anything but the open element fails."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]
        self.feed(text)
        self.close()
        assert self.stack == [self.root], [n.tag for n in self.stack]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag):
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].text.append(data)


def assert_self_contained(text: str) -> Node:
    """One well-formed page: a title, a language and a charset, nothing fetched from outside,
    every id once and every reference to an id resolved."""
    tree = Tree(text).root
    assert text.startswith("<!DOCTYPE html>\n")
    assert tree.all("html")[0].attrs["lang"] == "en"
    assert tree.all("meta")[0].attrs["charset"] == "utf-8"
    assert tree.all("title")[0].content()
    assert not [n.tag for n in tree.walk() if n.tag in ("script", "img", "link", "iframe")]
    assert set(re.findall(r"https?://[^\s\"'<>)]+", text)) <= {"http://www.w3.org/2000/svg"}
    ids = [n.attrs["id"] for n in tree.walk() if "id" in n.attrs]
    assert len(ids) == len(set(ids)), "an id is used twice"
    wanted = set(re.findall(r"url\(#([^)]+)\)", text)) | {
        n.attrs["href"][1:] for n in tree.walk() if n.attrs.get("href", "").startswith("#")
    }
    assert wanted <= set(ids), sorted(wanted - set(ids))
    return tree


@pytest.fixture(scope="module")
def wrong_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("cases") / "wrong.cases"
    path.write_text(WRONG, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def checked(wrong_file):
    """The conformance report of 6F and of one failing case, and its page."""
    report = run(read_cases(str(F_CASES)) + read_cases(str(wrong_file)))
    return report, check_page(report)


def test_check_page_is_self_contained_and_deterministic(checked):
    report, text = checked
    assert_self_contained(text)
    assert check_page(report) == text


def test_check_page_summary_and_sections(checked):
    report, text = checked
    tree = Tree(text).root
    assert f"{report.passed} of {report.total}" in tree.all("p", "summary")[0].content()
    rows = tree.all("table", "sections")[0].all("tr")[1:]
    sections = report.sections()
    assert [r.all("td")[0].content() for r in rows] == [*sections, "all"]
    for row, (name, counts) in zip(rows, sections.items(), strict=False):
        link = row.all("a")[0].attrs["href"][1:]
        section = next(n for n in tree.walk() if n.attrs.get("id") == link)
        assert {a.attrs["data-case"] for a in section.all("article")} == {
            r.case.id for r in report.results if r.case.section == name
        }
        assert [c.content() for c in row.all("td")[1:]] == [
            str(counts["passed"]),
            str(counts["total"]),
        ]


def test_check_page_each_case_as_the_report_says(checked):
    report, text = checked
    articles = {a.attrs["data-case"]: a for a in Tree(text).root.all("article", "case")}
    assert list(articles) == [r.case.id for r in report.results]
    assert not report.results[-1].passed  # the wrong expectation, so a failure is shown too
    for result in report.results:
        article = articles[result.case.id]
        verdict = "pass" if result.passed else "fail"
        assert verdict in article.classes
        assert article.all("span", "badge")[0].content() == verdict
        assert article.all("svg", "board"), result.case.id
        orders = article.all("table", "orders")[0].all("tr")[1:]
        assert len(orders) == sum(len(b.orders) for b in result.case.blocks)
        mismatched = [r for r in orders if "mismatch" in r.classes]
        texts = {str(o.given) for b in result.case.blocks for o in b.orders}
        assert len(mismatched) == len({f.order for f in result.failures} & texts)
        shown = article.all("ul", "failures")
        assert len(shown[0].all("li") if shown else []) == len(result.failures)


def test_check_page_orders_show_expected_and_actual(checked):
    report, text = checked
    articles = {a.attrs["data-case"]: a for a in Tree(text).root.all("article", "case")}
    for result in report.results:
        scenes = case_scenes(result.case, rule_book(result.case.edition))
        outcomes = [o for s in scenes for o in s.outcomes]
        orders = [o for b in result.case.blocks for o in b.orders]
        rows = articles[result.case.id].all("table", "orders")[0].all("tr")[1:]
        for row, order, outcome in zip(rows, orders, outcomes, strict=True):
            cells = [c.content() for c in row.all("td")]
            assert cells[2:] == [
                order.given.order_text,
                order.expected_under(result.case.edition) or "-",
                outcome.label,
            ]


@pytest.fixture(scope="module")
def explored():
    cases = {c.id: c for c in read_cases(str(F_CASES))}
    pages = {}
    for case_id in EXPLORED:
        case = cases[case_id]
        rules = rule_book(case.edition)
        phases = explore_case(case, rules)
        pages[case_id] = (case, rules, phases, explore_page(case, rules, phases))
    return pages


@pytest.mark.parametrize("case_id", EXPLORED)
def test_explore_page_draws_each_resolution(explored, case_id):
    case, rules, phases, text = explored[case_id]
    tree = assert_self_contained(text)
    assert explore_page(case, rules, phases) == text
    assert tree.all("svg", "board"), "the position is drawn"
    ((_, reports),) = phases
    cores = tree.all("article", "core")
    assert [len(c.all("figure", "resolution")) for c in cores] == EXPLORED[case_id]
    assert [r.solutions for r in reports] == EXPLORED[case_id]
    for core, report in zip(cores, reports, strict=True):
        for index, figure in enumerate(core.all("figure", "resolution")):
            assert int(figure.attrs["data-resolution"]) == index
            picked = [e for e, c in report.editions.items() if c.picks == index]
            caption = figure.all("figcaption")[0].content()
            assert f"picked by {', '.join(picked) or 'no edition'}" in caption
            (svg,) = figure.all("svg", "board")
            drawn = {g.attrs["data-order"]: g.classes for g in svg.all("g", "order")}
            values = report.resolutions[index]
            for label, decision in zip(report.labels, report.decisions, strict=True):
                kind, _, order = label.partition("[")
                if kind in DRAWN:
                    assert DRAWN[kind][values[decision]] in drawn[order[:-1]], (label, index)
        none = core.all("ul", "none")
        listed = [li.content() for li in none[0].all("li")] if none else []
        assert listed == [
            f"{e}: {c.why} ({c.rule})" for e, c in report.editions.items() if c.picks is None
        ]


@pytest.mark.parametrize("case_id", EXPLORED)
def test_explore_page_draws_what_each_edition_decides(explored, case_id):
    """One picture per distinct outcome among the editions, each captioned with the editions
    that reach it, every order drawn with the outcome those editions give it."""
    case, _, _, text = explored[case_id]
    figures = Tree(text).root.all("figure", "edition")
    named = [f.attrs["data-editions"].split() for f in figures]
    assert sorted(e for names in named for e in names) == sorted(EDITIONS)
    givens = [o.given for o in case.movement.orders]
    seen = set()
    for figure, names in zip(figures, named, strict=True):
        labels = {
            tuple(o.label for o in adjudicate(case.position, givens, EDITIONS[n]).outcomes)
            for n in names
        }
        assert len(labels) == 1, names  # the editions of one picture agree
        assert labels.isdisjoint(seen)  # and differ from every other picture
        seen |= labels
        (svg,) = figure.all("svg", "board")
        drawn = {g.attrs["data-order"]: g.classes for g in svg.all("g", "order")}
        outcomes = adjudicate(case.position, givens, EDITIONS[names[0]]).outcomes
        for outcome in outcomes:
            assert outcome.result in drawn[outcome.given.order_text], (names, outcome)


@pytest.mark.parametrize("case_id", EXPLORED)
def test_resolutions_drawn_are_the_explored_ones(explored, case_id):
    """Adjudicated with a resolution's values kept, the turn takes exactly those values, and
    with nothing kept the checker finds every equation (the core's too) holding."""
    case, rules, phases, _ = explored[case_id]
    ((_, reports),) = phases
    for report in reports:
        for values in report.resolutions:
            givens = [o.given for o in case.movement.orders]
            resolution = adjudicate(case.position, givens, rules, recorded=values)
            assert {d: resolution.values[d] for d in report.decisions} == values
            assert check_resolution(replace(resolution, recorded={})) == []


# -- the command line -----------------------------------------------------------------------
def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize(
    "args",
    first_fast(
        [
            ["check", F_CASES],
            ["check", F_CASES, "--json"],
            ["explore", F_CASES, "--case", "6.F.14"],
            ["explore", F_CASES, "--case", "6.F.14", "--json", "--rules", "2000"],
            ["compare-rules", "2025", "1982", F_CASES],
            ["compare-rules", "2025", "1982", F_CASES, "--json"],
        ],
    ),
    ids=["check", "check-json", "explore", "explore-json", "compare", "compare-json"],
)
def test_html_is_written_besides_the_usual_output(tmp_path, args):
    plain = invoke(*args)
    page = tmp_path / "page.html"
    with_page = invoke(*args, "--html", page)
    assert (with_page.exit_code, with_page.stdout) == (plain.exit_code, plain.stdout)
    assert plain.exit_code == 0
    assert_self_contained(page.read_text(encoding="utf-8"))


def test_check_html_of_a_failing_case_keeps_exit_status(tmp_path, wrong_file):
    page = tmp_path / "report.html"
    result = invoke("check", wrong_file, "--html", page)
    assert result.exit_code == 1
    assert "0 passed, 1 failed" in result.stdout
    text = page.read_text(encoding="utf-8")
    assert 'class="badge fail"' in text and 'class="mismatch"' in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["check", F_CASES], "cannot write"),
        (["explore", F_CASES, "--case", "6.F.14"], "cannot write"),
        (["explore", F_CASES, "--case", "6.F.99"], "no case '6.F.99'"),
    ],
    ids=["check", "explore", "unknown-case"],
)
def test_html_errors_are_one_line(tmp_path, args, message):
    result = invoke(*args, "--html", tmp_path / "missing" / "page.html")
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr
    assert not (tmp_path / "missing").exists()


@slow
def test_explore_page_same_bytes_under_any_hash_seed(tmp_path):
    """Set order must not leak into the page: two interpreters with different hash seeds."""
    pages = []
    for seed in ("1", "2"):
        page = tmp_path / f"page-{seed}.html"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "solver",
                "explore",
                F_CASES,
                "--case",
                "6.F.27",
                "--html",
                page,
            ],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
            capture_output=True,
        )
        pages.append(page.read_bytes())
    assert pages[0] == pages[1]


# -- compare-rules --------------------------------------------------------------------------
def test_compare_page_draws_each_differing_case_under_both_books():
    """One article per case the two books decide differently, each phase drawn under both
    (each picture with that book's outcomes), and the orders that differ in a table."""
    from solver.exploring.pages import compare_page
    from solver.rulesearch.compare import compare

    cases = read_cases(str(F_CASES))
    first, second = rule_book("2025"), rule_book(str(ROOT / "tests/data/rulebooks/4A2-1982.toml"))
    differences = compare(cases, first, second)
    text = compare_page(cases, first, second, differences)
    tree = assert_self_contained(text)
    assert compare_page(cases, first, second, differences) == text
    articles = tree.all("article", "case")
    assert [a.attrs["data-case"] for a in articles] == [d.id for d in differences]
    assert len(articles) == 11  # as tests/data/compare_rules.txt lists for 6.F
    by_id = {c.id: c for c in cases}
    for article, entry in zip(articles, differences, strict=True):
        case = by_id[entry.id]
        figures = article.all("figure", "book")
        assert [f.attrs["data-rules"] for f in figures] == [first.name, second.name] * len(
            case.blocks
        )
        books = [first, second] * len(case.blocks)
        for number, (figure, book) in enumerate(zip(figures, books, strict=True)):
            (svg,) = figure.all("svg", "board")
            drawn = {g.attrs["data-order"]: g.classes for g in svg.all("g", "order")}
            scene = case_scenes(case, book)[number // 2]
            for given, outcome in zip(scene.orders, scene.outcomes, strict=True):
                assert outcome.result in drawn[given.order_text], (case.id, book.name)
        rows = article.all("table", "differences")[0].all("tr")[1:]
        phases = [o.phase for o in entry.outcomes]
        once = ["" if i and phases[i - 1] == p else p for i, p in enumerate(phases)]
        assert [r.content() for r in rows] == [
            " ".join(" ".join((phase, o.what, o.first, o.second, ", ".join(o.policies))).split())
            for phase, o in zip(once, entry.outcomes, strict=True)
        ]  # the phase once, then each outcome and the policies that make it differ
        (cause,) = article.all("p", "cause")
        assert cause.content() == entry.cause()
