"""Player words: card faces, action words in context, previews, warnings, event texts with names, the terminal view, help."""

from __future__ import annotations

import random
from collections.abc import Sequence

from greenlight.core.events import Event
from greenlight.core.match import Match
from greenlight.core.words import Component, bare_codes, jargon
from greenlight.games.maybe_movies import GAME, rules
from greenlight.games.maybe_movies.cards import EXAMPLE_CATALOGUE, generate_catalogue, load_catalogue
from greenlight.games.maybe_movies.observation import Check
from greenlight.games.maybe_movies.state import MaybeMoviesState, Stack
from greenlight.games.maybe_movies.words import catalogue_words, check_sentences
from tests.games.maybe_movies.support import cast_votes, fillers, play, table, text_card, vote_position

NAMES = ["Ann", "Bob", "Cy", "Di"]
ALL_OPTIONS = {"trendsetter_tricks": True, "breaking_changes": True, "blockbuster_budgets": True}


def words_of(state: MaybeMoviesState, seat: int) -> dict[str, str]:
    return {str(action): GAME.describe_action(state, seat, action) for action in GAME.legal_actions(state, seat)}


def warnings_of(state: MaybeMoviesState, seat: int) -> dict[str, str]:
    found = {}
    for action in GAME.legal_actions(state, seat):
        warning = GAME.action_warning(state, seat, action)
        if warning is not None:
            found[str(action)] = warning
    return found


def texts(events: Sequence[Event], state: MaybeMoviesState) -> list[str]:
    return [text for event in events if (text := GAME.describe_event(event, state, NAMES))]


# -- components -------------------------------------------------------------------------------------------


def test_cards_of_every_kind_in_words() -> None:
    components = {component.id: component for component in catalogue_words(generate_catalogue(0)).components()}
    assert components["Y01"] == Component(
        "vote card",
        "Y01",
        "YES actors 4",
        "A YES vote showing 4 actors. Played, it adds 4 actors to the votes on a pitch. "
        "Once won it scores 1 point for every actors icon on the movies made, whatever its value.",
    )
    assert components["N01"] == Component(
        "vote card",
        "N01",
        "NO money 1",
        "A NO vote showing 1 money. Played, it takes 1 money off the votes on a pitch; if the pitch fails you win it back "
        "(unless every vote is NO). Once won it scores 1 point for every money icon on the movies made, whatever its value.",
    )
    assert components["C03"] == Component(
        "CHANGE card",
        "C03",
        "CHANGE 3",
        "Breaking Changes. Vote it instead of a YES or NO card: after the reveal you change the pitch (remove one card "
        "and/or add one of your personal movie cards), lower numbers first; this one is number 3. Then every other vote "
        "goes back to its owner's hand and everyone votes again. It leaves the game once played and never scores.",
    )
    assert components["M03"] == Component(
        "movie card",
        "M03",
        "The Gold Rush",
        "Costs actors and money: the votes must bring these icons. Profit 2: a success collects 2 votes to share. "
        "In the movies made it shows actors and money.",
    )
    assert components["M04"].text == (
        "Costs script: the votes must bring this icon. Profit 1: a success collects 1 vote to share. In the movies made it shows script."
    )
    # The four blockbusters of the §2.6 generation check, as printed.
    assert [components[card].text for card in ("B01", "B02", "B03", "B04")] == [
        "Blockbuster. Cost: Copies the cost of the neighbouring card with the most icons. "
        "Profit: Copies the profit of the neighbouring card with the smallest profit. In the movies made it shows no icon.",
        "Blockbuster. Cost: Costs as many money as the number of NO votes. "
        "Profit: Yields 5 votes, but only if everyone votes the same. In the movies made it shows money.",
        "Blockbuster. Cost: Costs 4 camera, unless everyone votes the same. "
        "Profit: Yields 4 votes, only if the pitch matches a movie made. In the movies made it shows camera.",
        "Blockbuster. Cost: Costs 3 of any icon, unless the pitch contains every possible icon. "
        "Profit: Yields 4 votes, only if the pitch matches a movie made. In the movies made it shows no icon.",
    ]
    assert (components["B01"].kind, components["B01"].name) == ("blockbuster card", "A Runaway Bride")


