"""Exploring and reporting: the conformance run over the cases, the paradox explorer, the
explanation of a game, and the scenes, pages and gallery that draw them."""
