"""Movie Empire observation encoding: exact values on a known position, private fields, layouts from the data tables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")  # the rl extra

from greenlight.games.movie_empire import GAME, cards
from greenlight.games.movie_empire.cards import load_tables
from greenlight.games.movie_empire.encoding import DECISION_KINDS, ENCODING, layout
from greenlight.games.movie_empire.lines import build_line
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.rules import PROMPTS
from greenlight.games.movie_empire.state import MovieEmpireState
from greenlight.rl.encoding import field_slices

TABLE = load_tables()


def _known_position() -> MovieEmpireState:
    """Round 3, seat 1's turn at 3 players: lines, slots, trends, plans, a known card, a release and an assistant."""
    state = position(
        3,
        round=3,
        first_player=2,
        seat=1,
        money=[5, 9, 12],
        pp=[4, 10, 0],
        sympathy=[0, 2, -1],
        hands=[["PB01", "ST05"], ["PG01", "PG01", "SA03", "ST04"], ["PR01"]],
        lines=[
            [build_line(TABLE, "SA01", ["PB01", "PB02"])],
            [build_line(TABLE, "SC02", ["PG01", "PJ01:B", "PB08", "+PB09"], stars=["ST06"])],
            [],
        ],
        slots={"PS1": "PR03", "SS2": "SA02", "SR1": "ST03"},
        plan="AP02",
        plan_pile=["AP11", "AP05"],
        trend_row=["TR17", "TR10", "TR13"],
        released=[[], [("SD01", "D", "EUR")], []],
        assistants={"CC1": 0},
    )
    state.known[0] = ["ST05"]
    return state


def _fields(vector: list[float], num_players: int) -> dict[str, list[float]]:
    return {name: vector[where] for name, where in field_slices(ENCODING.fields(num_players, {})).items()}


