"""OpenSpiel playthroughs of every game, checked in and replayed as OpenSpiel's own integration test does.

A playthrough (``open_spiel.python.algorithms.generate_playthrough``) prints
a random game step by step: the game type and sizes, then at the states it
shows, every information-state and observation string and tensor, the legal
actions and the action taken. Replaying the recorded actions must print the
same text, so any change to the adapter's strings, tensors, chance nodes or
action codes shows up here. After a deliberate change, write them again with

    python tests/rl/test_playthroughs.py --update
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

import greenlight.rl.openspiel  # noqa: F401  (registers the games)

HERE = Path(__file__).parent / "playthroughs"
#: Game strings with their files: one per game, at a player count and options that keep the file a few hundred KB.
PLAYTHROUGHS = {
    "greenlight_cinecitta.txt": "greenlight_cinecitta(players=3)",
    "greenlight_maybe_movies.txt": "greenlight_maybe_movies(players=3)",
    "greenlight_movie_empire.txt": "greenlight_movie_empire(players=2,shoot_a_short=True)",
}
#: The largest file accepted (the adapter once printed 3.7 to 6.1 MB per game).
MAX_BYTES = 800_000


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_playthrough_replays_the_same(name: str) -> None:
    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()  # replay reads an absl flag (use action ids: the default)
    path = HERE / name
    assert path.stat().st_size < MAX_BYTES
    original, again = generate_playthrough.replay(str(path))
    assert original == again


def _update() -> None:
    from open_spiel.python.algorithms import generate_playthrough

    for name, game_string in PLAYTHROUGHS.items():
        text = generate_playthrough.playthrough(game_string, None, seed=1)
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"{name}: {len(text.encode()):,} bytes")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/rl/test_playthroughs.py --update")
    _update()
