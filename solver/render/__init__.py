"""Pictures drawn from the data: the board, orders and outcomes as SVG, PNG and HTML pages.

Nothing in the adjudicator imports this package; it reads positions, orders and outcomes
and draws them on the layout of their board (`topology.layout_of`): the drawing its map
names (the standard board's is ``topology/data/standard-layout.toml``), else one generated
from its graphs.
"""
