"""An adjudicator with one injected fault, for the cross-check tests: dipsat behind the
protocol, with the decisions of one kind forced to a wrong value and everything else worked
out from them by dipsat's own equations (so the board is consistent with the fault, as a
real engine's would be).  The fault is the first argument:

- head-to-head: both moves of a head-to-head battle fail;
- cut: a support is never cut;
- convoy: a fleet that is attacked cannot convoy, even when it is not dislodged;
- retreat: a dislodged unit may also retreat to the province its attacker came from.
"""

import json
import sys

from solver.crosschecking.protocol import read_request, reply
from solver.judge.movement import adjudicate, judge
from solver.values.decisions import CONVOY, MOVE, SUPPORT
from topology import Location

FAULT = sys.argv[1]


def forced(structure):
    """The decisions the fault fixes, and their wrong values (units by number in the
    structure, by province in the decisions)."""
    where = structure.keys
    if FAULT == "head-to-head":
        return {(MOVE, where[m]): False for m in structure.opposing}
    if FAULT == "cut":
        return {(SUPPORT, where[s]): True for s in structure.supports}
    if FAULT == "convoy":
        return {(CONVOY, where[f]): False for f in structure.convoys if structure.attackers[f]}
    return {}


for line in sys.stdin:
    data = json.loads(line)
    position, orders = read_request(data)
    structure = judge(position, orders).structure
    done = adjudicate(position, orders, recorded=forced(structure))
    dislodged = {r.unit: r.options for r in done.dislodged}
    if FAULT == "retreat":
        for r in done.dislodged:
            if not r.by_convoy and done.after.unit_in(r.attacker_from) is None:
                dislodged[r.unit] = (*r.options, Location(r.attacker_from))
    print(json.dumps(reply(data["id"], done.outcomes, done.after, dislodged)), flush=True)
