#!/usr/bin/env python3
"""Check or write the golden games of the built-in games (tests/golden/<game>.json).

python scripts/golden.py                 # check every game (what tests/core/test_golden.py does)
python scripts/golden.py --write GAME    # write GAME's golden games again, after a rules-version bump

Writing keeps the scores of the rules version being replaced and prints the golden games whose result the bump
changed: the version's CHANGELOG entry must name each of them (in backquotes) and the rule change that explains it,
or tests/core/test_golden.py fails. At an unchanged rules version a game that plays differently is refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from greenlight.core.registry import get_game
from greenlight.testing.golden import changed_results, check_golden, make_golden

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "golden"
BUILT_IN = ("cinecitta", "maybe-movies", "movie-empire")


def main() -> int:
    """Check every built-in game's golden games, or write some again; exit 1 if any no longer match."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", nargs="*", metavar="GAME", help="write these games' golden files (none named: all)")
    args = parser.parse_args()
    if args.write is not None:
        for name in args.write or BUILT_IN:
            game = get_game(name)
            path = FOLDER / f"{game.spec.id}.json"
            before = json.loads(path.read_text()) if path.exists() else None
            if before is not None and before.get("version") == game.spec.version and (problems := check_golden(game, before)):
                print(f"{game.spec.title} plays differently at the same rules version; bump spec.version first:", file=sys.stderr)
                print("  " + "\n  ".join(problems[1:]), file=sys.stderr)
                return 1
            golden = make_golden(game, before=before)
            path.write_text(json.dumps(golden, separators=(",", ":")) + "\n")
            print(f"wrote {path} (rules version {game.spec.version})")
            changed = changed_results(game, golden)
            if changed:
                print(f"  the CHANGELOG entry of `{game.spec.id}` rules version {game.spec.version} must name these results it changed:")
                print("\n".join(f"  `{name}`" for name in changed))
        return 0
    failed = False
    for name in BUILT_IN:
        game = get_game(name)
        problems = check_golden(game, json.loads((FOLDER / f"{game.spec.id}.json").read_text()))
        print(f"{game.spec.title}: " + ("as pinned" if not problems else "\n  ".join(problems)))
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
