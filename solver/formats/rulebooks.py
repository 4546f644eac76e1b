"""Rule books by name or from a TOML file: `base = EDITION` and a `[policies]` table of
changes (see docs/rules.md)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from topology.files import TextFileError, parse_toml, probe, read_text, shown

from ..errors import CaseFormatError, DipsatError, did_you_mean, expect_type
from ..values.rules import RULE_BOOKS, RuleBook, policy_named, policy_value, upgraded


def rule_book(rules: str | RuleBook, *, files: bool = True) -> RuleBook:
    """A rule book itself, or the edition or preset of that name, or (with `files`) one
    read from a TOML file of that name.

    Raises:
        TypeError: `rules` is neither a name nor a rule book.
        DipsatError: no rule book has that name (the message lists those that do).
        CaseFormatError: the TOML file cannot be read or is not a rule book.
    """
    if isinstance(rules, RuleBook):
        return rules
    also = ", or a .toml file" if files else ""
    expect_type("rules", rules, str, f"a rule book or its name ({', '.join(RULE_BOOKS)}{also})")
    if rules in RULE_BOOKS:
        return RULE_BOOKS[rules]
    path = Path(rules)
    if files and (path.suffix == ".toml" or probe(path)):
        return load_rule_book(path)
    near = did_you_mean(rules, RULE_BOOKS)
    raise DipsatError(
        f"unknown rule book {shown(rules, 60)}{near}; known: {', '.join(RULE_BOOKS)}{also}"
    )


MAX_RULE_BOOK_BYTES = 1_000_000
"""The largest rule book file read."""


def load_rule_book(path: Path) -> RuleBook:
    """A custom rule book: `base = EDITION` (2025 if not given), `name = "..."` (the file's
    name if not given) and a `[policies]` table of changes.

    Raises:
        CaseFormatError: naming the file, and the line of the key at fault where it has
            one: it cannot be read, is not UTF-8 or not TOML, or a key or a value is not
            one it takes (a misspelt policy or value is given the nearest names).
    """
    where = str(path)
    try:
        text = read_text(path, MAX_RULE_BOOK_BYTES)
        data = parse_toml(text)
    except TextFileError as err:
        raise CaseFormatError(err.message, where, err.line, err.column) from err

    def fail(message: str, key: str, table: str = "") -> CaseFormatError:
        line, column = _place(text, table, key)
        return CaseFormatError(message, where, line, column)

    unknown = set(data) - {"base", "name", "policies"}
    if unknown:
        key = sorted(unknown)[0]
        raise fail(f"unknown key {key!r}; expected base, name and [policies]", key)
    base_name = data.get("base", "2025")
    if not isinstance(base_name, str) or base_name not in RULE_BOOKS:
        known = ", ".join(RULE_BOOKS)
        near = did_you_mean(base_name, RULE_BOOKS)
        raise fail(f"base {shown(base_name, 60)} is no edition{near}; known: {known}", "base")
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip():
        raise fail(f"name: expected the rule book's name as text, found {shown(name, 60)}", "name")
    policies: Any = data.get("policies", {})
    if not isinstance(policies, dict):
        raise fail(
            f"policies: expected a [policies] table of changes, found {shown(policies, 60)}",
            "policies",
        )
    spelled: dict[str, Any] = {}
    written: dict[str, str] = {}  # each policy as the file writes its key
    for key, value in policies.items():
        policy_name = key.replace("-", "_")
        if policy_name in spelled:
            raise fail(f"policy {policy_name} is set twice", key, "policies")
        spelled[policy_name] = value
        written[policy_name] = key
    try:
        table = upgraded(spelled, where)
    except CaseFormatError as err:  # `history`, which older files have
        raise fail(err.message, written.get("history", "history"), "policies") from None
    changes = {}
    for key, value in table.items():
        at = written.get(key, key)
        try:
            policy = policy_named(at)
            changes[policy] = policy_value(policy, value, where)
        except CaseFormatError as err:
            raise fail(err.message, at, "policies") from None
        except DipsatError as err:
            raise fail(str(err), at, "policies") from None
    try:
        return replace(RULE_BOOKS[base_name], name=name, **changes)
    except DipsatError as err:
        raise CaseFormatError(str(err), where) from None


_KEY = re.compile(r"""\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*[=.]""")
_TABLE = re.compile(r"""\s*\[\s*([A-Za-z0-9_.\s"'-]*?)\s*\]""")


def _place(text: str, table: str, key: str) -> tuple[int, int]:
    """The line and column of `key` in `table` ('' the top level; `policies.key = ...`
    at the top level counts too), or (0, 1) when it cannot be found."""
    here = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _TABLE.match(line)
        if header:
            here = header.group(1).replace('"', "").replace("'", "").replace(" ", "")
            continue
        found = _KEY.match(line)
        if not found:
            continue
        name = next(g for g in found.groups() if g is not None)
        dotted = here == "" and table and name == table
        if (here == table and name == key) or (dotted and _dotted_key(line, key)):
            return number, len(line) - len(line.lstrip()) + 1
    return 0, 1


def _dotted_key(line: str, key: str) -> bool:
    """Whether a top-level line `policies.KEY = ...` sets `key`."""
    rest = line.split("=", 1)[0].split(".", 1)
    return len(rest) == 2 and rest[1].strip().strip("\"'") == key
