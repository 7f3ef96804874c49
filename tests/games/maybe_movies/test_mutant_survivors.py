"""Maybe Movies rules that mutants of the rules modules showed untested (docs/mutation.md): each test kills named survivors."""

from __future__ import annotations

import random

from greenlight.games.maybe_movies import GAME

ALL_EXPANSIONS = {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}


def test_every_kind_of_decision_says_who_decides_what_and_whether_in_secret() -> None:
    """§4.2 (the vote is secret and simultaneous), §4.1 pitch, §4.7/§6.1 movie pick from a stack, §6.2 CHANGE edits,
    §6.3 a tie in a blockbuster cost: each decision's kind, simultaneity and prompt, word for word.

    Six seeded random 4-player games with every expansion meet each kind. Kills rules._vote_decision's and
    rules._make_decision's changed ``kind``, ``simultaneous`` and ``prompt``.
    """
    choose = random.Random(3).choice
    seen = set()
    for seed in range(6):
        state = GAME.new_state(4, seed, ALL_EXPANSIONS)
        while not GAME.is_terminal(state):
            decision = GAME.decision(state)
            seen.add((decision.kind, decision.simultaneous, decision.prompt))
            seat = decision.players[0]
            GAME.apply(state, seat, choose(GAME.legal_actions(state, seat)))
    assert seen == {
        ("pitch", False, "Pitch a movie: add market cards to the row, then finish."),
        ("vote", True, "Vote: choose a secret card from your hand."),
        ("movie_pick", False, "Pick the top card of this movie's stack."),
        ("cost_choice", False, "Decide a tie in a blockbuster cost text."),
        ("change_edit", False, "CHANGE: remove a row card, or add one of your personal cards."),
        ("change_edit", False, "CHANGE: add one of your personal cards, or finish the edit."),
        ("change_edit", False, "CHANGE: choose where in the pitch the added card goes (its place matters for blockbuster texts)."),
    }
