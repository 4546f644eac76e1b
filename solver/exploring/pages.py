"""Self-contained HTML pages: the conformance report and the paradox explorer, with pictures.

Each page is one file: inline CSS, inline SVG, no scripts, fonts, images or links outside it.
Every picture gets its own marker-id prefix (``p1-``, ``p2-`` ...), so ids never clash, and
the same input always gives the same bytes.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from topology.layout import layout_of

from ..cycle.game import BoardStep, Played
from ..errors import DipsatError, LimitError
from ..formats.cases import Case
from ..formats.rulebooks import rule_book
from ..multiverse.state import MultiverseStep
from ..render import board_drawing as drawing
from ..render.arrows import order_text, result_of
from ..render.board_drawing import MAP_GROUPS, focus_box
from ..render.legend import LEGEND_WIDTH, draw_legend, legend_height
from ..render.markers import markers
from ..render.multiverse_drawing import step_element
from ..render.style import STYLE
from ..render.svg import SVG_NS, el, num, share_groups, to_text
from ..rulesearch.compare import CaseDifference
from ..values.decisions import Decision
from ..values.outcomes import Outcome
from ..values.position import PhaseKind
from ..values.rules import EDITIONS, RuleBook
from .conformance import CaseResult, Failure, Report
from .explore import CoreReport
from .scenes import edition_scenes, phase_scene, play_case, resolution_scene, step_heading

PAGE_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;color:#1d1d1d;margin:0 auto;padding:1em 1.5em;
max-width:1800px}
h1{font-size:1.6em;margin:.3em 0}
h2{font-size:1.3em;margin:1.4em 0 .4em;border-bottom:1px solid #ccc}
h3{font-size:1.1em;margin:1em 0 .3em}
a{color:#1f5fa8}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #d4d4d4;padding:.2em .6em;text-align:left;vertical-align:top}
th{background:#f1f1f1}
tr.mismatch td{background:#fde2e0}
.badge{display:inline-block;padding:0 .5em;border-radius:.6em;font-size:.85em;font-weight:700;
color:#fff}
.badge.pass{background:#2e8540}.badge.fail{background:#c62828}
.case,.core{border:1px solid #ddd;border-radius:6px;padding:.4em 1em 1em;margin:1em 0}
.case.fail{border-color:#c62828}
.meta{color:#555;font-size:.9em}
.pictures{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
.pictures figure{margin:0;flex:0 1 auto;max-width:100%}
figcaption{font-size:.9em;max-width:42em}
svg.board{max-width:100%;height:auto}
svg.shared-maps{position:absolute;width:0;height:0;overflow:hidden}
.decisions .true{color:#2e8540;font-weight:600}.decisions .false{color:#c62828}
.failures li,.outcomes .fails,.outcomes .cut,.outcomes .disrupted{color:#b22222}
.note{color:#555;font-style:italic}
code{font-size:.95em}
"""


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def anchor(kind: str, name: str) -> str:
    """An element id: no spaces, escaped where it is written."""
    return f"{kind}-" + "-".join(name.split())


def write_page(path: str, text: str) -> None:
    """Write a page, or raise a DipsatError saying why it cannot be written."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise DipsatError(f"{path}: cannot write: {error.strerror or error}") from error


@dataclass
class Pictures:
    """Numbers the pictures of one page, so each has its own marker ids."""

    count: int = 0
    maps: dict[str, ET.Element] = field(default_factory=dict)  # drawn map -> its shared copy

    def prefix(self) -> str:
        self.count += 1
        return f"p{self.count}-"

    def svg(self, root: ET.Element) -> str:
        # the board style is the same in every picture: the page carries it once
        for node in root.findall("style"):
            text = node.text or ""
            if text.startswith(STYLE):  # STYLE is not empty: node.text is text
                node.text = text[len(STYLE) :]
            if not (node.text or "").strip():
                root.remove(node)
        self.share_maps(root)
        return to_text(root).rstrip("\n")

    def share_maps(self, root: ET.Element) -> None:
        """Put each drawn map (its borders and provinces) once on the page, and a ``<use>`` of
        it in every picture that draws it: most pictures share a handful of maps."""
        share_groups(root, self.maps, MAP_GROUPS, "map")

    def shared(self) -> str:
        """The maps the pictures use, in a picture of their own that shows nothing."""
        if not self.maps:
            return ""
        root = el(
            None,
            "svg",
            {
                "xmlns": SVG_NS,
                "class": "shared-maps",
                "width": 0,
                "height": 0,
                "aria-hidden": "true",
            },
        )
        defs = el(root, "defs")
        defs.extend(self.maps.values())
        return to_text(root).rstrip("\n")

    def board(
        self, scene: drawing.Scene, legend: bool = False, box: drawing.Box | None = None
    ) -> str:
        return self.svg(drawing.board_element(scene, prefix=self.prefix(), legend=legend, box=box))

    def multiverse(self, case: Case, steps: Sequence[MultiverseStep], number: int) -> str:
        """The grid of boards after step ``number`` of a multiverse case."""
        heading = step_heading(case, number, len(steps))
        element = step_element(steps[number - 1], heading, self.prefix(), legend=False, share=False)
        return self.svg(element)

    def legend(self, powers: Sequence[str]) -> str:
        """The legend, with the colours of a board's ``powers``."""
        prefix = self.prefix()
        width, height = LEGEND_WIDTH + 28, legend_height(powers)
        root = el(
            None,
            "svg",
            {
                "xmlns": SVG_NS,
                "class": "legend-picture",
                "width": width,
                "height": height,
                "viewBox": f"0 0 {num(width)} {num(height)}",
            },
        )
        markers(el(root, "defs"), prefix, powers)
        legend = el(root, "g", {"class": "legend", "transform": "translate(4,4)"})
        draw_legend(legend, prefix, powers)
        return self.svg(root)