def test_every_cost_and_profit_text_is_worded_without_jargon() -> None:
    from greenlight.games.maybe_movies.cards import COST_KEYS, N_KEYS, PROFIT_KEYS, X_KEYS

    cards = [
        text_card(f"T{index}", cost, profit, x="camera" if cost in X_KEYS else None, n=2 if cost in N_KEYS else None)
        for index, (cost, profit) in enumerate(zip(COST_KEYS, PROFIT_KEYS, strict=True))
    ]
    words = catalogue_words(table({"y": "YES money 2"}, {"M": (["money"], 1)}, cards))
    texts_ = [component.text for component in words.components()]
    assert len(set(texts_)) == len(texts_)
    for text in texts_:
        assert not jargon(text), text
    assert words.text("T2") == (
        "Blockbuster. Cost: Costs as many camera as the number of YES votes. Profit: Yields the number of YES votes. "
        "In the movies made it shows camera."
    )
    assert words.face("T8") == "blockbuster, cost: 2 of any icon; profit: 1, 2 or 3, the pitcher decides"


def test_components_are_the_games_own_cards() -> None:
    bundled = {component.id: component for component in GAME.components()}
    catalogue = load_catalogue(EXAMPLE_CATALOGUE)
    assert set(bundled) == {card.id for card in (*catalogue.votes, *catalogue.changes)} | {
        card.id for card in (*catalogue.movies, *catalogue.blockbusters)
    }
    assert len(bundled) == 132 and bundled["M03"].name == "The Gold Rush"
    other = {component.id: component for component in GAME.components(GAME.new_state(4, 5))}
    assert (other["M03"].name, other["B02"].name) == ("Comedy", "Forgiveness")
    assert other["M03"].text != bundled["M03"].text


# -- actions and previews -----------------------------------------------------------------------------------


def pitch_position(options: dict[str, object] | None = None) -> MaybeMoviesState:
    cards = table(
        {"y0": "YES money 2", "y1": "YES actors 3", "y2": "YES camera 4", "n0": "NO money 1", "n1": "NO script 2", **fillers(6)},
        {"A": (["money", "actors"], 2), "B": (["actors"], 1), "C": (["camera", "camera", "setting"], 3)},
    )
    hands = [["y0", "n0", "F0"], ["y1", "F1", "F2"], ["y2", "F3", "F4"]]
    return rules.position(3, hands=hands, table=cards, market=["A", "B", "C"], pool=["n1"], options=options)


def test_pitch_words_say_what_the_pitch_then_needs() -> None:
    state = pitch_position()
    assert words_of(state, 0) == {
        "add A": "Add Movie 1 to the pitch (costs money and actors, profit 2): the pitch then needs 1 money and 1 actor, profit 2.",
        "add B": "Add Movie 2 to the pitch (costs actors, profit 1): the pitch then needs 1 actor, profit 1. "
        "Movie 1, to its left, can then no longer join this pitch.",
        "add C": "Add Movie 3 to the pitch (costs camera, camera and setting, profit 3): the pitch then needs 1 setting and 2 camera, "
        "profit 3. It is then pitched: no other card can follow. Movie 1 and Movie 2, to its left, can then no longer join this pitch.",
    }
    play(state, 0, "add A")
    assert words_of(state, 0)["finish"] == "Pitch Movie 1: needs 1 money and 1 actor, profit 2; then everyone votes."


def test_the_market_s_last_card_pitched_first_asks_before_it_leaves_the_other_cards_out() -> None:
    """§4.1, R16: without Blockbuster Budgets the row keeps market order, so cards join left to right. Adding the
    market's last card pitches at once; if that leaves cards out, the seat is asked first (a newcomer clicked the
    rightmost card first and lost the pitch they meant). The prompt says the order from the start."""
    state = pitch_position()
    assert "from left to right (a card you pass over cannot join later)" in GAME.decision(state).prompt
    last = "Movie 3 is the market's last card: adding it pitches at once, and Movie 1 and Movie 2, to its left, stay out of the pitch"
    assert warnings_of(state, 0) == {"add C": f"{last} (cards join it left to right)."}
    play(state, 0, "add B")
    assert warnings_of(state, 0) == {}, "after B, adding C leaves nothing out"
    # With Blockbuster Budgets any card may come next, in the order the texts are read: nothing is left out.
    ordered = pitch_position({"blockbuster_budgets": True})
    assert "in the order they are read" in GAME.decision(ordered).prompt
    assert warnings_of(ordered, 0) == {}
    assert not any("no longer join" in text for text in words_of(ordered, 0).values())


