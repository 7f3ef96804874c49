"""The seeded catalogue generator (§2.6), setup (§3) draw for draw, and the fixed-catalogue loader (§2.7)."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from greenlight.core.errors import DataError, OptionError
from greenlight.games.maybe_movies import GAME
from greenlight.games.maybe_movies.cards import (
    COST_KEYS,
    EXAMPLE_CATALOGUE,
    ICONS,
    N_KEYS,
    NO,
    PROFIT_KEYS,
    X_KEYS,
    YES,
    generate_catalogue,
    load_catalogue,
    title_key,
)
from greenlight.testing.conformance import option_matrix


def test_generation_check_seed_0_votes() -> None:
    catalogue = generate_catalogue(0)
    yes = [card for card in catalogue.votes if card.kind == YES]
    no = [card for card in catalogue.votes if card.kind == NO]
    assert [str(card) for card in yes[:5]] == [
        "Y01 YES actors 4",
        "Y02 YES money 3",
        "Y03 YES microphone 4",
        "Y04 YES camera 4",
        "Y05 YES microphone 3",
    ]
    assert [str(card) for card in no[:5]] == [
        "N01 NO money 1",
        "N02 NO setting 2",
        "N03 NO setting 1",
        "N04 NO actors 1",
        "N05 NO camera 1",
    ]
    icons = Counter(ICONS[card.icon] for card in catalogue.votes)
    assert icons == {"money": 9, "actors": 10, "script": 10, "setting": 10, "camera": 10, "microphone": 11}
    assert Counter(card.value for card in yes) == {2: 6, 3: 12, 4: 12}
    assert Counter(card.value for card in no) == {1: 20, 2: 10}


def test_generation_check_seed_0_movies() -> None:
    catalogue = generate_catalogue(0)
    assert [str(card) for card in catalogue.movies[:4]] == ["M01 [money] p1", "M02 [money] p1", "M03 [actors, money] p2", "M04 [script] p1"]
    icons = Counter(ICONS[icon] for card in catalogue.movies for icon in card.cost)
    assert icons == {"money": 11, "actors": 14, "script": 10, "setting": 11, "camera": 12, "microphone": 10}
    assert sum(icons.values()) == 68
    assert Counter(len(card.cost) for card in catalogue.movies) == {1: 25, 2: 14, 3: 5}
    assert Counter(card.profit for card in catalogue.movies) == {1: 21, 2: 14, 3: 7, 4: 1, 5: 1}


def test_generation_check_seed_0_blockbusters() -> None:
    catalogue = generate_catalogue(0)
    first = [(card.cost_key, ICONS[card.x] if card.x is not None else None, card.n, card.profit_key) for card in catalogue.blockbusters[:4]]
    assert first == [
        ("copycat_most_neighbor", None, None, "copycat_least_neighbor"),
        ("num_no_votes", "money", None, "unanimous_profit"),
        ("unanimous_vote", "camera", None, "match_reward"),
        ("wildcard_cost_conditional", None, 3, "match_reward"),
    ]
    assert [card.id for card in catalogue.changes] == [f"C{n:02d}" for n in range(1, 13)]
    assert [card.number for card in catalogue.changes] == list(range(1, 13))


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 99, 1234, 98765])
def test_generated_catalogues_keep_the_balance_of_g1_to_g4(seed: int) -> None:
    catalogue = generate_catalogue(seed)
    vote_icons = Counter(card.icon for card in catalogue.votes)
    assert len(vote_icons) == 6 and all(9 <= count <= 11 for count in vote_icons.values())
    assert all(2 <= card.value <= 4 for card in catalogue.votes if card.kind == YES)
    assert all(1 <= card.value <= 2 for card in catalogue.votes if card.kind == NO)
    movie_icons = Counter(icon for card in catalogue.movies for icon in card.cost)
    assert 64 <= sum(movie_icons.values()) <= 68
    assert max(movie_icons.values()) - min(movie_icons.values()) <= 4
    assert all(1 <= card.profit <= 5 and 1 <= len(card.cost) <= 3 for card in catalogue.movies)
    for card in catalogue.blockbusters:
        assert card.cost_key in COST_KEYS and card.profit_key in PROFIT_KEYS
        assert (card.x is not None) == (card.cost_key in X_KEYS)
        assert (card.n is not None) == (card.cost_key in N_KEYS)


def test_the_same_seed_always_gives_the_same_catalogue() -> None:
    generate_catalogue.cache_clear()
    first = generate_catalogue(5).to_json()
    generate_catalogue.cache_clear()
    assert generate_catalogue(5).to_json() == first
    assert generate_catalogue(6).to_json() != first


# -- setup -----------------------------------------------------------------------------------------


def test_setup_check_seed_0_four_players() -> None:
    state = GAME.new_state(4, seed=0)
    assert sorted(state.hands[0]) == sorted(["Y05", "Y09", "Y18", "Y21", "N03", "N09", "N13", "N17", "N21", "N25"])
    assert state.market == ["M12", "M43", "M44", "M15", "M17", "M33"]
    assert len(state.pool) == 20
    assert set(state.pool) == {
        "Y01",
        "Y06",
        "Y08",
        "Y12",
        "Y14",
        "Y15",
        "Y17",
        "Y22",
        "Y26",
        "Y28",
        "N02",
        "N05",
        "N06",
        "N08",
        "N12",
        "N15",
        "N16",
        "N22",
        "N26",
        "N27",
    }
    assert len(state.draw_pile) == 38 and state.draw_pile[:3] == ["M23", "M28", "M25"]
    assert state.active == 0 and state.phase == "pitch"
    assert state.discard == [] and state.made == [] and state.won == [[], [], [], []] and state.out_of_play == []


class _Reference:
    """§2.6 primitives and §3 written again from the rules text, independently of the engine's modules."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random("maybe-movies/play/" + str(seed))

    def shuffle(self, seq: list[Any]) -> None:
        for i in range(len(seq) - 1, 0, -1):
            j = math.floor(self.rng.random() * (i + 1))
            seq[i], seq[j] = seq[j], seq[i]

    def setup(self, seed: int, n: int, breaking: bool, blockbuster: bool) -> dict[str, Any]:
        catalogue = generate_catalogue(seed)
        yes = [card.id for card in catalogue.votes if card.kind == YES]
        no = [card.id for card in catalogue.votes if card.kind == NO]
        self.shuffle(yes)
        self.shuffle(no)
        deck = yes[: 5 * n] + no[: 5 * n]
        pool = yes[5 * n :] + no[5 * n :]
        deals = 0
        while True:
            self.shuffle(deck)
            deals += 1
            hands = [deck[10 * s : 10 * s + 10] for s in range(n)]
            if all({card[0] for card in hand} == {"Y", "N"} for hand in hands):
                break
        if breaking:
            change = [f"C{k:02d}" for k in range(1, 2 * n + 1)]
            self.shuffle(change)
            hands = [hand + change[2 * s : 2 * s + 2] for s, hand in enumerate(hands)]
        pile = [card.id for card in catalogue.movies] + ([card.id for card in catalogue.blockbusters] if blockbuster else [])
        self.shuffle(pile)
        market, pile = pile[:6], pile[6:]
        personal: list[list[str]] = [[] for _ in range(n)]
        if breaking:
            for s in range(n):
                personal[s], pile = pile[:2], pile[2:]
        return {"hands": hands, "pool": pool, "market": market, "pile": pile, "personal": personal, "deals": deals}


