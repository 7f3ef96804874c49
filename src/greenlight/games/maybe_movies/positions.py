"""What makes a Maybe Movies position possible, and what a hand-written one may leave out (docs/positions.md).

Card ids name cards of the game's catalogue: the one generated from the
position's ``seed`` (default 0), or the data file of the ``data`` option. A
position of a generated catalogue therefore carries its seed in the header
(:func:`header`), so its card ids mean the same cards when it is read back.

``Game.from_position`` starts from the deal of that seed, puts in the fields
the position gives, calls :func:`complete` for what follows from them (the
piles of cards nobody holds, the active seat of the turn, the voters, the
pitch as locked, the evaluation of the final vote) and then :func:`check`,
which raises ``PositionError`` naming the field and the rule for a position
no game can reach. Rules sections (§) and rulings (R) are those of
``shared/rules/maybe_movies.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from greenlight.core.positions import PositionError
from greenlight.core.rng import Stream
from greenlight.games.maybe_movies import rules
from greenlight.games.maybe_movies.budget import (
    CheckResult,
    ChoicePoint,
    Evaluation,
    NeedChoice,
    evaluate_costs,
    evaluate_profits,
    net_of,
    success_check,
)
from greenlight.games.maybe_movies.cards import CHANGE, NO, YES, Catalogue
from greenlight.games.maybe_movies.chance import shuffle
from greenlight.games.maybe_movies.parameters import hand_size, market_size
from greenlight.games.maybe_movies.resolution import final_votes, pitch_facts, vote_order
from greenlight.games.maybe_movies.setup import PERSONAL_SIZE
from greenlight.games.maybe_movies.state import (
    CHANGE_EDIT,
    COST_CHOICE,
    EDIT_ADD,
    EDIT_SLOT,
    EDIT_START,
    MOVIE_PICK,
    OVER,
    PITCH,
    PROFIT_CHOICE,
    VOTE,
    ChangeRecord,
    MaybeMoviesState,
    Settlement,
)

PHASES = (PITCH, VOTE, CHANGE_EDIT, COST_CHOICE, PROFIT_CHOICE, MOVIE_PICK, OVER)
EDIT_STEPS = (EDIT_START, EDIT_ADD, EDIT_SLOT)
#: The decision points after the final vote is revealed (T6-T9).
AFTER_VOTE = (COST_CHOICE, PROFIT_CHOICE, MOVIE_PICK)
#: The decision points at which the cards of the last reveal lie on the table: out of the hands, not yet won or pooled.
ON_TABLE = (CHANGE_EDIT, COST_CHOICE, PROFIT_CHOICE)
PHASE_WORDS = {
    PITCH: "the pitch",
    VOTE: "the vote",
    CHANGE_EDIT: "a CHANGE edit",
    COST_CHOICE: "a cost choice",
    PROFIT_CHOICE: "a profit choice",
    MOVIE_PICK: "the movie pick",
    OVER: "the end of the game",
}
#: CHANGE cards each seat is dealt with Breaking Changes (R25); none is ever drawn.
CHANGE_PER_SEAT = 2

# Card kinds: what a place may hold.
VOTE_CARD, CHANGE_CARD, MOVIE_CARD, BLOCKBUSTER_CARD = "vote", "CHANGE", "movie", "blockbuster"
HAND_CARDS = (VOTE_CARD, CHANGE_CARD)
VOTES_ONLY = (VOTE_CARD,)
CHANGES_ONLY = (CHANGE_CARD,)
MOVIES = (MOVIE_CARD, BLOCKBUSTER_CARD)
KIND_WORDS = {
    VOTE_CARD: "a vote card",
    CHANGE_CARD: "a CHANGE card",
    MOVIE_CARD: "a movie card",
    BLOCKBUSTER_CARD: "a blockbuster",
}
#: What each kind of place may hold, in player words.
HOLDS = {
    HAND_CARDS: "it holds vote and CHANGE cards",
    VOTES_ONLY: "it holds YES and NO vote cards only: a played CHANGE card leaves the game, never won nor pooled (R26)",
    CHANGES_ONLY: "only played CHANGE cards go out of play (R26)",
    MOVIES: "it holds movie cards (and blockbusters)",
    (BLOCKBUSTER_CARD,): "only blockbuster texts ask for choices (§6.3)",
}

#: Fields that place cards (the piles nobody holds follow from them) and the piles themselves.
PLACING_FIELDS = frozenset(
    {"phase", "hands", "won", "pool", "out_of_play", "market", "personal", "made", "draw_pile", "discard", "row", "rounds", "edit_added"}
)
#: The turn's fields with their value outside the steps that use them, and why.
IDLE: dict[str, tuple[Any, str]] = {
    "row": ([], "the row exists from the pitch to the movie pick"),
    "pitched": ((), "the pitch is locked when it is finished (§4.1)"),
    "rounds": ([], "votes are revealed only after the pitch (§4.2)"),
    "voters": ((), "seats vote only during a vote (§4.2)"),
    "change_queue": ([], "CHANGE-voters edit the pitch only in a CHANGE round (§6.2)"),
    "change_records": ([], "CHANGE edits are made only after a reveal (§6.2)"),
    "edit_step": (EDIT_START, "an edit is under way only in a CHANGE edit (§6.2)"),
    "edit_removed": (None, "an edit is under way only in a CHANGE edit (§6.2)"),
    "edit_added": (None, "an edit is under way only in a CHANGE edit (§6.2)"),
    "edit_refills": ((), "an edit is under way only in a CHANGE edit (§6.2)"),
    "edits": (0, "K counts the CHANGE edits of this turn's pitch (§2.5)"),
    "cost_choices": ([], "cost choices are made after the final vote (§6.3)"),
    "profit_choices": ([], "profit choices are made after a successful check (§6.3)"),
    "choice_point": (None, "a text-card choice is open only at a cost or profit choice (R38)"),
    "evaluation": (None, "the budget is worked out once every cost choice is made (T6)"),
    "result": (None, "the success check runs once the budget is known (T7)"),
    "settlement": (None, "the payout or failure is settled once the profit is known (T8)"),
}
#: Per decision point, the turn fields that must be idle there.
_EDIT_FIELDS = ("change_queue", "edit_step", "edit_removed", "edit_added", "edit_refills")
_CHOICE_FIELDS = ("cost_choices", "profit_choices", "choice_point", "evaluation", "result", "settlement")
IDLE_AT = {
    PITCH: tuple(name for name in IDLE if name != "row"),
    VOTE: (*_EDIT_FIELDS, *_CHOICE_FIELDS),
    CHANGE_EDIT: ("voters", *_CHOICE_FIELDS),
    COST_CHOICE: ("voters", *_EDIT_FIELDS, "profit_choices", "evaluation", "result", "settlement"),
    PROFIT_CHOICE: ("voters", *_EDIT_FIELDS, "settlement"),
    MOVIE_PICK: ("voters", *_EDIT_FIELDS, "choice_point"),
    OVER: tuple(IDLE),
}


def header(state: MaybeMoviesState) -> dict[str, Any]:
    """The seed of a generated catalogue, so the card ids of the position name the same cards when read back."""
    seed = state.table.generated_from
    return {} if seed is None else {"seed": seed}


# -- completing a hand-written position -----------------------------------------------------------------------


def complete(state: MaybeMoviesState, given: frozenset[str]) -> None:
    """Fill what a hand-written position leaves out but follows from what it gives (docs/positions.md).

    * ``active``: the seat whose turn ``turn`` is (P0 starts, then clockwise);
    * ``phase``: the vote when a ``row`` is given (the pitch is locked), the end when every given hand is empty;
    * ``pitched``: the row as given (no CHANGE edit yet), ``voters``: every seat with cards in hand, ``edits``: the
      CHANGE records that changed the row;
    * the piles: every vote card placed nowhere goes to the ``pool``, every CHANGE card dealt (1 to 2N) to
      ``out_of_play``, every movie card to the ``draw_pile`` (shuffled from the seed);
    * after the final vote, the open ``choice_point``, the ``evaluation`` and the success check (``result``) that
      the row, the final vote and the choices made give.
    """
    n = state.num_players
    _check_lengths(state)
    if "turn" in given and "active" not in given and state.turn >= 1:
        state.active = (state.turn - 1) % n
    if "phase" not in given:
        if "row" in given and state.row:
            state.phase = VOTE
        elif "hands" in given and not any(state.hands):
            state.phase = OVER
    if state.phase not in (PITCH, OVER) and "row" in given and "pitched" not in given:
        state.pitched = tuple(state.row)
    if state.phase == VOTE and "voters" not in given:
        state.voters = tuple(seat for seat in range(n) if state.hands[seat])
    if "change_records" in given and "edits" not in given:
        state.edits = sum(1 for record in state.change_records if record.had_effect)
    _check_ids(state)
    if given & PLACING_FIELDS:
        _complete_piles(state, given)
    if state.phase in AFTER_VOTE and not {"choice_point", "evaluation", "result"} <= given and _is_final(state):
        point, evaluation, result = expected_resolution(state)
        if "choice_point" not in given:
            state.choice_point = point
        if "evaluation" not in given:
            state.evaluation = evaluation
        if "result" not in given:
            state.result = result


def _complete_piles(state: MaybeMoviesState, given: frozenset[str]) -> None:
    """The cards placed nowhere go to the piles the position leaves out: votes to the pool (in the seed's order, then
    the catalogue's), CHANGE cards out of play (by number), movies to the draw pile (shuffled from the seed)."""
    piles = {VOTE_CARD: "pool", CHANGE_CARD: "out_of_play", MOVIE_CARD: "draw_pile", BLOCKBUSTER_CARD: "draw_pile"}
    open_piles = {name for name in piles.values() if name not in given}
    if not open_piles:
        return
    seed_order = {name: list(getattr(state, name)) for name in open_piles}
    for name in open_piles:
        setattr(state, name, [])
    placed = _places(state, strict=False)
    table = state.table
    for name in open_piles:
        wanted = [card for card, kind in cards_in_play(state).items() if piles[kind] == name and card not in placed]
        if name == "out_of_play":
            wanted.sort(key=lambda card: table.vote(card).number)
        elif name == "draw_pile":
            seed = table.generated_from
            shuffle(Stream("maybe-movies", "position", "draw_pile", 0 if seed is None else seed), wanted)
        elif name == "pool":
            order = {card: index for index, card in enumerate(seed_order[name])}
            wanted.sort(key=lambda card: order.get(card, len(order)))
        setattr(state, name, wanted)


# -- checking ----------------------------------------------------------------------------------------------------


def check(state: MaybeMoviesState) -> None:
    """Raise PositionError unless ``state`` is a position a game of Maybe Movies can reach (rules §3-§6)."""
    _check_lengths(state)
    _check_ranges(state)
    _check_ids(state)
    _check_cards(state)
    _check_hands(state)
    _check_zones(state)
    _check_turn(state)
    _check_history(state)
    _check_decision(state)


def cards_in_play(state: MaybeMoviesState) -> dict[str, str]:
    """Every card the deal puts in play for these options and seats (§3), with its kind: the 60 votes, CHANGE 1 to
    2N with Breaking Changes (R25), the 44 movies and with Blockbuster Budgets the 16 blockbusters (R41)."""
    table = state.table
    cards = {card.id: VOTE_CARD for card in table.votes}
    if state.breaking:
        cards.update((card.id, CHANGE_CARD) for card in table.changes if card.number <= 2 * state.num_players)
    cards.update((card.id, MOVIE_CARD) for card in table.movies)
    if state.blockbuster:
        cards.update((card.id, BLOCKBUSTER_CARD) for card in table.blockbusters)
    return cards


def _seats(n: int) -> str:
    return f"a {n}-player game has seats 0 to {n - 1}"


def _check_lengths(state: MaybeMoviesState) -> None:
    """One entry per seat where there must be."""
    n = state.num_players
    for name in ("hands", "known", "personal", "won", "votes"):
        if len(getattr(state, name)) != n:
            raise PositionError(name, f"has {len(getattr(state, name))} entries; a {n}-player position has one per seat")
    for index, revealed in enumerate(state.rounds):
        if len(revealed) != n:
            raise PositionError(f"rounds[{index}]", f"has {len(revealed)} entries; a reveal shows one card (or null) per seat")


def _check_ranges(state: MaybeMoviesState) -> None:
    """The decision point, the turn and the counters exist."""
    n = state.num_players
    if state.phase not in PHASES:
        raise PositionError("phase", f"is {state.phase!r}; the decision points are {', '.join(PHASES)} (§4.0)")
    if state.edit_step not in EDIT_STEPS:
        raise PositionError("edit_step", f"is {state.edit_step!r}; a CHANGE edit's steps are {', '.join(EDIT_STEPS)} (R27, R28)")
    last_turn = hand_size(state) + (CHANGE_PER_SEAT if state.breaking else 0)
    if not 1 <= state.turn <= last_turn:
        rule = "a seat casts at most 12 final votes (§5.1)" if state.breaking else "the game lasts at most 10 turns (§5.1)"
        raise PositionError("turn", f"is {state.turn}; turns count from 1 and {rule}")
    if not 0 <= state.active < n:
        raise PositionError("active", f"is seat {state.active}; {_seats(n)}")
    if state.active != (state.turn - 1) % n:
        raise PositionError(
            "active",
            f"is seat {state.active}, but turn {state.turn} is seat {(state.turn - 1) % n}'s: P0 starts and the turn passes clockwise (R1)",
        )
    for name in ("pitch_from", "edits"):
        if getattr(state, name) < 0:
            raise PositionError(name, f"is {getattr(state, name)}; it is never below 0")
    if list(state.voters) != sorted(set(state.voters)) or not all(0 <= seat < n for seat in state.voters):
        raise PositionError("voters", f"are {list(state.voters)}; voters are distinct seats in seat order ({_seats(n)})")
    for index, (seat, _) in enumerate(state.change_queue):
        if not 0 <= seat < n:
            raise PositionError(f"change_queue[{index}]", f"names seat {seat}; {_seats(n)}")


def _kind(table: Catalogue, card: str) -> str:
    if table.is_vote(card):
        return CHANGE_CARD if table.vote(card).kind == CHANGE else VOTE_CARD
    return BLOCKBUSTER_CARD if table.movie(card).is_text else MOVIE_CARD


def _catalogue_words(state: MaybeMoviesState) -> str:
    seed = state.table.generated_from
    return f"the catalogue generated from seed {seed}" if seed is not None else f"the catalogue of {state.table.source}"


def _check_card(state: MaybeMoviesState, card: object, where: str, allowed: tuple[str, ...]) -> None:
    """``card`` names a card of the catalogue that is in play with these options and may lie in ``where``."""
    table = state.table
    if not isinstance(card, str) or card not in table:
        raise PositionError(
            where,
            f"{card} is not a card of {_catalogue_words(state)}: a position's card ids name the cards of the catalogue of its "
            "seed, or of its data file",
        )
    kind = _kind(table, card)
    if kind not in allowed:
        raise PositionError(where, f"{card} is {KIND_WORDS[kind]}; {HOLDS.get(allowed, 'it cannot lie there')}")
    if kind == CHANGE_CARD:
        n = state.num_players
        if not state.breaking:
            raise PositionError(where, f"{card} is a CHANGE card; they are in the game only with Breaking Changes (§6.2)")
        if table.vote(card).number > 2 * n:
            raise PositionError(
                where, f"{card} is CHANGE {table.vote(card).number}; at {n} players only CHANGE 1 to {2 * n} are dealt (R25)"
            )
    if kind == BLOCKBUSTER_CARD and not state.blockbuster:
        raise PositionError(where, f"{card} is a blockbuster; blockbusters join the movie deck only with Blockbuster Budgets (R41)")


def _check_cards_of(state: MaybeMoviesState, cards: Iterable[object], where: str, allowed: tuple[str, ...]) -> None:
    for card in cards:
        _check_card(state, card, where, allowed)


def _check_record(state: MaybeMoviesState, record: ChangeRecord, where: str) -> None:
    _check_card(state, record.card, f"{where}.card", CHANGES_ONLY)
    if not 0 <= record.seat < state.num_players:
        raise PositionError(f"{where}.seat", f"is {record.seat}; {_seats(state.num_players)}")
    if record.number != state.table.vote(record.card).number:
        raise PositionError(f"{where}.number", f"is {record.number}, but {record.card} is CHANGE {state.table.vote(record.card).number}")
    for name in ("removed", "added"):
        card = getattr(record, name)
        if card is not None:
            _check_card(state, card, f"{where}.{name}", MOVIES)
    _check_cards_of(state, record.refills, f"{where}.refills", MOVIES)
    if record.replacement is not None:
        _check_card(state, record.replacement, f"{where}.replacement", VOTES_ONLY)


def _check_settlement(state: MaybeMoviesState, settlement: Settlement, where: str) -> None:
    if len(settlement.won) != state.num_players:
        raise PositionError(f"{where}.won", f"has {len(settlement.won)} entries; a payout gives each seat its share")
    _check_cards_of(state, settlement.collected, f"{where}.collected", VOTES_ONLY)
    _check_cards_of(state, settlement.to_pool, f"{where}.to_pool", VOTES_ONLY)
    for seat, cards in enumerate(settlement.won):
        _check_cards_of(state, cards, f"{where}.won[{seat}]", VOTES_ONLY)


def _check_ids(state: MaybeMoviesState) -> None:
    """Every card id names a card of the catalogue that is in play, of a kind its place may hold."""
    for name, allowed in (("hands", HAND_CARDS), ("known", HAND_CARDS), ("won", VOTES_ONLY), ("personal", MOVIES)):
        for seat, cards in enumerate(getattr(state, name)):
            _check_cards_of(state, cards, f"{name}[{seat}]", allowed)
    for name, allowed in (
        ("pool", VOTES_ONLY),
        ("out_of_play", CHANGES_ONLY),
        ("market", MOVIES),
        ("draw_pile", MOVIES),
        ("discard", MOVIES),
        ("row", MOVIES),
        ("pitched", MOVIES),
        ("edit_refills", MOVIES),
    ):
        _check_cards_of(state, getattr(state, name), name, allowed)
    for index, stack in enumerate(state.made):
        _check_cards_of(state, stack.cards, f"made[{index}].cards", MOVIES)
        if stack.top not in stack.cards:
            raise PositionError(
                f"made[{index}].top", f"{stack.top} is not one of the stack's cards; the top card is chosen from the row (§6.1)"
            )
    for seat, card in enumerate(state.votes):
        if card is not None:
            _check_card(state, card, f"votes[{seat}]", HAND_CARDS)
    for index, revealed in enumerate(state.rounds):
        for seat, card in enumerate(revealed):
            if card is not None:
                _check_card(state, card, f"rounds[{index}][{seat}]", HAND_CARDS)
    for index, (_, card) in enumerate(state.change_queue):
        _check_card(state, card, f"change_queue[{index}]", CHANGES_ONLY)
    for index, record in enumerate(state.change_records):
        _check_record(state, record, f"change_records[{index}]")
    for name in ("edit_removed", "edit_added"):
        if getattr(state, name) is not None:
            _check_card(state, getattr(state, name), name, MOVIES)
    point = state.choice_point
    if point is not None:
        _check_card(state, point.card, "choice_point.card", (BLOCKBUSTER_CARD,))
    if state.settlement is not None:
        _check_settlement(state, state.settlement, "settlement")
    for index, turn in enumerate(state.history):
        where = f"history[{index}]"
        _check_cards_of(state, turn.pitched, f"{where}.pitched", MOVIES)
        _check_cards_of(state, turn.row, f"{where}.row", MOVIES)
        if turn.movie is not None:
            _check_card(state, turn.movie, f"{where}.movie", MOVIES)
        for number, revealed in enumerate(turn.rounds):
            _check_cards_of(state, (card for card in revealed if card is not None), f"{where}.rounds[{number}]", HAND_CARDS)
        for number, change in enumerate(turn.changes):
            _check_record(state, change, f"{where}.changes[{number}]")
        _check_settlement(state, turn.settlement, f"{where}.settlement")


def _is_final(state: MaybeMoviesState) -> bool:
    """Whether the last reveal is a final vote (no CHANGE card in it), as the steps after the vote need."""
    return bool(state.rounds) and not _changers(state, state.rounds[-1])


def _changers(state: MaybeMoviesState, revealed: Sequence[str | None]) -> list[tuple[int, str]]:
    """The CHANGE-voters of a reveal, lowest number first (the order of their edits, §6.2)."""
    table = state.table
    found = [(seat, card) for seat, card in enumerate(revealed) if card is not None and table.vote(card).is_change]
    return sorted(found, key=lambda entry: table.vote(entry[1]).number)


def _places(state: MaybeMoviesState, strict: bool = True) -> dict[str, str]:
    """Where each card lies, by field (``hands[1]``); a card in two places raises (with ``strict``)."""
    places: dict[str, str] = {}

    def put(card: str, where: str) -> None:
        if card in places and strict:
            raise PositionError(where, f"{card} is also in {places[card]}; every card is in exactly one place")
        places.setdefault(card, where)

    for name in ("hands", "won"):
        for seat, cards in enumerate(getattr(state, name)):
            for card in cards:
                put(card, f"{name}[{seat}]")
    if state.phase in ON_TABLE and state.rounds:  # the cards just revealed lie on the table
        last = len(state.rounds) - 1
        for seat, card in enumerate(state.rounds[last]):
            if card is not None:
                put(card, f"rounds[{last}][{seat}]")
    for name in ("pool", "out_of_play", "market", "row"):
        for card in getattr(state, name):
            put(card, name)
    if state.edit_added is not None and state.phase == CHANGE_EDIT:  # added, its slot still to choose (R28)
        put(state.edit_added, "edit_added")
    for seat, cards in enumerate(state.personal):
        for card in cards:
            put(card, f"personal[{seat}]")
    for index, stack in enumerate(state.made):
        for card in stack.cards:
            put(card, f"made[{index}]")
    for name in ("draw_pile", "discard"):
        for card in getattr(state, name):
            put(card, name)
    return places


NOWHERE = {
    VOTE_CARD: ("pool", "every vote card is in a hand, the pool or a won area, or on the table just revealed (§3, §4.5, §4.6)"),
    CHANGE_CARD: ("out_of_play", "every CHANGE card dealt is in a hand, on the table just revealed, or out of play (R25, R26)"),
    MOVIE_CARD: (
        "draw_pile",
        "every movie card is in the draw pile, the market, the pitch, personal cards, the discard pile or Movies Made (§3, §4.7)",
    ),
}
NOWHERE[BLOCKBUSTER_CARD] = NOWHERE[MOVIE_CARD]


def _check_cards(state: MaybeMoviesState) -> None:
    """Conservation: every card in play is in exactly one place (the ids are known to be in play)."""
    places = _places(state)
    missing = [(card, kind) for card, kind in cards_in_play(state).items() if card not in places]
    if missing:
        kind = missing[0][1]
        cards = [card for card, other in missing if NOWHERE[other] == NOWHERE[kind]]
        field, rule = NOWHERE[kind]
        raise PositionError(
            field, f"{', '.join(cards[:3])}{' ...' if len(cards) > 3 else ''} {'is' if len(cards) == 1 else 'are'} nowhere; {rule}"
        )
    for index, stack in enumerate(state.made):
        if not state.trendsetter and (stack.cards != (stack.top,) or not stack.success):
            raise PositionError(
                f"made[{index}]", "is a stack; without Trendsetter Tricks one card of a successful pitch enters Movies Made (§4.7)"
            )


def _check_hands(state: MaybeMoviesState) -> None:
    """Hand sizes by turn (each final vote takes one card from every hand, §5.1), CHANGE cards and known cards."""
    turn = state.turn
    played = turn - 1 + (1 if state.phase in AFTER_VOTE else 0)  # final votes cast so far
    table = state.table
    if not state.breaking:
        sizes = {len(hand) for hand in state.hands}
        expected = hand_size(state) - played
        if state.phase == OVER and sizes == {0}:
            expected = 0 if turn == hand_size(state) else expected  # the last turn ended with every hand empty
        for seat, hand in enumerate(state.hands):
            if len(hand) != expected:
                where = f"at {PHASE_WORDS[state.phase]} in turn {turn}"
                raise PositionError(
                    f"hands[{seat}]",
                    f"holds {len(hand)} cards; {where} every hand holds {expected}: each hand is dealt {hand_size(state)} and "
                    "loses one card each turn to the final vote (§3, §5.1)",
                )
    else:
        limit = hand_size(state) + CHANGE_PER_SEAT - played
        for seat, hand in enumerate(state.hands):
            if len(hand) > max(0, limit):
                raise PositionError(
                    f"hands[{seat}]",
                    f"holds {len(hand)} cards; after {played} final votes a hand holds at most {max(0, limit)}: it is dealt "
                    f"{hand_size(state)} and {CHANGE_PER_SEAT} CHANGE cards, loses one card to each final vote and a replacement only "
                    "makes up for a played CHANGE card (§5.1, R29)",
                )
            changes = [card for card in hand if table.vote(card).is_change]
            if len(changes) > CHANGE_PER_SEAT:
                raise PositionError(
                    f"hands[{seat}]", f"holds {len(changes)} CHANGE cards; each seat is dealt exactly 2 and never draws one (R25)"
                )
    for seat, cards in enumerate(state.known):
        if len(set(cards)) != len(cards):
            raise PositionError(f"known[{seat}]", "names a card twice")
        unknown = [card for card in cards if card not in state.hands[seat]]
        if unknown:
            raise PositionError(f"known[{seat}]", f"{unknown[0]} is known to be in that hand but is not in it")
        if cards and not state.breaking:
            raise PositionError(f"known[{seat}]", "names cards, but without Breaking Changes no card ever returns to a hand face up (§8)")


def _check_zones(state: MaybeMoviesState) -> None:
    """The market, the pitch, personal cards and Movies Made: their sizes and refills (§4.8)."""
    piles_empty = not state.draw_pile and not state.discard
    if len(state.market) > market_size(state):
        raise PositionError("market", f"holds {len(state.market)} cards; the market holds at most {market_size(state)} (§3)")
    if state.phase == PITCH:
        if len(state.market) + len(state.row) > market_size(state):
            raise PositionError(
                "row",
                f"holds {len(state.row)} cards with {len(state.market)} left in the market; a pitch takes cards of the market "
                f"of {market_size(state)} (R4)",
            )
        if len(state.market) + len(state.row) < market_size(state) and not piles_empty:
            raise PositionError(
                "market",
                f"holds {len(state.market)} cards (and the pitch {len(state.row)}), but a turn starts by refilling the market to "
                f"{market_size(state)}, from the discard pile once the draw pile is empty (T1, §4.8)",
            )
    elif state.phase != OVER and not state.change_records and not state.change_queue:  # nothing left the piles since T3
        refilled = len(state.market) == market_size(state) or piles_empty
        if not refilled:
            raise PositionError(
                "market",
                f"holds {len(state.market)} cards, but it is refilled to {market_size(state)} as soon as the pitch is locked, from "
                "the discard pile once the draw pile is empty (T3, §4.8)",
            )
    limit = PERSONAL_SIZE if state.breaking else 0
    for seat, cards in enumerate(state.personal):
        if len(cards) > limit:
            rule = f"a seat has at most {PERSONAL_SIZE} (§6.2)" if state.breaking else "they exist only with Breaking Changes (§6.2)"
            raise PositionError(f"personal[{seat}]", f"holds {len(cards)} personal movie cards; {rule}")
    # A turn is finished once its movie pick (or failure) is over; the game ends after one, or at the start of the next (R17).
    finished = state.turn if state.phase == OVER and not any(state.hands) else state.turn - 1
    if state.trendsetter and len(state.made) != finished:
        raise PositionError(
            "made",
            f"holds {len(state.made)} stacks after {finished} finished turns; with Trendsetter Tricks every pitch becomes a stack (§6.1)",
        )
    if len(state.made) > finished:
        raise PositionError(
            "made", f"holds {len(state.made)} movies after {finished} finished turns; a turn makes at most one movie (§4.7)"
        )


def _check_idle(state: MaybeMoviesState) -> None:
    for name in IDLE_AT[state.phase]:
        idle, reason = IDLE[name]
        value = getattr(state, name)
        if value != idle:
            shown = "a value" if name in ("evaluation", "result", "settlement", "choice_point", "change_records") else repr(value)
            raise PositionError(name, f"is {shown} at {PHASE_WORDS[state.phase]}; {reason}")
    if state.phase != VOTE:
        for seat, card in enumerate(state.votes):
            if card is not None:
                raise PositionError(
                    f"votes[{seat}]", f"holds a secret vote at {PHASE_WORDS[state.phase]}; votes are chosen only during a vote (§4.2)"
                )


def _check_turn(state: MaybeMoviesState) -> None:
    """The decision point and what this turn has done so far are consistent (§4.0)."""
    phase = state.phase
    _check_idle(state)
    if phase == PITCH:
        if state.row and not state.pitch_from <= len(state.market):
            raise PositionError("pitch_from", f"is {state.pitch_from}; it is a place in the market, 0 to {len(state.market)}")
        if not state.row and state.pitch_from:
            raise PositionError("pitch_from", "is not 0, but no card has been added to the pitch yet (R16)")
        if not any(state.hands):
            raise PositionError("hands", "are all empty, so the game ended after the last turn (§5.1)")
        return
    if phase == OVER:
        if any(state.hands) and (state.market or state.draw_pile or state.discard):
            raise PositionError(
                "phase",
                "is over, but hands still hold cards and the market can be refilled: the game ends when every hand is empty, "
                "or when a turn starts with no market card to be had (§5.1, R17)",
            )
        return
    # From the vote on, the pitch is locked.
    editing = phase == CHANGE_EDIT and state.edit_step != EDIT_START  # an edit under way: removed, maybe not yet added
    if not state.row and not (editing and state.edit_step == EDIT_ADD):
        raise PositionError("row", f"is empty at {PHASE_WORDS[phase]}; a pitch holds at least 1 card and an edit keeps one (§4.1, R27)")
    if not state.pitched:
        raise PositionError(
            "pitched", f"is empty at {PHASE_WORDS[phase]}; the pitch is locked with the cards the active player chose (§4.1)"
        )
    if len(state.pitched) > market_size(state):
        raise PositionError(
            "pitched", f"holds {len(state.pitched)} cards; a pitch takes at most the {market_size(state)} market cards (R4)"
        )
    if len(set(state.pitched)) != len(state.pitched):
        raise PositionError("pitched", "names a card twice; a pitch takes distinct market cards (§4.1)")
    if state.edits == 0 and [card for card in state.pitched if not editing or card != state.edit_removed] != state.row:
        raise PositionError(
            "row", "differs from the pitch as locked, but no CHANGE edit has been made this turn (K = 0); only edits change it (§6.2)"
        )
    if not state.breaking and state.rounds[: -1 if phase in AFTER_VOTE else None]:
        raise PositionError("rounds", "hold a vote before the final one; without Breaking Changes the first vote is final (§4.2)")
    finished = state.rounds if phase == VOTE else state.rounds[:-1]  # the reveals that started CHANGE rounds, all done
    for index, revealed in enumerate(finished):
        if not _changers(state, revealed):
            raise PositionError(
                f"rounds[{index}]", "reveals no CHANGE card, so it was the final vote and the turn went on to the budget (§4.2, T5)"
            )
        for card in revealed:
            if card is not None and state.table.vote(card).is_change and card not in state.out_of_play:
                raise PositionError("out_of_play", f"lacks {card}, revealed in rounds[{index}]: a played CHANGE card leaves the game (R26)")
    _check_changes(state)
    if phase == VOTE:
        _check_vote(state)
    elif phase == CHANGE_EDIT:
        _check_edit(state)
    else:
        _check_resolution(state)


def _check_changes(state: MaybeMoviesState) -> None:
    """The CHANGE records and the queue are the CHANGE-voters of this turn's reveals, lowest number first (§6.2)."""
    expected = [entry for revealed in state.rounds for entry in _changers(state, revealed)]
    done = [(record.seat, record.card) for record in state.change_records]
    waiting = list(state.change_queue)
    if state.phase == CHANGE_EDIT:
        if not waiting:
            raise PositionError("change_queue", "is empty at a CHANGE edit; someone must be editing (§6.2)")
        if not _changers(state, state.rounds[-1]):
            raise PositionError(f"rounds[{len(state.rounds) - 1}]", "reveals no CHANGE card, so there is no CHANGE edit to make (§6.2)")
    if done + waiting != expected:
        field = "change_queue" if state.phase == CHANGE_EDIT and done == expected[: len(done)] else "change_records"
        shown = ", ".join(f"seat {seat} {card}" for seat, card in expected) or "none"
        raise PositionError(
            field,
            f"do not match the CHANGE cards revealed this turn ({shown}): every CHANGE-voter edits once, lowest number first (§6.2)",
        )
    edits = sum(1 for record in state.change_records if record.had_effect)
    if state.edits != edits:
        raise PositionError("edits", f"is {state.edits}, but {edits} of this turn's CHANGE edits changed the pitch: K counts them (§2.5)")
    finished = len(state.change_records) - (0 if state.phase != CHANGE_EDIT else len(_changers(state, state.rounds[-1])) - len(waiting))
    for index, record in enumerate(state.change_records[finished:], start=finished):
        if record.replacement is not None:
            raise PositionError(
                f"change_records[{index}].replacement", "is drawn, but replacement draws come after every edit of the round (§6.2 step 4)"
            )


def _check_vote(state: MaybeMoviesState) -> None:
    n = state.num_players
    voting = tuple(seat for seat in range(n) if state.hands[seat])
    if state.voters != voting:
        if not voting:
            raise PositionError("voters", "are empty: a vote nobody can cast is revealed at once, with no cards (R42)")
        raise PositionError(
            "voters", f"are {list(state.voters)}; every seat with cards in hand votes, and only those ({list(voting)}, §4.2, R30)"
        )
    for seat, card in enumerate(state.votes):
        if card is None:
            if seat in state.voters and len(state.hands[seat]) == 1:
                raise PositionError(
                    f"votes[{seat}]",
                    "is not chosen, but that seat holds a single card, which is voted at once (a decision with one option is taken, §4.0)",
                )
            continue
        if seat not in state.voters:
            raise PositionError(f"votes[{seat}]", "holds a vote, but that seat is not voting now")
        if card not in state.hands[seat]:
            raise PositionError(
                f"votes[{seat}]", f"{card} is not in that seat's hand (a committed vote stays there until the reveal, §4.2)"
            )
    if all(state.votes[seat] is not None for seat in state.voters):
        raise PositionError("votes", "are all chosen, so they would already have been revealed (§4.2 step 3)")


def _check_edit(state: MaybeMoviesState) -> None:
    editor = state.change_queue[0][0]
    step = state.edit_step
    if step == EDIT_START and (state.edit_removed, state.edit_added, state.edit_refills) != (None, None, ()):
        raise PositionError("edit_step", "is start, but the edit has removed or added a card already")
    if step == EDIT_ADD and (state.edit_removed is None or state.edit_added is not None or state.edit_refills):
        raise PositionError("edit_step", "is add: the edit has removed a card and not yet added one (the removal comes first, R27)")
    if step == EDIT_SLOT:
        if not state.blockbuster:
            raise PositionError("edit_step", "is slot, but without Blockbuster Budgets an added card goes at the right end (R28)")
        if state.edit_added is None:
            raise PositionError("edit_added", "is null, but the slot is chosen for the card just added (R28)")
        strays = [card for card in state.edit_refills if card not in state.personal[editor]]
        if strays:
            raise PositionError("edit_refills", f"{strays[0]} is not among the editor's personal cards, which it refilled (R31)")
    if state.edit_removed is not None and state.edit_removed in state.row:
        raise PositionError(
            "edit_removed", f"{state.edit_removed} is still in the row; a removed card goes to the discard pile at once (§6.2)"
        )


def _check_resolution(state: MaybeMoviesState) -> None:
    """After the final vote: the open choice, the evaluation and the success check are those the row and vote give."""
    phase = state.phase
    last = len(state.rounds) - 1
    if last < 0:
        raise PositionError("rounds", f"are empty at {PHASE_WORDS[phase]}; the budget is worked out on the final vote (§4.2)")
    if not _is_final(state):
        raise PositionError(f"rounds[{last}]", "reveals a CHANGE card, which starts a CHANGE round: the final vote holds none (§6.2)")
    if phase in (COST_CHOICE, PROFIT_CHOICE) and not state.blockbuster:
        raise PositionError("phase", f"is {phase}, but only blockbuster texts ask for choices (Blockbuster Budgets, §6.3)")
    point, evaluation, result = expected_resolution(state)
    if state.choice_point != point:
        raise PositionError("choice_point", f"is not the choice open now{_point_words(point)} (§6.3, R38)")
    if state.evaluation != evaluation:
        raise PositionError("evaluation", "is not what the final row and vote give (§4.3, §6.1, §6.3)")
    if state.result != result:
        raise PositionError("result", "is not the success check of the evaluation and the final vote (§4.4)")
    if phase == PROFIT_CHOICE and result is not None and not result.success:
        raise PositionError("phase", "is profit_choice, but the pitch failed: profits are worked out after a success only (§6.3)")
    if phase == MOVIE_PICK:
        assert result is not None and evaluation is not None
        if not (state.trendsetter or result.success):
            raise PositionError("phase", "is movie_pick, but the pitch failed: without Trendsetter Tricks its cards are discarded (§4.7)")
        if len(state.row) < 2:
            raise PositionError("row", "holds one card, which enters Movies Made at once (a decision with one option is taken, §4.0)")
        _check_payout(state, result, evaluation)


def _point_words(point: ChoicePoint | None) -> str:
    if point is None:
        return ": none is"
    return f": {point.kind} for {point.card} among {', '.join(map(str, point.options))}"


class _Chooser:
    """Replays the recorded choices of ``field``, refusing one that is not an option; NeedChoice once they run out."""

    def __init__(self, choices: Sequence[Any], field: str) -> None:
        self.choices = choices
        self.field = field
        self.used = 0

    def __call__(self, point: ChoicePoint) -> Any:
        if self.used == len(self.choices):
            raise NeedChoice(point)
        choice = self.choices[self.used]
        if choice not in point.options or isinstance(choice, bool):
            raise PositionError(
                f"{self.field}[{self.used}]",
                f"is {choice!r}; the {point.kind} choice for {point.card} is one of {', '.join(map(repr, point.options))} (R38)",
            )
        self.used += 1
        return choice

    def finish(self) -> None:
        if self.used != len(self.choices):
            raise PositionError(f"{self.field}[{self.used}]", f"is one choice too many: the texts of this pitch ask for {self.used} (R38)")


def expected_resolution(state: MaybeMoviesState) -> tuple[ChoicePoint | None, Evaluation | None, CheckResult | None]:
    """The open choice, the evaluation and the success check that the final row, vote and choices give (T6-T8)."""
    facts = pitch_facts(state, state.row, final_votes(state))
    costs = _Chooser(state.cost_choices, "cost_choices")
    try:
        evaluation = evaluate_costs(facts, costs)
    except NeedChoice as need:
        if state.phase != COST_CHOICE:
            raise PositionError(
                "cost_choices", f"leave the cost of {need.point.card} undecided; the check needs every cost (§6.3 C2)"
            ) from None
        return need.point, None, None
    if state.phase == COST_CHOICE:
        raise PositionError("phase", "is cost_choice, but every cost choice is made, so the check has run (§6.3 C2, R38)")
    costs.finish()
    table = state.table
    result = success_check(
        evaluation.need, evaluation.any_units, net_of([table.vote(card) for card in final_votes(state) if card is not None])
    )
    if not result.success:
        if state.profit_choices:
            raise PositionError("profit_choices", "hold choices, but the pitch failed: profits are worked out after a success only (§6.3)")
        return None, evaluation, result
    profits = _Chooser(state.profit_choices, "profit_choices")
    try:
        evaluation = evaluate_profits(facts, evaluation, profits)
    except NeedChoice as need:
        if state.phase != PROFIT_CHOICE:
            raise PositionError(
                "profit_choices", f"leave the profit of {need.point.card} undecided; the payout needs the whole profit (§6.3 P2)"
            ) from None
        return need.point, evaluation, result
    if state.phase == PROFIT_CHOICE:
        raise PositionError("phase", "is profit_choice, but every profit choice is made, so the payout has happened (§6.3 P2, R38)")
    profits.finish()
    return None, evaluation, result


def _check_payout(state: MaybeMoviesState, result: CheckResult, evaluation: Evaluation) -> None:
    """At the movie pick the final vote's cards are won or pooled, as the payout (§4.5) or the failure (§4.6) says."""
    settlement = state.settlement
    if settlement is None:
        raise PositionError("settlement", "is missing; at the movie pick the payout or failure has been settled (T8)")
    if settlement.success != result.success:
        raise PositionError("settlement.success", "does not match the success check (§4.4)")
    table = state.table
    votes = final_votes(state)
    played = [card for card in (votes[seat] for seat in vote_order(state)) if card is not None]
    if result.success:
        profit = evaluation.profit
        if settlement.profit != profit:
            raise PositionError("settlement.profit", f"is {settlement.profit}, but the pitch's profit is {profit} (§4.5)")
        assert profit is not None
        if len(settlement.collected) > max(profit, 0) or sorted(card for share in settlement.won for card in share) != sorted(
            settlement.collected
        ):
            raise PositionError(
                "settlement", f"does not share out the collected cards: P = {profit} cards at most are collected and shared (§4.5)"
            )
        strays = [card for card in played if card not in settlement.collected and card not in settlement.to_pool]
        if strays:
            raise PositionError("settlement", f"leaves {strays[0]} of the final vote neither collected nor pooled (§4.5)")
    else:
        any_yes = any(table.vote(card).kind == YES for card in played)
        shares: list[tuple[str, ...]] = [() for _ in range(state.num_players)]
        to_pool: list[str] = []
        for seat in vote_order(state):
            card = votes[seat]
            if card is None:
                continue
            if any_yes and table.vote(card).kind == NO:
                shares[seat] = (card,)
            else:
                to_pool.append(card)
        if settlement != Settlement(False, None, (), tuple(shares), tuple(to_pool), all_no=not any_yes):
            raise PositionError(
                "settlement",
                "is not the failure's: NO-voters win their own card, the rest goes to the pool, all of it if every vote was NO (§4.6, R14)",
            )
    for seat, share in enumerate(settlement.won):
        if share and list(state.won[seat][-len(share) :]) != list(share):
            raise PositionError(f"won[{seat}]", f"does not end with the cards the payout gave that seat ({', '.join(share)}, §4.5)")
    if settlement.to_pool and state.pool[-len(settlement.to_pool) :] != list(settlement.to_pool):
        raise PositionError("pool", f"does not end with the final vote's cards that went to it ({', '.join(settlement.to_pool)})")


def _check_history(state: MaybeMoviesState) -> None:
    """Every finished turn is recorded once, in order, with the seat whose turn it was."""
    n = state.num_players
    previous = 0
    for index, record in enumerate(state.history):
        if record.turn <= previous:
            raise PositionError(f"history[{index}].turn", f"is {record.turn}; the finished turns are recorded in order, once each")
        if record.turn > state.turn or (record.turn == state.turn and state.phase != OVER):
            raise PositionError(f"history[{index}].turn", f"is {record.turn}, but turn {state.turn} is not finished yet")
        if record.active != (record.turn - 1) % n:
            raise PositionError(
                f"history[{index}].active", f"is seat {record.active}, but turn {record.turn} is seat {(record.turn - 1) % n}'s (R1)"
            )
        if len(record.settlement.won) != n or any(len(revealed) != n for revealed in record.rounds):
            raise PositionError(f"history[{index}]", f"is not a {n}-player turn: its reveals and payout have one entry per seat")
        previous = record.turn


def _check_decision(state: MaybeMoviesState) -> None:
    """Whoever owes the decision has a real choice: a decision with one option is taken at once (§4.0)."""
    phase = state.phase
    if phase in (VOTE, OVER):
        return
    options = rules.sequential_actions(state)
    if len(options) >= 2:
        return
    seat = rules.actor(state)
    if phase == PITCH and not state.market and not state.row:
        raise PositionError("market", "is empty at the pitch; a turn that starts with no market card to be had ends the game (R17)")
    if phase == CHANGE_EDIT and not options:
        raise PositionError(
            "change_queue", f"gives seat {seat} an edit it cannot make; a CHANGE with no legal edit has no effect and is passed (R27)"
        )
    raise PositionError(
        "phase",
        f"is {phase}, but seat {seat} has {'one option' if options else 'no option'} there; a decision with exactly one option "
        "is taken at once (§4.0)",
    )
