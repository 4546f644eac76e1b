"""A deliberately wrong adjudicator for the cross-check tests: dipsat behind the protocol,
except that it reports every support as given (it never cuts a support: the board is
dipsat's, only the labels differ) and, with --board, forgets every dislodged unit (a board
difference)."""

import json
import sys

from solver.crosschecking.engines import DipsatEngine
from solver.crosschecking.protocol import read_request

engine = DipsatEngine()
for line in sys.stdin:
    data = json.loads(line)
    position, orders = read_request(data)
    reply = engine.adjudicate(data["id"], position, orders)
    for given in orders:
        if type(given.order).__name__.startswith("Support"):
            reply["results"][given.order.unit.place.province.upper()] = True
    if "--board" in sys.argv:
        reply["dislodged"] = {}
    print(json.dumps(reply), flush=True)
