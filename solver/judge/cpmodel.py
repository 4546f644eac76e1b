"""CP-SAT's model as dipsat builds it.

A module of its own: it derives from a class of OR-Tools' compiled core, which a module
compiled by mypyc cannot (setup.py), so it stays plain Python."""

from __future__ import annotations

from ortools.sat.python import cp_model


class CpModel(cp_model.CpModel):
    """CP-SAT's model without the camel-case aliases its constructor adds to every instance
    (about 0.5 ms each time; dipsat uses the snake-case API only)."""

    def _add_pre_pep8_methods(self) -> None:
        pass
