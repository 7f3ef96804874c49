"""The Maybe Movies turn around the vote: movie draws (§4.8), the pitch (T1-T2) and the end of the turn (T9-T10).

Event data are written as dict displays typed by their TypedDict: calling a TypedDict like a class builds the
same dict several times slower, and every playout makes hundreds of events.
"""

from __future__ import annotations

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.games.maybe_movies import scoring, setup, vote
from greenlight.games.maybe_movies.actions import FINISH, add_card
from greenlight.games.maybe_movies.chance import shuffle
from greenlight.games.maybe_movies.events import (
    Discarded,
    GameOver,
    MarketRefilled,
    MovieMade,
    PersonalDrawn,
    PitchAdded,
    Pitched,
    Reshuffled,
    StackMade,
    TurnStarted,
)
from greenlight.games.maybe_movies.parameters import market_size
from greenlight.games.maybe_movies.state import MOVIE_PICK, OVER, PITCH, MaybeMoviesState, Stack, TurnRecord

#: Builds a named tuple from all its fields in order: what calling the class does, without its keyword handling (half
#: the cost; the rules build these records at every final vote).
_new_record = tuple.__new__


def draw_movie(state: MaybeMoviesState, events: list[Event]) -> str | None:
    """Take the first card of the draw pile; an empty pile reshuffles the discards first (R17)."""
    if not state.draw_pile:
        if not state.discard:
            return None
        state.draw_pile = state.discard
        state.discard = []
        shuffle(state.rng, state.draw_pile)
        reshuffled: Reshuffled = {"cards": len(state.draw_pile)}
        events.append(Event("reshuffled", reshuffled))
    return state.draw_pile.pop(0)


def refill_market(state: MaybeMoviesState, events: list[Event]) -> None:
    """Append cards one at a time until the market holds 6 or no card can be drawn (§4.8)."""
    market = state.market
    missing = market_size(state) - len(market)
    if missing <= 0:
        return
    pile = state.draw_pile
    if len(pile) >= missing:  # no reshuffle on the way: the first cards of the pile, at once
        drawn = pile[:missing]
        del pile[:missing]
        market.extend(drawn)
    else:
        drawn = []
        while len(market) < market_size(state):
            card = draw_movie(state, events)
            if card is None:
                break
            market.append(card)
            drawn.append(card)
    if drawn:
        refilled: MarketRefilled = {"cards": drawn}
        events.append(Event("market_refilled", refilled))


def refill_personal(state: MaybeMoviesState, seat: int, events: list[Event]) -> tuple[str, ...]:
    """Draw personal movie cards back up to 2 (R31), with the same draw rule as the market."""
    drawn: list[str] = []
    while len(state.personal[seat]) < setup.PERSONAL_SIZE:
        card = draw_movie(state, events)
        if card is None:
            break
        state.personal[seat].append(card)
        drawn.append(card)
    if drawn:
        personal: PersonalDrawn = {"seat": seat, "cards": drawn}
        events.append(Event("personal_drawn", personal))
    return tuple(drawn)


def start_turn(state: MaybeMoviesState, events: list[Event]) -> None:
    """T1: refill the market; a market still empty ends the game (R17). Then the active player pitches."""
    refill_market(state, events)
    if not state.market:
        game_over(state, events)
        return
    state.phase = PITCH
    state.row = []
    state.pitch_from = 0
    key = (state.turn, state.active)
    event = _TURN_STARTED.get(key)
    if event is None:
        started: TurnStarted = {"turn": key[0], "active": key[1]}
        event = _TURN_STARTED[key] = Event("turn_started", started)
    events.append(event)


# Events are immutable (``core.events.Event``), so those that follow from a few small values are made once per
# distinct value and shared: most events of a random playout are these.
_TURN_STARTED: dict[tuple[int, int], Event] = {}
_PITCH_ADDED: dict[tuple[int, str], Event] = {}


def pitch_actions(state: MaybeMoviesState) -> list[Action]:
    """T2 steps: add a market card, or finish once the row holds one (§4.1).

    Without Blockbuster the row is a set kept in market order (R16), so cards
    are added in market order only: every set has exactly one path.
    """
    start = 0 if state.blockbuster else state.pitch_from
    actions: list[Action] = list(map(add_card, state.market[start:]))
    if state.row:
        actions.append(FINISH)
    return actions


