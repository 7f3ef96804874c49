"""Cinecitta 1937 determinization: every sampled world is one the seat cannot rule out, and every such world can be sampled.

What a seat knows about the other wallets (rules §3 step 5, §4, §8): every wallet
starts at 100 (public), the money it sent and received, the answer to its own
folder, and every placement (from which the count of cards each seat placed
pins the responses, §4 step 3). Every folder the seat did not see may hold any
amount its sender could afford, and a headhunter must have matched it (R6).
"""

from __future__ import annotations

import random

import pytest

from greenlight.core.actions import Action
from greenlight.core.spec import OptionValue
from greenlight.games.cinecitta import GAME, determinization, rules, view
from greenlight.games.cinecitta.actions import HEADHUNT, SECURE, Offer, Respond
from greenlight.games.cinecitta.state import OFFER, PLACE, CinecittaState


def play(state: CinecittaState, offers: list[Offer], responses: list[str]) -> None:
    """One round: the given offers and responses, then each seat's first legal plan."""
    for seat, offer in enumerate(offers):
        GAME.apply(state, seat, offer)
    for seat, choice in enumerate(responses):
        GAME.apply(state, seat, Respond(choice))
    for seat in range(state.num_players):
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])


def dealt(num_players: int, hands: list[list[str]], options: dict[str, OptionValue] | None = None) -> CinecittaState:
    """A dealt game (every wallet starts at 100, which everyone knows) with chosen hands."""
    state = GAME.new_state(num_players, 0, options or {})
    state.hands = [list(hand) for hand in hands]
    return state


def sampled_wallets(state: CinecittaState, viewer: int | None, samples: int = 300) -> set[tuple[int, ...]]:
    return {tuple(GAME.determinize(state, viewer, random.Random(f"w/{i}")).wallets) for i in range(samples)}


HANDS_3 = [["D2", "D3", "D5"], ["A2", "A3", "A5"], ["C2", "C3", "C5"]]


def test_round_one_every_wallet_is_the_public_100() -> None:
    state = dealt(3, HANDS_3)
    assert sampled_wallets(state, 0) == {(100, 100, 100)}
    assert sampled_wallets(state, None) == {(100, 100, 100)}


def test_round_one_offers_the_seat_did_not_see_are_drawn_from_100() -> None:
    state = dealt(5, [["D2", "D3"], ["A2", "A3"], ["C2", "C3"], ["S2", "S3"], ["D5", "D6"]])
    for seat in range(5):
        GAME.apply(state, seat, Offer(state.hands[seat][0], 0))
    # Step 2 of round 1: wallets after the offers. Seat 0 knows only its own and seat 4's offer (0 each).
    worlds = [GAME.determinize(state, 0, random.Random(i)) for i in range(200)]
    assert all(world.round_start_wallets == [100] * 5 for world in worlds)
    assert all(world.wallets[0] == 100 and world.wallets[4] == 100 for world in worlds)
    assert {world.wallets[2] for world in worlds} == set(range(0, 101, 10))


def test_a_headhunt_of_the_whole_wallet_forces_the_headhunter_to_have_offered_nothing() -> None:
    # Round 1: seat 0 sends (D2, 100) to seat 1, which headhunts it: seat 1 had 100 left after its own
    # offer, so it offered 0, and is now empty. Seat 0 secured (C2, 0) from seat 2. Seat 0 now knows
    # every wallet: 200 (its own), 0 (seat 1) and 100 (seat 2).
    state = dealt(3, HANDS_3)
    play(state, [Offer("D2", 100), Offer("A2", 0), Offer("C2", 0)], [SECURE, HEADHUNT, SECURE])
    assert state.step == OFFER and state.round == 2
    assert state.wallets == [200, 0, 100]
    assert sampled_wallets(state, 0) == {(200, 0, 100)}


def test_an_unseen_folder_may_have_held_any_amount_its_sender_had() -> None:
    # Round 1, everybody secures: seat 1's folder to seat 2 held some m in 0..100 that seat 0 never saw
    # (every seat placed one card, and seat 0 knows its own folder was secured, so seat 2 secured too).
    state = dealt(3, HANDS_3)
    play(state, [Offer("D2", 0), Offer("A2", 40), Offer("C2", 0)], [SECURE, SECURE, SECURE])
    assert state.wallets == [100, 60, 140]
    assert sampled_wallets(state, 0) == {(100, 100 - m, 100 + m) for m in range(0, 101, 10)}