def test_the_preview_counts_what_the_votes_can_bring_from_what_the_seat_knows() -> None:
    state = pitch_position()
    play(state, 0, "add A")
    mine = GAME.observe(state, 0)["preview"]
    # Seat 0's best YES is its own YES money 2; the others could hold the YES 4 it cannot see: 2 + 4 + 4.
    assert (mine["reach"], mine["can_succeed"], mine["collected"]) == (10, True, 2)
    assert mine["shares"] == [
        {"yes_voters": 0, "each": 0, "to_pitcher": 2},
        {"yes_voters": 1, "each": 2, "to_pitcher": 0},
        {"yes_voters": 2, "each": 1, "to_pitcher": 0},
        {"yes_voters": 3, "each": 0, "to_pitcher": 2},
    ]
    assert mine["words"] == [
        "The pitch needs 1 money and 1 actor; profit 2.",
        "3 votes will be cast; together they can bring at most 10 icons.",
        "If it succeeds it collects 2 vote cards to share out: 1 YES-voter: all 2 to them; 2 YES-voters: 1 each; "
        "3 YES-voters: all 2 to the pitching player; no YES-voter: all 2 to the pitching player.",
    ]
    assert GAME.observe(state, 1)["preview"]["reach"] == 11  # its own YES actors 3, and YES 4 for the two others
    assert GAME.observe(state, None)["preview"]["reach"] == 12


def test_vote_words_for_yes_no_and_change() -> None:
    cards = table(
        {"a0": "YES camera 3", "a1": "YES actors 2", "a2": "NO script 1", "a3": "NO camera 1", "c1": "CHANGE 1", **fillers(8)},
        {"Ma": (["camera", "actors"], 2), "Mb": (["camera"], 1)},
    )
    state = vote_position(cards, ["Ma", "Mb"], ["a0", "a1", "a2", "a3"], options={"breaking_changes": True}, pool=["F7"])
    state.hands[0].append("c1")
    state.hands[0].remove("F0")
    assert words_of(state, 0) == {
        "vote a0": "Vote YES camera 3: adds 3 camera (the pitch needs 2 camera); if it succeeds you share the profit with the "
        "other YES-voters; if it fails this card goes to the pool.",
        "vote F1": "Vote NO microphone 1: takes 1 microphone off the votes (the pitch needs no microphone); if it fails you win "
        "this card back (unless every vote is NO); if it succeeds, you still get the cards left over.",
        "vote c1": "Vote CHANGE 1: after the reveal you change the pitch (remove a card and/or add a personal card), then everyone "
        "votes again; the card leaves the game and you then draw a replacement from the pool.",
    }
    assert words_of(state, 2)["vote a2"] == (
        "Vote NO script 1: takes 1 script off the votes (the pitch needs no script); if it fails you win this card back "
        "(unless every vote is NO); if it succeeds you win nothing from it."
    )


