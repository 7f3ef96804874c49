"""Player words (words.py, text.py): components, actions in context, warnings, log lines, previews, the board and help.

Every string is compared in full: these are the words a person reads on the table page and in the terminal.
"""

from __future__ import annotations

import json
import random
import re

from rich.text import Text

from greenlight.core.events import Event
from greenlight.core.words import bare_codes, jargon
from greenlight.games.movie_empire import GAME, rounds
from greenlight.games.movie_empire.flow import advance
from greenlight.games.movie_empire.positions import position
from greenlight.games.movie_empire.state import Q_DISCARD, MovieEmpireState
from tests.games.movie_empire.helpers import TABLE, line, play

NAMES = ["Ann", "Bob", "Cid"]
#: The 10-point line of vector V1: Script Doctor, Rehearsals, Stunts, Catering, Soundtrack with Soundtrack*, Director as marketing.
V1 = ["PG04", "PG05", "PB03", "PB01", "PY04", "+PY05", "PJ01:R"]

COMPONENTS = {
    "PY03": (
        "post-production card",
        "Colour Grading",
        "Post-production (yellow) card. Costs 2 money. Worth 1 point in a premiered movie.",
    ),
    "PG08": (
        "pre-production card",
        "Set Construction*",
        (
            "Upgrade of Set Construction, pre-production (green). Costs 2 money. Stacked on a Set Construction in a line it adds 2 points "
            "and takes no place of its own; laid alone it is a pre-production card worth 1 point that keeps Set Construction out of that "
            "line."
        ),
    ),
    "PJ01": (
        "joker",
        "Director",
        "Joker: it takes the stage you choose when you lay it, as the colour rule allows. Costs 2 money. Worth no points itself.",
    ),
    "ST01": (
        "star",
        "Benny Crumb",
        "Star. Costs 2 money. Worth 1 point in any movie when it premieres. Never plays in dramas.",
    ),
    "ST21": (
        "star",
        "Nadia Sterling",
        (
            "Star. Costs 6 money. Worth 5 points if the movie has a card of each stage when it premieres. Never plays in action movies or "
            "dramas."
        ),
    ),
    "ST22": (
        "star",
        "Vivienne Starling",
        (
            "Star. Costs 7 money. Worth 6 points if the movie has Soundtrack and at least 1 marketing card when it premieres. Never plays "
            "in action movies."
        ),
    ),
    "SA09": (
        "action script",
        "Alien Huntress",
        (
            "Action script. Needs at least 1 pre-production, 2 shooting, 1 post-production and 1 marketing card. Worth 9 points if the "
            "movie has them when it premieres."
        ),
    ),
    "SC02": (
        "comedy script",
        "Banana Peel Boulevard",
        "Comedy script. Needs at least 2 shooting cards. Worth 3 points if the movie has them when it premieres.",
    ),
    "TR01": (
        "trend",
        "Blockbuster",
        (
            "While it is active, a premiere hits it if the movie has at least 6 production cards in its line (never on the Internet): 4 "
            "points in the USA, 2 in any other market. A hit also spares the movie the sympathy loss of a long production. The first hit "
            "of the round wins a golden statue."
        ),
    ),
    "TR09": (
        "trend",
        "Indie Spirit",
        (
            "While it is active, a premiere hits it if the movie has no star and at most 3 production cards in its line (never on the "
            "Internet): 3 points in Europe, 1 in any other market. The first hit of the round wins a golden statue."
        ),
    ),
    "TR14": (
        "trend",
        "Director's Cut",
        (
            "While it is active, a premiere hits it if the movie has Director (never on the Internet): 2 points in any market. The first "
            "hit of the round wins a golden statue."
        ),
    ),
    "TR17": (
        "trend",
        "Crowd Pleaser",
        (
            "While it is active, a premiere hits it if the movie meets its script and has at least 1 star (never on the Internet): 2 "
            "points in any market. The first hit of the round wins a golden statue."
        ),
    ),
    "AP04": (
        "annual plan",
        "No SHOOTING production cards",
        (
            "Lasting, this round: you may not take shooting (blue) cards from the production board, by buying or by the Sabotage swap; "
            "blind draws are allowed. A player exempt from the plan ignores it."
        ),
    ),
    "AP05": (
        "annual plan",
        "No script cards",
        "Lasting, this round: you may not use the “Buy a script” spaces. A player exempt from the plan ignores it.",
    ),
    "AP07": (
        "annual plan",
        "No movies with pre-production or marketing cards",
        (
            "Lasting, this round: you may release only a movie that has no pre-production card and no marketing card (on the Internet "
            "too). A player exempt from the plan ignores it."
        ),
    ),
    "AP12": (
        "annual plan",
        "Give 2 cards to your left",
        (
            "At once: you choose 2 cards of your hand, in secret, and give them to the player on your left; with 2 cards or fewer you give "
            "them all. A player exempt from the plan ignores it."
        ),
    ),
    "AP13": (
        "annual plan",
        "Nothing happens",
        "Nothing happens this round.",
    ),
    "PS3": (
        "board space",
        "Production slot 3",
        "Prepare a movie production: take the production card lying here into your hand, paying its cost plus 1.",
    ),
    "PS5": (
        "board space",
        "Production slot 5",
        "Prepare a movie production: take the production card lying here into your hand, paying its cost plus 3. Used with 3 or 4 players.",
    ),
    "CC1": (
        "board space",
        "Charge credit card 1",
        "Receive 5 money.",
    ),
    "OT1": (
        "board space",
        "Order overtime",
        "Pay 2 money, then draw the top 2 production cards into your hand, unseen by the others.",
    ),
    "SB1": (
        "board space",
        "Sabotage",
        (
            "Swap a production card of your hand for one on the production board, free; or spend a usable black dossier here to draw 5 "
            "production cards, keep 2 and discard the rest."
        ),
    ),
    "BN2": (
        "board space",
        "Be nice to Grumpy with a dossier",
        "Spend a usable black dossier here to gain 2 sympathy. Not used in Clean Hands.",
    ),
    "RL2": (
        "board space",
        "Release space 2",
        "Release a movie: choose one of your lines with a shooting card to premiere this round; this space premieres second.",
    ),
    "FP1": (
        "board space",
        "Become first player",
        "Receive 2 money; you will be first player next round.",
    ),
    "EUR": (
        "market",
        "Europe",
        "Premiere market, one movie a round: the movie wins 2 more points.",
    ),
    "NET": (
        "market",
        "Internet",
        (
            "Premiere market open to any number of movies, each paying 2 money; a movie premiering there never hits a trend. Only with 3 "
            "or 4 players, for a release that was cut or, in the last round, for a player who placed no release."
        ),
    ),
    "sympathy+3": (
        "sympathy level",
        "Sympathy +3",
        (
            "Budget of 7 money each round; 2 production lines open; wins 4 points at the end of the game; you may ignore the annual plan "
            "for free."
        ),
    ),
    "sympathy+0": (
        "sympathy level",
        "Sympathy 0",
        "Budget of 5 money each round; 1 production line open; no points at the end of the game.",
    ),
    "sympathy-3": (
        "sympathy level",
        "Sympathy -3",
        "Budget of 3 money each round; 1 production line open; loses 4 points at the end of the game.",
    ),
}


