"""Cross-checking another adjudicator and replaying real games: the protocol, the engines
and the adapters that put other Python adjudicators behind it (`*_adapter.py`, each run as
`python -m solver.crosschecking.<name>_adapter`), random turns, comparison and shrinking,
and the replay of recorded games (`replay.py`)."""