def pitch_option_count(state: MaybeMoviesState) -> int:
    """``len(pitch_actions(state))`` without building the actions (``rules.settle`` asks after every step)."""
    start = 0 if state.blockbuster else state.pitch_from
    return max(0, len(state.market) - start) + (1 if state.row else 0)


def add_to_pitch(state: MaybeMoviesState, card: str, events: list[Event]) -> None:
    """Move a market card to the end of the row."""
    index = state.market.index(card)
    del state.market[index]
    state.row.append(card)
    state.pitch_from = index
    key = (state.active, card)
    event = _PITCH_ADDED.get(key)
    if event is None:
        added: PitchAdded = {"seat": key[0], "card": card}
        event = _PITCH_ADDED[key] = Event("pitch_added", added)
    events.append(event)


def finish_pitch(state: MaybeMoviesState, events: list[Event]) -> None:
    """Lock the pitch (R4), refill the market (T3) and start the vote (T4)."""
    state.pitched = tuple(state.row)
    pitched: Pitched = {"seat": state.active, "row": list(state.row)}
    events.append(Event("pitched", pitched))
    refill_market(state, events)
    vote.start_vote_round(state, events)


def to_movie_pick(state: MaybeMoviesState, events: list[Event]) -> None:
    """T9: a success (or any pitch with Trendsetter) needs a MOVIE_PICK; a base failure discards the row."""
    assert state.result is not None
    if state.trendsetter or state.result.success:
        state.phase = MOVIE_PICK
        return
    state.discard.extend(state.row)
    discarded: Discarded = {"cards": list(state.row)}
    events.append(Event("discarded", discarded))
    end_turn(state, None, events)


def pick_movie(state: MaybeMoviesState, card: str, events: list[Event]) -> None:
    """Base: the card joins Movies Made and the rest is discarded in row order (R15). Trendsetter: the row becomes a stack (§6.1)."""
    assert state.result is not None
    success = state.result.success
    if state.trendsetter:
        state.made.append(_new_record(Stack, (tuple(state.row), card, success)))
        stack: StackMade = {"seat": state.active, "top": card, "cards": list(state.row), "success": success}
        events.append(Event("stack_made", stack))
    else:
        state.made.append(_new_record(Stack, ((card,), card, True)))
        rest = [other for other in state.row if other != card]
        state.discard.extend(rest)
        made: MovieMade = {"seat": state.active, "card": card, "discarded": rest}
        events.append(Event("movie_made", made))
    end_turn(state, card, events)


def end_turn(state: MaybeMoviesState, movie: str | None, events: list[Event]) -> None:
    """Record the turn; T10: the game ends when every hand is empty, else the next seat clockwise is active."""
    assert state.evaluation is not None and state.result is not None and state.settlement is not None
    state.history.append(
        TurnRecord(
            turn=state.turn,
            active=state.active,
            pitched=state.pitched,
            rounds=tuple(state.rounds),
            changes=tuple(state.change_records),
            row=tuple(state.row),
            edits=state.edits,
            cost_choices=tuple(state.cost_choices),
            profit_choices=tuple(state.profit_choices),
            evaluation=state.evaluation,
            check=state.result,
            settlement=state.settlement,
            movie=movie,
        )
    )
    state.row = []
    state.pitched = ()
    state.rounds = []
    state.change_records = []
    state.edits = 0
    state.cost_choices = []
    state.profit_choices = []
    state.evaluation = None
    state.result = None
    state.settlement = None
    state.choice_point = None
    if not any(state.hands):
        game_over(state, events)
        return
    state.active = (state.active + 1) % state.num_players
    state.turn += 1
    start_turn(state, events)


def game_over(state: MaybeMoviesState, events: list[Event]) -> None:
    """§5: the game is over; score it."""
    state.phase = OVER
    result = scoring.outcome(state)
    over: GameOver = {"scores": list(result.scores), "winners": list(result.winners)}
    events.append(Event("game_over", over))
