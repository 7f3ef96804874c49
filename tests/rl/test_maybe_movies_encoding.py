"""Maybe Movies observation encoding: movie-card features (blockbuster texts, Trendsetter doubling, personal cards)."""

from __future__ import annotations

from typing import Any

from greenlight.games.maybe_movies import GAME
from greenlight.games.maybe_movies.cards import COST_KEYS, ICONS, PROFIT_KEYS
from greenlight.games.maybe_movies.encoding import ENCODING, MOVIE_FEATURES, PERSONAL_SLOTS
from greenlight.games.maybe_movies.rules import position
from greenlight.games.maybe_movies.state import Stack
from greenlight.rl.encoding import field_slices
from tests.games.maybe_movies.support import table, text_card

OPTIONS = {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}


def _movie(features: list[float]) -> dict[str, Any]:
    """Decode one movie slot into readable parts."""
    icons = len(ICONS)
    text = 1 + icons + 4
    return {
        "present": features[0],
        "cost": dict(zip(ICONS, features[1 : 1 + icons], strict=True)),
        "profit": features[1 + icons],
        "costs_double": features[2 + icons],
        "pays_double": features[3 + icons],
        "blockbuster": features[4 + icons],
        "cost_key": [COST_KEYS[i] for i, v in enumerate(features[text : text + len(COST_KEYS)]) if v],
        "x": [ICONS[i] for i, v in enumerate(features[text + len(COST_KEYS) : text + len(COST_KEYS) + icons]) if v],
        "n": features[text + len(COST_KEYS) + icons],
        "profit_key": [PROFIT_KEYS[i] for i, v in enumerate(features[text + len(COST_KEYS) + icons + 1 :]) if v],
    }


def test_maybe_movies_movie_slots_of_a_known_position() -> None:
    cards = table(
        votes={"Y1": "YES camera 3", "Y2": "YES money 2", "N1": "NO actors 1"},
        movies={"M1": (["camera", "camera", "money"], 2), "M2": (["script"], 4), "M9": (["camera"], 1), "M8": (["script"], 3)},
        texts=[text_card("B1", "wildcard_cost", "match_reward", n=2), text_card("B2", "num_yes_votes", "copycat_most", x="script")],
    )
    made = [Stack(("M9",), "M9", False), Stack(("M8",), "M8", True)]
    state = position(
        3, hands=[["Y1"], ["Y2"], ["N1"]], table=cards, options=OPTIONS, market=["M1", "B1"], personal=[[], ["B2", "M2"], []], made=made
    )
    observation = GAME.observe(state, 0)
    vector = ENCODING.encode(observation)
    fields = {name: vector[where] for name, where in field_slices(ENCODING.fields(3, OPTIONS)).items()}
    market = fields["market"]
    m1, b1 = _movie(market[:MOVIE_FEATURES]), _movie(market[MOVIE_FEATURES : 2 * MOVIE_FEATURES])
    # M1 shows camera (the failed top's icon): it costs double; two camera icons and one money icon / 3.
    assert m1["present"] == 1.0 and m1["cost"]["camera"] == 2 / 3 and m1["cost"]["money"] == 1 / 3
    assert (m1["profit"], m1["costs_double"], m1["pays_double"], m1["blockbuster"]) == (2 / 5, 1.0, 0.0, 0.0)
    assert m1["cost_key"] == [] and m1["profit_key"] == []
    # B1 is a blockbuster with no X: no doubling, its keys and N = 2.
    assert (b1["blockbuster"], b1["costs_double"], b1["pays_double"], b1["n"]) == (1.0, 0.0, 0.0, 2 / 3)
    assert b1["cost_key"] == ["wildcard_cost"] and b1["profit_key"] == ["match_reward"] and b1["x"] == []
    assert not any(market[2 * MOVIE_FEATURES :])
    # Personal cards of seat 1 (slot 1 from seat 0): B2 shows X = script, the successful top's icon: it pays double.
    personal = fields["personal"]
    width = PERSONAL_SLOTS * MOVIE_FEATURES
    assert not any(personal[:width]) and not any(personal[2 * width :])
    b2, m2 = _movie(personal[width : width + MOVIE_FEATURES]), _movie(personal[width + MOVIE_FEATURES : 2 * width])
    assert (b2["blockbuster"], b2["x"], b2["cost_key"], b2["profit_key"], b2["pays_double"]) == (
        1.0,
        ["script"],
        ["num_yes_votes"],
        ["copycat_most"],
        1.0,
    )
    assert m2["cost"]["script"] == 1 / 3 and m2["profit"] == 4 / 5 and m2["pays_double"] == 1.0


def test_without_trendsetter_nothing_doubles() -> None:
    cards = table(
        votes={"Y1": "YES camera 3", "Y2": "YES money 2", "N1": "NO actors 1"}, movies={"M1": (["camera"], 2), "M9": (["camera"], 1)}
    )
    state = position(3, hands=[["Y1"], ["Y2"], ["N1"]], table=cards, market=["M1"], made=[Stack(("M9",), "M9", False)])
    vector = ENCODING.encode(GAME.observe(state, 0))
    market = vector[field_slices(ENCODING.fields(3, {}))["market"]]
    assert _movie(market[:MOVIE_FEATURES])["costs_double"] == 0.0
