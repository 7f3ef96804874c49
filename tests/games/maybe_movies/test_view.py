"""Observations (§8), determinization, secrets, event text and the terminal view."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter

from greenlight.core.match import Match
from greenlight.core.spec import Options
from greenlight.core.words import jargon
from greenlight.games.maybe_movies import GAME, rules, view
from greenlight.games.maybe_movies.state import OVER, MaybeMoviesState, Stack
from greenlight.games.maybe_movies.words import catalogue_words
from tests.games.maybe_movies.support import cast_votes, fillers, play, table, vote_position

ALL_OPTIONS = {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}


def played_match(n: int, seed: int, options: Options, steps: int | None = None) -> Match:
    match = Match.start(GAME, n, seed, options)
    rng = random.Random(seed)
    while not match.is_over() and (steps is None or len(match.record.actions) < steps):
        seat = rng.choice(match.decision().players)
        match.play(seat, rng.choice(match.legal_actions(seat)))
    return match


def state_of(match: Match) -> MaybeMoviesState:
    assert isinstance(match.state, MaybeMoviesState)
    return match.state


def test_every_event_has_its_own_words() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(12):
        match = played_match(4 + seed % 3, seed, ALL_OPTIONS if seed % 2 else {})
        for event in match.events:
            kinds[event.kind] += 1
            text = GAME.describe_event(event, state_of(match))
            if event.kind == "vote_committed" and not event.data["automatic"]:
                assert text == ""  # the table shows who has voted; no log line for it
                continue
            assert text and text != event.kind.replace("_", " ").capitalize() + ".", event.kind
            assert not jargon(text), text
            json.dumps(event.to_json())
    expected = {
        "turn_started",
        "market_refilled",
        "pitch_added",
        "pitched",
        "vote_started",
        "vote_committed",
        "vote_chosen",
        "votes_revealed",
        "change_round",
        "row_card_removed",
        "row_edited",
        "personal_drawn",
        "cards_back",
        "replacement_drawn",
        "budget",
        "checked",
        "cost_choice",
        "profit_choice",
        "profit",
        "payout",
        "failed",
        "discarded",
        "movie_made",
        "stack_made",
        "game_over",
    }
    assert expected <= set(kinds)


def test_a_vote_choice_is_told_only_to_its_voter() -> None:
    match = played_match(4, 3, {}, steps=0)
    while match.decision().kind != "vote":
        seat = match.decision().players[0]
        match.play(seat, match.legal_actions(seat)[0])
    events = match.play(2, match.legal_actions(2)[0])
    chosen = [event for event in events if event.kind == "vote_chosen"]
    assert len(chosen) == 1 and chosen[0].audience == (2,)
    assert not any("You vote" in line for line in match.log(1))
    assert any("You vote" in line for line in match.log(2))


def test_observation_shows_the_check_worked_out_and_the_payout() -> None:
    cards = table(
        {"a0": "YES camera 3", "a1": "YES actors 2", "a2": "NO script 1", "a3": "NO camera 1", **fillers(8)},
        {"Ma": (["camera", "actors"], 2), "Mb": (["camera"], 1)},
    )
    state = vote_position(cards, ["Ma", "Mb"], ["a0", "a1", "a2", "a3"])
    cast_votes(state, ["a0", "a1", "a2", "a3"])
    observation = GAME.observe(state, 3)
    assert observation["reveals"] == [["a0", "a1", "a2", "a3"]]
    check = observation["check"]
    assert check["need"] == [0, 1, 0, 0, 2, 0] and check["net"] == [0, 2, -1, 0, 2, 0]
    assert check["shortfall"] == [0] * 6 and check["surplus"] == [0, 1, 0, 0, 0, 0]
    assert (check["D"], check["S"], check["W"], check["A"], check["result"]) == (0, 1, 0, 0, "SUCCESS")
    assert observation["evaluation"]["budget"] == {"money": 0, "actors": 1, "script": 0, "setting": 0, "camera": 2, "microphone": 0}
    assert observation["evaluation"]["profit"] == 3
    settlement = observation["settlement"]
    assert [len(cards) for cards in settlement["won"]] == [2, 1, 0, 0] and len(settlement["to_pool"]) == 1
    assert {key: observation["cards"]["a0"][key] for key in ("type", "icon", "value", "name")} == {
        "type": "YES",
        "icon": "camera",
        "value": 3,
        "name": "YES camera 3",
    }
    assert {key: observation["cards"]["Ma"][key] for key in ("cost", "profit", "title", "name", "face")} == {
        "cost": ["camera", "actors"],
        "profit": 2,
        "title": "",
        "name": "Movie 1",
        "face": "costs camera and actors, profit 2",
    }
    text = GAME.render_text(observation)
    assert "The votes bring actors +2, script -1, camera +2." in text
    assert "Every needed icon is covered." in text and "SUCCEEDS" in text


def test_the_pitch_preview_shows_budget_per_icon_and_profit() -> None:
    cards = table({"y0": "YES money 2", **fillers(6)}, {"A": (["money", "camera"], 2), "B": (["money"], 1), "S": (["camera"], 1)})
    hands = [["y0", "F0"], ["F1", "F2"], ["F3", "F4"]]
    state = rules.position(
        3, hands=hands, table=cards, market=["A", "B"], made=[Stack(("S",), "S", False)], options={"trendsetter_tricks": True}
    )
    play(state, 0, "add A")
    preview = GAME.observe(state, 1)["pitch"]
    # A matches the failed stack topped by S (camera): its cost doubles.
    assert preview["budget"] == {"money": 2, "actors": 0, "script": 0, "setting": 0, "camera": 2, "microphone": 0}
    assert preview["profit"] == 2 and preview["cards"][0]["cost_doubles"] and not preview["cards"][0]["profit_doubles"]
    assert "The pitch needs 2 money and 2 camera; profit 2." in GAME.render_text(GAME.observe(state, 1))


def test_determinize_keeps_what_the_viewer_knows() -> None:
    match = played_match(4, 11, {"breaking_changes": True}, steps=0)
    rng = random.Random(0)
    # Play until some hand holds publicly known cards (returned after a CHANGE round or drawn from the pool).
    while not any(state_of(match).known) and not match.is_over():
        seat = rng.choice(match.decision().players)
        match.play(seat, rng.choice(match.legal_actions(seat)))
    state = state_of(match)
    assert any(state.known)
    for viewer in (0, 1, None):
        world = GAME.determinize(state, viewer, random.Random(5))
        for seat in range(4):
            assert len(world.hands[seat]) == len(state.hands[seat])
            assert set(state.known[seat]) <= set(world.hands[seat])
        if viewer is not None:
            assert world.hands[viewer] == state.hands[viewer]
        pooled = sorted(card for seat in range(4) if seat != viewer for card in state.hands[seat])
        assert sorted(card for seat in range(4) if seat != viewer for card in world.hands[seat]) == pooled
        assert sorted(world.draw_pile) == sorted(state.draw_pile)
        assert GAME.observe(world, viewer) == GAME.observe(state, viewer)
        assert world.rng.getstate() != state.rng.getstate()


def test_determinize_depends_only_on_what_the_viewer_can_see() -> None:
    state = GAME.new_state(4, 21)
    twin = state.clone()
    twin.hands[2], twin.hands[3] = twin.hands[3], twin.hands[2]  # same sizes, other cards: P0 cannot tell
    twin.draw_pile.reverse()
    assert GAME.observe(twin, 0) == GAME.observe(state, 0)
    first = GAME.determinize(state, 0, random.Random(9))
    second = GAME.determinize(twin, 0, random.Random(9))
    assert first.hands == second.hands and first.draw_pile == second.draw_pile


def test_secrets_are_the_unknown_cards_of_other_hands() -> None:
    state = GAME.new_state(3, 4)
    assert GAME.secrets(state, 0) == frozenset(state.hands[1] + state.hands[2])
    assert GAME.secrets(state, None) == frozenset(card for hand in state.hands for card in hand)
    state.known[1].append(state.hands[1][0])
    assert state.hands[1][0] not in GAME.secrets(state, 0)


def test_observations_never_name_hidden_cards() -> None:
    for seed in range(2):
        match = played_match(5, seed, ALL_OPTIONS, steps=0)
        rng = random.Random(seed)
        while not match.is_over():
            for viewer in (0, 3, None):
                hidden = GAME.secrets(state_of(match), viewer)
                assert not hidden & set(view.card_details(state_of(match), viewer))
                assert not any(card in json.dumps(GAME.observe(state_of(match), viewer)) for card in hidden)
            seat = rng.choice(match.decision().players)
            match.play(seat, rng.choice(match.legal_actions(seat)))


def test_final_observation_and_text() -> None:
    match = played_match(3, 2, {})
    assert state_of(match).phase == OVER
    observation = match.observe(None)
    final = observation["final"]
    assert final["winners"] and len(final["breakdown"]) == 3
    text = GAME.render_text(observation)
    assert "Final scores" in text and "wins" in text
    # Each seat's score in one sentence that adds up to it, in the view and in the terminal alike.
    for seat, sentence in enumerate(final["words"]):
        assert sentence.startswith(f"{int(final['scores'][seat])} point") and sentence in text
        terms = [int(part) for part in re.findall(r"= (\d+)", sentence)]
        assert sum(terms) == final["scores"][seat], sentence
    assert len(observation["history"]) == 10
    last = observation["history"][-1]
    assert set(last) >= {"turn", "active", "pitched", "reveals", "row", "check", "settlement", "movie"}


# -- determinize respects what the rules tell everyone (R9, R25) ----------------------------------------


def _kind(state: MaybeMoviesState, card: str) -> str:
    return state.table.vote(card).kind


def _no_first_and_yes_first(seed: int) -> MaybeMoviesState:
    """A 3-player game where P1 votes NO while it can and P2 votes YES while it can; P0 pitches one card and votes
    its first card. It stops at the first pitch after which P1 holds no NO: P1 has revealed only NO cards."""
    state = GAME.new_state(3, seed)
    wanted = {1: "NO", 2: "YES"}
    while True:
        decision = GAME.decision(state)
        for seat in decision.players:
            actions = GAME.legal_actions(state, seat)
            if decision.kind == "vote":
                action = next((a for a in actions if seat in wanted and _kind(state, a.card) == wanted[seat]), actions[0])  # type: ignore[attr-defined]
            else:
                action = next((a for a in actions if str(a) == "finish"), actions[0])
            GAME.apply(state, seat, action)
        if GAME.decision(state).kind == "pitch" and not any(_kind(state, card) == "NO" for card in state.hands[1]):
            return state


def _revealed(state: MaybeMoviesState, seat: int) -> list[str]:
    return [votes[seat] for record in state.history for votes in record.rounds if votes[seat] is not None]  # type: ignore[misc]


def test_determinize_keeps_the_yes_a_seat_must_still_hold_after_revealing_only_no() -> None:
    # Seed 214: P1 was dealt 9 NO and 1 YES, P2 8 YES and 2 NO. After 9 turns P1 has revealed its 9 NO cards, so
    # its last card is the YES its dealt hand had to hold (R9); P2 has revealed YES and NO. The two unknown cards
    # are one YES and one NO, and only one world fits: P1 holds the YES.
    state = _no_first_and_yes_first(214)
    assert state.turn == 10 and state.active == 0
    assert {_kind(state, card) for card in _revealed(state, 1)} == {"NO"} and len(_revealed(state, 1)) == 9
    assert {_kind(state, card) for card in _revealed(state, 2)} == {"YES", "NO"}
    assert [_kind(state, card) for card in state.hands[1] + state.hands[2]] == ["YES", "NO"]
    for sample in range(40):
        world = GAME.determinize(state, 0, random.Random(sample))
        assert world.hands[1] == state.hands[1] and world.hands[2] == state.hands[2]


def test_determinize_deals_uniformly_among_the_deals_that_fit_r9() -> None:
    # Seed 223: P1 was dealt 8 NO and 2 YES, P2 8 YES and 2 NO. At turn 9, P1 has revealed 8 NO (it must hold a
    # YES) and P2 8 YES (it must hold a NO). Of the 6 ways to deal the 2 YES and 2 NO unknown to P0, one breaks R9
    # (both NO to P1, both YES to P2); the other 5 are equally likely.
    state = _no_first_and_yes_first(223)
    assert state.turn == 9
    assert {_kind(state, card) for card in _revealed(state, 1)} == {"NO"} and len(_revealed(state, 1)) == 8
    assert {_kind(state, card) for card in _revealed(state, 2)} == {"YES"} and len(_revealed(state, 2)) == 8
    unknown = sorted(state.hands[1] + state.hands[2])
    assert sorted(_kind(state, card) for card in unknown) == ["NO", "NO", "YES", "YES"]
    seen: Counter[tuple[str, ...]] = Counter()
    for sample in range(1000):
        world = GAME.determinize(state, 0, random.Random(sample))
        assert sorted(world.hands[1] + world.hands[2]) == unknown
        seen[tuple(sorted(world.hands[1]))] += 1
    possible = {tuple(sorted(pair)) for pair in itertools.combinations(unknown, 2)}
    fitting = {pair for pair in possible if any(_kind(state, card) == "YES" for card in pair)}
    assert len(possible) == 6 and len(fitting) == 5
    assert set(seen) == fitting
    assert all(150 <= count <= 250 for count in seen.values()), seen


def test_determinize_leaves_every_seat_the_change_cards_it_still_holds() -> None:
    # R25: 2 CHANGE cards per seat; a revealed CHANGE card leaves the game (R26) and none is ever drawn again,
    # so every seat's number of CHANGE cards in hand is public.
    state = GAME.new_state(4, 5, {"breaking_changes": True})
    for sample in range(20):
        world = GAME.determinize(state, 0, random.Random(sample))
        assert [sum(card.startswith("C") for card in hand) for hand in world.hands] == [2, 2, 2, 2]
        for hand in world.hands[1:]:  # and every hand dealt at setup holds a YES and a NO (R9)
            assert {card[0] for card in hand} == {"C", "Y", "N"}
    rng = random.Random(3)
    while not any(state.out_of_play):
        seat = rng.choice(GAME.decision(state).players)
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    held = [sum(card.startswith("C") for card in hand) for hand in state.hands]
    assert held != [2, 2, 2, 2]
    for viewer in (0, 1, None):
        for sample in range(20):
            world = GAME.determinize(state, viewer, random.Random(sample))
            assert [sum(card.startswith("C") for card in hand) for hand in world.hands] == held


def test_a_card_drawn_from_the_pool_was_not_dealt_to_its_drawer() -> None:
    # P1's CHANGE has no legal edit (1-card row, no personal cards) but still draws the pool's only card p (R29);
    # P1 then votes p. Its dealt hand shows only the CHANGE card; y and n were dealt to P0 and P2 (revealed twice).
    cards = table({"c1": "CHANGE 1", "y": "YES money 2", "n": "NO actors 1", "p": "YES camera 2", **fillers(12)}, {"R": (["money"], 1)})
    state = vote_position(cards, ["R"], ["y", "c1", "n"], extra_in_hand=3, pool=["p"], options={"breaking_changes": True})
    cast_votes(state, ["y", "c1", "n"])
    assert state.hands[1][-1] == "p"
    cast_votes(state, ["y", "p", "n"])
    assert state.history[-1].rounds == (("y", "c1", "n"), ("y", "p", "n"))
    assert view.revealed_from_deal(state) == [{"y"}, {"c1"}, {"n"}]


def test_the_observation_carries_the_public_catalogue_without_naming_hidden_cards() -> None:
    # §8: the catalogue is public like a printed deck list, so a seat knows which cards it cannot see: the
    # draw pile's cards (not their order) and what the unseen hand cards are (not who holds which, nor their ids).
    state = GAME.new_state(6, 3, {"breaking_changes": True})
    assert state.pool == []
    for viewer in (0, 4, None):
        observation = GAME.observe(state, viewer)
        assert observation["draw_pile_cards"] == sorted(state.draw_pile)
        words = catalogue_words(state.table)
        assert all(observation["cards"][card] == words.details(card) for card in state.draw_pile)
        hidden = [card for seat, hand in enumerate(state.hands) if seat != viewer for card in hand]
        unseen = Counter(json.dumps(state.table.details(card), sort_keys=True) for card in hidden)
        shown = observation["unseen_in_hands"]
        keys = [json.dumps({k: v for k, v in entry.items() if k != "count"}, sort_keys=True) for entry in shown]
        assert Counter(dict(zip(keys, (entry["count"] for entry in shown), strict=True))) == unseen
        assert keys == sorted(set(keys))  # one entry per kind of card, in a canonical order
        assert sum(entry["count"] for entry in shown) == (60 + 12) - (12 if viewer is not None else 0)
        assert not GAME.secrets(state, viewer) & set(observation["cards"])
