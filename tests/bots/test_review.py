"""``greenlight review``: one seat's decisions against the best move found, from that seat's view only."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from greenlight.bots.review import THRESHOLDS, label_for, review_game
from greenlight.bots.review_page import review_html
from greenlight.core.match import Match
from greenlight.core.record import Record
from greenlight.core.registry import get_game


def random_record(game_id: str, players: int, seed: int) -> Record:
    game = get_game(game_id)
    match = Match.start(game, players, seed)
    rng = random.Random(seed)
    while not match.is_over():
        seat = min(match.decision().players)
        match.play(seat, rng.choice(match.legal_actions(seat)))
    return match.record


def test_labels_follow_the_documented_thresholds() -> None:
    assert dict(THRESHOLDS) == {"blunder": 0.20, "mistake": 0.10, "inaccuracy": 0.05}
    assert [label_for(loss) for loss in (0.0, 0.049, 0.05, 0.0999, 0.1, 0.199, 0.2, 1.0)] == [
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_every_real_choice_of_the_seat_is_reviewed_with_both_estimates() -> None:
    game = get_game("cinecitta")
    record = random_record("cinecitta", 3, 4)
    review = review_game(game, record, 1, iterations=40)
    state = game.new_state(3, 4)
    real_choices = []
    for index, (seat, text) in enumerate(record.actions):
        if seat == 1 and len(game.legal_actions(state, 1)) > 1:
            real_choices.append(index + 1)
        game.apply(state, seat, game.parse_action(text))
    assert [item.move for item in review.decisions] == real_choices and len(real_choices) > 5
    for item in review.decisions:
        assert item.played.text == record.actions[item.move - 1][1]
        assert item.loss >= 0 and item.label == label_for(item.loss)
        assert item.best.win_share >= item.played.win_share or item.best.action == item.played.action
    data = review.to_json()
    assert sum(data["counts"].values()) == len(review.decisions) and data["result"].startswith("Player 2 ")
    page = review_html(review)
    assert "<svg" in page and page.count("<tr id=") == len(review.decisions) and "Review of Player 2 in Cinecitta 1937" in page


def test_a_review_with_an_iteration_budget_is_reproducible() -> None:
    # That it reads only what the seat knew is the analysis's property (tests/bots/test_analysis.py).
    game = get_game("maybe-movies")
    record = random_record("maybe-movies", 3, 2)
    first = review_game(game, record, 0, iterations=30).to_json()
    assert first["decisions"] and first == review_game(game, record, 0, iterations=30).to_json()


def test_the_command_writes_json_and_html(tmp_path: Path) -> None:
    record = random_record("movie-empire", 2, 3)
    saved = tmp_path / "game.json"
    record.save(saved)
    out = tmp_path / "review"
    result = subprocess.run(
        [sys.executable, "-m", "greenlight.cli.main", "review", str(saved), "--seat", "1", "--iterations", "20", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "review.json").read_text())
    assert data["seat"] == 1 and data["decisions"] and "Reviewed" in result.stdout
    assert "<svg" in (out / "review.html").read_text()
    bad = subprocess.run(
        [sys.executable, "-m", "greenlight.cli.main", "review", str(saved), "--seat", "5"], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode != 0 and "seat must be 0 to 1" in bad.stderr