def words(state: MovieEmpireState, seat: int) -> dict[str, str]:
    """Each legal action's text and its words."""
    return {str(action): GAME.describe_action(state, seat, action) for action in GAME.legal_actions(state, seat)}


def warnings(state: MovieEmpireState, seat: int) -> dict[str, str]:
    """The legal actions that ask first, with their warnings."""
    found = {str(action): GAME.action_warning(state, seat, action) for action in GAME.legal_actions(state, seat)}
    return {text: warning for text, warning in found.items() if warning is not None}


def premiere_position() -> MovieEmpireState:
    """Vector V4: 3 players, round 4, Popcorn Action active and not hit; Ann (seat 0) releases V1's line at release space 1."""
    state = position(
        3,
        round=4,
        phase="premiere",
        sympathy=[1, 0, -5],
        lines=[[line("SA09", V1, ["ST06"], locked=True)], [], []],
        assistants={"RL1": 0},
        trend_row=[None, None, "TR03"],
        production_pile=["PR01"] * 5,
    )
    state.release_line[TABLE.space_by_id["RL1"].index] = 0
    advance(state, [])
    return state


# -- components -------------------------------------------------------------------------------------


def test_components_are_worded_as_printed() -> None:
    components = {component.id: component for component in GAME.components()}
    for card, (kind, name, text) in COMPONENTS.items():
        assert (components[card].kind, components[card].name, components[card].text) == (kind, name, text), card