def test_the_placements_tell_every_seat_who_headhunted() -> None:
    # Round 1: seat 1 headhunts seat 0's 0-folder, seat 2 headhunts seat 1's folder (30), seat 0 secures.
    # Seat 1 placed one card (D2), seat 2 two (A2 and its own C2), seat 0 none: so seat 0 knows that
    # seat 2 headhunted, and that money went from seat 2 to seat 1: (100, 100 + m, 100 - m).
    state = dealt(3, HANDS_3)
    play(state, [Offer("D2", 0), Offer("A2", 30), Offer("C2", 0)], [SECURE, HEADHUNT, HEADHUNT])
    assert state.wallets == [100, 130, 70]
    assert sampled_wallets(state, 0) == {(100, 100 + m, 100 - m) for m in range(0, 101, 10)}


def test_a_spectator_cannot_tell_everybody_headhunted_from_everybody_secured() -> None:
    # Every seat placed one card: for a spectator either every folder was secured or every one headhunted.
    state = dealt(3, HANDS_3)
    play(state, [Offer("D2", 0), Offer("A2", 0), Offer("C2", 0)], [SECURE, SECURE, SECURE])
    worlds = sampled_wallets(state, None, 600)
    assert all(sum(world) == 300 for world in worlds)
    assert (100, 100, 100) in worlds
    # Everybody secured with amounts (a, b, c): seat 0 ends at 100 - a + c, and so on; e.g. (0, 200, 100).
    assert (0, 200, 100) in worlds
    # Everybody headhunted with amounts (a, b, c): seat 0 ends at 100 + a - c, and a headhunter matches
    # from what is left after its own offer (a + c <= 100 for seat 0), e.g. a = 50: (150, 50, 100).
    assert (150, 50, 100) in worlds
    assert (300, 0, 0) not in worlds  # one round cannot move 200 to a single seat
    assert all(min(world) >= 0 and max(world) <= 200 for world in worlds)


def test_what_the_seat_received_and_learned_this_round_bounds_the_other_wallets() -> None:
    # Round 2 step 3: seat 0 received (C3, 100) from seat 2, so seat 2 had 100 when round 2 began, and
    # seat 1 headhunted seat 0's (D3, 60), so seat 1 had at least 60 plus its own offer.
    state = dealt(3, HANDS_3)
    play(state, [Offer("D2", 0), Offer("A2", 0), Offer("C2", 0)], [SECURE, SECURE, SECURE])
    for seat, offer in enumerate([Offer("D3", 60), Offer("A3", 0), Offer("C3", 100)]):
        GAME.apply(state, seat, offer)
    for seat, choice in enumerate([SECURE, HEADHUNT, SECURE]):
        GAME.apply(state, seat, Respond(choice))
    assert state.step == PLACE
    # Round 1 moved some m from seat 1 to seat 2 (0 <= m <= 100, everybody secured). Seat 2 had 100 + m >= 100
    # and seat 1 had 100 - m >= 60, so m <= 40.
    starts = {tuple(GAME.determinize(state, 0, random.Random(i)).round_start_wallets) for i in range(300)}
    assert starts == {(100, 100 - m, 100 + m) for m in range(0, 41, 10)}


def test_destination_change_worlds_follow_the_turning_partners() -> None:
    # 4 players with the coaster. Round 1 (k = 1) and round 2 (k = 2): every folder holds 0 and is secured.
    # Seat 0 sees only its own folders; every seat placed one card each round.
    state = dealt(4, [["D2", "D3", "D5"], ["A2", "A3", "A5"], ["C2", "C3", "C5"], ["S2", "S3", "S5"]], {"destination_change": True})
    for _ in range(2):
        play(state, [Offer(state.hands[seat][0], 0) for seat in range(4)], [SECURE] * 4)
    assert state.round == 3 and state.wallets == [100] * 4
    # Round 1: seat 1 -> 2 moved a and seat 2 -> 3 moved b (0..100 each), both secured (pinned by the
    # placements and seat 0's own secured folder). Round 2: seat 0 and seat 2 swapped empty folders; seats 1
    # and 3 swapped folders seat 0 never saw, both secured or both headhunted: any split of their money.
    expected = {
        (100, u, 100 + a - b, 200 - a + b - u) for a in range(0, 101, 10) for b in range(0, 101, 10) for u in range(0, 200 - a + b + 1, 10)
    }
    worlds = sampled_wallets(state, 0, 600)
    assert worlds <= expected
    assert {world[2] for world in worlds} == set(range(0, 201, 10))
    assert {world[1] for world in worlds} == set(range(0, 301, 10))


def test_an_explicit_position_keeps_every_hand_size_and_hides_only_the_others_wallets() -> None:
    # 9.5(a)'s position: seat 0 holds 7 cards, the others 1 each; wallets are not the public opening.
    state = rules.position(5, hands=[["D2", "D3", "D5", "D6", "D8", "D9", "A2"], *[["A3"]] * 4], wallets=[100, 50, 150, 100, 100])
    for index in range(50):
        world = GAME.determinize(state, 0, random.Random(index))
        assert GAME.observe(world, 0) == GAME.observe(state, 0)
        assert [len(hand) for hand in world.hands] == [7, 1, 1, 1, 1]
        assert world.wallets[0] == 100 and sum(world.wallets) == 500
    assert len({tuple(GAME.determinize(state, 0, random.Random(i)).wallets) for i in range(50)}) > 1