def test_change_edit_words_and_events() -> None:
    movies = {name: (["money"], 1) for name in ("R1", "R2", "D1", "D2")} | {"Q1": (["camera"], 2)}
    cards = table({"c1": "CHANGE 1", "y": "YES money 2", "n": "NO actors 1", "p": "YES script 3", **fillers(12)}, movies)
    state = vote_position(
        cards,
        ["R1", "R2"],
        ["y", "c1", "n"],
        extra_in_hand=3,
        personal=[[], ["Q1"], []],
        draw_pile=["D1", "D2"],
        pool=["p"],
        options={"breaking_changes": True, "blockbuster_budgets": True},
    )
    events = cast_votes(state, ["y", "c1", "n"])
    assert texts(events, state) == [
        "You vote YES money 2 (secret until everyone has voted).",
        "You vote CHANGE 1 (secret until everyone has voted).",
        "You vote NO actors 1 (secret until everyone has voted).",
        "Votes revealed: Ann YES money 2, Bob CHANGE 1 and Cy NO actors 1.",
        "CHANGE! The pitch is changed by Bob (CHANGE 1), lowest number first.",
    ]
    assert words_of(state, 1) == {
        "remove R1": "Remove Movie 1 from the pitch (it is discarded); the pitch then needs 1 money, profit 1.",
        "remove R2": "Remove Movie 2 from the pitch (it is discarded); the pitch then needs 1 money, profit 1.",
        "add Q1": "Add your personal card Movie 5 to the pitch (costs camera, profit 2); you then choose where it goes; the pitch "
        "then needs 2 money and 1 camera, profit 4. You draw a new personal card.",
    }
    events = play(state, 1, "add Q1")
    assert texts(events, state) == [
        "Bob draws Movie 3 (costs money, profit 1); Movie 4 (costs money, profit 1) as new personal movie cards."
    ]
    assert words_of(state, 1) == {
        "slot 0": "Put Movie 5 first, before Movie 1 (order matters for blockbuster texts, read left to right).",
        "slot 1": "Put Movie 5 between Movie 1 and Movie 2 (order matters for blockbuster texts, read left to right).",
        "slot 2": "Put Movie 5 last, after Movie 2 (order matters for blockbuster texts, read left to right).",
    }
    events = play(state, 1, "slot 1")
    assert texts(events, state) == [
        "Bob (CHANGE 1) added Movie 5: the pitch is now Movie 1, Movie 5 and Movie 2 (changed 1 time this turn).",
        "Every YES and NO vote goes back to its owner's hand; the CHANGE cards leave the game.",
        "Bob draws YES script 3 from the pool.",
        "Ann, Bob and Cy vote again in secret.",
    ]
    assert GAME.observe(state, 0)["preview"]["words"][2] == "Before the change, the votes brought money +2, actors -1."


def test_blockbuster_choices_say_what_they_make_of_the_pitch() -> None:
    blockbuster = text_card("T", "copycat_most_neighbor", "wildcard_profit")
    cards = table(
        {"v0": "YES money 4", "v1": "YES camera 4", "v2": "NO script 1", **fillers(6)},
        {"L": (["money"], 1), "R": (["camera"], 1)},
        [blockbuster],
    )
    state = vote_position(cards, ["L", "T", "R"], ["v0", "v1", "v2"], options={"blockbuster_budgets": True})
    cast_votes(state, ["v0", "v1", "v2"])
    assert words_of(state, 0) == {
        "copy L": "Blockbuster 1 copies the cost of Movie 1, money: the pitch then needs 2 money and 1 camera and succeeds.",
        "copy R": "Blockbuster 1 copies the cost of Movie 2, camera: the pitch then needs 1 money and 2 camera and succeeds.",
    }
    events = play(state, 0, "copy R")
    assert texts(events, state) == [
        "Ann decides: Blockbuster 1 copies the cost of Movie 2.",
        "The final pitch needs 1 money and 2 camera.",
        "The pitch succeeds: the votes bring every needed icon.",
    ]
    assert words_of(state, 0)["profit 3"] == (
        "Blockbuster 1 yields 3: profit 5 in all, 3 vote cards collected; 2 YES-voters get 1 each and you 1 more."
    )
    events = play(state, 0, "profit 3")
    assert texts(events, state) == [
        "Ann decides: Blockbuster 1 yields 3.",
        "Profit: 5 (1 + 3 + 1).",
        "Payout of 3 vote cards: Ann wins YES camera 4 and YES money 4; Bob wins NO script 1.",
    ]
    assert words_of(state, 0) == {
        "pick L": "Put Movie 1 into the movies made: its money icon then counts; your score +1 now (best other player +0); "
        "Blockbuster 1 and Movie 2 discarded.",
        "pick T": "Put Blockbuster 1 into the movies made: it shows no icon, so it adds nothing to the scores; your score +0 now "
        "(best other player +0); Movie 1 and Movie 2 discarded.",
        "pick R": "Put Movie 2 into the movies made: its camera icon then counts; your score +1 now (best other player +0); "
        "Movie 1 and Blockbuster 1 discarded.",
    }


def test_an_icon_choice_says_whether_the_pitch_then_passes() -> None:
    blockbuster = text_card("T", "copycat_least_icon", "pitch_size")
    cards = table(
        {"v0": "YES money 4", "v1": "YES camera 4", "v2": "NO script 1", **fillers(6)},
        {"L": (["money", "camera", "camera", "script"], 1)},
        [blockbuster],
    )
    state = vote_position(cards, ["L", "T"], ["v0", "v1", "v2"], options={"blockbuster_budgets": True})
    cast_votes(state, ["v0", "v1", "v2"])
    assert words_of(state, 0) == {
        "icon money": "Blockbuster 1 costs 2 money: the pitch then needs 3 money, 1 script and 2 camera and fails.",
        "icon script": "Blockbuster 1 costs 2 script: the pitch then needs 1 money, 3 script and 2 camera and fails.",
    }


