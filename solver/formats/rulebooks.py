"""Rule books by name or from a TOML file: `base = EDITION` and a `[policies]` table of
changes (see docs/rules.md)."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

from ..errors import CaseFormatError, DipsatError
from ..values.rules import POLICIES, RULE_BOOKS, RuleBook, policy_value


def rule_book(name: str) -> RuleBook:
    """A named rule book, or one read from a TOML file; unknown names list the known ones."""
    if name in RULE_BOOKS:
        return RULE_BOOKS[name]
    path = Path(name)
    if path.suffix == ".toml" or path.exists():
        return load_rule_book(path)
    raise DipsatError(
        f"unknown rule book {name!r}; known: {', '.join(RULE_BOOKS)}, or a .toml file"
    )


def load_rule_book(path: Path) -> RuleBook:
    """A custom rule book: `base = EDITION` and a `[policies]` table of changes."""
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise CaseFormatError(f"cannot read: {err.strerror}", where, 0) from err
    except tomllib.TOMLDecodeError as err:
        raise CaseFormatError(f"not valid TOML: {err}", where, 0) from err
    unknown = set(data) - {"base", "name", "policies"}
    if unknown:
        raise CaseFormatError(
            f"unknown key {sorted(unknown)[0]!r}; expected base, name and [policies]", where
        )
    base_name = data.get("base", "2025")
    if base_name not in RULE_BOOKS:
        raise CaseFormatError(
            f"base {base_name!r} is no edition; known: {', '.join(RULE_BOOKS)}", where
        )
    book = replace(RULE_BOOKS[base_name], name=str(data.get("name", path.stem)))
    changes = {}
    for key, value in data.get("policies", {}).items():
        policy = POLICIES.get(key.replace("-", "_"))
        if policy is None:
            raise CaseFormatError(
                f"unknown policy {key!r}; known: {', '.join(sorted(POLICIES))}", where
            )
        changes[policy.name] = policy_value(policy.name, value, where)
    return replace(book, **changes)
