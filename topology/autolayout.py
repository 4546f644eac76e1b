"""A layout made from a board's graphs, for a board whose map names no drawing: see
:func:`generated_layout`."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

import numpy as np

from .board import Board
from .extents import Box, place_extent
from .places import Kind
from .points import Layout

_GAP = (22.0, 16.0)  # the least room between what two neighbouring places draw
_MARGIN = 12.0  # round the outermost places, inside the page
_DENSITIES = (1.0, 1.2, 1.4)  # cells per place in the box of the first guess, each tried
_ANCHOR = 0.08  # the pull of each place towards its first guess
_BLOCKED = 8.0  # the cost of a border drawn across a third place's tile
_LONELY = 20.0  # the cost of a place with none of its neighbours beside it
_REACH = 2  # how many cells across a place may move in one step of the search
_PASSES = 40  # of the search over the provinces, at most
_ROUNDS = 4  # of search and taking out empty rows and columns, at most


def generated_layout(board: Board) -> Layout:
    """A schematic of ``board`` made from its graphs alone, the same for the same board in
    any process (nothing depends on hashing, threads or the order of a set).

    1. A first guess: stress majorisation of the graph of places (provinces and split
       coasts, joined by the borders a picture draws; the number of steps between two
       places is the distance wanted between them), started from classical scaling and
       turned so that most borders run along rows and columns.
    2. The guess is scaled onto a grid of cells, each big enough for everything the
       renderer draws round one place (:func:`place_extent`) with room to spare, and every
       place takes a cell of its own, the middle of the map first; a split province
       takes one with free cells around it, its coasts the ones nearest their own guess
       and fleet neighbours.
    3. Local search: a province moves to a nearby free cell or swaps with a nearby one, a
       split province moves with its coasts, a coast moves round its province, while the
       total goes down: the squared length of every border, a cost for each border drawn
       across a third place's tile and for each place with none of its neighbours beside
       it, and a small pull towards the first guess. Empty rows and columns are taken out
       where that costs nothing, and the search runs again.
    4. Steps 2 and 3 are made at three scales of the guess; the cheapest drawing is kept,
       and the page is its grid with a margin round it.
    """
    grids = []
    guess: dict[str, tuple[float, float]] | None = None
    for density in _DENSITIES:
        grid = _Grid(board)
        guess = guess or _targets(sorted(grid.kinds), grid.edges)
        grid.arrange(guess, density)
        grids.append(grid)
    best = min(grids, key=lambda g: g.drawn_cost())  # the first of equals: the order is fixed
    return best.page()


def _targets(codes: list[str], edges: list[tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """Stress majorisation of a graph: a point per node, borders about 1 long."""
    n = len(codes)
    if n == 1:
        return {codes[0]: (0.0, 0.0)}
    index = {c: i for i, c in enumerate(codes)}
    neighbours: list[list[int]] = [[] for _ in codes]
    for a, b in edges:
        neighbours[index[a]].append(index[b])
        neighbours[index[b]].append(index[a])
    rows = []
    for source in range(n):  # breadth first from each province
        row = [-1.0] * n
        row[source] = 0.0
        frontier = [source]
        steps = 0.0
        while frontier:
            steps += 1
            reached = []
            for here in frontier:
                for there in neighbours[here]:
                    if row[there] < 0:
                        row[there] = steps
                        reached.append(there)
            frontier = reached
        rows.append(row)
    dist = np.array(rows)
    far = dist.max() + 1  # apart from the rest: one step beyond the longest path
    dist[dist < 0] = far
    # classical scaling for a start: the two leading eigenvectors, by power iteration
    # (sums along rows rather than matrix products, so the numbers never depend on threads)
    square = dist**2
    centred = square - square.mean(axis=0)[None, :] - square.mean(axis=1)[:, None]
    centred = -0.5 * (centred + square.mean())
    start = np.zeros((n, 2))
    vector = np.linspace(1.0, 2.0, n)
    units: list[np.ndarray] = []
    for axis in range(2):
        v = vector - vector.mean()
        for _ in range(300):
            w = (centred * v[None, :]).sum(axis=1)
            for u in units:
                w -= (w * u).sum() * u
            norm = math.sqrt(float((w * w).sum()))
            if norm < 1e-12:
                break
            w /= norm
            settled = float(np.abs(w - v).max()) < 1e-9
            v = w
            if settled:
                break
        units.append(v)
        value = float((v * (centred * v[None, :]).sum(axis=1)).sum())
        start[:, axis] = v * math.sqrt(max(value, 1e-9))
    positions = start / max(start[:, 1].std(), start[:, 0].std(), 1e-9)
    positions += np.linspace(0.0, 1e-3, n)[:, None] * np.array([[1.0, -1.0]])
    weights = np.zeros((n, n))
    np.divide(1.0, dist**2, out=weights, where=dist > 0)
    for _ in range(300):  # Jacobi updates of stress majorisation
        delta = positions[:, None, :] - positions[None, :, :]
        length = np.sqrt((delta**2).sum(axis=2))
        np.fill_diagonal(length, 1.0)
        pull = weights * dist / length
        moved = (
            (weights[:, :, None] * positions[None, :, :]).sum(axis=1)
            + (pull[:, :, None] * delta).sum(axis=1)
        ) / weights.sum(axis=1)[:, None]
        change = float(np.abs(moved - positions).max())
        positions = moved
        if change < 1e-3:
            break
    # turned so that as many borders as can be run along the grid's rows and columns
    # (the angle that best fits the fourfold symmetry of the grid), then wider than high
    angles = [
        math.atan2(
            positions[index[b], 1] - positions[index[a], 1],
            positions[index[b], 0] - positions[index[a], 0],
        )
        for a, b in edges
    ]
    turn = math.atan2(sum(math.sin(4 * a) for a in angles), sum(math.cos(4 * a) for a in angles))
    cos, sin = math.cos(turn / 4), math.sin(turn / 4)
    xs, ys = positions[:, 0].copy(), positions[:, 1].copy()
    positions = np.stack([xs * cos + ys * sin, ys * cos - xs * sin], axis=1)
    if positions[:, 1].std() > positions[:, 0].std():
        positions = positions[:, ::-1].copy()
    return {c: (float(positions[i, 0]), float(positions[i, 1])) for i, c in enumerate(codes)}


Cell = tuple[int, int]


class _Grid:
    """The places of a board on a grid of cells (column, row): the steps of
    :func:`generated_layout`."""

    def __init__(self, board: Board) -> None:
        self.board = board
        kinds: dict[str, Kind | None] = {}
        for loc in board.locations():
            kinds[str(loc)] = None if loc.coast else board.provinces[loc.code].kind
        self.kinds = kinds
        extents = [place_extent(key.partition("/")[0], kind) for key, kind in kinds.items()]
        self.extent: Box = (
            min(e[0] for e in extents),
            min(e[1] for e in extents),
            max(e[2] for e in extents),
            max(e[3] for e in extents),
        )
        left, top, right, bottom = self.extent
        self.step = (
            float(math.ceil(right - left + _GAP[0])),
            float(math.ceil(bottom - top + _GAP[1])),
        )
        self.coasts: dict[str, list[str]] = {}  # split province -> its coasts' places
        for loc in board.locations():
            if loc.coast:
                self.coasts.setdefault(loc.code, []).append(str(loc))
        # the borders as drawn: army and fleet borders, and a coast to its province
        pairs: set[tuple[str, str]] = set()
        for a, b in itertools.chain(board.army_graph().edges, board.fleet_graph().edges):
            pairs.add((min(a, b), max(a, b)))
        for province, coasts in self.coasts.items():
            pairs.update((province, coast) for coast in coasts)
        self.edges = sorted(pairs)
        self.incident: dict[str, list[int]] = {key: [] for key in kinds}
        for number, (a, b) in enumerate(self.edges):
            self.incident[a].append(number)
            self.incident[b].append(number)
        # the places each place borders (a split province and its coasts aside)
        self.near: dict[str, list[str]] = {key: [] for key in kinds}
        for a, b in self.edges:
            if a.partition("/")[0] != b.partition("/")[0]:
                self.near[a].append(b)
                self.near[b].append(a)
        self.cell: dict[str, Cell] = {}
        self.taken: dict[Cell, str] = {}
        self.target: dict[str, tuple[float, float]] = {}
        self.over: dict[Cell, set[int]] = {}  # the borders drawn across each cell
        self.passes: dict[int, list[Cell]] = {}  # the cells each border is drawn across
        self.crossings: dict[Cell, list[Cell]] = {}  # offset of a border -> cells it crosses

    # -- geometry, in cells -------------------------------------------------------------
    def length2(self, a: Cell, b: Cell) -> float:
        ratio = self.step[1] / self.step[0]
        return float((a[0] - b[0]) ** 2) + ((a[1] - b[1]) * ratio) ** 2

    def crossed(self, a: Cell, b: Cell) -> list[Cell]:
        """The cells other than ``a`` and ``b`` whose tile the segment from ``a`` to ``b``
        crosses (a tile taken as its box, 64 x 40)."""
        offsets = self.crossings.get((b[0] - a[0], b[1] - a[1]))
        if offsets is None:
            offsets = _crossed_offsets(
                b[0] - a[0], b[1] - a[1], 32 / self.step[0], 20 / self.step[1]
            )
            self.crossings[(b[0] - a[0], b[1] - a[1])] = offsets
        return [(a[0] + dc, a[1] + dr) for dc, dr in offsets]

    # -- the steps ---------------------------------------------------------------------
    def arrange(self, guess: Mapping[str, tuple[float, float]], density: float) -> None:
        """Steps 2 and 3 from a first guess, scaled to ``density`` cells per place."""
        self.first_guess(guess, density)
        self.place_all()
        self.index_borders()
        for _ in range(_ROUNDS):
            self.improve()
            if not self.compact():
                break

    def first_guess(self, guess: Mapping[str, tuple[float, float]], density: float) -> None:
        xs = [p[0] for p in guess.values()]
        ys = [p[1] for p in guess.values()]
        width, height = max(xs) - min(xs), max(ys) - min(ys)
        count = len(self.kinds)
        # scale so that the bounding box holds `density` cells per place (a line of provinces
        # gets at most two cells per border)
        area = max(width, 1.0) * max(height, 1.0)
        scale = math.sqrt(density * count / area)
        lengths = sorted(math.dist(guess[a], guess[b]) for a, b in self.edges)
        if lengths:
            scale = min(scale, 2.0 / max(lengths[len(lengths) // 2], 1e-6))
        ratio = self.step[0] / self.step[1]  # a cell is wider than high
        mx, my = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        for code, (x, y) in guess.items():
            self.target[code] = ((x - mx) * scale, (y - my) * scale * ratio)

    def free(self, cell: Cell) -> bool:
        return cell not in self.taken

    def put(self, key: str, cell: Cell) -> None:
        self.cell[key] = cell
        self.taken[cell] = key

    def place_all(self) -> None:
        """Every province its own cell, nearest its guess, the middle of the map first."""
        order = sorted(self.board.provinces, key=lambda c: (math.hypot(*self.target[c]), c))
        for code in order:
            tx, ty = self.target[code]
            coasts = self.coasts.get(code, [])
            best: tuple[float, Cell, tuple[Cell, ...]] | None = None
            for radius, cell in _rings(round(tx), round(ty)):
                if best is not None and (radius - 0.5) ** 2 > best[0]:
                    break
                d = (cell[0] - tx) ** 2 + (cell[1] - ty) ** 2
                if not self.free(cell):
                    continue
                around = [c for c in _around(cell) if self.free(c)]
                if len(around) < len(coasts):
                    continue
                chosen = self.coast_cells(coasts, around)
                if best is None or (d, cell) < best[:2]:
                    best = (d, cell, chosen)
            assert best is not None
            self.put(code, best[1])
            for coast, cell in zip(coasts, best[2], strict=True):
                self.put(coast, cell)

    def neighbour_points(self, coast: str) -> list[tuple[float, float]]:
        """Where the fleet neighbours of a coast are (placed, or else their guess)."""
        points = []
        for other in sorted(self.board.fleet_graph().adj[coast]):
            if other in self.cell:
                points.append((float(self.cell[other][0]), float(self.cell[other][1])))
            else:
                points.append(self.target[other.partition("/")[0]])
        return points

    def coast_cells(self, coasts: list[str], around: list[Cell]) -> tuple[Cell, ...]:
        """The cells for the coasts, among ``around``, nearest their fleet neighbours."""
        if not coasts:
            return ()
        near = [[self.target[c], *self.neighbour_points(c)] for c in coasts]
        best: tuple[float, tuple[Cell, ...]] | None = None
        for cells in itertools.permutations(around, len(coasts)):
            cost = sum(
                (cell[0] - x) ** 2 + (cell[1] - y) ** 2
                for cell, points in zip(cells, near, strict=True)
                for x, y in points
            )
            if best is None or cost < best[0] - 1e-9:
                best = (cost, cells)
        assert best is not None
        return best[1]

    def index_borders(self) -> None:
        self.over, self.passes = {}, {}
        for number, (a, b) in enumerate(self.edges):
            cells = self.crossed(self.cell[a], self.cell[b])
            self.passes[number] = cells
            for cell in cells:
                self.over.setdefault(cell, set()).add(number)

    def cost(self, moves: Mapping[str, Cell]) -> float:
        """The part of the total that ``moves`` (place -> cell) can change, as it would be
        after them (or now, when every place is moved to its own cell)."""
        cells, taken = self.cell, self.taken
        edges = sorted({e for key in moves for e in self.incident[key]})
        arriving = set(moves.values())
        leaving = {cells[key] for key in moves} - arriving

        def at(key: str) -> Cell:
            return moves[key] if key in moves else cells[key]

        total = 0.0
        for number in edges:
            a, b = self.edges[number]
            ca, cb = at(a), at(b)
            total += self.length2(ca, cb)
            for c in self.crossed(ca, cb):
                if c in arriving or (c in taken and c not in leaving):
                    total += _BLOCKED
        mine = set(edges)
        for key, cell in moves.items():
            tx, ty = self.target[key]
            total += _ANCHOR * ((cell[0] - tx) ** 2 + (cell[1] - ty) ** 2)
            total += _BLOCKED * len(self.over.get(cell, set()) - mine)
        for place in sorted({k for key in moves for k in (key, *self.near[key])}):
            if self.lonely(place, at):
                total += _LONELY
        return total

    def lonely(self, key: str, at: Callable[[str], Cell]) -> bool:
        """Has a place borders, but no place it borders in a cell beside its own?"""
        col, row = at(key)
        for other in self.near[key]:
            c, r = at(other)
            if -1 <= c - col <= 1 and -1 <= r - row <= 1:
                return False
        return bool(self.near[key])

    def apply(self, moves: Mapping[str, Cell]) -> None:
        for key in moves:
            del self.taken[self.cell[key]]
        for key, cell in moves.items():
            self.put(key, cell)
        for number in sorted({e for key in moves for e in self.incident[key]}):
            for cell in self.passes[number]:
                self.over[cell].discard(number)
            a, b = self.edges[number]
            cells = self.crossed(self.cell[a], self.cell[b])
            self.passes[number] = cells
            for cell in cells:
                self.over.setdefault(cell, set()).add(number)

    def candidates(self, code: str) -> Iterable[dict[str, Cell]]:
        """The moves tried for a province (with its coasts): to each cell near it, free or
        held by a place that can swap with it."""
        group = [code, *self.coasts.get(code, [])]
        col, row = self.cell[code]
        for dc, dr in _NEAR:
            moved = {key: (self.cell[key][0] + dc, self.cell[key][1] + dr) for key in group}
            held = {self.taken[c] for c in moved.values() if c in self.taken} - set(group)
            if not held:
                yield moved
            elif len(held) == 1 and len(group) == 1:
                (other,) = held
                if other not in self.coasts and "/" not in other:
                    yield {code: (col + dc, row + dr), other: (col, row)}
        for coast in self.coasts.get(code, []):  # a coast to another cell by its province
            for cell in _around((col, row)):
                if self.free(cell):
                    yield {coast: cell}
                elif self.taken[cell] in self.coasts[code] and self.taken[cell] != coast:
                    yield {coast: cell, self.taken[cell]: self.cell[coast]}

    def improve(self) -> None:
        """Move each province (with its coasts) the best way that lowers the total, until no
        move does; after the first pass only provinces near a change are tried again."""
        dirty = set(self.board.provinces)
        for _ in range(_PASSES):
            if not dirty:
                break
            todo, dirty = sorted(dirty), set()
            for code in todo:
                best: tuple[float, dict[str, Cell]] | None = None
                costs: dict[tuple[str, ...], float] = {}  # the cost now of the places moved
                for moves in self.candidates(code):
                    keys = tuple(sorted(moves))
                    if keys not in costs:
                        costs[keys] = self.cost({key: self.cell[key] for key in keys})
                    gain = costs[keys] - self.cost(moves)
                    if gain > 1e-9 and (best is None or gain > best[0] + 1e-9):
                        best = (gain, moves)
                if best is not None:
                    dirty |= self.touched(best[1])
                    self.apply(best[1])
                    dirty |= self.touched(best[1])

    def touched(self, moves: Mapping[str, Cell]) -> set[str]:
        """The provinces a move may give a better move: those moved, those they border and
        those near where they stand."""
        found = set()
        for key in moves:
            found.add(key.partition("/")[0])
            found.update(other.partition("/")[0] for other in self.near[key])
            col, row = self.cell[key]
            for dc, dr in _NEAR:
                other = self.taken.get((col + dc, row + dr))
                if other is not None:
                    found.add(other.partition("/")[0])
        return found

    def drawn_cost(self) -> float:
        """The squared lengths of the borders and the tiles they cross, over the map."""
        total = 0.0
        for a, b in self.edges:
            ca, cb = self.cell[a], self.cell[b]
            total += self.length2(ca, cb)
            total += _BLOCKED * sum(1 for c in self.crossed(ca, cb) if c in self.taken)
        return total + _LONELY * sum(self.lonely(key, self.cell.__getitem__) for key in self.near)

    def compact(self) -> bool:
        """Take out each empty column and row of the grid whose removal does not make the
        drawing worse; True if any was."""
        removed = False
        for axis in (0, 1):
            line = min(cell[axis] for cell in self.cell.values()) + 1
            while line < max(cell[axis] for cell in self.cell.values()):
                if any(cell[axis] == line for cell in self.cell.values()) or not self.squeeze(
                    axis, line
                ):
                    line += 1
                else:
                    removed = True
        return removed

    def squeeze(self, axis: int, line: int) -> bool:
        """Take out the empty column (axis 0) or row (axis 1) ``line`` if that does not
        make the drawing worse; the guesses beyond it move in by one as well."""
        before = self.drawn_cost()
        old = dict(self.cell)

        def shift(cell: Cell) -> Cell:
            if cell[axis] < line:
                return cell
            return (cell[0] - 1, cell[1]) if axis == 0 else (cell[0], cell[1] - 1)

        self.cell = {key: shift(cell) for key, cell in old.items()}
        self.taken = {cell: key for key, cell in self.cell.items()}
        if self.drawn_cost() > before + 1e-9:
            self.cell = old
            self.taken = {cell: key for key, cell in old.items()}
            return False
        for key, (x, y) in self.target.items():
            value = (x, y)[axis]
            value = value if value <= line - 0.5 else max(line - 0.5, value - 1)
            self.target[key] = (value, y) if axis == 0 else (x, value)
        self.index_borders()
        return True

    def page(self) -> Layout:
        left, top, right, bottom = self.extent
        cols = [c for c, _ in self.cell.values()]
        rows = [r for _, r in self.cell.values()]
        x0 = math.ceil(-left + _MARGIN)
        y0 = math.ceil(-top + _MARGIN)
        sx, sy = self.step
        width = x0 + (max(cols) - min(cols)) * sx + math.ceil(right + _MARGIN)
        height = y0 + (max(rows) - min(rows)) * sy + math.ceil(bottom + _MARGIN)
        points = {
            key: (x0 + (c - min(cols)) * sx, y0 + (r - min(rows)) * sy)
            for key, (c, r) in sorted(self.cell.items())
        }
        return Layout(self.board.name, width, height, MappingProxyType(points))


_NEAR = tuple(
    sorted(
        (
            (dc, dr)
            for dc in range(-_REACH, _REACH + 1)
            for dr in range(-_REACH, _REACH + 1)
            if (dc, dr) != (0, 0)
        ),
        key=lambda d: (d[0] ** 2 + d[1] ** 2, d),
    )
)


def _around(cell: Cell) -> list[Cell]:
    """The eight cells round a cell."""
    col, row = cell
    return [(col + dc, row + dr) for dc, dr in _NEAR if max(abs(dc), abs(dr)) == 1]


def _rings(col: int, row: int) -> Iterable[tuple[int, Cell]]:
    """Every cell with its ring, by rings of growing size round (col, row)."""
    yield 0, (col, row)
    for radius in itertools.count(1):
        for dc in range(-radius, radius + 1):
            for dr in range(-radius, radius + 1):
                if max(abs(dc), abs(dr)) == radius:
                    yield radius, (col + dc, row + dr)


def _crossed_offsets(dc: int, dr: int, hx: float, hy: float) -> list[Cell]:
    """The cells whose box (half sizes ``hx``, ``hy``) the segment from (0, 0) to (dc, dr)
    meets, other than its ends."""
    found = []
    for col in range(min(0, dc), max(0, dc) + 1):
        for row in range(min(0, dr), max(0, dr) + 1):
            if (col, row) in ((0, 0), (dc, dr)):
                continue
            if _segment_meets_box((0, 0), (dc, dr), (col - hx, row - hy, col + hx, row + hy)):
                found.append((col, row))
    return found


def _segment_meets_box(a: Cell, b: Cell, box: Box) -> bool:
    """Does the segment from ``a`` to ``b`` meet the box (left, top, right, bottom)?"""
    (x1, y1), (x2, y2) = a, b
    low, high = 0.0, 1.0
    for p, q in (
        (-(x2 - x1), x1 - box[0]),
        (x2 - x1, box[2] - x1),
        (-(y2 - y1), y1 - box[1]),
        (y2 - y1, box[3] - y1),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True