def test_movie_empire_fields_of_a_known_position() -> None:
    state = _known_position()
    field = _fields(ENCODING.encode(GAME.observe(state, 1)), 3)
    production, stars, scripts = TABLE.production_ids, TABLE.star_ids, TABLE.script_ids
    vocab = [*production, *stars, *scripts]

    assert field["num_players"] == [0.0, 1.0, 0.0]
    assert field["round"] == [0.3, 1.0]
    assert field["phase"] == [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    assert field["decision"] == [1.0 if kind == "turn" else 0.0 for kind in DECISION_KINDS]
    # Seats are relative to the viewer (seat 1): slot 0 = seat 1, slot 1 = seat 2, slot 2 = seat 0.
    assert field["first_player"] == [0.0, 1.0, 0.0]
    assert field["to_act"] == [1.0, 0.0, 0.0]
    assert field["turn_seat"] == [1.0, 0.0, 0.0]
    # Plans (13): active AP02, next AP11 (the top of the pile), revealed AP02, pile 2 / 13.
    plan = field["plan"]
    assert [index for index, value in enumerate(plan) if value] == [1, 13 + 10, 26 + 1, 39]
    assert plan[39] == pytest.approx(2 / 13)
    # Trends (17): TS1 = TR17, TS2 = TR10, TS3 (active) = TR13.
    trends = field["trends"]
    assert [index for index, value in enumerate(trends) if value] == [16, 17 + 9, 34 + 12]
    # Spaces in table order, 1 + 2n = 7 floats each: CC1 (table position 10) holds seat 0's assistant (slot 2).
    cc1 = field["spaces"][10 * 7 : 11 * 7]
    assert cc1 == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    assert field["spaces"][11 * 7] == 0.0  # CC2 is a 4-player space
    # PS1 holds Trailer (PR03) at price 3; SS2 holds Highway Fury (SA02: action, needs B1 Y1, 3 PP).
    ps1 = field["production_slots"][: len(production) + 1]
    assert [index for index, value in enumerate(ps1[:-1]) if value] == [production.index("PR03")]
    assert ps1[-1] == 3 / 8
    width = len(scripts) + 8
    ss2 = field["script_slots"][width : 2 * width]
    assert [index for index, value in enumerate(ss2[: len(scripts)]) if value] == [scripts.index("SA02")]
    assert ss2[len(scripts) :] == [1.0, 0.0, 0.0, 0.0, 1 / 3, 1 / 3, 0.0, 3 / 12]
    assert field["star_slots"][stars.index("ST03")] == 1.0
    # Own hand: two of the three copies of PG01, one script, one star.
    hand = field["hand"]
    assert {vocab[index]: value for index, value in enumerate(hand) if value} == {"PG01": pytest.approx(2 / 3), "SA03": 1.0, "ST04": 1.0}

    players = field["players"]
    player_width = len(players) // 3
    me, seat0 = players[:player_width], players[2 * player_width :]
    assert me[:5] == [9 / 30, 10 / 60, 0.7, 0.6, 1.0]
    released = me[20:27]
    assert released == [0.0, 0.0, 0.2, 0.0, 0.2, 0.0, 0.0]  # one drama premiered in Europe
    assert {vocab[index] for index, value in enumerate(seat0[27 : 27 + len(vocab)]) if value} == {"ST05"}
    # My line 1: Banana Peel Boulevard (comedy, needs B2, 3 PP) with G, joker as B, B + stacked upgrade, one star.
    line = me[27 + len(vocab) :]
    assert line[0] == 1.0
    assert line[1:9] == [0.0, 1.0, 0.0, 0.0, 2 / 3, 0.0, 0.0, 3 / 12]
    assert line[9:13] == [0.2, 0.4, 0.0, 0.0]  # effective stage counts / 5
    assert line[13] == 3 / 8  # period
    assert line[14:22] == [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]  # left end G, right end B
    cards = line[22 : 22 + len(production)]
    assert {production[index] for index, value in enumerate(cards) if value} == {"PG01", "PJ01", "PB08"}
    upgrades = [card.id for card in TABLE.production.values() if card.is_upgrade]
    stacked = line[22 + len(production) : 22 + len(production) + len(upgrades)]
    assert {upgrades[index] for index, value in enumerate(stacked) if value} == {"PB09"}
    star_at = 22 + len(production) + len(upgrades)
    assert {stars[index] for index, value in enumerate(line[star_at : star_at + len(stars)]) if value} == {"ST06"}
    tail = line[star_at + len(stars) : star_at + len(stars) + 5]
    # stars / 3, production PP (PG01 1 + joker 0 + PB08 3 + stacked PB09 2) / 20, shut, locked, script met
    assert tail == [pytest.approx(1 / 3), pytest.approx(0.3), 0.0, 0.0, 1.0]
    assert not any(line[len(tail) + star_at + len(stars) :])  # line slot 2 is empty
    assert field["final"] == [0.0] * 6


def test_movie_empire_spectator_vector_has_no_private_fields() -> None:
    state = _known_position()
    field = _fields(ENCODING.encode(GAME.observe(state, None)), 3)
    assert field["spectator"] == [1.0]
    for name in ("hand", "dealt", "drawn", "commitment", "gifted"):
        assert not any(field[name]), name
    assert any(field["players"])


def test_movie_empire_setup_shows_the_dealt_scripts_and_the_commitment() -> None:
    state = GAME.new_state(2, seed=5)
    dealt = GAME.observe(state, 0)["dealt"]
    action = GAME.legal_actions(state, 0)[0]
    GAME.apply(state, 0, action)
    observation = GAME.observe(state, 0)
    field = _fields(ENCODING.encode(observation), 2)
    assert {TABLE.script_ids[index] for index, value in enumerate(field["dealt"]) if value} == set(dealt)
    assert field["committed"] == [1.0, 0.0]
    commitment = field["commitment"]
    vocab = [*TABLE.production_ids, *TABLE.star_ids, *TABLE.script_ids]
    assert commitment[0] == 1.0
    assert sorted(vocab[index] for index, value in enumerate(commitment[1:]) if value) == sorted(observation["my_commitment"])
    # The other seat sees only that seat 0 committed (slot 1 from its side).
    other = _fields(ENCODING.encode(GAME.observe(state, 1)), 2)
    assert other["committed"] == [0.0, 1.0] and not any(other["commitment"])


def test_every_decision_kind_of_the_rules_has_a_slot() -> None:
    assert set(PROMPTS) | {"game_over"} == set(DECISION_KINDS)


def test_the_layout_follows_custom_data_tables(tmp_path: Path) -> None:
    """A data folder with fewer scripts gives a shorter vector; every value is still in [0, 1]."""
    bundled_scripts = Path(cards.__file__).parent / "data" / "scripts.toml"
    head, _, _ = bundled_scripts.read_text(encoding="utf-8").rpartition("[[card]]")
    (tmp_path / "scripts.toml").write_text(head, encoding="utf-8")  # every script but the last; other files stay bundled
    options = {"data": str(tmp_path)}
    assert len(layout(options).scripts) == len(TABLE.script_ids) - 1
    # One float less per script slot (3), in each hand-card vocabulary (discards, hand, commitment, gifted,
    # every player's known cards) and in the dealt scripts.
    for num_players in (2, 3, 4):
        assert ENCODING.size(num_players, {}) - ENCODING.size(num_players, options) == 3 + 4 + num_players + 1
    state = GAME.new_state(3, seed=3, options=options)
    rng = random.Random(3)
    for _ in range(200):
        decision = GAME.decision(state)
        if not decision.players:
            break
        vector = np.asarray(ENCODING.encode(GAME.observe(state, decision.players[0])))
        assert vector.shape == (ENCODING.size(3, options),)
        assert vector.min() >= 0.0 and vector.max() <= 1.0
        seat = rng.choice(decision.players)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
