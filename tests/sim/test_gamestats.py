"""Each game's statistics hook against what the final state says, and the canonical form the simulator keeps."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from greenlight.bots import make_bot
from greenlight.core.bot import SeatView
from greenlight.core.match import Match
from greenlight.core.registry import get_game
from greenlight.sim.gamestats import canonical, game_statistics, statistics_hook
from greenlight.sim.runner import GameTask, play_game

DOSSIER_VERBS = ("purge", "block", "cut")


def finished_match(game_id: str, players: int, seed: int, options: dict[str, Any] | None = None) -> Match:
    game = get_game(game_id)
    match = Match.start(game, players, seed, options)
    bots = [make_bot("heuristic" if seat == 0 else "random", game, seed + seat) for seat in range(players)]
    while not match.is_over():
        seat = match.decision().players[0]
        match.play(seat, bots[seat].choose(SeatView(game, match.state, seat)))
    return match


def counts(stats: dict[str, Any], action: str) -> Counter[tuple[int, str]]:
    return Counter({(seat, card): count for seat, card, _, kind, count in stats["cards"] if kind == action})


def test_every_game_has_a_statistics_hook() -> None:
    for game_id in ("cinecitta", "maybe-movies", "movie-empire"):
        assert statistics_hook(get_game(game_id)) is not None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cinecitta_statistics_match_the_final_state(seed: int) -> None:
    match = finished_match("cinecitta", 4, seed, {"movie_awards": True})
    state: Any = match.state  # the real state, to check the hook against
    stats = game_statistics(match)
    table = state.table
    outcome = match.outcome()
    assert stats["game"]["headhunts"] == sum(1 for folder in state.folders if folder.response == "headhunt")
    assert stats["game"]["secures"] == sum(1 for folder in state.folders if folder.response == "secure")
    assert stats["game"]["money_offered"] == sum(folder.amount for folder in state.folders)
    assert stats["game"]["drop_outs"] == sum(1 for item in outcome.breakdown if item["status"] != "FINISHED")
    for seat in range(4):
        mine = stats["seats"][seat]
        assert mine["pens"] == sum(1 for card in state.offices[seat] if table[card].pen)
        assert mine["office_cards"] == len(state.offices[seat])
        assert mine["finished"] == int(outcome.breakdown[seat]["status"] == "FINISHED")
        assert mine["headhunted"] == sum(1 for f in state.folders if f.recipient == seat and f.response == "headhunt")
        assert mine["cards_lost"] == sum(1 for f in state.folders if f.sender == seat and f.response == "headhunt")
    assert counts(stats, "offered") == Counter((folder.sender, folder.card) for folder in state.folders)
    assert counts(stats, "studio_at_end") == Counter((seat, card) for seat in range(4) for card in state.studios[seat])
    assert counts(stats, "office_at_end") == Counter((seat, card) for seat in range(4) for card in state.offices[seat])
    placed = Counter((p.seat, p.card) for batch in state.placements for p in batch)
    assert counts(stats, "placed") == placed
    assert all(kind == table[card].occupation for _, card, kind, _, _ in stats["cards"])


@pytest.mark.parametrize("options", [{}, {"breaking_changes": True, "blockbuster_budgets": True, "trendsetter_tricks": True}])
def test_maybe_movies_statistics_match_the_final_state(options: dict[str, Any]) -> None:
    match = finished_match("maybe-movies", 4, 7, options)
    state: Any = match.state  # the real state, to check the hook against
    stats = game_statistics(match)
    history = state.history
    passed = sum(1 for turn in history if turn.check.success)
    assert stats["game"]["pitches"] == len(history)
    assert stats["game"]["passed"] == passed
    assert stats["game"]["pass_rate"] == pytest.approx(passed / len(history))
    assert stats["game"]["mean_pitch_size"] == pytest.approx(sum(len(turn.pitched) for turn in history) / len(history))
    assert stats["game"]["movies_made"] == len(state.made)
    for seat in range(4):
        assert stats["seats"][seat]["votes_won"] == len(state.won[seat])
        assert stats["seats"][seat]["pitches"] == sum(1 for turn in history if turn.active == seat)
        revealed = [votes[seat] for turn in history for votes in turn.rounds if votes[seat] is not None]
        kinds = Counter(state.table.vote(card).kind for card in revealed)
        assert stats["seats"][seat]["yes_votes"] == kinds["YES"]
        assert stats["seats"][seat]["no_votes"] == kinds["NO"]
        assert stats["seats"][seat]["change_votes"] == kinds["CHANGE"]
    won = sum(count for _, _, _, action, count in stats["cards"] if action == "won")
    assert won == sum(len(cards) for cards in state.won)
    made = sum(count for _, _, _, action, count in stats["cards"] if action == "made")
    assert made == len(state.made)
    # A generated catalogue is named by printed features, never by (per-game) id.
    assert not any(name.split()[0] in {card for turn in history for card in turn.pitched} for _, name, _, _, _ in stats["cards"])


def test_maybe_movies_cards_are_named_by_their_print() -> None:
    from greenlight.games.maybe_movies.observation import BlockbusterFace
    from greenlight.games.maybe_movies.stats import card_key

    assert card_key("N02", {"type": "NO", "icon": "money", "value": 1}, False) == ("NO money 1", "NO")
    assert card_key("C01", {"type": "CHANGE", "number": 3}, False) == ("CHANGE 3", "CHANGE")
    blockbuster: BlockbusterFace = {"cost_key": "match_cost", "x": "camera", "n": None, "profit_key": "pitch_size", "title": "T"}
    assert card_key("B15", blockbuster, True) == ("B15 blockbuster match_cost x=camera / pitch_size", "blockbuster")


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"clean_hands": True}), (4, {})])
def test_movie_empire_statistics_match_the_final_state(players: int, options: dict[str, Any]) -> None:
    match = finished_match("movie-empire", players, 5, options)
    state: Any = match.state  # the real state, to check the hook against
    stats = game_statistics(match)
    assert stats["game"]["premieres"] == sum(len(movies) for movies in state.released)
    for seat in range(players):
        mine = stats["seats"][seat]
        released = state.released[seat]
        assert mine["movies_released"] == len(released)
        for genre in ("A", "C", "D"):
            assert mine[f"genre_{genre}"] == sum(1 for _, g, _ in released if g == genre)
        for market in ("USA", "EUR", "CHN", "NET"):
            assert mine[f"market_{market}"] == sum(1 for _, _, m in released if m == market)
        assert mine["statues"] == state.statues[seat]
        # A dossier is spent by "place X dossier", "purge", "block X" or "cut X" (the record, not the events).
        spends = [
            text for who, text in match.record.actions if who == seat and (text.endswith(" dossier") or text.split()[0] in DOSSIER_VERBS)
        ]
        assert mine["dossiers_used"] == len(spends)
        assert mine["dossiers_used"] <= mine["dossiers_taken"]
        assert mine["premiere_pp"] == state.pp[seat]  # premieres are the only source of PP during the game
        assert mine["statues"] <= mine["trends_hit"] <= mine["movies_released"]
        hits = sum(count for s, _, _, action, count in stats["cards"] if s == seat and action == "hit")
        assert hits == mine["trends_hit"]
        laid = sum(count for s, _, _, action, count in stats["cards"] if s == seat and action == "laid")
        assert mine["cards_laid"] == laid
    released_scripts = Counter((seat, script) for seat in range(players) for script, _, _ in state.released[seat])
    assert counts(stats, "released") == released_scripts
    kinds = {kind for _, _, kind, _, _ in stats["cards"]}
    assert kinds <= {"production", "star", "script", "trend", "dossier"}
    if options.get("clean_hands"):
        assert stats["game"]["dossiers_used"] == 0 and "dossier" not in kinds


def test_statistics_are_the_same_from_the_runner_and_repeatable() -> None:
    task = GameTask("movie-empire", 3, 9, ("heuristic", "random", "random"), (1, 2, 3), stats=True)
    first, second = play_game(task), play_game(task)
    assert first.stats is not None and first.stats == second.stats
    assert play_game(GameTask("movie-empire", 3, 9, task.bots, task.bot_seeds)).stats is None


def test_canonical_form_counts_and_checks_entries() -> None:
    raw = {
        "game": {"x": 2, "rate": None},
        "seats": [{"y": True}, {"y": False}],
        "cards": [(1, "B", "t", "laid"), (0, "A", "t", "taken"), (1, "B", "t", "laid")],
    }
    assert canonical(raw, 2) == {
        "game": {"x": 2, "rate": None},
        "seats": [{"y": True}, {"y": False}],
        "cards": [[0, "A", "t", "taken", 1], [1, "B", "t", "laid", 2]],
    }
    assert canonical({}, 2) == {"game": {}, "seats": [{}, {}], "cards": []}
    with pytest.raises(ValueError, match="one entry per seat"):
        canonical({"seats": [{}]}, 2)
    with pytest.raises(ValueError, match="the seat must be 0 to 1"):
        canonical({"cards": [(2, "A", "t", "taken")]}, 2)
    with pytest.raises(TypeError, match="must be a number"):
        canonical({"game": {"name": "text"}}, 2)
