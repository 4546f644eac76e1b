"""`python -m solver` runs the dipsat command line."""

from .cli import main

main()
