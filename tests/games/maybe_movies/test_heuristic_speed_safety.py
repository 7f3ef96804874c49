"""The Maybe Movies heuristic's shortcuts for speed (#33) change nothing they claim not to change.

* ``determinize`` is handed a stream that does not shuffle: the bot reads nothing a shuffle decides there.
* Icon rows take a quicker loop that gives the same floats as the general one.
* The other seats' votes are sampled only when a decision values a row.
* The bot still sees only its seat's view, with every expansion, and plays the same for the same seed.
"""

from __future__ import annotations

import random

import pytest

from greenlight.core.bot import SeatView
from greenlight.core.spec import OptionValue
from greenlight.games.maybe_movies import GAME
from greenlight.games.maybe_movies.actions import Pick
from greenlight.games.maybe_movies.bots import SAMPLES, HeuristicBot, _Unshuffled, _World
from greenlight.games.maybe_movies.state import CHANGE_EDIT, MOVIE_PICK, VOTE, MaybeMoviesState
from tests.games.maybe_movies.test_bots import choices_compared_with_twins

EVERY_EXPANSION: dict[str, OptionValue] = {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}


def _positions(num_players: int, seed: int, options: dict[str, OptionValue]) -> list[tuple[MaybeMoviesState, int]]:
    """Every position of a game of heuristic bots where the seat to act has a choice, with that seat."""
    state = GAME.new_state(num_players, seed, options)
    bots = [HeuristicBot(seed * 10 + seat) for seat in range(num_players)]
    found = []
    while not GAME.is_terminal(state):
        seat = GAME.decision(state).players[0]
        view = SeatView(GAME, state, seat)
        if len(view.legal_actions()) > 1:
            found.append((state.clone(), seat))
        GAME.apply(state, seat, bots[seat].choose(view))
    return found


def _read(world: _World) -> tuple[object, ...]:
    """Everything the value model reads from a world before it values a row."""
    return (
        world.profiles,
        world.card_value,
        world.won_icons,
        world.pool_size,
        world.pool_value,
        world.made,
        world.order,
        world.own_votes(),
    )


@pytest.mark.parametrize("options", [{}, EVERY_EXPANSION], ids=["base", "all"])
def test_an_unshuffled_world_gives_the_bot_what_a_shuffled_one_does(options: dict[str, OptionValue]) -> None:
    """Worlds dealt with and without shuffles differ (hands, draw pile), yet the bot reads the same from both: the same
    sampled votes for the same sampling stream, the same card values, wins, pool, made icons, order and own votes."""
    positions = _positions(4, 5, options)
    phases = {state.phase for state, _ in positions}
    assert {VOTE, MOVIE_PICK} <= phases and (CHANGE_EDIT in phases or not options)
    differing_worlds = 0
    for index, (state, seat) in enumerate(positions):
        shuffled = GAME.determinize(state, seat, random.Random(index))
        unshuffled = GAME.determinize(state, seat, _Unshuffled(index))
        differing_worlds += shuffled.hands != unshuffled.hands or shuffled.draw_pile != unshuffled.draw_pile
        assert _read(_World(shuffled, seat, random.Random(99))) == _read(_World(unshuffled, seat, random.Random(99)))
    assert differing_worlds > len(positions) // 2


def test_the_unshuffled_stream_keeps_lists_in_order_and_draws_as_random_does() -> None:
    cards = ["b", "a", "c"]
    stream = _Unshuffled(3)
    stream.shuffle(cards)
    assert cards == ["b", "a", "c"]
    reference = random.Random(3)
    assert [stream.random() for _ in range(3)] == [reference.random() for _ in range(3)]
    assert stream.randrange(10**30) == reference.randrange(10**30)


def _sample_rows(state: MaybeMoviesState, rng: random.Random, count: int) -> list[tuple[str, ...]]:
    cards = sorted(state.table.movie_cards)
    return [tuple(rng.sample(cards, rng.randint(1, 3))) for _ in range(count)]


def test_icon_rows_are_valued_exactly_as_by_the_general_loop() -> None:
    """Over icon and text rows of a game with every expansion, ``utilities`` is the general loop's sums over the
    profiles divided by their number, to the last bit: for text rows it is that loop, and for icon rows the quicker
    loop gives the same floats (an icon row's costs do not read the vote, so the general loop values it too)."""
    positions = _positions(4, 7, EVERY_EXPANSION)
    rng = random.Random(1)
    text_rows = icon_rows = 0
    for state, seat in positions[:: max(1, len(positions) // 12)]:
        world = _World(GAME.determinize(state, seat, random.Random(2)), seat, random.Random(3))
        candidates = world.own_votes()
        assert len(world.profiles) == SAMPLES
        for row in _sample_rows(state, rng, 8):
            edits = rng.randint(0, 2)
            pick_mine, pick_total = world.pick_gains(row)
            general = world._text_row_sums(row, edits, pick_mine, pick_total, candidates, world.profiles, [0.0] * len(candidates))
            assert world.utilities(row, candidates, edits) == [value / SAMPLES for value in general]
            if world.has_text(row):
                text_rows += 1
            else:
                icon_rows += 1
                costs = world.costs(row, 0, 0, edits)
                assert world._icon_row_sums(costs, pick_mine, pick_total, candidates, world.profiles, [0.0] * len(candidates)) == general
    assert text_rows > 5 and icon_rows > 20


def test_a_movie_pick_samples_no_votes() -> None:
    """The other seats' votes are sampled on first use: a Movies Made pick (public facts only) draws none."""
    positions = [(state, seat) for state, seat in _positions(4, 11, {}) if state.phase == MOVIE_PICK]
    assert positions
    for state, seat in positions:
        world = _World(GAME.determinize(state, seat, random.Random(1)), seat, random.Random(2))
        action = HeuristicBot(0)._pick(world, GAME.legal_actions(state, seat))
        assert isinstance(action, Pick) and action in GAME.legal_actions(state, seat)
        assert world._profiles is None


@pytest.mark.parametrize("options", [{"blockbuster_budgets": True}, EVERY_EXPANSION], ids=["blockbuster", "all"])
def test_no_choice_depends_on_other_hands_with_the_expansions(options: dict[str, OptionValue]) -> None:
    """As tests/games/maybe_movies/test_bots.py checks it for the base game and Breaking Changes: a copy of the bot
    given a twin position (hidden cards of two other seats exchanged, draw pile reversed, stream reseeded; the same
    observation) chooses as the bot does, through whole games, text rows included."""
    assert choices_compared_with_twins(options) > 30


@pytest.mark.parametrize("num_players", [3, 6])
def test_the_same_seeds_play_the_same_games_at_three_and_six_players(num_players: int) -> None:
    def record() -> list[tuple[int, str]]:
        state = GAME.new_state(num_players, 21, EVERY_EXPANSION)
        bots = [HeuristicBot(seat) for seat in range(num_players)]
        moves = []
        while not GAME.is_terminal(state):
            seat = GAME.decision(state).players[0]
            action = bots[seat].choose(SeatView(GAME, state, seat))
            GAME.apply(state, seat, action)
            moves.append((seat, str(action)))
        return moves

    first = record()
    assert len(first) > 50
    assert record() == first
