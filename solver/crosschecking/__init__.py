"""Cross-checking another adjudicator and replaying real games: the protocol, the engines
and the adapters that put other Python adjudicators behind it (`*_adapter.py`, each run as
`python -m solver.crosschecking.<name>_adapter`), random turns, comparison and shrinking,
and the replay of recorded games (`replay.py`)."""

STARTUP_SECONDS = 600.0
"""How long the first reply of a program may take: it starts its engine and loads its map
then (MILA works out the convoy routes of a large map the first time, minutes for some)."""