def test_the_public_money_total_is_the_money_in_play() -> None:
    assert GAME.observe(GAME.new_state(4, 1), None)["money_total"] == 400
    state = rules.position(3, hands=[["D2"], ["A2"], ["C2"]], wallets=[40, 100, 100])
    assert GAME.observe(state, 1)["money_total"] == 240
    world = GAME.determinize(state, 1, random.Random(0))
    assert sum(world.wallets) == 240 and world.wallets[1] == 100


# -- against brute force ----------------------------------------------------------------------------


def scripted_game(num_players: int, options: dict[str, OptionValue], rounds: int, seed: int) -> tuple[CinecittaState, list[list[Action]]]:
    """A dealt game played at random for ``rounds`` rounds; the actions of each step, by seat."""
    state = GAME.new_state(num_players, seed, options)
    chooser = random.Random(seed)
    steps: list[list[Action]] = []
    while state.round <= rounds:
        actions = [chooser.choice(GAME.legal_actions(state, seat)) for seat in range(num_players)]
        for seat, action in enumerate(actions):
            GAME.apply(state, seat, action)
        steps.append(actions)
    return state, steps


def consistent_round_starts(
    num_players: int, options: dict[str, OptionValue], steps: list[list[Action]], seed: int, viewer: int
) -> set[tuple[int, ...]]:
    """Brute force: replay every choice of amounts and answers the viewer did not see, with the real cards and
    plans, keep the histories whose every observation of ``viewer`` matches the real one, collect the wallets."""
    real = GAME.new_state(num_players, seed, options)
    expected = [GAME.observe(real, viewer)]
    for actions in steps:
        for seat, action in enumerate(actions):
            GAME.apply(real, seat, action)
            expected.append(GAME.observe(real, viewer))
    found: set[tuple[int, ...]] = set()

    def variants(state: CinecittaState, seat: int, action: Action) -> list[Action]:
        if seat == viewer:
            return [action]
        if isinstance(action, Offer):
            return [Offer(action.card, amount) for amount in range(0, state.wallets[seat] + 1, 10)]
        if isinstance(action, Respond):
            return list(GAME.legal_actions(state, seat))
        return [action] if action in GAME.legal_actions(state, seat) else []

    def walk(state: CinecittaState, index: int) -> None:
        if index == len(steps) * num_players:
            found.add(tuple(state.wallets))
            return
        actions = steps[index // num_players]
        seat = index % num_players
        for action in variants(state, seat, actions[seat]):
            branch = state.clone()
            GAME.apply(branch, seat, action)
            if GAME.observe(branch, viewer) == expected[index + 1]:
                walk(branch, index + 1)

    walk(GAME.new_state(num_players, seed, options), 0)
    return found


def test_determinize_gives_exactly_the_brute_force_wallets_three_players() -> None:
    for seed in (1, 2, 3):
        state, steps = scripted_game(3, {}, 3, seed)
        for viewer in range(3):
            oracle = consistent_round_starts(3, {}, steps, seed, viewer)
            assert tuple(state.wallets) in oracle
            assert sampled_wallets(state, viewer, 1500) == oracle, (seed, viewer)


@pytest.mark.slow
def test_determinize_gives_exactly_the_brute_force_wallets_with_the_coaster() -> None:
    options: dict[str, OptionValue] = {"destination_change": True}
    for seed in (4, 5):
        state, steps = scripted_game(4, options, 2, seed)
        for viewer in range(4):
            oracle = consistent_round_starts(4, options, steps, seed, viewer)
            assert tuple(state.wallets) in oracle
            # Hundreds of worlds here: the draws stay inside, and the rounds' own enumeration is exactly the oracle.
            assert sampled_wallets(state, viewer, 1000) <= oracle, (seed, viewer)
            starts = {tuple(state.opening_wallets or ())}
            for past in view._past_rounds(state, viewer):
                starts = {after for wallets in starts for after in view._every_round(past, list(wallets))}
            assert starts == oracle, (seed, viewer)


def test_the_fallback_search_stays_inside_the_brute_force_wallets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(determinization, "HISTORY_ATTEMPTS", 0)
    state, steps = scripted_game(3, {}, 3, 2)
    for viewer in range(3):
        oracle = consistent_round_starts(3, {}, steps, 2, viewer)
        assert sampled_wallets(state, viewer, 400) == oracle