def test_every_kind_of_component_is_there_and_reads_like_words() -> None:
    components = GAME.components()
    kinds = {component.kind for component in components}
    assert kinds == {
        "pre-production card",
        "shooting card",
        "post-production card",
        "marketing card",
        "joker",
        "star",
        "action script",
        "comedy script",
        "drama script",
        "trend",
        "annual plan",
        "board space",
        "market",
        "sympathy level",
    }
    assert len(components) == 33 + 24 + 36 + 17 + 13 + 22 + 4 + 11
    for component in components:
        assert not jargon(component.text) and not bare_codes(component.text, components), component


def test_a_game_s_components_leave_out_which_player_counts_use_a_space() -> None:
    state = GAME.new_state(3, seed=1)
    components = {component.id: component for component in GAME.components(state)}
    assert (
        components["PS5"].text == "Prepare a movie production: take the production card lying here into your hand, paying its cost plus 3."
    )
    assert components["BN2"].text == "Spend a usable black dossier here to gain 2 sympathy."


# -- actions in words -----------------------------------------------------------------------------------


def test_each_keep_choice_at_setup_names_the_script_kept_and_those_returned() -> None:
    state = GAME.new_state(2, seed=3)
    # SC07 needs 2 G, 1 B, 1 Y for 7 points; SD07 1 B, 2 Y, 1 R for 7; SD04 1 G, 1 B, 1 Y for 5 (scripts.toml).
    assert state.dealt[0] == ["SC07", "SD07", "SD04"]
    assert words(state, 0) == {
        "keep SC07": (
            "Keep Summer Camp Catastrophe (comedy script, 7 points for 2 pre-production, 1 shooting and 1 post-production card); "
            "Broken Compass and Ashes of Eden go back"
        ),
        "keep SD07": (
            "Keep Broken Compass (drama script, 7 points for 1 shooting, 2 post-production and 1 marketing card); "
            "Summer Camp Catastrophe and Ashes of Eden go back"
        ),
        "keep SD04": (
            "Keep Ashes of Eden (drama script, 5 points for 1 pre-production, 1 shooting and 1 post-production card); "
            "Summer Camp Catastrophe and Broken Compass go back"
        ),
    }


def test_lays_say_where_as_what_and_what_they_score() -> None:
    # V3: Operation Thunderclap (1 pre-production, 2 shooting) with Casting Call and Extras.
    state = position(
        2, money=[5, 0], hands=[["PY04", "PR01", "PG03", "PB01", "PJ01", "ST02", "ST03"], []], lines=[[line("SA03", ["PG01", "PB02"])], []]
    )
    state.hands[0] = state.hands[0][:4]
    play(state, 0, "produce 1")
    assert words(state, 0) == {
        "lay PY04 right": "Lay Soundtrack to the right of line 1, as post-production: +2 points",
        "lay PG03 left": "Lay Storyboard to the left of line 1, as pre-production: +1 point",
        "lay PB01 right": "Lay Catering to the right of line 1, as shooting: +1 point; the script is then met (+5)",
    }
    state = position(2, hands=[["PJ01", "ST03", "ST06", "PY05"], []], lines=[[line("SA01", ["PB08", "PY04"])], []], slots={"PS1": "PB01"})
    play(state, 0, "produce 1")
    assert words(state, 0) == {
        "lay PJ01 left G": "Lay Director to the left of line 1, as pre-production: no points",
        "lay PJ01 left B": "Lay Director to the left of line 1, as shooting: no points; the script is then met (+3)",
        "lay PJ01 right Y": "Lay Director to the right of line 1, as post-production: no points",
        "lay PJ01 right R": "Lay Director to the right of line 1, as marketing: no points",
        "star ST03": "Cast Sid Lark in line 1: 1 point",
        "star ST06": "Cast Chip Hazard in line 1: 2 points once the movie has Stunts",
        "stack PY05": "Stack Soundtrack* on Soundtrack in line 1: +2 points, no new place in the line",
    }


