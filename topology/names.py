"""Name normalisation and the name-lookup errors."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from .files import shown

_SEPARATORS = re.compile(r"[\s\-._'\u2019/()]+")


def normalize(text: str) -> tuple[str, ...]:
    """Split a name into lower-case, accent-free words.

    Words are separated by whitespace and the characters ``- . _ ' / ( )``:
    ``normalize("St. Petersburg") == ("st", "petersburg")``,
    ``normalize("Moscú") == ("moscu",)``.
    """
    folded = unicodedata.normalize("NFKD", text).casefold()
    decomposed = unicodedata.normalize("NFKD", folded)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return tuple(word for word in _SEPARATORS.split(plain) if word)


class UnknownNameError(ValueError):
    """A name matches no province or power."""

    def __init__(self, text: str, what: str = "province") -> None:
        super().__init__(f"unknown {what} name {shown(text, 60)}")
        self.text = text


class AmbiguousNameError(ValueError):
    """A name matches more than one province; ``candidates`` holds their codes, sorted."""

    def __init__(self, text: str, candidates: Iterable[str], names: Mapping[str, str]) -> None:
        self.text = text
        self.candidates: tuple[str, ...] = tuple(sorted(candidates))
        listed = ", ".join(f"{names[code]} ({code})" for code in self.candidates)
        super().__init__(f"ambiguous province name {shown(text, 60)}: could be {listed}")


def prefix_matches(words: tuple[str, ...], key: tuple[str, ...]) -> bool:
    """True if ``key`` starts with ``words``, the last of which may be a prefix of its word."""
    n = len(words)
    if n == 0 or len(key) < n:
        return False
    return key[: n - 1] == words[: n - 1] and key[n - 1].startswith(words[-1])
