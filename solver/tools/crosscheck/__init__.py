"""Cross-checking another adjudicator: protocol, engines, positions, comparison, shrinking."""
