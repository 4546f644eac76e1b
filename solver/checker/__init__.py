"""The independent checker: `check_resolution` names every way a movement resolution
disagrees with the checker's own reading of DATC chapters 4 and 5 (see check.py)."""

from .check import check_resolution

__all__ = ["check_resolution"]