#: Seeds whose first deal leaves some hand without a YES or a NO, so R9's re-deal runs (found by search).
REDEAL_SEEDS = {3: 2547, 4: 301, 5: 348, 6: 117}


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize(("breaking", "blockbuster"), [(False, False), (True, False), (False, True), (True, True)])
def test_setup_matches_the_rules_text_draw_for_draw(n: int, breaking: bool, blockbuster: bool) -> None:
    for seed in [*range(20), REDEAL_SEEDS[n]]:
        expected = _Reference(seed).setup(seed, n, breaking, blockbuster)
        assert (expected["deals"] > 1) == (seed == REDEAL_SEEDS[n])
        state = GAME.new_state(n, seed, {"breaking_changes": breaking, "blockbuster_budgets": blockbuster})
        assert state.hands == expected["hands"]
        assert state.pool == expected["pool"]
        assert state.market == expected["market"]
        assert state.draw_pile == expected["pile"]
        assert state.personal == expected["personal"]


def test_every_dealt_hand_holds_a_yes_and_a_no() -> None:
    for seed in range(60):
        state = GAME.new_state(6, seed)
        for hand in state.hands:
            assert {card[0] for card in hand} == {"Y", "N"}


def test_pool_sizes_by_player_count() -> None:
    assert [len(GAME.new_state(n, seed=3).pool) for n in (3, 4, 5, 6)] == [30, 20, 10, 0]
    state = GAME.new_state(5, 3, {"breaking_changes": True})
    assert [len(hand) for hand in state.hands] == [12] * 5
    assert sorted(card for hand in state.hands for card in hand if card.startswith("C")) == [f"C{k:02d}" for k in range(1, 11)]
    assert all(len(cards) == 2 for cards in state.personal)


# -- fixed catalogue -------------------------------------------------------------------------------


def test_example_catalogue_is_the_seed_0_catalogue() -> None:
    assert load_catalogue(EXAMPLE_CATALOGUE).to_json() == generate_catalogue(0).to_json()


def test_a_fixed_deck_plays_with_the_play_stream_of_the_seed() -> None:
    generated = GAME.new_state(4, 0)
    fixed = GAME.new_state(4, 0, {"data": str(EXAMPLE_CATALOGUE)})
    assert fixed.hands == generated.hands and fixed.market == generated.market and fixed.draw_pile == generated.draw_pile
    other_seed = GAME.new_state(4, 1, {"data": str(EXAMPLE_CATALOGUE)})
    assert other_seed.table.to_json() == fixed.table.to_json()
    assert other_seed.hands != fixed.hands