def test_trendsetter_words_the_doubling_the_stack_and_the_end() -> None:
    cards = table(
        {"n0": "NO money 1", "y1": "YES camera 2", "n2": "NO money 1", **fillers(6)},
        {"A": (["money", "camera"], 1), "B": (["script"], 2), "S": (["camera"], 1)},
    )
    state = vote_position(
        cards,
        ["A", "B"],
        ["n0", "y1", "n2"],
        options={"trendsetter_tricks": True},
        made=[Stack(("S",), "S", True)],
        won=[["n0"], [], ["y1"]],
    )
    assert GAME.observe(state, 0)["preview"]["words"][:3] == [
        "The pitch needs 1 money, 1 script and 1 camera; profit 4.",
        "Trendsetter Tricks: Movie 1 yields double (an icon of a successful movie).",
        "3 votes will be cast; together they can bring at most 4 icons.",
    ]
    events = cast_votes(state, ["n0", "y1", "n2"])
    assert texts(events, state)[-4:] == [
        "Votes revealed: Ann NO money 1, Bob YES camera 2 and Cy NO money 1.",
        "The final pitch needs 1 money, 1 script and 1 camera.",
        "The pitch fails: 4 icons missing and the spare icons make no wildcard.",
        "Ann wins back NO money 1; Cy wins back NO money 1; 1 card to the pool.",
    ]
    assert words_of(state, 0) == {
        "pick A": "Top the failed stack with Movie 1: its icons (money and camera) then count; your score +2 now "
        "(best other player +2); later cards sharing its icons cost double.",
        "pick B": "Top the failed stack with Movie 2: its script icon then counts; your score +0 now (best other player +0); "
        "later cards sharing its icons cost double.",
    }
    events = play(state, 0, "pick B")
    assert texts(events, state) == [
        "Ann stacks Movie 1 and Movie 2 with Movie 2 on top, marked a failure.",
        "The game is over: Cy wins with 1 point; Ann 0, Bob 0.",
    ]


def test_secret_votes_leave_no_log_line_and_seats_are_named() -> None:
    match = Match.start(GAME, 4, 3, {})
    while match.decision().kind != "vote":
        seat = match.decision().players[0]
        match.play(seat, match.legal_actions(seat)[0])
    events = match.play(2, match.legal_actions(2)[0])
    assert isinstance(match.state, MaybeMoviesState)
    committed = [event for event in events if event.kind == "vote_committed"]
    assert committed and GAME.describe_event(committed[0], match.state, NAMES) == ""
    assert (
        GAME.describe_event(match.events[0], match.state, NAMES)
        == "Ann adds The Night Watchman (costs script and microphone, profit 3) to the pitch."
    )
    started = Event("turn_started", {"turn": 2, "active": 1})
    assert GAME.describe_event(started, match.state, NAMES) == "Turn 2: Bob pitches."
    assert GAME.describe_event(started, match.state, None) == "Turn 2: Player 2 pitches."


def test_the_check_in_sentences() -> None:
    # §4.4 worked example: need money 1, actors 2, camera 1; net money -2, actors +5, script +4.
    check: Check = {
        "need": [1, 2, 0, 0, 1, 0],
        "net": [-2, 5, 4, 0, 0, 0],
        "shortfall": [3, 0, 0, 0, 1, 0],
        "surplus": [0, 3, 4, 0, 0, 0],
        "A": 0,
        "D": 4,
        "S": 7,
        "W": 3,
        "result": "FAIL",
    }
    assert check_sentences(check) == [
        "The pitch needs 1 money, 2 actors and 1 camera.",
        "The votes bring money -2, actors +5, script +4.",
        "Missing: 3 money and 1 camera (4 icons in all).",
        "Spare icons: 3 actors and 4 script, which make 3 wildcards (2 spare icons of one kind stand in for 1 missing icon).",
        "The pitch FAILS: 3 wildcards cannot cover 4 missing icons.",
    ]
    # TV10: a wildcard covers the setting, but nothing is left for the 2 icons of any kind.
    check = {
        "need": [0, 0, 1, 1, 0, 0],
        "net": [-1, 0, 3, 0, -1, 0],
        "shortfall": [0, 0, 0, 1, 0, 0],
        "surplus": [0, 0, 2, 0, 0, 0],
        "A": 2,
        "D": 1,
        "S": 2,
        "W": 1,
        "result": "FAIL",
    }
    assert check_sentences(check)[-2:] == [
        "The 2 icons of any kind must be paid with spare icons left after the wildcards: 0 left.",
        "The pitch FAILS: the spare icons cannot also pay the 2 icons of any kind.",
    ]


