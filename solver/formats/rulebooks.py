"""Rule books by name or from a TOML file: `base = EDITION` and a `[policies]` table of
changes (see docs/rules.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from topology.files import TextFileError, parse_toml, probe, read_text, shown

from ..errors import CaseFormatError, DipsatError
from ..values.rules import POLICIES, RULE_BOOKS, RuleBook, policy_value, upgraded


def rule_book(rules: str | RuleBook, *, files: bool = True) -> RuleBook:
    """A rule book itself, or the edition or preset of that name, or (with `files`) one
    read from a TOML file of that name.

    Raises:
        DipsatError: no rule book has that name (the message lists those that do), or
            `rules` is neither a name nor a rule book.
        CaseFormatError: the TOML file cannot be read or is not a rule book.
    """
    if isinstance(rules, RuleBook):
        return rules
    also = ", or a .toml file" if files else ""
    if not isinstance(rules, str):
        raise DipsatError(
            f"expected a rule book or its name ({', '.join(RULE_BOOKS)}{also}), "
            f"found {shown(rules, 60)}"
        )
    if rules in RULE_BOOKS:
        return RULE_BOOKS[rules]
    path = Path(rules)
    if files and (path.suffix == ".toml" or probe(path)):
        return load_rule_book(path)
    raise DipsatError(f"unknown rule book {shown(rules, 60)}; known: {', '.join(RULE_BOOKS)}{also}")


MAX_RULE_BOOK_BYTES = 1_000_000
"""The largest rule book file read."""


def load_rule_book(path: Path) -> RuleBook:
    """A custom rule book: `base = EDITION` (2025 if not given), `name = "..."` (the file's
    name if not given) and a `[policies]` table of changes.

    Raises:
        CaseFormatError: naming the file (and the line of a TOML syntax error): it cannot
            be read, is not UTF-8 or not TOML, or a key or a value is not one it takes.
    """
    where = str(path)
    try:
        data = parse_toml(read_text(path, MAX_RULE_BOOK_BYTES))
    except TextFileError as err:
        raise CaseFormatError(err.message, where, err.line, err.column) from err
    unknown = set(data) - {"base", "name", "policies"}
    if unknown:
        raise CaseFormatError(
            f"unknown key {sorted(unknown)[0]!r}; expected base, name and [policies]", where
        )
    base_name = data.get("base", "2025")
    if not isinstance(base_name, str) or base_name not in RULE_BOOKS:
        raise CaseFormatError(
            f"base {shown(base_name, 60)} is no edition; known: {', '.join(RULE_BOOKS)}", where
        )
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip():
        raise CaseFormatError(
            f"name: expected the rule book's name as text, found {shown(name, 60)}", where
        )
    policies: Any = data.get("policies", {})
    if not isinstance(policies, dict):
        raise CaseFormatError(
            f"policies: expected a [policies] table of changes, found {shown(policies, 60)}", where
        )
    spelled: dict[str, Any] = {}
    for key, value in policies.items():
        policy_name = key.replace("-", "_")
        if policy_name in spelled:
            raise CaseFormatError(f"policy {policy_name} is set twice", where)
        spelled[policy_name] = value
    changes = {}
    for key, value in upgraded(spelled, where).items():
        policy = POLICIES.get(key)
        if policy is None:
            raise CaseFormatError(
                f"unknown policy {key!r}; known: {', '.join(sorted(POLICIES))}", where
            )
        changes[policy.name] = policy_value(policy.name, value, where)
    try:
        return replace(RULE_BOOKS[base_name], name=name, **changes)
    except DipsatError as err:
        raise CaseFormatError(str(err), where) from None
