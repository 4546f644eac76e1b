"""Check that datc_v3_2_orders.txt holds every order line of the DATC v3.2 document, in its
order, by comparing it with a JSON extraction of the document (such as the one kept beside
this project in ../shared/datc-raw/datc-v3.2/datc_v3_2_cases.json, which the project does
not ship). A maintainer's check of where the committed data came from, not a test: the
tests read only the committed file. Run from the repository root:

    python tests/data/datc_orders_source.py ../shared/datc-raw/datc-v3.2/datc_v3_2_cases.json

Exit status 0 when they agree; 1, with the first difference, when not."""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent


def committed() -> list[str]:
    text = (HERE / "datc_v3_2_orders.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def extracted(path: Path) -> list[str]:
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return [f"{b['power']}: {o['order']}" for c in cases for b in c["blocks"] for o in b["orders"]]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    ours, theirs = committed(), extracted(Path(argv[0]))
    for number, (a, b) in enumerate(zip(ours, theirs, strict=False), start=1):
        if a != b:
            print(f"order line {number}: committed {a!r}, the document {b!r}", file=sys.stderr)
            return 1
    if len(ours) != len(theirs):
        print(f"{len(ours)} committed order lines, {len(theirs)} in the document", file=sys.stderr)
        return 1
    print(f"{len(ours)} order lines agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