def test_placements_say_what_they_cost_with_the_hire_fee_and_what_a_release_would_score() -> None:
    state = position(
        3,
        round=4,
        money=[9, 0, 0],
        placed=[2, 0, 0],
        sympathy=[1, 0, 0],
        hands=[["PB01"], [], []],
        lines=[[line("SA09", V1, ["ST06"])], [], []],
        slots={"PS3": "PY03", "SS1": "SC01", "SR1": "ST18"},
        trend_row=["TR05", "TR06", "TR03"],
        dossier=[0, None, None],
    )
    fee = "; hiring a third assistant costs 3 money"
    assert words(state, 0) == {
        "pass": "Pass: place no more assistants this round",
        "place PS3": f"Take Colour Grading (post-production card, 1 point) from Production slot 3 for 3 money (2 + 1 for the slot){fee}",
        "place SS1": (
            "Take the script Dudes are Bowling (comedy script, 3 points for 1 pre-production and 1 shooting card) "
            f"from Script slot 1, free{fee}"
        ),
        "place SR1": f"Cast Duke Harrington (5 points if the movie has Visual Effects) from Star slot 1 for 6 money{fee}",
        "place CC1": f"Charge the credit card: receive 5 money{fee}",
        "place OT1": f"Order overtime: pay 2 money and draw 2 production cards blind{fee}",
        "place SB1": f"Sabotage: swap a production card of your hand for one on the production board, free{fee}",
        "place SB1 dossier": (
            "Sabotage with your black dossier: draw 5 production cards, keep 2 and discard the rest; at the end of the round every "
            f"other player loses 1 sympathy for it{fee}"
        ),
        "place DN1": f"Denounce players: pay 1 money; every other player loses 1 sympathy{fee}",
        "place BN1": f"Be nice to Grumpy: +1 sympathy, to +2{fee}",
        "place BN1 dossier": (
            f"Be nice to Grumpy: +2 sympathy, to +3, spending your black dossier; at the end of the round every other player loses "
            f"1 sympathy for it{fee}"
        ),
        "place BN2 dossier": (
            f"Be nice to Grumpy: +2 sympathy, to +3, spending your black dossier; at the end of the round every other player loses "
            f"1 sympathy for it{fee}"
        ),
        "place FP1": f"Become first player next round and receive 2 money{fee}",
        "place RL1": f"Release line 1, Alien Huntress, from Release space 1; it premieres first this round: up to 26 points now{fee}",
        "place RL2": f"Release line 1, Alien Huntress, from Release space 2; it premieres second this round: up to 26 points now{fee}",
        "place RL3": f"Release line 1, Alien Huntress, from Release space 3; it premieres third this round: up to 26 points now{fee}",
        "purge": (
            "Spend your black dossier to purge the production board: Colour Grading is discarded, the other cards slide down and the "
            "empty slots are refilled; at the end of the round every other player loses 1 sympathy for it"
        ),
    }


def test_market_choices_give_the_exact_premiere_score() -> None:
    state = premiere_position()
    assert words(state, 0) == {
        "market USA": "Premiere Alien Huntress in the USA: 26 points and 3 money; hits Popcorn Action first, winning a golden statue",
        "market EUR": "Premiere Alien Huntress in Europe: 26 points; hits Popcorn Action first, winning a golden statue",
        "market CHN": (
            "Premiere Alien Huntress in China: 24 points and the top production card; hits Popcorn Action first, winning a golden statue"
        ),
    }


def test_exemptions_discards_and_the_sabotage_keep_in_words() -> None:
    state = position(
        2, round=2, phase="grumpy", sympathy=[3, 0], money=[4, 4], plan_pile=["AP11"], trend_row=["TR01", "TR02", "TR03"], dossier=[0, None]
    )
    rounds.begin_round(state, [])
    advance(state, [])
    assert words(state, 0) == {
        "exempt decline": "Follow the annual plan “Gain 3 money” this round: you gain 3 money (14 in all)",
        "exempt free": "Ignore the annual plan for free (your sympathy is +3 or more)",
        "exempt dossier": "Spend your black dossier to ignore the annual plan; at the end of the round you lose 1 sympathy for it",
        "exempt pay": "Pay 4 money to ignore the annual plan (7 money left)",
    }
    # Following a plan says what it costs this seat, as ignoring it does (a newcomer saw only the price of ignoring).
    for plan, following in (
        ("AP10", "you lose 2 money (7 left)"),
        ("AP05", "you may not use the “Buy a script” spaces"),
        ("AP04", "you may not take shooting (blue) cards from the production board"),
        ("AP02", "you may release only an action movie (you have no line yet)"),
    ):
        state = position(2, round=2, phase="grumpy", sympathy=[0, 0], money=[4, 4], plan_pile=[plan], trend_row=["TR01", "TR02", "TR03"])
        rounds.begin_round(state, [])
        advance(state, [])
        assert words(state, 0)["exempt decline"].endswith(f" this round: {following}"), (plan, words(state, 0))
    state = position(2, hands=[["PB01", "PB02", "SA01", "ST04", "PY01"], []])
    state.queue.append((Q_DISCARD, 0))
    assert words(state, 0)["discard SA01"] == "Discard Concrete Fist (you hold 5 cards; the limit is 4)"
    play(state, 0, "discard PB01")
    assert words(state, 0)["discard SA01"] == "Discard Concrete Fist as well (you are within the hand limit)"
    assert words(state, 0)["stop"] == "Keep the 4 cards left"
    state = position(2, money=[5, 0], dossier=[0, None], round=2, production_pile=["PB01", "PB02", "PY01", "PJ01", "PR01"])
    play(state, 0, "place SB1 dossier")
    assert words(state, 0)["keep PB01,PJ01"] == "Keep Catering and Director; discard Extras, Rough Cut and Poster Campaign face up"


