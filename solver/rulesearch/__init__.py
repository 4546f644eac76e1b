"""Searching over rule books: which policies decide a case, which rule books give an
outcome, which rule book a site's games were played under (docs/rules.md)."""
