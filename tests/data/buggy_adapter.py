"""A deliberately wrong adjudicator for the cross-check tests: dipsat behind the protocol,
except that it reports every support as given (it never cuts a support)."""

import json
import sys

from solver.tools.crosscheck.engines import DipsatEngine
from solver.tools.crosscheck.protocol import read_request

engine = DipsatEngine()
for line in sys.stdin:
    data = json.loads(line)
    position, orders = read_request(data)
    reply = engine.adjudicate(data["id"], position, orders)
    for given in orders:
        if type(given.order).__name__.startswith("Support"):
            reply["results"][given.order.unit.place.province.upper()] = True
    print(json.dumps(reply), flush=True)