# -- warnings ------------------------------------------------------------------------------------------------


def test_a_release_that_loses_its_script_asks_first_and_a_met_one_does_not() -> None:
    state = position(2, hands=[["PB01"], []], lines=[[line("SA03", ["PG01", "PB02"])], []], placed=[2, 0], money=[9, 0])
    warning = (
        "Line 1, Operation Thunderclap, does not meet its script yet (it still needs 1 more shooting card): released now it loses "
        "the script's 5 points and scores at most 4 points."
    )
    assert warnings(state, 0) == {"place RL1": warning, "place RL2": warning, "place RL3": warning}
    play(state, 0, "produce 1", "lay PB01 right")
    assert warnings(state, 0) == {}


def test_which_moves_ask_first() -> None:
    # A pass while the next assistant is free; not once it would cost money.
    state = position(2, money=[5, 0])
    assert warnings(state, 0) == {"pass": "Passing ends your round: your next assistant is free and there are spaces left to place it on."}
    state = position(2, money=[5, 0], placed=[2, 0])
    assert warnings(state, 0) == {}
    # In the last round, a pass that leaves a releasable line unreleased.
    state = position(2, round=10, money=[5, 0], placed=[2, 0], lines=[[line("SC02", ["PB01", "PB02"])], []])
    assert warnings(state, 0) == {
        "pass": (
            "This is the last round: line 1, Banana Peel Boulevard, could still be released, and a line that never premieres "
            "scores nothing."
        )
    }
    # Discarding below the hand limit.
    state = position(2, hands=[["PB01", "PB02", "SA01", "ST04", "PY01"], []])
    state.queue.append((Q_DISCARD, 0))
    assert warnings(state, 0) == {}
    play(state, 0, "discard PB01")
    assert warnings(state, 0) == {
        f"discard {card}": f"You are already within the hand limit: discarding {TABLE.card_name(card)} gains nothing."
        for card in ("PB02", "SA01", "ST04", "PY01")
    }
    # Ignoring a plan that gives money, paying to ignore one that does nothing or one you may ignore for free.
    for plan, expected in (
        (
            "AP11",
            {way: "Ignoring “Gain 3 money” means you do not get the 3 money." for way in ("exempt free", "exempt dossier", "exempt pay")},
        ),
        ("AP13", {way: "“Nothing happens”: ignoring this plan gains you nothing." for way in ("exempt dossier", "exempt pay")}),
        ("AP05", {way: "Your sympathy lets you ignore the annual plan for free." for way in ("exempt dossier", "exempt pay")}),
    ):
        state = position(
            2,
            round=2,
            phase="grumpy",
            sympathy=[3, 0],
            money=[4, 4],
            plan_pile=[plan],
            trend_row=["TR01", "TR02", "TR03"],
            dossier=[0, None],
        )
        rounds.begin_round(state, [])
        advance(state, [])
        assert warnings(state, 0) == expected, plan


def test_skipping_the_internet_in_the_last_round_asks_first() -> None:
    state = position(
        3, round=10, phase="premiere", money=[5, 0, 0], lines=[[line("SC02", ["PB01", "PB02"])], [], []], trend_row=[None, None, "TR03"]
    )
    advance(state, [])
    assert GAME.decision(state).kind == "internet"
    assert words(state, 0) == {
        "net 1": "Premiere line 1, Banana Peel Boulevard, on the Internet for 2 money: 5 points (no trend there)",
        "net skip": "Do not premiere on the Internet: the line will score nothing",
    }
    assert warnings(state, 0) == {
        "net skip": "This is the last round: a line that does not premiere now scores nothing at the end of the game."
    }


# -- log lines --------------------------------------------------------------------------------------------------