def page(title: str, body: Iterable[str], pictures: Pictures) -> str:
    """The page around a body whose pictures were all drawn by ``pictures``."""
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{esc(title)}</title>",
            f"<style>{PAGE_STYLE}{STYLE}</style>",
            "</head>",
            "<body>",
            pictures.shared(),
            *body,
            "</body>",
            "</html>",
            "",
        ]
    )


def _legend(cases: Sequence[Case], pictures: Pictures) -> str:
    """The legend of a page, with the powers of the map of its cases (the first case's)."""
    powers = cases[0].position.map.powers if cases else ()
    return f"<details><summary>Legend</summary>{pictures.legend(powers)}</details>"


def _figure(svg: str, caption: str = "", attrs: str = "") -> str:
    tail = f"<figcaption>{caption}</figcaption>" if caption else ""
    return f"<figure{attrs}>\n{svg}\n{tail}</figure>"


def _rows(header: Sequence[str], rows: Iterable[tuple[str, Sequence[str]]], cls: str = "") -> str:
    """A table; each row as (its class, its cells, already escaped)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = []
    for row_class, cells in rows:
        klass = f' class="{row_class}"' if row_class else ""
        body.append(f"<tr{klass}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    table_class = f' class="{cls}"' if cls else ""
    return f"<table{table_class}>\n<tr>{head}</tr>\n" + "\n".join(body) + "\n</table>"


def _failures(failures: Sequence[Failure]) -> str:
    if not failures:
        return ""
    items = "".join(
        f"<li><code>{esc(f.order)}</code>: expected {esc(f.expected)}, got {esc(f.got)}</li>"
        for f in failures
    )
    return f'<ul class="failures">{items}</ul>'


# -- the pictures and outcomes of a case ------------------------------------------------
@dataclass
class Run:
    """What a case came to under a rule book: each block played (a phase, or a multiverse
    step), and the error that stopped it, if any."""

    steps: list[Played] = field(default_factory=list)
    scenes: list[drawing.Scene] = field(default_factory=list)  # the phases on one board
    error: str = ""

    @property
    def outcomes(self) -> list[tuple[Outcome, ...]]:
        return [done.outcomes for done in self.steps]

    @property
    def revised(self) -> list[tuple[Outcome, ...]]:
        return [done.revised for done in self.steps]


def play(case: Case, rules: RuleBook) -> Run:
    run = Run()
    try:
        steps = play_case(case, rules)
    except (DipsatError, LimitError) as error:  # the page shows the case's error
        run.error = str(error)
        return run
    run.steps = steps
    title = f"{case.id} {case.title}"
    run.scenes = [phase_scene(d.phase, title) for d in steps if isinstance(d, BoardStep)]
    return run


def step_picture(
    pictures: Pictures,
    case: Case,
    run: Run,
    number: int,
    legend: bool = False,
    box: drawing.Box | None = None,
) -> str:
    """The picture of the `number`th block played (from 1): a board, or the grid."""
    done = run.steps[number - 1]
    if isinstance(done, MultiverseStep):
        steps = [d for d in run.steps if isinstance(d, MultiverseStep)]
        return pictures.multiverse(case, steps, number)
    return pictures.board(run.scenes[number - 1], legend, box)


def case_pictures(case: Case, run: Run, pictures: Pictures, legend: bool = False) -> str:
    """The pictures of a case as HTML: a board per phase, or the multiverse grid."""
    numbers = range(1, len(run.steps) + 1)
    figures = [_figure(step_picture(pictures, case, run, n, legend)) for n in numbers]
    if not figures:
        return '<p class="note">no picture: the case could not be adjudicated</p>'
    return '<div class="pictures">\n' + "\n".join(figures) + "\n</div>"


def order_table(case: Case, rules: RuleBook, played: Run) -> str:
    """Every order with its expected outcome under the edition run and the actual one."""
    edition = rules.name
    compared = edition not in case.paradox_editions
    rows = []
    for number, block in enumerate(case.blocks):
        phase = _block_name(case, number, played)
        got = dict(enumerate(played.outcomes[number])) if number < len(played.outcomes) else {}
        revised = played.revised[number] if number < len(played.revised) else ()
        by_text = {str(o.given): o for o in revised}
        lines = [(o, got.get(i), phase) for i, o in enumerate(block.orders)]
        lines += [(o, by_text.get(str(o.given)), f"{phase} (revised)") for o in block.revised]
        for order, outcome, name in lines:
            wanted = order.expected if order.revised else order.expected_under(edition)
            actual = outcome.label if outcome is not None else "-"
            wrong = wanted is not None and actual != wanted and (compared or order.revised)
            cells = [
                esc(name),
                esc(order.given.power or ""),
                f"<code>{esc(order.given.order_text)}</code>",
                esc(wanted or "-"),
                esc(actual),
            ]
            rows.append(("mismatch" if wrong else "", cells))
    header = ["phase", "power", "order", f"expected ({edition})", "actual"]
    return _rows(header, rows, "orders")


def _block_name(case: Case, number: int, run: Run) -> str:
    if number < len(run.steps):
        return run.steps[number].label(number + 1)
    return case.blocks[number].kind.value


# -- the conformance report -------------------------------------------------------------
def check_page(report: Report, rules: RuleBook | None = None) -> str:
    """The whole conformance report: summary, sections, and every case with its pictures."""
    pictures = Pictures()
    sections = report.sections()
    run_under = rules.name if rules is not None else "each case's own edition"
    body = [
        "<h1>dipsat conformance report</h1>",
        f'<p class="summary"><strong>{report.passed} of {report.total}</strong> cases pass '
        f"({report.total - report.passed} failed); rules: {esc(run_under)}</p>",
        _rows(
            ["section", "passed", "total"],
            [
                (
                    "pass" if c["passed"] == c["total"] else "mismatch",
                    [
                        f'<a href="#{esc(anchor("section", name))}">{esc(name)}</a>',
                        str(c["passed"]),
                        str(c["total"]),
                    ],
                )
                for name, c in sections.items()
            ]
            + [("all", ["all", str(report.passed), str(report.total)])],
            "sections",
        ),
        _legend([r.case for r in report.results], pictures),
    ]
    by_section: dict[str, list[CaseResult]] = {}
    for result in report.results:
        by_section.setdefault(result.case.section, []).append(result)
    for name, counts in sections.items():
        body.append(
            f'<section id="{esc(anchor("section", name))}">'
            f"<h2>{esc(name)}: {counts['passed']} of {counts['total']} pass</h2>"
        )
        for result in by_section[name]:
            body.append(_case_article(result, rules or rule_book(result.case.edition), pictures))
        body.append("</section>")
    return page("dipsat conformance report", body, pictures)


def _case_article(result: CaseResult, rules: RuleBook, pictures: Pictures) -> str:
    case = result.case
    verdict = "pass" if result.passed else "fail"
    played = play(case, rules)
    error = f'<p class="failures">error: {esc(played.error)}</p>' if played.error else ""
    return "\n".join(
        [
            f'<article class="case {verdict}" id="{esc(anchor("case", case.id))}" '
            f'data-case="{esc(case.id)}">',
            f'<h3><span class="badge {verdict}">{verdict}</span> {esc(case.id)} '
            f"{esc(case.title)}</h3>",
            f'<p class="meta">{esc(case.path)}:{case.line}; rules {esc(rules.name)}</p>',
            case_pictures(case, played, pictures),
            error,
            order_table(case, rules, played),
            _failures(result.failures),
            "</article>",
        ]
    )


# -- two rule books side by side ------------------------------------------------------------
def compare_page(
    cases: Sequence[Case], first: RuleBook, second: RuleBook, differences: Sequence[CaseDifference]
) -> str:
    """The cases two rule books decide differently (`solver.rulesearch.compare.compare`), each phase
    drawn under both side by side, with the policies that make them differ and the outcomes
    that differ (each phase named once)."""
    pictures = Pictures()
    by_id = {case.id: case for case in cases}
    body = [
        f"<h1>{esc(first.name)} against {esc(second.name)}</h1>",
        f'<p class="summary"><strong>{len(differences)}</strong> of {len(cases)} case(s) '
        "are decided differently.</p>",
        _legend(cases, pictures),
    ]
    for entry in differences:
        case = by_id[entry.id]
        rows = []
        for i, o in enumerate(entry.outcomes):
            phase = "" if i and entry.outcomes[i - 1].phase == o.phase else esc(o.phase)
            cells = [phase, f"<code>{esc(o.what)}</code>", esc(o.first), esc(o.second)]
            rows.append(("mismatch", [*cells, esc(", ".join(o.policies))]))
        body += [
            f'<article class="case" id="{esc(anchor("case", case.id))}" '
            f'data-case="{esc(case.id)}">',
            f"<h3>{esc(case.id)} {esc(case.title)}</h3>",
            f'<p class="meta">{esc(case.path)}:{case.line}</p>',
            f'<p class="cause">{esc(entry.cause())}</p>',
            _side_by_side(case, first, second, pictures),
            _rows(["phase", "order", first.name, second.name, "because of"], rows, "differences"),
            "</article>",
        ]
    return page(f"dipsat compare-rules {first.name} {second.name}", body, pictures)


def _side_by_side(case: Case, first: RuleBook, second: RuleBook, pictures: Pictures) -> str:
    """Each phase (or multiverse step) of a case under both rule books, in one frame."""
    played = [play(case, book) for book in (first, second)]
    rows = []
    for number in range(max(len(p.steps) for p in played)):
        figures = []
        scenes = [p.scenes[number] for p in played if number < len(p.scenes)]
        box = focus_box(scenes, layout_of(scenes[0].position.map)) if scenes else None
        for book, p in zip((first, second), played, strict=True):
            if number < len(p.scenes):
                svg = pictures.board(replace(p.scenes[number], title=book.name), box=box)
            elif number < len(p.steps):
                svg = step_picture(pictures, case, p, number + 1)
            else:
                svg = f'<p class="note">{esc(p.error or "no such phase")}</p>'
            figures.append(
                _figure(
                    svg,
                    f"<strong>{esc(book.name)}</strong>",
                    f' class="book" data-rules="{esc(book.name)}"',
                )
            )
        rows.append('<div class="pictures">\n' + "\n".join(figures) + "\n</div>")
    return "\n".join(rows)


# -- the paradox explorer ---------------------------------------------------------------
def explore_page(case: Case, rules: RuleBook, phases: list[tuple[str, list[CoreReport]]]) -> str:
    """One case: its position and outcomes under ``rules``, then every core of every phase with
    each consistent resolution drawn, and which edition picks which."""
    pictures = Pictures()
    played = play(case, rules)
    error = f'<p class="failures">error: {esc(played.error)}</p>' if played.error else ""
    body = [
        f"<h1>{esc(case.id)} {esc(case.title)}</h1>",
        f'<p class="meta">{esc(case.path)}:{case.line}; rules {esc(rules.name)}</p>',
        "<h2>The position</h2>",
        case_pictures(case, played, pictures, legend=True),
        error,
        order_table(case, rules, played),
    ]
    movement = [s for s in played.scenes if s.position.phase.kind is PhaseKind.MOVEMENT]
    for number, (name, reports) in enumerate(phases):
        scene = movement[number] if number < len(movement) else None
        body.append(f"<h2>{esc(name)}: {len(reports)} core(s)</h2>")
        if not reports:
            body.append("<p>No dependency cycle: the phase has exactly one resolution.</p>")
        for index, report in enumerate(reports, start=1):
            body.append(_core_article(index, report, scene, rules, pictures))
        if reports and scene is not None:
            body.append(_editions_section(scene, reports, pictures))
    return page(f"dipsat explore {case.id}", body, pictures)


def _editions_section(scene: drawing.Scene, reports: list[CoreReport], pictures: Pictures) -> str:
    """The turn as each edition adjudicates it, one picture per distinct outcome, captioned
    with the editions that reach it and the rule each applied to the cores."""
    groups = edition_scenes(scene)
    drawn = {names: drawn for names, drawn in groups}
    box = focus_box(list(drawn.values()), layout_of(scene.position.map))
    figures = []
    for names in drawn:
        rules_used = sorted(
            {f"{c.why}" for r in reports for e, c in r.editions.items() if e in names}
        )
        caption = (
            f"<strong>{esc(', '.join(names))}</strong>: "
            + "; ".join(esc(w) for w in rules_used)
            + _outcome_list(drawn[names])
        )
        figures.append(
            _figure(
                pictures.board(drawn[names], box=box),
                caption,
                f' class="edition" data-editions="{esc(" ".join(names))}"',
            )
        )
    return (
        "<h3>What each edition decides</h3>"
        f"<p>{len(groups)} distinct outcome(s) among the {len(EDITIONS)} editions.</p>"
        '<div class="pictures">\n' + "\n".join(figures) + "\n</div>"
    )


def _core_article(
    number: int,
    report: CoreReport,
    scene: drawing.Scene | None,
    rules: RuleBook,
    pictures: Pictures,
) -> str:
    label = dict(zip(report.decisions, report.labels, strict=True))
    parts = [
        f'<article class="core" data-core="{number}">',
        f"<h3>core {number}: {esc(report.heading)}</h3>",
        "<p>Orders:</p><ul>" + "".join(f"<li><code>{esc(o)}</code></li>" for o in report.orders),
        "</ul>",
    ]
    if report.solutions > 1:
        parts.append(
            "<p>They differ in: " + "; ".join(esc(label[d]) for d in report.differing) + "</p>"
        )
    if report.capped:
        parts.append("<p>Too many consistent resolutions to list them all.</p>")
    elif not report.resolutions:
        parts.append(
            "<p>No consistent resolution: the equations of this core have no solution, so "
            "every rule book settles it by its backup rule.</p>"
        )
    elif scene is None:
        parts.append('<p class="note">resolutions of multiverse steps are listed, not drawn</p>')
    drawn = [
        resolution_scene(scene, rules, values, f"resolution {index}") if scene else None
        for index, values in enumerate(report.resolutions)
    ]
    box = None
    if scene is not None:
        box = focus_box([scene, *(d for d in drawn if d)], layout_of(scene.position.map))
    figures = [
        _resolution_figure(index, values, report, label, drawn[index], box, pictures)
        for index, values in enumerate(report.resolutions)
    ]
    if figures:
        parts.append('<div class="pictures">\n' + "\n".join(figures) + "\n</div>")
    none = [(e, c) for e, c in report.editions.items() if c.picks is None]
    if none:
        parts.append(
            '<p>Editions that pick none of them:</p><ul class="none">'
            + "".join(f"<li>{esc(e)}: {esc(c.why)} ({esc(c.rule)})</li>" for e, c in none)
            + "</ul>"
        )
    parts.append("</article>")
    return "\n".join(parts)


def _outcome_list(scene: drawing.Scene) -> str:
    """Every order of a drawn scene with its outcome, as a list."""
    items = "".join(
        f'<li class="{esc(result_of(o))}">{esc(order_text(g, o))}</li>'
        for g, o in zip(scene.orders, scene.outcomes or (), strict=True)
    )
    return f'<ul class="outcomes">{items}</ul>'


def _resolution_figure(
    index: int,
    values: dict[Decision, bool],
    report: CoreReport,
    label: dict[Decision, str],
    drawn: drawing.Scene | None,
    box: drawing.Box | None,
    pictures: Pictures,
) -> str:
    """One consistent resolution: its picture (standard cases), the editions that pick it,
    its decisions, and the outcome of every order under it."""
    picked = [e for e, c in report.editions.items() if c.picks == index]
    decisions = _rows(
        ["decision", "value"],
        [
            ("", [esc(label[d]), f'<span class="{str(v).lower()}">{str(v).lower()}</span>'])
            for d, v in values.items()
        ],
        "decisions",
    )
    caption = (
        f"<strong>resolution {index}</strong>; picked by "
        + (", ".join(esc(e) for e in picked) if picked else "no edition")
        + decisions
    )
    svg = ""
    if drawn is not None:
        svg = pictures.board(drawn, box=box)
        caption += _outcome_list(drawn)
    elif box is not None:
        svg = '<p class="note">the adjudicator could not reproduce this resolution</p>'
    return _figure(svg, caption, f' class="resolution" data-resolution="{index}"')