# -- warnings ----------------------------------------------------------------------------------------------


def doomed_position(options: dict[str, object] | None = None, market: tuple[str, ...] = ("A", "B", "C")) -> MaybeMoviesState:
    """Every YES card is worth 2, so three voters bring at most 6 icons."""
    cards = table(
        {"y0": "YES money 2", "y1": "YES actors 2", "y2": "YES camera 2", "n0": "NO money 1", "c1": "CHANGE 1", **fillers(6)},
        {"A": (["money", "actors", "script"], 2), "B": (["actors", "camera", "camera"], 1), "C": (["setting"], 3), "D": (["money"], 1)},
    )
    hands = [["y0", "n0", "F0"], ["y1", "F1", "F2"], ["y2", "F3", "F4"]]
    return rules.position(3, hands=hands, table=cards, market=list(market), options=options)


def test_a_pitch_that_cannot_succeed_asks_for_confirmation() -> None:
    state = doomed_position()
    # Only the market's last card asks, for the cards it would leave out (the pitch could still succeed).
    assert list(warnings_of(state, 0)) == ["add C"] and "stay out of the pitch" in warnings_of(state, 0)["add C"]
    play(state, 0, "add A")
    play(state, 0, "add B")
    # 6 icons: the votes may still bring them. Adding C (it is the last card, so it pitches at once) makes 7.
    assert warnings_of(state, 0) == {
        "add C": "This pitch cannot succeed: it needs 7 icons and the votes can bring at most 6. It will fail and no movie is made."
    }
    play(state, 0, "add C")
    assert warnings_of(state, 0) == {
        "vote y0": "This pitch cannot succeed: it needs 7 icons and with this card the votes bring at most 6. "
        "Your YES card would go to the pool and score nothing."
    }
    assert warnings_of(state, 1) == {"vote y1": warnings_of(state, 0)["vote y0"]}
    assert GAME.observe(state, 2)["preview"]["can_succeed"] is False


def test_an_added_card_that_dooms_the_pitch_warns_even_before_it_is_pitched() -> None:
    state = doomed_position({"blockbuster_budgets": True}, market=("A", "B", "C", "D"))
    play(state, 0, "add A")
    play(state, 0, "add B")
    crossing = (
        "With this card the pitch cannot succeed: it would need 7 icons and the votes can bring at most 6. "
        "Cards cannot be taken back out of a pitch."
    )
    assert warnings_of(state, 0) == {"add C": crossing, "add D": crossing}


def test_no_warning_while_a_change_card_may_still_change_the_pitch() -> None:
    state = doomed_position({"breaking_changes": True})
    play(state, 0, "add A")
    play(state, 0, "add B")
    assert warnings_of(state, 0) == {}
    # A NO vote and a winnable pitch never warn.
    state = doomed_position()
    play(state, 0, "add C")
    assert warnings_of(state, 0) == {}


# -- the terminal and help -----------------------------------------------------------------------------------


def test_the_terminal_view_names_every_card() -> None:
    match = Match.start(GAME, 4, 7, ALL_OPTIONS)
    rng = random.Random(2)
    assert isinstance(match.state, MaybeMoviesState)
    components = GAME.components(match.state)
    seen = 0
    while not match.is_over():
        if len(match.record.actions) % 9 == 0:
            for viewer in (0, None):
                text = GAME.render_text(match.observe(viewer), NAMES)
                assert not bare_codes(text, components), bare_codes(text, components)
                assert not jargon(text.replace("[/", "[")), jargon(text)
                assert "Ann" in text and "P0" not in text
                seen += 1
        seat = rng.choice(match.decision().players)
        match.play(seat, rng.choice(match.legal_actions(seat)))
    final = GAME.render_text(match.observe(None), NAMES)
    assert "Final scores" in final and not bare_codes(final, components)
    assert seen > 5