def test_a_premiere_and_its_sympathy_lines_read_with_seat_names() -> None:
    state = premiere_position()
    events = play(state, 0, "market EUR")
    texts = [GAME.describe_event(event, state, NAMES) for event in events]
    assert texts[:5] == [
        "Bob loses 1 sympathy (another studio hit the trend first): now -1.",
        "Cid's sympathy stays at -5 (another studio hit the trend first).",
        "Ann gains 1 sympathy (hit the trend): now +2.",
        "Ann loses 1 sympathy (long production of 6 or more cards): now +1.",
        "Ann premieres Alien Huntress in Europe and hits Popcorn Action: 26 points (market 2, trend 1, script 9, stars 2, "
        "long production 2,"
        " production cards 10); a golden statue.",
    ]


def test_this_round_s_premieres_are_worded_on_the_board() -> None:
    state = premiere_position()
    state.lines[1][0] = line("SC02", ["PB02", "PB06"], locked=True)
    state.assistant[TABLE.space_by_id["RL2"].index] = 1
    state.release_line[TABLE.space_by_id["RL2"].index] = 0
    play(state, 0, "market EUR")
    assert GAME.decision(state).kind == "market"
    observation = GAME.observe(state, None)
    assert [item["words"] for item in observation["premieres"]] == [
        "Alien Huntress in Europe and hits Popcorn Action: 26 points (market 2, trend 1, script 9, stars 2, long production 2, "
        "production cards 10); a golden statue"
    ]
    board = GAME.render_text(observation, NAMES)
    assert (
        "  Ann premieres Alien Huntress in Europe and hits Popcorn Action: 26 points (market 2, trend 1, script 9, stars 2, "
        "long production 2, production cards 10); a golden statue."
    ) in board


def test_log_lines_of_every_kind() -> None:
    cases = [
        (
            Event("laid", {"seat": 1, "line": 2, "action": "lay PJ01 left G", "script": "SA01"}),
            "Bob lays Director at the left end of line 2, as pre-production.",
        ),
        (
            Event("laid", {"seat": 1, "line": 1, "action": "stack PY05", "script": "SA01"}),
            "Bob stacks Soundtrack* on Soundtrack in line 1.",
        ),
        (Event("laid", {"seat": 0, "line": 1, "action": "star ST06", "script": "SA01"}), "Ann casts Chip Hazard in line 1."),
        (
            Event("placed", {"seat": 2, "space": "OT1", "dossier": False, "fee": 3, "money": -2}),
            "Cid places an assistant on Order overtime, hiring it for 3 money and paying 2 money.",
        ),
        (
            Event("card_taken", {"seat": 0, "space": "PS3", "card": "PY03", "price": 3}),
            "Ann takes Colour Grading from Production slot 3 for 3 money.",
        ),
        (
            Event("card_taken", {"seat": 0, "space": "SR1", "card": "ST18", "price": 6}),
            "Ann casts Duke Harrington from Star slot 1 for 6 money.",
        ),
        (
            Event("card_taken", {"seat": 2, "space": "SS2", "card": "SC02", "price": 0}),
            "Cid takes the script Banana Peel Boulevard from Script slot 2, free.",
        ),
        (Event("gift", {"seat": 0, "to": 1, "cards": ["PB01", "SA01"]}, audience=(0, 1)), "Ann gives Catering and Concrete Fist to Bob."),
        (Event("gift_count", {"seat": 2, "to": 0, "count": 0}), "Cid gives nothing to Ann."),
        (Event("committed", {"seat": 0, "step": "keep"}), ""),
        (Event("produce", {"seat": 0, "line": 1, "new": False}), ""),
        (Event("dossier_spent", {"seat": 0, "use": "purge"}), ""),
        (Event("game_over", {"scores": [3, 3, 1], "winners": [0, 1]}), "The game is over: Ann and Bob share the victory."),
        (
            Event("cut", {"seat": 2, "space": "RL1", "victim": 0}),
            "Cid says Cut! with a black dossier on Ann's release at Release space 1: it will not premiere in a market this round.",
        ),
        (
            Event("drew", {"seat": 1, "cards": ["PY01", "PJ02"], "source": "overtime"}, audience=(1,)),
            "Bob draws Rough Cut and Cameraman (overtime).",
        ),
        (Event("drew_count", {"seat": 1, "count": 1, "source": "china"}), "Bob draws 1 production card face down (premiere in China)."),
        (Event("exemption", {"seat": 1, "way": "pay"}), "Bob pays 4 money to ignore the annual plan."),
        (
            Event("swapped", {"seat": 0, "space": "PS2", "given": "PB01", "taken": "PY07"}),
            "Ann puts Catering on Production slot 2 and takes Visual Effects (Sabotage swap).",
        ),
        (
            Event("release_designated", {"seat": 1, "space": "RL2", "line": 1, "script": "SC02"}),
            "Bob will release line 1, Banana Peel Boulevard, from Release space 2.",
        ),
        (
            Event("line_shut", {"seat": 1, "line": 2, "script": "SC02"}),
            "Bob shuts down line 2, Banana Peel Boulevard (too many open lines for the sympathy).",
        ),
        (
            Event("round_started", {"round": 2, "first_player": 1, "plan": "AP07"}),
            "Round 2 begins; Bob is first player. Annual plan: “No movies with pre-production or marketing cards”.",
        ),
        (
            Event("purged", {"seat": 0, "discarded": ["PB01", "PB02", "PY01"], "slots": {}}),
            "Ann purges the production board with a black dossier, discarding Catering, Extras and Rough Cut.",
        ),
    ]
    for event, expected in cases:
        assert GAME.describe_event(event, None, NAMES) == expected
    assert GAME.describe_event(cases[0][0]) == "Player 2 lays Director at the left end of line 2, as pre-production."


