"""Pictures drawn from the data: the board, orders and outcomes as SVG, PNG and HTML pages.

Nothing in the adjudicator imports this package; it reads positions, orders and outcomes
and draws them on the schematic coordinates kept in ``topology/data/standard-layout.toml``.
"""