def _write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE_CATALOGUE.read_text(encoding="utf-8"))
    return data


def _error(tmp_path: Path, data: dict[str, Any]) -> DataError:
    with pytest.raises(DataError) as info:
        load_catalogue(_write(tmp_path, data))
    return info.value


def test_loader_names_card_and_field_of_a_bad_value(tmp_path: Path) -> None:
    data = _example()
    data["votes"][0]["value"] = 1  # a YES vote is worth 2-4
    error = _error(tmp_path, data)
    assert (error.card, error.field) == ("Y01", "value")
    assert "YES vote has a value from 2 to 4" in str(error) and "deck.json" in str(error)


def test_loader_rejects_an_unknown_icon(tmp_path: Path) -> None:
    data = _example()
    data["movies"][2]["cost"] = ["money", "popcorn"]
    error = _error(tmp_path, data)
    assert (error.card, error.field) == ("M03", "cost")
    assert "popcorn" in str(error)


def test_loader_checks_x_and_n_against_the_cost_key(tmp_path: Path) -> None:
    data = _example()
    data["blockbusters"][0]["x"] = "money"  # B01 is copycat_most_neighbor: no X
    error = _error(tmp_path, data)
    assert (error.card, error.field) == ("B01", "x")
    data = _example()
    data["blockbusters"][3]["n"] = None  # B04 is wildcard_cost_conditional: needs N
    error = _error(tmp_path, data)
    assert (error.card, error.field) == ("B04", "n")


def test_loader_checks_counts_numbers_and_ids(tmp_path: Path) -> None:
    data = _example()
    data["movies"].pop()
    assert "exactly 44 movie cards, found 43" in str(_error(tmp_path, data))
    data = _example()
    data["votes"][0]["type"] = "NO"
    data["votes"][0]["value"] = 2
    assert "exactly 30 YES votes, found 29" in str(_error(tmp_path, data))
    data = _example()
    data["change"][1]["number"] = 1
    assert "CHANGE numbers must be 1 to 12" in str(_error(tmp_path, data))
    data = _example()
    data["blockbusters"][0]["id"] = "M01"
    error = _error(tmp_path, data)
    assert (error.card, error.field) == ("M01", "id") and "used twice" in str(error)
    data = _example()
    data["movies"][0]["colour"] = "red"
    error = _error(tmp_path, data)
    assert (error.card, error.field) == ("M01", "colour")


def test_a_broken_deck_option_fails_when_the_game_starts(tmp_path: Path) -> None:
    with pytest.raises(DataError) as info:
        GAME.new_state(3, 0, {"data": str(tmp_path / "missing.json")})
    assert "cannot read the file" in str(info.value)
    with pytest.raises(OptionError):
        GAME.new_state(3, 0, {"data": 5})


def test_loader_refuses_two_cards_of_one_title(tmp_path: Path) -> None:
    data = _example()
    data["blockbusters"][4]["title"] = f"★ {data['movies'][6]['title'].upper()} "  # a star, case and spaces do not count
    error = _error(tmp_path, data)
    assert (error.card, error.field) == ("B05", "title") and "also the title of M07" in str(error)
    data = _example()
    data["movies"][1]["title"] = ""  # called "Movie 2" then: another card may not take that name
    data["movies"][8]["title"] = "Movie 2"
    error = _error(tmp_path, data)
    assert (error.card, error.field) == ("M09", "title") and "'Movie 2' is also the title of M02" in str(error)


#: Every mix of the three expansions (titles do not depend on the player count).
MIXES = sorted({tuple(sorted(options.items())) for _, options in option_matrix(GAME)})


@pytest.mark.parametrize("mix", MIXES, ids=lambda mix: "+".join(name for name, on in mix if on) or "base")
def test_no_two_cards_of_a_catalogue_share_a_name(mix: tuple[tuple[str, Any], ...]) -> None:
    """§2.6: a player names cards by their titles, so every movie and blockbuster of a catalogue has its own, whatever
    the seed and the expansions (votes of the same icon and value are alike cards and share their name)."""
    options = dict(mix)
    for seed in range(0, 3000, 50 if any(options.values()) else 10):
        state = GAME.new_state(3, seed, options)
        names = [component.name for component in GAME.components(state) if component.kind in ("movie card", "blockbuster card")]
        keys = [title_key(name) for name in names]
        assert len(names) == 60 and len(set(keys)) == 60, (seed, sorted(name for name in names if keys.count(title_key(name)) > 1))


@pytest.mark.slow
def test_no_two_titles_alike_in_many_generated_catalogues() -> None:
    for seed in range(20_000):
        table = generate_catalogue(seed)
        keys = {title_key(table.title(card.id)) for card in (*table.movies, *table.blockbusters)}
        assert len(keys) == 60, seed