# -- previews -------------------------------------------------------------------------------------------------------


def test_the_preview_of_a_line_gives_every_market_s_score_and_what_is_met() -> None:
    state = premiere_position()
    preview = GAME.observe(state, 1)["players"][0]["lines"][0]["preview"]
    assert preview["market"] == "USA" and preview["points"] == 26
    assert preview["markets"] == {
        "USA": {"points": 26, "money": 3, "hit": True},
        "EUR": {"points": 26, "money": 0, "hit": True},
        "CHN": {"points": 24, "money": 0, "hit": True},
        "NET": {"points": 23, "money": -2, "hit": False},
    }
    assert preview["parts"] == {"market": 0, "trend": 3, "script": 9, "stars": 2, "period": 2, "production": 10}
    assert [(item["text"], item["mark"]) for item in preview["words"]] == [
        (
            "Premiere now: 26 points in the USA (and 3 money), 26 in Europe, 24 in China (and a card) or 23 on the Internet (for 2 money).",
            "",
        ),
        ("Script Alien Huntress: met, 9 points.", "met"),
        ("Star Chip Hazard: 2 points.", "met"),
        (
            "Trend Popcorn Action: hit, 3 points in the USA, 1 in any other market; the first hit this round also wins a golden statue.",
            "met",
        ),
        ("Long production: 2 points, and the studio loses 1 sympathy.", ""),
        ("Production cards: 10 points.", ""),
        ("Designated for release: it premieres this round.", "met"),
    ]


def test_the_preview_says_what_is_missing_and_why_a_line_cannot_be_released() -> None:
    state = position(
        3,
        round=3,
        plan="AP01",
        sympathy=[2, 0, 0],
        lines=[[line("SA09", ["PG01", "PB02"], ["ST18", "ST04"]), line("SD01", ["PB01", "PY01"])], [], []],
        trend_row=[None, "TR01", "TR08"],
    )
    first, second = GAME.observe(state, None)["players"][0]["lines"]
    assert first["preview"]["markets"] == {
        "USA": {"points": 7, "money": 3, "hit": True},
        "EUR": {"points": 7, "money": 0, "hit": True},
        "CHN": {"points": 5, "money": 0, "hit": True},
        "NET": {"points": 3, "money": -2, "hit": False},
    }
    assert first["preview"]["script"] == {
        "met": False,
        "points": 0,
        "missing": "1 more shooting card, 1 more post-production card and 1 more marketing card",
    }
    assert first["preview"]["stars"] == [
        {"card": "ST18", "met": False, "points": 0, "missing": "has Visual Effects"},
        {"card": "ST04", "met": True, "points": 1, "missing": None},
    ]
    assert [item["text"] for item in first["preview"]["words"]] == [
        "Not releasable yet (the annual plan “Only drama movies” forbids releasing it this round); once released: 7 points in the "
        "USA (and 3 money), 7 in Europe, 5 in China (and a card) or 3 on the Internet (for 2 money).",
        "Script Alien Huntress: 9 points once the movie has 1 more shooting card, 1 more post-production card and 1 more marketing card.",
        "Star Duke Harrington: no points until the movie has Visual Effects (5 then).",
        "Star Marta Quill: 1 point.",
        "Trend Star Vehicle: hit, 4 points in the USA, 2 in any other market; the first hit this round also wins a golden statue.",
        "Production cards: 2 points.",
    ]
    assert first["preview"]["words"][0]["mark"] == "missing"
    assert second["preview"]["release"] is None and second["preview"]["points"] == 7 and second["preview"]["market"] == "EUR"
    assert [item["mark"] for item in second["preview"]["words"]] == ["", "met", "missing", ""]