def test_help_for_every_kind_of_step() -> None:
    helps: dict[str, str] = {}
    kinds = {"pitch", "vote", "change_edit", "cost_choice", "profit_choice", "movie_pick", "over"}
    for seed in range(60):
        if set(helps) == kinds:
            break
        match = Match.start(GAME, 4, seed, ALL_OPTIONS)
        rng = random.Random(seed)
        while True:
            observation = match.observe(0)
            helps.setdefault(observation["phase"], GAME.help_text(observation))
            if match.is_over():
                break
            seat = rng.choice(match.decision().players)
            match.play(seat, rng.choice(match.legal_actions(seat)))
    assert set(helps) == kinds
    for phase, text in helps.items():
        assert text.startswith("Icons: money, actors, script, setting, camera and microphone."), phase
        assert len(text.split("\n\n")) >= 3 and not jargon(text), phase
    assert len(set(helps.values())) == len(helps)
    assert "Trendsetter Tricks" in helps["movie_pick"] and "CHANGE card" in helps["vote"]


def test_refusals_name_the_cards_with_their_codes_beside() -> None:
    state = pitch_position()
    play(state, 0, "add B")
    # Without Blockbuster Budgets the row keeps market order: A is left of B.
    assert GAME.why_illegal(state, 0, GAME.parse_action("add A")) == (
        "without Blockbuster Budgets the row keeps market order, so add cards left to right "
        "(after Movie 2 (B) only cards to its right in the market)"
    )
    assert GAME.why_illegal(state, 0, GAME.parse_action("add B")) == "Movie 2 (B) is already in the pitch"
    play(state, 0, "finish")
    assert GAME.why_illegal(state, 0, GAME.parse_action("vote y1")) == "YES actors 3 (y1) is not in your hand"
    # A code of no card at all stays as it was typed.
    assert GAME.why_illegal(state, 0, GAME.parse_action("vote ZZ")) == "ZZ is not in your hand"


def test_refusals_while_pitching_name_the_step_each_action_belongs_to() -> None:
    """§4.0 decision points: while the active player pitches (§4.1, R4), every action of another step is refused
    with the step it belongs to, and a pitch needs a card."""
    state = pitch_position()
    refusals = {text: GAME.why_illegal(state, 0, GAME.parse_action(text)) for text in ("finish", "remove A", "slot 0")}
    assert refusals == {
        "finish": "a pitch needs at least 1 card",
        "remove A": "row cards are removed only in a CHANGE edit",
        "slot 0": "a slot is chosen only after adding a card in a CHANGE edit with Blockbuster Budgets",
    }
    for text in ("profit 1", "icon money", "copy A"):
        assert GAME.why_illegal(state, 0, GAME.parse_action(text)) == "there is no blockbuster text to decide now"
    assert GAME.why_illegal(state, 0, GAME.parse_action("pick A")) == "a card is picked for Movies Made only at the end of a turn"
    assert GAME.why_illegal(state, 0, GAME.parse_action("vote y0")) == "votes are cast after the pitch is finished"
    assert GAME.why_illegal(state, 0, GAME.parse_action("add Z")) == "Z is not in the market; a pitch uses market cards only (R4)"


def test_one_actor_is_singular_in_card_texts_and_vote_words() -> None:
    """'actors' is the one icon named in the plural: a count of one says '1 actor' (a newcomer read 'takes 1 actors')."""
    catalogue = generate_catalogue(3)
    texts = [component.text for component in catalogue_words(catalogue).components()]
    ones = [text for text in texts if "showing 1 actor." in text]
    assert ones, "the catalogue has a vote card of 1 actor"
    assert all("1 actor " in text or "1 actor." in text for text in ones)
    said: list[str] = []
    for seed in range(12):
        state = GAME.new_state(4, seed, ALL_OPTIONS)
        rng = random.Random(seed)
        while not GAME.is_terminal(state):
            seat = min(GAME.decision(state).players)
            said += words_of(state, seat).values()
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert any("1 actor " in text or "1 actor)" in text for text in said)
    assert not [text for text in texts + said if "1 actors" in text]
