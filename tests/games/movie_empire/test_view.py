"""Information (§8): observations, determinization, secrets; text forms and action codes (words: test_words.py)."""

from __future__ import annotations

import json
import random

from greenlight.games.movie_empire import GAME, rounds
from greenlight.games.movie_empire.actions import ACTION_TYPES
from greenlight.games.movie_empire.flow import advance
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import MovieEmpireState
from tests.games.movie_empire.helpers import line, play


def random_state(players: int, seed: int, steps: int) -> MovieEmpireState:
    state = GAME.new_state(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        decision = GAME.decision(state)
        if decision.is_terminal:
            break
        seat = rng.choice(decision.players)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return state


def test_observation_shows_own_hand_only_and_public_counts() -> None:
    state = position(2, hands=[["PB01", "SA01", "ST04"], ["PY01", "PY02"]])
    mine, spectator = GAME.observe(state, 0), GAME.observe(state, None)
    assert mine["hand"] == ["PB01", "SA01", "ST04"] and "hand" not in spectator
    assert mine["players"][1]["hand_size"] == 2 and mine["players"][1]["hand_counts"] == {"production": 2, "star": 0, "script": 0}
    text = json.dumps(mine)
    assert "PY01" not in text and "PY02" not in text


def test_cards_taken_face_up_stay_known_until_they_leave_the_hand() -> None:
    state = position(2, money=[5, 5], slots={"PS1": "PB05"}, lines=[[line("SA01", ["PB02"])], []])
    play(state, 0, "place PS1")
    assert GAME.observe(state, 1)["players"][0]["known_cards"] == ["PB05"]
    play(state, 0, "produce 1", "lay PB05 right")
    assert GAME.observe(state, 1)["players"][0]["known_cards"] == []


def test_determinize_keeps_what_the_viewer_knows_and_redraws_the_rest() -> None:
    state = random_state(3, seed=4, steps=60)
    for viewer in (0, 1, 2, None):
        before = json.dumps(GAME.observe(state, viewer), sort_keys=True)
        changed = False
        for sample in range(5):
            world = GAME.determinize(state, viewer, random.Random(sample))
            assert json.dumps(GAME.observe(world, viewer), sort_keys=True) == before
            changed |= world.production_pile != state.production_pile
            for seat in range(3):
                assert len(world.hands[seat]) == len(state.hands[seat])
        assert changed


def test_determinize_keeps_ap12_gifts_the_viewer_gave() -> None:
    hands = [["PB01", "PB02", "SA01"], ["PY01", "PY02", "PY03"]]
    state = position(
        2,
        round=2,
        phase="grumpy",
        hands=hands,
        plan_pile=["AP12", "AP13"],
        trend_row=["TR01", "TR02", "TR03"],
        production_pile=["PR01"] * 20,
    )
    rounds.begin_round(state, [])
    advance(state, [])
    play(state, 0, "exempt decline")
    play(state, 1, "exempt decline")
    play(state, 0, "give PB02,SA01")
    play(state, 1, "give PY01,PY02")
    assert state.gifted[0] == ["PB02", "SA01"]
    for sample in range(10):
        world = GAME.determinize(state, 0, random.Random(sample))
        assert {"PB02", "SA01"} <= set(world.hands[1])
    assert "PB02" not in GAME.secrets(state, 0) and "PY03" in GAME.secrets(state, 0)


def test_uncommitted_and_committed_choices_of_others_are_redrawn() -> None:
    state = GAME.new_state(2, seed=3)
    play(state, 1, f"keep {state.dealt[1][0]}")
    worlds = [GAME.determinize(state, 0, random.Random(sample)) for sample in range(8)]
    assert all(world.dealt[0] == state.dealt[0] for world in worlds)
    assert any(world.dealt[1] != state.dealt[1] for world in worlds)
    assert all(world.commit[1] is not None and world.commit[1][0] in world.dealt[1] for world in worlds)


def test_secrets_never_appear_in_observations() -> None:
    for seed in range(3):
        state = random_state(4, seed, steps=120)
        for viewer in (0, 1, 2, 3, None):
            observation = json.dumps(GAME.observe(state, viewer))
            secrets = GAME.secrets(state, viewer)
            assert secrets
            assert not any(f'"{secret}"' in observation for secret in secrets)


def test_removed_trends_are_secret_forever() -> None:
    state = GAME.new_state(3, seed=1)
    for viewer in (0, 1, 2, None):
        assert set(state.trend_removed) <= GAME.secrets(state, viewer)


def test_every_action_text_round_trips_and_codes_are_unique_when_legal_together() -> None:
    seen: dict[str, int] = {}
    for seed in range(6):
        state = GAME.new_state(2 + seed % 3, seed)
        rng = random.Random(seed)
        while not GAME.is_terminal(state):
            seat = rng.choice(GAME.decision(state).players)
            actions = GAME.legal_actions(state, seat)
            codes = [GAME.action_code(state, action) for action in actions]
            assert len(set(codes)) == len(codes) and all(0 <= c < GAME.num_distinct_actions for c in codes)
            for action, code in zip(actions, codes, strict=True):
                assert GAME.parse_action(str(action)) == action
                assert seen.setdefault(str(action), code) == code  # stable across states
            GAME.apply(state, seat, rng.choice(actions))
    verbs = {text.split()[0] for text in seen}
    assert verbs >= {"keep", "exempt", "pass", "place", "produce", "lay", "done", "end", "discard", "market"}
    assert len(ACTION_TYPES) == 23