# -- the terminal, the final scores and help ---------------------------------------------------------------------------


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


def test_the_terminal_board_names_every_card_beside_its_code_and_reads_like_words() -> None:
    state = random_state(3, seed=5, steps=150)
    components = GAME.components(state)
    for viewer in (0, None):
        board = Text.from_markup(GAME.render_text(GAME.observe(state, viewer), NAMES)).plain  # as the terminal shows it
        assert not bare_codes(board, components) and not jargon(board)
        assert "Ann" in board and "Production board" in board and not re.search(r"\bP[0-3]\b", board)
    board = GAME.render_text(
        GAME.observe(position(3, hands=[["PB01", "ST04"], [], []], lines=[[line("SA09", V1, ["ST06"])], [], []]), 0), NAMES
    )
    assert (
        "[bold]Your hand[/bold]: [blue]Catering[/blue] [dim](PB01)[/dim]: shooting, costs 1, 1 point; "
        "Marta Quill [dim](ST04)[/dim]: star, costs 2, 1 point in any movie" in board
    )
    assert (
        "    [green]Script Doctor[/green] → [green]Rehearsals[/green] → [blue]Stunts[/blue] → [blue]Catering[/blue] → "
        "[yellow]Soundtrack + Soundtrack*[/yellow] → [red]Director as marketing[/red]"
    ) in board
    assert "    [green]✓[/green] Script Alien Huntress: met, 9 points." in board


def test_the_final_scores_in_words() -> None:
    state = random_state(2, seed=2, steps=10_000)
    observation = GAME.observe(state, None)
    rows = observation["final_rows"]
    assert [row["label"] for row in rows] == [
        "Points from premieres",
        "Sympathy at the end",
        "Money left (1 point per 3)",
        "Black dossier kept (3)",
        "Hardworking: most movies (3)",
        "Exploitation: most action movies (3)",
        "Exploitation: most comedies (3)",
        "Exploitation: most dramas (3)",
        "Patriot: most movies in the USA (3)",
        "Patriot: most movies in Europe (3)",
        "Patriot: most movies in China (3)",
        "King of the world: the USA, Europe and China (5)",
        "Jack of all trades: every genre (5)",
        "Trendsetter: most golden statues (7)",
        "Total",
        "Movies released (first tie-break)",
        "Golden statues (second tie-break)",
    ]
    assert rows[14]["values"] == [int(score) for score in GAME.outcome(state).scores]
    board = GAME.render_text(observation, NAMES)
    assert "[bold]Final scores[/bold]" in board and "Winner: " in board and "Premiere now" not in board


def test_help_for_every_decision_kind() -> None:
    seen: dict[str, str] = {}
    for seed in range(12):
        state = GAME.new_state(3 + seed % 2, seed, {"clean_hands": False})
        rng = random.Random(seed)
        while not GAME.is_terminal(state):
            decision = GAME.decision(state)
            seat = rng.choice(decision.players)
            if decision.kind not in seen:
                seen[decision.kind] = GAME.help_text(GAME.observe(state, seat))
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        seen.setdefault("over", GAME.help_text(GAME.observe(state, None)))
    assert set(seen) >= {"keep", "exemption", "turn", "produce", "swap", "take", "sabotage_keep", "discard", "market", "internet", "over"}
    steps = {kind: text.split("\n\n")[0] for kind, text in seen.items()}
    assert len(set(steps.values())) == len(steps)
    for kind, text in seen.items():
        assert text.count("\n\n") == 2 and not jargon(text), kind
        assert text.endswith("the arrow in a line (→) reads left to right.")


def test_observations_with_words_stay_json_and_the_same_for_a_determinized_world() -> None:
    state = random_state(3, seed=8, steps=120)
    for viewer in (0, None):
        text = json.dumps(GAME.observe(state, viewer), sort_keys=True)
        world = GAME.determinize(state, viewer, random.Random(1))
        assert json.dumps(GAME.observe(world, viewer), sort_keys=True) == text
